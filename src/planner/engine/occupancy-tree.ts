// Which bytes the placed rectangles of a region hold over a step range, as
// merged address intervals, without looking at each rectangle: the structure
// behind the greedy passes at scale. Insert-only (a pass never unplaces);
// depends only on the engine's prepared form.
//
// - A segment tree over the region's steps (compressed to the distinct start
//   and end steps). A placed rectangle is stored at the O(log T) nodes whose
//   step range its lifetime covers and is the largest such ("cover"), and in
//   every node on the way down to them ("sub": what is placed anywhere under it).
// - Each node keeps its rectangles only as the union of their address ranges:
//   sorted disjoint intervals, touching ones merged. In a packing that reuses
//   memory well, a union has few pieces however many rectangles make it.
// - The bytes held somewhere in a step range [s, e) are the union of `sub` of
//   the nodes inside it and `cover` of the nodes it cuts: O(log T) unions.
// - Every later question of a greedy pass (first fit, best fit, above all)
//   depends only on that union, so the placer's answers are the same as when
//   it walks the rectangles one by one.

import { countBelow } from '../../shared/sorted-search';
import type { PreparedRegion } from './prepared';

/** Address intervals of one node: [a0, b0, a1, b1, ...], ascending, disjoint and not touching. */
type Union = number[];

/** Placed address ranges of one region by step range, merged per tree node. */
export class OccupancyTree {
  private readonly leaves: number; // a power of two >= the elementary step ranges
  private readonly rectFrom: Int32Array; // rect -> first leaf of its lifetime
  private readonly rectTo: Int32Array; // rect -> leaf after the last one
  private readonly cover: (Union | undefined)[];
  private readonly sub: (Union | undefined)[];
  private readonly stack: Int32Array;
  private readonly found: Union[] = [];

  /**
   * Whether the tree answers like the rectangle walk on `prep`: lifetimes
   * are not empty and every size, relative offset, fixed base and alignment
   * is an integer (the merge of touching ranges assumes whole bytes).
   */
  static applies(prep: PreparedRegion): boolean {
    for (let r = 0; r < prep.rectCount; r++) {
      if (!(prep.rectEnd[r]! > prep.rectStart[r]!) || !Number.isInteger(prep.rectSize[r]!) || !Number.isInteger(prep.rectRel[r]!)) return false;
    }
    for (let i = 0; i < prep.itemCount; i++) {
      const fixed = prep.itemFixed[i]!;
      if (!Number.isInteger(prep.itemModulus[i]!) || !Number.isInteger(prep.itemPhase[i]!) || !(Number.isNaN(fixed) || Number.isInteger(fixed))) return false;
    }
    return true;
  }

  constructor(prep: PreparedRegion) {
    ({ leaves: this.leaves, rectFrom: this.rectFrom, rectTo: this.rectTo } = leavesOf(prep));
    this.cover = new Array<Union | undefined>(2 * this.leaves).fill(undefined);
    this.sub = new Array<Union | undefined>(2 * this.leaves).fill(undefined);
    this.stack = new Int32Array(3 * 2 * 64);
  }

  /** Forgets every placed range. */
  clear(): void {
    this.cover.fill(undefined);
    this.sub.fill(undefined);
  }

  /** Records that bytes [a, b) are held over rectangle `r`'s lifetime. */
  insert(r: number, a: number, b: number): void {
    if (!(b > a)) return;
    const from = this.rectFrom[r]!;
    const to = this.rectTo[r]!;
    const { stack, cover, sub } = this;
    let top = 0;
    stack[top++] = 1;
    stack[top++] = 0;
    stack[top++] = this.leaves;
    while (top > 0) {
      const hi = stack[--top]!;
      const lo = stack[--top]!;
      const node = stack[--top]!;
      sub[node] = addRange(sub[node], a, b);
      if (from <= lo && hi <= to) {
        cover[node] = addRange(cover[node], a, b);
        continue;
      }
      const mid = (lo + hi) >>> 1;
      if (from < mid) {
        stack[top++] = 2 * node;
        stack[top++] = lo;
        stack[top++] = mid;
      }
      if (to > mid) {
        stack[top++] = 2 * node + 1;
        stack[top++] = mid;
        stack[top++] = hi;
      }
    }
  }

  /**
   * The unions whose pieces together are the bytes held somewhere in
   * rectangle `r`'s lifetime (they may overlap one another); returns how
   * many, in `unions()[0 .. count - 1]`. The next call reuses the list.
   */
  collect(r: number): number {
    const from = this.rectFrom[r]!;
    const to = this.rectTo[r]!;
    const { stack, cover, sub, found } = this;
    let count = 0;
    let top = 0;
    stack[top++] = 1;
    stack[top++] = 0;
    stack[top++] = this.leaves;
    while (top > 0) {
      const hi = stack[--top]!;
      const lo = stack[--top]!;
      const node = stack[--top]!;
      if (from <= lo && hi <= to) {
        const inside = sub[node];
        if (inside !== undefined) found[count++] = inside;
        continue;
      }
      const whole = cover[node];
      if (whole !== undefined) found[count++] = whole;
      const below = sub[node];
      if (below === undefined) continue; // nothing placed under it
      const mid = (lo + hi) >>> 1;
      if (from < mid) {
        stack[top++] = 2 * node;
        stack[top++] = lo;
        stack[top++] = mid;
      }
      if (to > mid) {
        stack[top++] = 2 * node + 1;
        stack[top++] = mid;
        stack[top++] = hi;
      }
    }
    return count;
  }

  /** The list `collect` fills. */
  unions(): readonly Union[] {
    return this.found;
  }
}

interface Leaves {
  readonly leaves: number;
  readonly rectFrom: Int32Array;
  readonly rectTo: Int32Array;
}

const leavesCache = new WeakMap<PreparedRegion, Leaves>();

/** The region's steps compressed to elementary step ranges (the tree's leaves), and each rectangle's leaves; computed once per region. */
function leavesOf(prep: PreparedRegion): Leaves {
  const known = leavesCache.get(prep);
  if (known !== undefined) return known;
  const n = prep.rectCount;
  const all = new Float64Array(2 * n);
  all.set(prep.rectStart);
  all.set(prep.rectEnd, n);
  all.sort();
  let distinct = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[distinct++] = all[i]!;
  const steps = all.subarray(0, distinct);
  let leaves = 1;
  while (leaves < distinct - 1) leaves *= 2;
  const result = { leaves, rectFrom: new Int32Array(n), rectTo: new Int32Array(n) };
  for (let r = 0; r < n; r++) {
    result.rectFrom[r] = countBelow(steps, prep.rectStart[r]!);
    result.rectTo[r] = countBelow(steps, prep.rectEnd[r]!);
  }
  leavesCache.set(prep, result);
  return result;
}

/** `union` with [a, b) added (a new union when `union` is undefined). */
function addRange(union: Union | undefined, a: number, b: number): Union {
  if (union === undefined) return [a, b];
  const pieces = union.length >>> 1;
  // the first piece that ends at or after a: it and the ones after it that start at or before b merge with [a, b)
  let first = 0;
  let last = pieces;
  while (first < last) {
    const mid = (first + last) >>> 1;
    if (union[2 * mid + 1]! < a) first = mid + 1;
    else last = mid;
  }
  if (first === pieces) {
    union.push(a, b);
    return union;
  }
  if (union[2 * first]! <= a && b <= union[2 * first + 1]!) return union; // already held
  let end = first;
  while (end < pieces && union[2 * end]! <= b) end++;
  if (end === first) {
    // a new piece before `first`: shift the tail up by one piece (no splice: it allocates)
    union.push(0, 0);
    union.copyWithin(2 * first + 2, 2 * first, union.length - 2);
    union[2 * first] = a;
    union[2 * first + 1] = b;
    return union;
  }
  // pieces first .. end - 1 merge into one: keep it at `first`, close the gap after it
  union[2 * first] = Math.min(a, union[2 * first]!);
  union[2 * first + 1] = Math.max(b, union[2 * end - 1]!);
  if (end > first + 1) {
    union.copyWithin(2 * first + 2, 2 * end);
    union.length -= 2 * (end - first - 1);
  }
  return union;
}
