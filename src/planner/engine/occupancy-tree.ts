// Which bytes the placed rectangles of a region hold over a step range, as
// merged address intervals, without looking at each rectangle: the structure
// behind the greedy passes at scale. Insert-only (a pass never unplaces);
// depends only on the engine's prepared form.
//
// - A segment tree over the region's steps (compressed to the distinct start
//   and end steps). A placed rectangle is stored in `cover` of the O(log T)
//   nodes whose step range its lifetime covers and is the largest such, and
//   in `starts` of every node that holds its first leaf.
// - Each node keeps its rectangles only as the union of their address ranges:
//   sorted disjoint intervals, touching ones merged. In a packing that reuses
//   memory well, a union has few pieces however many rectangles make it.
//   Most nodes hold one piece, kept in typed arrays; a list is allocated only
//   for a second (a pass would otherwise make a million small arrays).
// - A rectangle meets the step range [s, e) when it is live at s or starts
//   after s and before e. The first are `cover` of the nodes on the path to
//   s's leaf, the second `starts` of the nodes that make up the leaves after
//   it: O(log T) unions, each rectangle in one of them only (a rectangle
//   crossing the boundary between two nodes would otherwise be read twice).
// - Every later question of a greedy pass (first fit, best fit, above all)
//   depends only on that union, so the placer's answers are the same as when
//   it walks the rectangles one by one.

import { countBelow } from '../../shared/sorted-search';
import type { PreparedRegion } from './prepared';

/** Address intervals of one node: [a0, b0, a1, b1, ...], ascending, disjoint and not touching. */
type Union = number[];

/** Most pieces one query can meet outside lists: one per node it visits. */
const MAX_SOLOS = 4 * 64;

/** Placed address ranges of one region by step range, merged per tree node. */
export class OccupancyTree {
  private readonly leaves: number; // a power of two >= the elementary step ranges
  private readonly rectFrom: Int32Array; // rect -> first leaf of its lifetime
  private readonly rectTo: Int32Array; // rect -> leaf after the last one
  private readonly cover: NodeUnions;
  private readonly starts: NodeUnions;
  private readonly nodes = new Int32Array(2 * 64); // the canonical nodes of a leaf range
  private readonly found: Union[] = [];
  /** Single pieces met by the last `collect`: [soloFrom[k], soloTo[k]) for k < soloCount. */
  readonly soloFrom = new Float64Array(MAX_SOLOS);
  readonly soloTo = new Float64Array(MAX_SOLOS);
  soloCount = 0;
  private listCount = 0;

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
    this.cover = new NodeUnions(2 * this.leaves);
    this.starts = new NodeUnions(2 * this.leaves);
  }

  /** Forgets every placed range. */
  clear(): void {
    this.cover.clear();
    this.starts.clear();
  }

  /** Records that bytes [a, b) are held over rectangle `r`'s lifetime. */
  insert(r: number, a: number, b: number): void {
    if (!(b > a)) return;
    const from = this.rectFrom[r]!;
    const to = this.rectTo[r]!;
    const { cover, starts } = this;
    // in `starts` of every node whose leaves hold the rectangle's first one
    for (let node = this.leaves + from; node >= 1; node >>>= 1) starts.add(node, a, b);
    // in `cover` of the largest nodes its lifetime covers
    const count = this.canonical(from, to);
    for (let k = 0; k < count; k++) cover.add(this.nodes[k]!, a, b);
  }

  /**
   * The pieces that together are the bytes held somewhere in rectangle
   * `r`'s lifetime (they may overlap one another): the lists
   * `unions()[0 .. count - 1]`, where `count` is returned, and the single
   * pieces `soloFrom`/`soloTo` up to `soloCount`. The next call reuses them.
   */
  collect(r: number): number {
    const from = this.rectFrom[r]!;
    const to = this.rectTo[r]!;
    const { cover, starts } = this;
    this.soloCount = 0;
    this.listCount = 0;
    // live at the first leaf: `cover` of the nodes on its path
    for (let node = this.leaves + from; node >= 1; node >>>= 1) this.take(cover, node);
    // starting at a later leaf of the lifetime: `starts` of the nodes that make up leaves [from + 1, to)
    const count = this.canonical(from + 1, to);
    for (let k = 0; k < count; k++) this.take(starts, this.nodes[k]!);
    return this.listCount;
  }

  /** Fills `nodes` with the largest nodes that together make up leaves [from, to); returns how many. */
  private canonical(from: number, to: number): number {
    let count = 0;
    for (let l = from + this.leaves, r = to + this.leaves; l < r; l >>>= 1, r >>>= 1) {
      if (l & 1) this.nodes[count++] = l++;
      if (r & 1) this.nodes[count++] = --r;
    }
    return count;
  }

  /** The lists `collect` fills. */
  unions(): readonly Union[] {
    return this.found;
  }

  /** Adds `node`'s union in `unions` to the answer of `collect`. */
  private take(unions: NodeUnions, node: number): void {
    const list = unions.more[node];
    if (list !== undefined) {
      if (list.length > 0) this.found[this.listCount++] = list;
      return;
    }
    const a = unions.soloA[node]!;
    if (a !== a) return; // NaN: empty
    this.soloFrom[this.soloCount] = a;
    this.soloTo[this.soloCount++] = unions.soloB[node]!;
  }
}

/** One union per tree node: a single piece in the typed arrays, or a list once there are two. */
class NodeUnions {
  readonly soloA: Float64Array; // NaN: no single piece (empty, or see `more`)
  readonly soloB: Float64Array;
  readonly more: (Union | undefined)[];

  constructor(nodes: number) {
    this.soloA = new Float64Array(nodes).fill(NaN);
    this.soloB = new Float64Array(nodes);
    this.more = new Array<Union | undefined>(nodes).fill(undefined);
  }

  /** Empties every union; lists are kept, emptied, for the next pass (a pass would otherwise leave 100k of them to the collector). */
  clear(): void {
    this.soloA.fill(NaN);
    for (const list of this.more) if (list !== undefined) list.length = 0;
  }

  /** Adds [a, b) to `node`'s union. */
  add(node: number, a: number, b: number): void {
    const list = this.more[node];
    if (list !== undefined) {
      // a list, once made, holds the node's union from then on (an emptied one too)
      if (list.length === 0) list.push(a, b);
      else addRange(list, a, b);
      return;
    }
    const x = this.soloA[node]!;
    if (x !== x) {
      this.soloA[node] = a;
      this.soloB[node] = b;
      return;
    }
    const y = this.soloB[node]!;
    if (a <= y && x <= b) {
      // overlapping or touching: one piece still
      if (a < x) this.soloA[node] = a;
      if (b > y) this.soloB[node] = b;
      return;
    }
    this.more[node] = a < x ? [a, b, x, y] : [x, y, a, b];
    this.soloA[node] = NaN;
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

/** Adds [a, b) to `union`, merging the pieces it overlaps or touches. */
function addRange(union: Union, a: number, b: number): void {
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
    return;
  }
  if (union[2 * first]! <= a && b <= union[2 * first + 1]!) return; // already held
  let end = first;
  while (end < pieces && union[2 * end]! <= b) end++;
  if (end === first) {
    // a new piece before `first`: shift the tail up by one piece, in a loop (splice allocates, and
    // Array.prototype.copyWithin walks a plain array element by element through its generic path:
    // on crowded traces that was most of a greedy-by-breadth pass)
    union.push(0, 0);
    for (let k = union.length - 1; k >= 2 * first + 2; k--) union[k] = union[k - 2]!;
    union[2 * first] = a;
    union[2 * first + 1] = b;
    return;
  }
  // pieces first .. end - 1 merge into one: keep it at `first`, close the gap after it
  union[2 * first] = Math.min(a, union[2 * first]!);
  union[2 * first + 1] = Math.max(b, union[2 * end - 1]!);
  if (end > first + 1) {
    const length = union.length;
    const by = 2 * (end - first - 1);
    for (let k = 2 * first + 2; k + by < length; k++) union[k] = union[k + by]!;
    union.length = length - by;
  }
}
