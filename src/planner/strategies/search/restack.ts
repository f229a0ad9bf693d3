// Re-stacking, the large-neighbourhood step of best's exact stage: keeps the
// lower part of a span's plan and asks MiniMalloc's search
// (minimalloc-search.ts) to stack the rest again below the peak. Depends only
// on the planner engine.
//
// - The neighbourhood, closed upwards (no kept item rests above one that
//   moves, so the kept items are a floor and each moving item may go no
//   lower than the highest kept top live with it). Half of the time, a
//   layer: the about `free` items whose tops are highest in the span (and
//   every item whose top ties the last one). Otherwise a column: at a step
//   where the plan reaches its peak, the `free` highest items live there,
//   then every item resting above one of them, and so on. Layers lower
//   plans that are already good; columns reach deeper into a tall stack.
// - A success may leave the peak where it was, made elsewhere: the items
//   moved all end below the target, so that stack is lower, and the next
//   rounds take on the others.
// - Either way up: with `flip`, the plan is read upside down (an item's
//   offset taken from the peak down), so the items resting lowest move
//   instead; the result is turned back.
// - The search is exact on the neighbourhood: a placement below the target
//   is a plan no higher; an exhausted search proves that these items cannot be
//   stacked lower on this floor (the caller takes more next time); a search
//   cut short says to take fewer.

import type { PreparedRegion } from '../../engine/prepared';
import { countWork } from '../../engine/work-clock';
import { MINIMALLOC_PREFERENCES, minimallocSearch } from './minimalloc-search';

/** How often the neighbourhood is the highest layer of the whole span rather than a column. */
const LAYER_SHARE = 0.5;

/** What one re-stacking did. */
export interface RestackOutcome {
  readonly peak: number | undefined; // the plan's peak, when the neighbourhood was placed below the target (`offsets` then holds the plan)
  readonly exhausted: boolean; // no placement of the neighbourhood lies below the target
  readonly whole: boolean; // every item moved (no floor): exhausted then proves that no plan of `items` lies below the target
  readonly nodes: number;
}

/**
 * Re-stacks a neighbourhood of about `free` items of `items` (of the plan
 * `offsets`, which peaks at `peak`) below `target`, in place; `random`
 * picks which way up, layer or column, the order of preference and its
 * near ties.
 */
export function restackTop(
  prep: PreparedRegion,
  offsets: Float64Array,
  items: readonly number[],
  peak: number,
  target: number,
  free: number,
  nodeLimit: number,
  stop: () => boolean,
  random: () => number,
): RestackOutcome {
  const { itemExtent: size, itemStart: start, itemEnd: end } = prep;
  const flip = random() < 0.5;
  const low = (i: number) => (flip ? peak - offsets[i]! - size[i]! : offsets[i]!);
  const top = (i: number) => low(i) + size[i]!;
  const moving = neighbourhood(items, free, low, top, start, end, random);
  const chosen = new Set(moving);
  const kept = items.filter((i) => !chosen.has(i));
  countWork(19 * (items.length * Math.log2(items.length + 1) + moving.length * kept.length));
  const floors = Float64Array.from(moving, (k) => {
    let floor = 0;
    for (const j of kept) if (start[j]! < end[k]! && start[k]! < end[j]!) floor = Math.max(floor, top(j));
    return floor;
  });
  const preference = Math.floor(random() * MINIMALLOC_PREFERENCES);
  const outcome = minimallocSearch(prep, moving, target, nodeLimit, stop, preference, random, floors);
  const whole = moving.length === items.length;
  if (outcome.offsets === undefined) return { peak: undefined, exhausted: outcome.exhausted, whole, nodes: outcome.nodes };
  const found = outcome.offsets;
  const at = Float64Array.from(items, (i) => (chosen.has(i) ? found[i]! : low(i))); // this way up
  let newPeak = 0;
  items.forEach((i, x) => (newPeak = Math.max(newPeak, at[x]! + size[i]!)));
  items.forEach((i, x) => (offsets[i] = flip ? newPeak - at[x]! - size[i]! : at[x]!));
  return { peak: newPeak, exhausted: false, whole, nodes: outcome.nodes };
}

/** The items that move, a layer or a column (see the module header). */
function neighbourhood(items: readonly number[], free: number, low: (i: number) => number, top: (i: number) => number, start: Float64Array, end: Float64Array, random: () => number): number[] {
  const count = Math.max(1, Math.round(free));
  if (random() < LAYER_SHARE) {
    const order = items.slice().sort((a, b) => top(b) - top(a) || a - b);
    let cut = Math.min(order.length, count);
    const level = top(order[cut - 1]!);
    while (cut < order.length && top(order[cut]!) >= level) cut++;
    return order.slice(0, cut);
  }
  let highest = -Infinity;
  for (const i of items) highest = Math.max(highest, top(i));
  const peakers = items.filter((i) => top(i) === highest);
  const seed = peakers[Math.floor(random() * peakers.length)]!;
  const step = start[seed]! + Math.floor(random() * (end[seed]! - start[seed]!));
  const column = items.filter((i) => start[i]! <= step && step < end[i]!).sort((a, b) => top(b) - top(a) || a - b);
  const moving = column.slice(0, count);
  const chosen = new Set(moving);
  for (let x = 0; x < moving.length; x++) {
    const f = moving[x]!;
    for (const g of items) {
      if (chosen.has(g) || start[g]! >= end[f]! || start[f]! >= end[g]! || low(g) < top(f)) continue;
      chosen.add(g);
      moving.push(g);
    }
  }
  return moving;
}
