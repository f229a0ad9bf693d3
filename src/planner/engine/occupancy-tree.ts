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
//   Most nodes hold one piece, kept in typed arrays; a node gets a list only
//   for a second, and every list of the tree lives in one shared array
//   (node-unions.ts; a pass would otherwise make a million small arrays).
// - A rectangle meets the step range [s, e) when it is live at s or starts
//   after s and before e. The first are `cover` of the nodes on the path to
//   s's leaf, the second `starts` of the nodes that make up the leaves after
//   it: O(log T) unions, each rectangle in one of them only (a rectangle
//   crossing the boundary between two nodes would otherwise be read twice).
// - On crowded traces that split is slow for long lifetimes: the rectangles
//   live at s and the ones starting later fill one another's holes, so the
//   union is dense where each list is not, and a first fit leaps through
//   hundreds of small pieces of alternating lists to get above it. Nodes at
//   `wholeLevel` and above therefore also keep `whole`: the union of every
//   rectangle that meets their step range at all. A query whose range holds
//   such nodes reads their `whole` unions for the middle of its range, and
//   the split above only for the fringes left and right of them (on a 62k
//   training trace a first fit's leaps fell from 216 to about 10). The level
//   is chosen per region from the lifetimes, so that keeping `whole` costs
//   at most about WHOLE_ADDS_PER_RECT additions per rectangle.
// - Those nodes keep no `cover`; the ones at wholeLevel keep `throughout`
//   instead: the union of every rectangle live over their whole range,
//   their own cover and their ancestors' together. What is live at a step
//   is then the `throughout` of its node at wholeLevel and the covers of the
//   few nodes below it, one dense union and a few short lists instead of a
//   list per level (a best fit of a short lifetime compares every hole of
//   that step).
// - Every later question of a greedy pass (first fit, best fit, above all)
//   depends only on that union, so the placer's answers are the same as when
//   it walks the rectangles one by one.

import { countBelow } from '../../shared/sorted-search';
import { countWork } from './work-clock';
import { NodeUnions, PieceArena, type Pieces } from './node-unions';
import type { PreparedRegion } from './prepared';

/** Most unions one query can meet: one per node it visits. */
const MAX_TAKEN = 4 * 64;
/** Additions to `whole` unions the chosen level may cost, per rectangle on average. */
const WHOLE_ADDS_PER_RECT = 24;
/** Work of adding a range to one `whole` union (engine/work-clock.ts). */
const WHOLE_ADD_WORK = 25;
/** The lowest level that keeps `whole` unions: below it a node spans too few steps for them to pay. */
const MIN_WHOLE_LEVEL = 3;

/** Placed address ranges of one region by step range, merged per tree node. */
export class OccupancyTree {
  private readonly leaves: number; // a power of two >= the elementary step ranges
  private readonly depth: number; // log2(leaves): the root's level (leaves are level 0)
  private readonly rectFrom: Int32Array; // rect -> first leaf of its lifetime
  private readonly rectTo: Int32Array; // rect -> leaf after the last one
  private readonly cover: NodeUnions;
  private readonly starts: NodeUnions;
  /** Nodes at this level and above keep `whole` (depth + 1: none do). */
  readonly wholeLevel: number;
  private readonly whole: NodeUnions | undefined; // by node, for nodes at wholeLevel and above (index < 2 * leaves >> wholeLevel)
  private readonly throughout: NodeUnions | undefined; // nodes at wholeLevel: the rectangles live over all of a node's range
  private readonly nodes = new Int32Array(2 * 64); // the canonical nodes of a leaf range
  private readonly arena = new PieceArena(); // the lists of all four kinds of union
  /** Lists met by the last `collect`: entries [listFrom[u], listTo[u]) of `pieces()`, as [a0, b0, a1, b1, ...], for u below its count. */
  readonly listFrom = new Int32Array(MAX_TAKEN);
  readonly listTo = new Int32Array(MAX_TAKEN);
  /** Single pieces met by the last `collect`: [soloFrom[k], soloTo[k]) for k < soloCount. */
  readonly soloFrom = new Float64Array(MAX_TAKEN);
  readonly soloTo = new Float64Array(MAX_TAKEN);
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

  /** `wholeLevel` overrides the level chosen from the lifetimes (tests use it to reach `whole` on small problems). */
  constructor(prep: PreparedRegion, wholeLevel?: number) {
    const leaves = leavesOf(prep);
    ({ leaves: this.leaves, rectFrom: this.rectFrom, rectTo: this.rectTo } = leaves);
    this.depth = Math.log2(this.leaves);
    this.cover = new NodeUnions(2 * this.leaves, this.arena);
    this.starts = new NodeUnions(2 * this.leaves, this.arena);
    this.wholeLevel = Math.max(1, Math.min(wholeLevel ?? leaves.wholeLevel, this.depth + 1));
    const keeps = this.wholeLevel <= this.depth;
    this.whole = keeps ? new NodeUnions((2 * this.leaves) >> this.wholeLevel, this.arena) : undefined;
    this.throughout = keeps ? new NodeUnions((2 * this.leaves) >> this.wholeLevel, this.arena) : undefined;
  }

  /** Forgets every placed range. */
  clear(): void {
    this.cover.clear();
    this.starts.clear();
    this.whole?.clear();
    this.throughout?.clear();
  }

  /** Records that bytes [a, b) are held over rectangle `r`'s lifetime. */
  insert(r: number, a: number, b: number): void {
    if (!(b > a)) return;
    const from = this.rectFrom[r]!;
    const to = this.rectTo[r]!;
    const { cover, starts, whole, throughout, leaves } = this;
    // nodes below index `top` are at wholeLevel or above: `whole` and `throughout` answer for them, not `starts` and `cover`
    const top = whole === undefined ? 0 : (2 * leaves) >> this.wholeLevel;
    // in `starts` of every node whose leaves hold the rectangle's first one; a node that held [a, b) already has
    // every ancestor hold it too (an ancestor's union takes in its children's)
    for (let node = leaves + from; node >= Math.max(1, top); node >>>= 1) if (starts.add(node, a, b)) break;
    // in `cover` of the largest nodes its lifetime covers
    const count = this.canonical(from, to);
    for (let k = 0; k < count; k++) if (this.nodes[k]! >= top) cover.add(this.nodes[k]!, a, b);
    if (whole === undefined || throughout === undefined) return;
    // in `whole` of every node at wholeLevel and above that its lifetime meets (up to the level where every one held
    // [a, b) already: each node above has one of them as a child), and in `throughout` of the nodes at wholeLevel it
    // covers (the only ones a query reads)
    let adds = 0;
    let wholeHeld = false;
    for (let level = this.wholeLevel; level <= this.depth; level++) {
      const base = leaves >> level;
      const first = base + (from >> level);
      const last = base + ((to - 1) >> level);
      if (!wholeHeld) {
        wholeHeld = true;
        for (let node = first; node <= last; node++) if (!whole.add(node, a, b)) wholeHeld = false;
      }
      const firstCovered = base + ((from + (1 << level) - 1) >> level);
      const lastCovered = base + (to >> level) - 1;
      if (level === this.wholeLevel) for (let node = firstCovered; node <= lastCovered; node++) throughout.add(node, a, b);
      // the work counted is that of keeping every level's `throughout` too, the rule a search stopped by counted
      // work has its stops from (work-clock.ts)
      adds += last - first + 1 + Math.max(0, lastCovered - firstCovered + 1);
    }
    countWork(WHOLE_ADD_WORK * adds);
  }

  /**
   * The pieces that together are the bytes held somewhere in rectangle
   * `r`'s lifetime (they may overlap one another): the lists `listFrom`/
   * `listTo` of `pieces()` up to the count returned, and the single pieces
   * `soloFrom`/`soloTo` up to `soloCount`. The next call reuses them.
   */
  collect(r: number): number {
    const from = this.rectFrom[r]!;
    const to = this.rectTo[r]!;
    const { starts, whole } = this;
    this.soloCount = 0;
    this.listCount = 0;
    // the middle of the lifetime: `whole` of its largest nodes at wholeLevel and above, leaves [middleFrom, middleTo)
    let middleFrom = to; // `to` while no node is in the middle
    let middleTo = from;
    if (whole !== undefined) {
      const count = this.canonical(from, to);
      const top = (2 * this.leaves) >> this.wholeLevel; // nodes below this index are at wholeLevel or above
      for (let k = 0; k < count; k++) {
        const node = this.nodes[k]!;
        if (node >= top) continue;
        this.take(whole, node);
        const level = this.depth - (31 - Math.clz32(node));
        const first = (node << level) - this.leaves;
        if (first < middleFrom) middleFrom = first;
        if (first + (1 << level) > middleTo) middleTo = first + (1 << level);
      }
    }
    if (middleFrom === to) {
      // no middle: live at the first leaf (`cover` of the nodes on its path), or starting at a later leaf of the
      // lifetime (`starts` of the nodes that make up leaves [from + 1, to))
      this.fringe(from, to);
      return this.listCount;
    }
    // left of the middle: live at the first leaf, or starting before the middle
    if (from < middleFrom) this.fringe(from, middleFrom);
    // right of the middle: starting there (one live at its first leaf and starting earlier meets the middle)
    const count = this.canonical(middleTo, to);
    for (let k = 0; k < count; k++) this.take(starts, this.nodes[k]!);
    return this.listCount;
  }

  /** Takes the unions of the rectangles live at leaf `from` and of those starting in leaves [from + 1, to): together, every rectangle meeting [from, to). */
  private fringe(from: number, to: number): void {
    const { cover, starts, throughout } = this;
    let node = this.leaves + from;
    if (throughout === undefined) {
      for (; node >= 1; node >>>= 1) this.take(cover, node);
    } else {
      // the covers of the nodes below wholeLevel on the path, then `throughout` of the one at wholeLevel (every cover above it)
      const top = (2 * this.leaves) >> this.wholeLevel;
      for (; node >= top; node >>>= 1) this.take(cover, node);
      this.take(throughout, node);
    }
    const count = this.canonical(from + 1, to);
    for (let k = 0; k < count; k++) this.take(starts, this.nodes[k]!);
  }

  /**
   * Whether `collect(r)` reads `whole` unions: rectangle r's lifetime holds a
   * whole node at wholeLevel or above, that is, a span of that level's size
   * aligned to it (the largest canonical nodes are aligned spans).
   */
  reachesWhole(r: number): boolean {
    if (this.whole === undefined) return false;
    const span = 1 << this.wholeLevel;
    const from = this.rectFrom[r]!;
    return Math.ceil(from / span) * span + span <= this.rectTo[r]!;
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

  /** The array the lists of `collect` index; valid until the next insert. */
  pieces(): Pieces {
    return this.arena.data;
  }

  /** Adds `node`'s union in `unions` to the answer of `collect`. */
  private take(unions: NodeUnions, node: number): void {
    const start = unions.listStart[node]!;
    if (start >= 0) {
      const length = unions.listLength[node]!;
      if (length > 0) {
        this.listFrom[this.listCount] = start;
        this.listTo[this.listCount++] = start + length;
      }
      return;
    }
    const solo = unions.solo;
    const a = solo[2 * node]!;
    const b = solo[2 * node + 1]!;
    if (a === b) return; // empty
    this.soloFrom[this.soloCount] = a;
    this.soloTo[this.soloCount++] = b;
  }
}

interface Leaves {
  readonly leaves: number;
  readonly rectFrom: Int32Array;
  readonly rectTo: Int32Array;
  readonly wholeLevel: number; // the lowest level whose `whole` unions cost at most WHOLE_ADDS_PER_RECT additions per rectangle
}

const leavesCache = new WeakMap<PreparedRegion, Leaves>();

/** The region's steps compressed to elementary step ranges (the tree's leaves), and each rectangle's leaves; computed once per region. */
function leavesOf(prep: PreparedRegion): Leaves {
  const known = leavesCache.get(prep);
  if (known !== undefined) return known;
  const n = prep.rectCount;
  const rectFrom = new Int32Array(n);
  const rectTo = new Int32Array(n);
  const distinct = rankSteps(prep.rectStart, prep.rectEnd, rectFrom, rectTo);
  let leaves = 1;
  while (leaves < distinct - 1) leaves *= 2;
  const result = { leaves, rectFrom, rectTo, wholeLevel: wholeLevelOf(leaves, rectFrom, rectTo) };
  leavesCache.set(prep, result);
  return result;
}

/** Steps spanning at most this many times the number of starts and ends are ranked by counting rather than sorting. */
const COUNTED_SPAN = 4;

/**
 * Fills `from`/`to` with the number of distinct steps among `starts` and
 * `ends` below each start and end; returns how many distinct steps there are.
 * Integer steps over a span not much wider than their number (a trace's op
 * indices) are ranked by marking and counting them, without a sort.
 */
export function rankSteps(starts: Float64Array, ends: Float64Array, from: Int32Array, to: Int32Array): number {
  const n = starts.length;
  let low = Infinity;
  let high = -Infinity;
  let integers = true;
  for (let r = 0; r < n; r++) {
    const s = starts[r]!;
    const e = ends[r]!;
    if (!Number.isInteger(s) || !Number.isInteger(e)) integers = false;
    if (s < low) low = s;
    if (e > high) high = e;
    if (e < low) low = e;
    if (s > high) high = s;
  }
  if (n > 0 && integers && high - low < COUNTED_SPAN * 2 * n) {
    // rank[v - low]: the distinct steps below v, once every step is marked
    const rank = new Int32Array(high - low + 2);
    for (let r = 0; r < n; r++) {
      rank[starts[r]! - low + 1] = 1;
      rank[ends[r]! - low + 1] = 1;
    }
    for (let v = 1; v < rank.length; v++) rank[v]! += rank[v - 1]!;
    for (let r = 0; r < n; r++) {
      from[r] = rank[starts[r]! - low]!;
      to[r] = rank[ends[r]! - low]!;
    }
    return rank[rank.length - 1]!;
  }
  const all = new Float64Array(2 * n);
  all.set(starts);
  all.set(ends, n);
  all.sort();
  let distinct = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[distinct++] = all[i]!;
  const steps = all.subarray(0, distinct);
  for (let r = 0; r < n; r++) {
    from[r] = countBelow(steps, starts[r]!);
    to[r] = countBelow(steps, ends[r]!);
  }
  return distinct;
}

/**
 * The lowest level from MIN_WHOLE_LEVEL up at which keeping `whole` unions
 * there and above costs at most WHOLE_ADDS_PER_RECT additions per rectangle
 * (a rectangle is added to every node of those levels its lifetime meets);
 * past the root when none does. Depends only on the lifetimes.
 */
function wholeLevelOf(leaves: number, rectFrom: Int32Array, rectTo: Int32Array): number {
  const depth = Math.log2(leaves);
  const budget = WHOLE_ADDS_PER_RECT * rectFrom.length;
  let adds = 0; // additions at the levels from `level` up to the root
  for (let level = depth; level >= MIN_WHOLE_LEVEL; level--) {
    for (let r = 0; r < rectFrom.length; r++) adds += ((rectTo[r]! - 1) >> level) - (rectFrom[r]! >> level) + 1;
    if (adds > budget) return level + 1;
  }
  return MIN_WHOLE_LEVEL;
}
