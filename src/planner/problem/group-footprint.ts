// The live footprint of one alias group over time: at each step, the bytes
// covered by the union of its live members' byte ranges. Depends only on
// problem types.
//
// - Each member with bytes is an interval in time and a byte range [rel, rel + size).
// - Sweep the members' starts and ends in time order; a segment tree over the
//   distinct byte boundaries keeps, per node, how many live ranges cover it
//   whole and how many bytes below it are covered.
// - After all changes at one step, the root's covered bytes is the footprint.
// O(m log m) for m members: a chain of 100k in-place ops is one group of 100k
// members, so rescanning the members at every step would be quadratic.

import type { AliasGroup } from './alias-groups';
import type { PlacementProblem } from './problem';

/** Calls `add(step, delta)` at each step where the group's live footprint changes, in step order. */
export function groupFootprintDeltas(problem: PlacementProblem, group: AliasGroup, add: (step: number, delta: number) => void): void {
  const events = footprintEvents(problem, group);
  if (events.count === 0) return;
  const tree = new CoverTree(events.bounds);
  let previous = 0;
  for (let i = 0; i < events.count; ) {
    const t = events.time[i]!;
    for (; i < events.count && events.time[i] === t; i++) tree.update(events.lo[i]!, events.hi[i]!, events.delta[i]!);
    const covered = tree.covered();
    if (covered !== previous) {
      add(t, covered - previous);
      previous = covered;
    }
  }
}

/** Starts and ends of a group's members with bytes, sorted by step; byte ranges as indices into `bounds`. */
interface FootprintEvents {
  readonly count: number;
  readonly time: Float64Array;
  readonly lo: Int32Array; // index into bounds
  readonly hi: Int32Array;
  readonly delta: Int8Array; // +1 start, -1 end
  readonly bounds: Float64Array; // distinct byte boundaries, ascending
}

function footprintEvents(problem: PlacementProblem, group: AliasGroup): FootprintEvents {
  const at: number[] = []; // member index of each event pair
  group.members.forEach((b, i) => {
    const buffer = problem.buffers[b]!;
    if (buffer.size > 0 && buffer.start < buffer.end) at.push(i);
  });
  const count = at.length * 2;
  const rawTime = new Float64Array(count);
  const rawLo = new Float64Array(count);
  const rawHi = new Float64Array(count);
  at.forEach((i, k) => {
    const buffer = problem.buffers[group.members[i]!]!;
    const lo = group.rel[i]!;
    rawTime[2 * k] = buffer.start;
    rawTime[2 * k + 1] = buffer.end;
    rawLo[2 * k] = rawLo[2 * k + 1] = lo;
    rawHi[2 * k] = rawHi[2 * k + 1] = lo + buffer.size;
  });
  const bounds = Float64Array.from(new Set([...rawLo, ...rawHi])).sort();
  const index = new Map<number, number>();
  bounds.forEach((v, k) => index.set(v, k));
  const order = new Int32Array(count).map((_, k) => k).sort((a, b) => rawTime[a]! - rawTime[b]!);
  const time = new Float64Array(count);
  const lo = new Int32Array(count);
  const hi = new Int32Array(count);
  const delta = new Int8Array(count);
  order.forEach((k, j) => {
    time[j] = rawTime[k]!;
    lo[j] = index.get(rawLo[k]!)!;
    hi[j] = index.get(rawHi[k]!)!;
    delta[j] = k & 1 ? -1 : 1;
  });
  return { count, time, lo, hi, delta, bounds };
}

/** Cover counts over the elementary byte intervals between sorted boundaries. */
class CoverTree {
  private readonly cover: Int32Array; // ranges covering a node's whole span (not pushed down)
  private readonly bytes: Float64Array; // bytes covered within a node's span
  private readonly leaves: number;

  constructor(private readonly bounds: Float64Array) {
    this.leaves = Math.max(1, bounds.length - 1);
    this.cover = new Int32Array(4 * this.leaves);
    this.bytes = new Float64Array(4 * this.leaves);
  }

  /** Adds (`delta` 1) or removes (-1) the range between boundaries `lo` and `hi` (indices). */
  update(lo: number, hi: number, delta: number): void {
    if (lo < hi) this.apply(1, 0, this.leaves, lo, hi, delta);
  }

  /** Bytes covered by at least one range. */
  covered(): number {
    return this.bytes[1]!;
  }

  private apply(node: number, from: number, to: number, lo: number, hi: number, delta: number): void {
    if (hi <= from || to <= lo) return;
    if (lo <= from && to <= hi) {
      this.cover[node]! += delta;
    } else {
      const mid = (from + to) >> 1;
      this.apply(2 * node, from, mid, lo, hi, delta);
      this.apply(2 * node + 1, mid, to, lo, hi, delta);
    }
    if (this.cover[node]! > 0) this.bytes[node] = this.bounds[to]! - this.bounds[from]!;
    else if (to - from === 1) this.bytes[node] = 0;
    else this.bytes[node] = this.bytes[2 * node]! + this.bytes[2 * node + 1]!;
  }
}
