// The bytes a set of items holds over time: one level per distinct step where
// one of them starts or ends. Depends only on the engine's prepared form.

import type { PreparedRegion } from './prepared';

/**
 * The bytes of `items` live from each distinct start or end step on, in
 * step order (the last is 0). Every step any item covers has one of these
 * levels.
 */
export function liveLevels(prep: PreparedRegion, items: readonly number[]): number[] {
  const events = items.flatMap((i) => [
    [prep.itemStart[i]!, prep.itemExtent[i]!],
    [prep.itemEnd[i]!, -prep.itemExtent[i]!],
  ]);
  events.sort((a, b) => a[0]! - b[0]!);
  const levels: number[] = [];
  let live = 0;
  for (let e = 0; e < events.length; e++) {
    live += events[e]![1]!;
    if (e === events.length - 1 || events[e + 1]![0] !== events[e]![0]) levels.push(live);
  }
  return levels;
}
