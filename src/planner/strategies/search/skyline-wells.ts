// Where the skyline search (skyline-search.ts) branches, and where its state
// falls apart into independent parts. Depends only on skyline-edges.ts.
//
// - A well is a run of sections at one floor whose neighbours are higher, or
//   walls no unplaced buffer of the window reaches. A buffer resting on the
//   well's floor cannot leave the well, so the byte right above the floor of
//   its first section is covered, if at all, by a buffer starting there, and
//   that of its last section by one ending there.
// - Where such a section has no slack (floor + unplaced bytes = target), that
//   byte must be covered: the search branches over the buffers that can,
//   with no branch that leaves it empty. Of all these well ends it takes the
//   one with the fewest buffers, so a forced move (one buffer) is made at
//   once and a dead end (none) is seen at once, wherever it is in time.
// - Of the buffers that can cover a well end, those whose top meets a
//   neighbour's floor (or the target) are tried first: they leave no new
//   step in the skyline, which is how a packing with no waste looks; half
//   the search's orders then prefer those spanning the whole well. Only the
//   order changes, so the search stays exhaustive.
// - Parts: sections where nothing remains to be placed, and boundaries no
//   unplaced buffer crosses, split the window into parts that share no
//   buffer; each part is solved on its own, and one that cannot be solved
//   fails the whole state, whatever the others do.

import type { EdgeIndex, SkylineState } from './skyline-edges';

/** The state the well and part searches read. */
export interface PartState extends SkylineState {
  readonly crossing: Int32Array; // per boundary s | s + 1: unplaced buffers live on both sides
}

/** One end of a tight well: the buffers that can cover it start at `a` (left) or end at `b` (right). */
export interface WellEnd {
  readonly a: number;
  readonly b: number;
  readonly left: boolean;
  readonly count: number;
}

/**
 * The tight well end in [lo, hi) with the fewest buffers that `allowed` lets
 * rest on its floor, or undefined when no well end is tight.
 */
export function tightestWellEnd(state: PartState, index: EdgeIndex, lo: number, hi: number, allowed: (k: number, level: number) => boolean): WellEnd | undefined {
  const { floor, liveCount, remaining, target } = state;
  let best: WellEnd | undefined;
  for (let a = lo; a < hi; ) {
    if (liveCount[a] === 0) {
      a++;
      continue;
    }
    const f = floor[a]!;
    let b = a + 1;
    while (b < hi && liveCount[b]! > 0 && floor[b] === f) b++;
    const leftWall = a === lo || liveCount[a - 1] === 0 || floor[a - 1]! > f;
    const rightWall = b === hi || liveCount[b] === 0 || floor[b]! > f;
    if (leftWall && rightWall) {
      if (f + remaining[a]! >= target) {
        const count = coverers(state, index, a, b, true, allowed);
        if (best === undefined || count < best.count) best = { a, b, left: true, count };
      }
      if (b - 1 !== a && f + remaining[b - 1]! >= target) {
        const count = coverers(state, index, a, b, false, allowed);
        if (best === undefined || count < best.count) best = { a, b, left: false, count };
      }
      if (best !== undefined && best.count <= 1) return best;
    }
    a = b;
  }
  return best;
}

/** The unplaced buffers that can cover the well end, in the order the search tries them. */
export function wellCoverers(state: PartState, index: EdgeIndex, end: WellEnd, allowed: (k: number, level: number) => boolean, bySize: boolean, wholeFirst: boolean): number[] {
  const { a, b, left } = end;
  const level = state.floor[a]!;
  const result: number[] = [];
  for (const k of left ? index.startingAt[a]! : index.endingAt[b]!) {
    if (left ? state.to[k]! > b : state.from[k]! < a) break;
    if (state.placed[k] === 0 && allowed(k, level)) result.push(k);
  }
  if (bySize) result.sort((x, y) => state.size[y]! - state.size[x]!);
  // a buffer whose top meets a neighbour's floor, or the target, leaves no new step in the skyline: try those first
  const leftFloor = a > 0 && state.liveCount[a - 1]! > 0 ? state.floor[a - 1]! : NaN;
  const rightFloor = b < state.floor.length && state.liveCount[b]! > 0 ? state.floor[b]! : NaN;
  const flush = (k: number) => {
    const top = level + state.size[k]!;
    return top === leftFloor || top === rightFloor || top === state.target;
  };
  const whole = (k: number) => state.from[k] === a && state.to[k] === b;
  const score = (k: number) => (flush(k) ? 2 : 0) + (wholeFirst && whole(k) ? 1 : 0);
  return result.map((k, i) => [score(k), i, k] as const).sort((x, y) => y[0] - x[0] || x[1] - y[1]).map(([, , k]) => k);
}

function coverers(state: PartState, index: EdgeIndex, a: number, b: number, left: boolean, allowed: (k: number, level: number) => boolean): number {
  const level = state.floor[a]!;
  let count = 0;
  for (const k of left ? index.startingAt[a]! : index.endingAt[b]!) {
    if (left ? state.to[k]! > b : state.from[k]! < a) break;
    if (state.placed[k] === 0 && allowed(k, level)) count++;
  }
  return count;
}

/** The parts of [lo, hi) that share no unplaced buffer, as [first, end) section pairs; sections with nothing left belong to none. */
export function windowParts(state: PartState, lo: number, hi: number): [number, number][] {
  const { liveCount, crossing } = state;
  const parts: [number, number][] = [];
  for (let s = lo; s < hi; ) {
    if (liveCount[s] === 0) {
      s++;
      continue;
    }
    let e = s + 1;
    while (e < hi && crossing[e - 1]! > 0) e++;
    parts.push([s, e]);
    s = e;
  }
  return parts;
}
