// A second exact search beside the skyline search: MiniMalloc's branching
// (Moffitt, ASPLOS 2023) over buffers at their lowest possible offsets; finds
// a placement below a given peak or proves that none exists. Depends only on
// the planner engine.
//
// - State: the buffers placed so far; each unplaced buffer has a minimum
//   offset, the highest top of the placed buffers live with it (where it
//   would go if placed now).
// - Canonical solutions: of the placements below the target, take one whose
//   offsets sum least and list its buffers by (offset, rank). Each buffer,
//   when its turn comes, sits exactly at its minimum offset; and no buffer
//   still to place could fit entirely below the offset being placed (it
//   would drop there, lowering the sum). So the search places buffers at
//   their minimum offsets, offsets never decrease along a path (ties in
//   rank order), and a buffer is tried only below the lowest top any
//   unplaced buffer could reach. A state where some unplaced buffer's
//   lowest top is at or below the offset last placed is dead.
// - Ranks: one of four orders of preference (earliest start, longest
//   lifetime, most area or largest first), then id; candidates are tried
//   by minimum offset, then rank. Of identical buffers (same size and
//   lifetime) the lower rank goes first.
// - Cross-section inference: time is cut into sections at every start and
//   end; in each, the buffers still to place there stack above the highest
//   top placed there, the lowest of their minimum offsets and the offset
//   last placed, and must stay below the target.
// - Every canonical solution stays reachable, so an exhausted search is a
//   proof. Independent time spans are split by the caller (exact-plan.ts).
// - A failed search hands back the placement of its path that placed the
//   most area, for the caller to complete on top.
// - Handles items of one rectangle with alignment 1 and no fixed offset
//   (where `skylineApplies`); deterministic under node caps.

import type { PreparedRegion } from '../engine/prepared';
import type { SkylineOutcome } from './skyline-search';

/** Items in one search at most: the buffers live together are listed pairwise. */
export const MINIMALLOC_MAX_ITEMS = 3_000;

type Preference = (a: number, b: number, start: readonly number[], len: (k: number) => number, size: Float64Array) => number;

/** Orders of preference among items at one minimum offset: earliest start, longest lifetime, most area, largest. */
const PREFERENCES: readonly Preference[] = [
  (a, b, start, len) => start[a]! - start[b]! || len(b) - len(a),
  (a, b, start, len, size) => len(b) - len(a) || size[b]! - size[a]! || start[a]! - start[b]!,
  (a, b, start, len, size) => size[b]! * len(b) - size[a]! * len(a) || start[a]! - start[b]!,
  (a, b, start, len, size) => size[b]! - size[a]! || len(b) - len(a) || start[a]! - start[b]!,
];

/** How many orders of preference `minimallocSearch` takes. */
export const MINIMALLOC_PREFERENCES = PREFERENCES.length;

/**
 * Searches for a placement of `items` whose peak is at most `target`; stops
 * after `nodeLimit` nodes or when `stop()` says so (checked every 1,024 nodes).
 */
export function minimallocSearch(
  prep: PreparedRegion,
  items: readonly number[],
  target: number,
  nodeLimit: number,
  stop: () => boolean,
  preference = 0, // which of the MINIMALLOC_PREFERENCES orders ranks the items
): SkylineOutcome {
  const search = new MiniMalloc(prep, items, target, nodeLimit, stop, preference);
  const found = search.run();
  const offsets = new Float64Array(prep.itemCount).fill(NaN);
  if (found) {
    for (let k = 0; k < search.n; k++) offsets[items[k]!] = search.offset[k]!;
    let peak = 0;
    for (let k = 0; k < search.n; k++) peak = Math.max(peak, search.offset[k]! + search.size[k]!);
    return { offsets, peak, exhausted: true, nodes: search.nodes, partial: undefined };
  }
  let partial: Float64Array | undefined;
  if (search.deepestArea > 0) {
    partial = offsets;
    for (let k = 0; k < search.n; k++) offsets[items[k]!] = search.deepest[k]!;
  }
  return { offsets: undefined, peak: target, exhausted: !search.stopped, nodes: search.nodes, partial };
}

class MiniMalloc {
  readonly n: number;
  readonly size: Float64Array; // per local item, bytes
  private readonly from: Int32Array; // first section
  private readonly to: Int32Array; // past the last section
  private readonly rank: Int32Array; // place in the preference order
  private readonly twin: Int32Array; // the identical item of the next lower rank, or -1
  private readonly live: Int32Array[]; // per item: the items live with it
  readonly offset: Float64Array; // NaN while unplaced
  private readonly minOffset: Float64Array; // highest top of the placed items live with it
  private readonly top: Float64Array; // per section: highest top placed there
  private readonly remaining: Float64Array; // per section: bytes still to place there
  private readonly floor: Float64Array; // per section: scratch for the lowest minimum offset of the unplaced items there
  private readonly undo: number[] = []; // (item, old minimum offset) pairs
  readonly deepest: Float64Array; // offsets of the path that placed the most area (NaN: unplaced)
  deepestArea = 0;
  private area = 0;
  nodes = 0;
  stopped = false;

  constructor(
    prep: PreparedRegion,
    items: readonly number[],
    private readonly target: number,
    private readonly nodeLimit: number,
    private readonly stop: () => boolean,
    preference: number,
  ) {
    const n = (this.n = items.length);
    const start = items.map((i) => prep.itemStart[i]!);
    const end = items.map((i) => prep.itemEnd[i]!);
    this.size = Float64Array.from(items, (i) => prep.itemExtent[i]!);
    const cuts = [...new Set([...start, ...end])].sort((a, b) => a - b);
    const section = new Map(cuts.map((c, s) => [c, s]));
    this.from = Int32Array.from(start, (t) => section.get(t)!);
    this.to = Int32Array.from(end, (t) => section.get(t)!);
    const len = (k: number) => end[k]! - start[k]!;
    const prefer = PREFERENCES[preference]!;
    const order = [...Array(n).keys()].sort((x, y) => prefer(x, y, start, len, this.size) || items[x]! - items[y]!);
    this.rank = new Int32Array(n);
    order.forEach((k, r) => (this.rank[k] = r));
    this.twin = new Int32Array(n).fill(-1);
    for (let r = 1; r < n; r++) {
      const [a, b] = [order[r - 1]!, order[r]!];
      if (start[a] === start[b] && end[a] === end[b] && this.size[a] === this.size[b]) this.twin[b] = a;
    }
    this.live = liveLists(start, end);
    this.offset = new Float64Array(n).fill(NaN);
    this.minOffset = new Float64Array(n);
    this.deepest = new Float64Array(n).fill(NaN);
    this.top = new Float64Array(cuts.length);
    this.remaining = new Float64Array(cuts.length);
    this.floor = new Float64Array(cuts.length);
    for (let k = 0; k < n; k++) for (let s = this.from[k]!; s < this.to[k]!; s++) this.remaining[s]! += this.size[k]!;
  }

  run(): boolean {
    for (let s = 0; s < this.remaining.length; s++) if (this.remaining[s]! > this.target) return false;
    return this.descend(0, -1, this.n);
  }

  /**
   * How it works: see the module header. `last` and `lastRank` are the
   * offset and rank of the item placed last; `left` counts unplaced items.
   * Returns true once every item is placed, offsets in `offset`.
   */
  private descend(last: number, lastRank: number, left: number): boolean {
    if (left === 0) return true;
    if ((++this.nodes & 1023) === 0 && this.stop()) this.stopped = true;
    if (this.nodes > this.nodeLimit) this.stopped = true;
    if (this.stopped) return false;
    if (!this.sectionsFit(last)) return false;
    const candidates = this.candidates(last, lastRank);
    if (candidates === undefined) return false;
    for (const k of candidates) {
      const at = this.minOffset[k]!;
      if (!this.place(k, at)) {
        this.unplace(k);
        continue;
      }
      if (this.descend(at, this.rank[k]!, left - 1)) return true;
      this.unplace(k);
      if (this.stopped) return false;
    }
    return false;
  }

  /**
   * Cross-section inference: in every section, the unplaced items live there
   * stack above the lowest of their minimum offsets and above `last`.
   */
  private sectionsFit(last: number): boolean {
    const { floor, remaining, offset, minOffset, target } = this;
    floor.fill(Infinity);
    for (let k = 0; k < this.n; k++) {
      if (!Number.isNaN(offset[k]!)) continue;
      const at = minOffset[k]!;
      for (let s = this.from[k]!; s < this.to[k]!; s++) if (at < floor[s]!) floor[s] = at;
    }
    for (let s = 0; s < remaining.length; s++) if (remaining[s]! > 0 && Math.max(floor[s]!, last) + remaining[s]! > target) return false;
    return true;
  }

  /** The items that may go next, in the order to try them; undefined when the state is dead. */
  private candidates(last: number, lastRank: number): number[] | undefined {
    const { n, offset, minOffset, size, rank, target, twin } = this;
    let lowestTop = Infinity;
    for (let k = 0; k < n; k++) {
      if (!Number.isNaN(offset[k]!)) continue;
      const reach = minOffset[k]! + size[k]!;
      if (reach <= last || reach > target) return undefined;
      lowestTop = Math.min(lowestTop, reach);
    }
    const chosen: number[] = [];
    for (let k = 0; k < n; k++) {
      if (!Number.isNaN(offset[k]!)) continue;
      const at = minOffset[k]!;
      if (at < last || at >= lowestTop || (at === last && rank[k]! < lastRank)) continue;
      if (twin[k]! >= 0 && Number.isNaN(offset[twin[k]!]!)) continue;
      chosen.push(k);
    }
    return chosen.sort((a, b) => minOffset[a]! - minOffset[b]! || rank[a]! - rank[b]!);
  }

  /** Places k at `at`, raising the minimum offsets live with it; false when a section it spans overflows (undo with `unplace`). */
  private place(k: number, at: number): boolean {
    const { size, top, remaining, minOffset, offset, undo } = this;
    const height = at + size[k]!;
    offset[k] = at;
    this.area += size[k]! * (this.to[k]! - this.from[k]!);
    undo.push(-1);
    for (const j of this.live[k]!) {
      if (!Number.isNaN(offset[j]!) || minOffset[j]! >= height) continue;
      undo.push(j, minOffset[j]!);
      minOffset[j] = height;
    }
    let fits = true;
    for (let s = this.from[k]!; s < this.to[k]!; s++) {
      undo.push(s, top[s]!);
      remaining[s]! -= size[k]!;
      top[s] = height;
      if (height + remaining[s]! > this.target) fits = false;
    }
    if (fits && this.area > this.deepestArea) this.recordDeepest();
    return fits;
  }

  private unplace(k: number): void {
    const { size, top, remaining, minOffset, offset, undo } = this;
    for (let s = this.to[k]! - 1; s >= this.from[k]!; s--) {
      top[s] = undo.pop()!;
      undo.pop();
      remaining[s]! += size[k]!;
    }
    for (;;) {
      const old = undo.pop()!;
      if (old === -1) break;
      minOffset[undo.pop()!] = old;
    }
    this.area -= size[k]! * (this.to[k]! - this.from[k]!);
    offset[k] = NaN;
  }

  private recordDeepest(): void {
    this.deepestArea = this.area;
    this.deepest.set(this.offset);
  }
}

/** For each item, the items whose lifetimes overlap its own (half-open). */
function liveLists(start: readonly number[], end: readonly number[]): Int32Array[] {
  const n = start.length;
  const byStart = [...Array(n).keys()].sort((a, b) => start[a]! - start[b]!);
  const lists: number[][] = Array.from({ length: n }, () => []);
  for (let x = 0; x < n; x++) {
    const a = byStart[x]!;
    for (let y = x + 1; y < n && start[byStart[y]!]! < end[a]!; y++) {
      const b = byStart[y]!;
      if (start[b]! < end[b]!) {
        lists[a]!.push(b);
        lists[b]!.push(a);
      }
    }
  }
  return lists.map((l) => Int32Array.from(l));
}
