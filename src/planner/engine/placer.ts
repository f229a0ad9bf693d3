// The interval-placement helper every strategy shares: puts one item (a buffer
// or an alias group) at the lowest fitting gap, the tightest fitting gap, or
// above everything it conflicts with. Only the bytes held in the item's step
// range are looked at: during a greedy pass (places only, since the last
// reset) as merged pieces from the occupancy tree (occupancy-tree.ts), else
// rectangle by rectangle through the time index (time-index.ts); no conflict
// pairs are stored. Depends only on the engine's typed arrays.

import { OccupancyTree } from './occupancy-tree';
import { alignBase, type PreparedRegion } from './prepared';
import { sortPairs, unionOfRuns } from './sort-pairs';
import { TimeIndex } from './time-index';
import { countWork } from './work-clock';

/** Work of a query of the occupancy tree (engine/work-clock.ts), with the sort and walk that follow it, and per union piece read. */
const UNION_QUERY_WORK = 1300;
const PIECE_WORK = 35;
/** Work of a first fit from the tree (engine/work-clock.ts): the query, per list it meets, and per piece it reads or leaps past. */
const FIRST_QUERY_WORK = 1300;
const LIST_WORK = 30;
const LEAP_WORK = 20;

/**
 * Where an item goes among the already-placed items it conflicts with:
 * - `first`: the lowest base offset that fits (TFLite Micro, first fit);
 * - `best`: the smallest gap that fits, lowest on ties; on top when no gap fits
 *   (TFLite's greedy by size, best fit);
 * - `above`: just above every placed conflicting item, never into a gap (TVM USMP).
 */
export type Fit = 'first' | 'best' | 'above';

/**
 * Item offsets under construction: NaN marks an item not placed yet. Change
 * offsets only through `set`, `place`, `reset` or `load`, which keep the time
 * index and the occupancy tree in step.
 */
export class Placer {
  readonly prep: PreparedRegion;
  readonly offsets: Float64Array; // base offset per item, NaN when unplaced
  placements = 0;
  private timeIndex: TimeIndex | undefined; // built when a query first needs it
  private indexed = false; // the time index holds exactly the placed rectangles (a greedy pass leaves it behind)
  private occupancy: OccupancyTree | undefined; // built on the first query after a reset, when it applies
  private insertOnly = true; // nothing unplaced and no load since the last reset: the occupancy tree may answer
  private readonly found: Int32Array;
  private lo = new Float64Array(64);
  private hi = new Float64Array(64);
  private runEnds: Int32Array = new Int32Array(64); // ends of the ascending runs gathered from the tree
  private cursors: Int32Array = new Int32Array(64); // per list of the tree, the first piece first fit has not passed
  private heap: Int32Array = new Int32Array(64); // the lists, by `keys`, for first fit
  private keys: Float64Array = new Float64Array(64);

  constructor(prep: PreparedRegion) {
    this.prep = prep;
    this.offsets = new Float64Array(prep.itemCount);
    this.found = new Int32Array(prep.rectCount);
    this.reset();
  }

  /** Rectangles looked at so far: a machine-independent effort measure. */
  get work(): number {
    return this.timeIndex?.visited ?? 0;
  }

  /** Unplaces everything, then places the items whose base is fixed. */
  reset(): void {
    this.offsets.set(this.prep.itemFixed);
    this.indexed = false;
    this.insertOnly = true;
    if (this.occupancy !== undefined) this.fillOccupancy(this.occupancy);
  }

  /** Takes `offsets` (by item; NaN for unplaced) as the current placement. */
  load(offsets: Float64Array): void {
    this.offsets.set(offsets);
    this.insertOnly = false;
    this.indexed = false; // rebuilt when a query needs it
  }

  /** The time index, holding exactly the placed rectangles. */
  private get index(): TimeIndex {
    this.timeIndex ??= new TimeIndex(this.prep);
    if (!this.indexed) {
      const { rectItem } = this.prep;
      this.timeIndex.rebuild((r) => !Number.isNaN(this.offsets[rectItem[r]!]!));
      this.indexed = true;
    }
    return this.timeIndex;
  }

  /** Puts `item` at `base`, or unplaces it when `base` is NaN. */
  set(item: number, base: number): void {
    const { prep } = this;
    const was = this.offsets[item]!;
    this.offsets[item] = base;
    if (Number.isNaN(was) === Number.isNaN(base)) {
      if (!Number.isNaN(was) && was !== base) this.insertOnly = false; // moved: the tree cannot take the old place back
      return;
    }
    if (Number.isNaN(base)) this.insertOnly = false;
    const tree = this.insertOnly ? this.occupancy : undefined;
    const index = this.indexed ? this.timeIndex : undefined;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      if (index !== undefined) {
        if (Number.isNaN(base)) index.deactivate(m);
        else index.activate(m);
      }
      if (tree !== undefined) tree.insert(m, base + prep.rectRel[m]!, base + prep.rectRel[m]! + prep.rectSize[m]!);
    }
  }

  /**
   * Places `order`'s items one after another with `fit`; returns the region's
   * peak, or NaN when `stop` (asked every 256 items) cut the run short.
   */
  placeAll(order: Int32Array, fit: Fit, stop?: () => boolean): number {
    this.reset();
    for (let k = 0; k < order.length; k++) {
      if (stop !== undefined && (k & 255) === 255 && stop()) return NaN;
      this.place(order[k]!, fit);
    }
    return this.peak();
  }

  /** max(base + extent) over placed items that hold bytes. */
  peak(): number {
    let peak = 0;
    const { itemExtent } = this.prep;
    for (let i = 0; i < this.offsets.length; i++) {
      if (itemExtent[i] === 0) continue;
      const top = this.offsets[i]! + itemExtent[i]!;
      if (top > peak) peak = top;
    }
    return peak;
  }

  /** The lowest base at or above `floor` where the item fits among the placed items. */
  lowestFit(item: number, floor: number): number {
    return this.findGap(item, false, floor);
  }

  /**
   * M1's placement (strategies/greedy/m1.ts): the lowest aligned base where
   * the item's whole extent, not just each member's bytes, is clear of the
   * placed rectangles live with any of its members.
   */
  lowestClear(item: number): number {
    return this.findGap(item, false, 0, true);
  }

  /** Places one item with `fit` and returns its base offset. */
  place(item: number, fit: Fit): number {
    const x = fit === 'above' ? this.aboveAll(item) : this.findGap(item, fit === 'best');
    this.set(item, x);
    this.placements++;
    return x;
  }

  /**
   * How it works: each placed rectangle r that conflicts with a member m of
   * the item forbids the half-open range of bases [lo, hi) that would make m
   * overlap r (lo = r.offset − m.rel − m.size + 1, hi = r.offset + r.size − m.rel);
   * a merged piece of placed bytes forbids the union of its rectangles' ranges.
   * Sorted by their low ends, the ranges are walked in address order while
   * `from` tracks the highest end seen so far: whenever the next range starts
   * above the aligned `from`, the stretch between them is free. First fit
   * takes the first free stretch; best fit takes the tightest one (the
   * smallest gap), falling back to the open space above everything. Both
   * depend only on the union of the ranges, which is why the pieces answer
   * as the rectangles do.
   */
  private findGap(item: number, best: boolean, floor = 0, whole = false): number {
    const tree = this.occupancyFor(item);
    if (tree !== undefined && !best) {
      const first = this.firstFromTree(tree, item, floor, whole);
      if (first === first) return first; // NaN: several members hold bytes
    }
    // best fit reads every gap: the union of the pieces, merged in one go, is cheaper than leaping to the first fit
    // and merging the pieces above it (on crowded traces first fit lies above most pieces)
    const count = tree === undefined ? this.gatherForbidden(item, whole) : this.gatherFromTree(tree, item, whole);
    if (tree === undefined) sortPairs(this.lo, this.hi, count); // the tree's ranges come as their union, in order
    const { lo, hi, prep } = this;
    const plain = prep.itemModulus[item] === 1;
    let bestBase = NaN;
    let bestSlack = Infinity;
    let from = floor;
    for (let i = 0; i < count; i++) {
      const low = lo[i]!;
      if (low > from) {
        const base = plain ? from : alignBase(prep, item, from);
        if (base < low) {
          if (!best) return base;
          if (low - base < bestSlack) {
            bestSlack = low - base;
            bestBase = base;
          }
        }
      }
      const high = hi[i]!;
      if (high > from) from = high;
    }
    if (bestBase === bestBase) return bestBase; // not NaN: a gap fitted
    return plain ? from : alignBase(prep, item, from);
  }

  /**
   * Calls `visit(lo, hi, other, r)` for every placed rectangle r of another
   * item live together with a member of `item`: bases in [lo, hi) would make
   * them overlap. A rectangle meeting several members is visited once per member.
   */
  forEachPlacedConflict(item: number, visit: (lo: number, hi: number, other: number, r: number) => void): void {
    const { prep, offsets, found } = this;
    const { rectItem, rectRel, rectSize } = prep;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      if (rectSize[m] === 0) continue;
      const n = this.index.collect(prep.rectStart[m]!, prep.rectEnd[m]!, found, 0);
      for (let k = 0; k < n; k++) {
        const r = found[k]!;
        const other = rectItem[r]!;
        if (other === item) continue;
        const at = offsets[other]! + rectRel[r]! - rectRel[m]!;
        visit(at - rectSize[m]! + 1, at + rectSize[r]!, other, r);
      }
    }
  }

  /**
   * The occupancy tree when it may answer for `item`: only the placed items
   * are in it, so `item` must be unplaced, and nothing may have moved since
   * the last reset. Built here on first use.
   */
  private occupancyFor(item: number): OccupancyTree | undefined {
    if (!this.insertOnly || !Number.isNaN(this.offsets[item]!)) return undefined;
    if (this.occupancy === undefined) {
      if (!OccupancyTree.applies(this.prep)) {
        this.insertOnly = false; // never applies: stay on the rectangle walk until the next reset
        return undefined;
      }
      this.occupancy = new OccupancyTree(this.prep);
      this.fillOccupancy(this.occupancy);
    }
    return this.occupancy;
  }

  /** Puts every placed rectangle into `tree`, emptied first. */
  private fillOccupancy(tree: OccupancyTree): void {
    const { prep, offsets } = this;
    tree.clear();
    for (let m = 0; m < prep.rectCount; m++) {
      const base = offsets[prep.rectItem[m]!]!;
      if (!Number.isNaN(base)) tree.insert(m, base + prep.rectRel[m]!, base + prep.rectRel[m]! + prep.rectSize[m]!);
    }
  }

  /**
   * Fills lo/hi as `gatherForbidden` does, but from the merged pieces of the
   * bytes held during each member's lifetime: their forbidden ranges have
   * the same union, which is all the gap walks read (see occupancy-tree.ts).
   */
  private gatherFromTree(tree: OccupancyTree, item: number, whole: boolean): number {
    const { prep } = this;
    const { rectRel, rectSize } = prep;
    const unions = tree.unions();
    let count = 0;
    let runs = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      if (rectSize[m] === 0) continue;
      const relM = whole ? 0 : rectRel[m]!;
      const sizeM = whole ? prep.itemExtent[item]! : rectSize[m]!;
      const n = tree.collect(m);
      let needed = count + tree.soloCount;
      for (let u = 0; u < n; u++) needed += unions[u]!.length >>> 1;
      if (needed > this.lo.length) this.grow(needed);
      if (runs + n + 1 > this.runEnds.length) this.runEnds = grownInts(this.runEnds, runs + n + 1);
      const { lo, hi, runEnds } = this;
      // every list is ascending, and so is its shift for a member: the gap walk's order comes from merging them
      const solos = count;
      count = this.gatherSolos(tree, relM, sizeM, count);
      if (count > solos) runEnds[runs++] = count;
      for (let u = 0; u < n; u++) {
        const pieces = unions[u]!;
        for (let k = 0; k < pieces.length; k += 2) {
          lo[count] = pieces[k]! - relM - sizeM + 1;
          hi[count] = pieces[k + 1]! - relM;
          count++;
        }
        runEnds[runs++] = count;
      }
    }
    countWork(UNION_QUERY_WORK + PIECE_WORK * count);
    return unionOfRuns(this.lo, this.hi, this.runEnds, runs);
  }

  /**
   * First fit from the tree for an item with one member that holds bytes
   * (NaN for several): the candidate base starts at `floor` and leaps past
   * each piece its bytes would meet, taking the lists in the order of the
   * first piece of each that ends above the candidate (a heap), until the
   * lowest such piece starts above the candidate's bytes and no single piece
   * meets them. That is the lowest aligned base clear of the union, as the
   * gap walk finds it, without building the union: on crowded traces the
   * first fit lies above a stretch held by pieces of many interleaved lists,
   * and this reads each of them about once.
   */
  private firstFromTree(tree: OccupancyTree, item: number, floor: number, whole: boolean): number {
    const { prep } = this;
    const { rectSize } = prep;
    let m = -1;
    for (let k = prep.itemRectStart[item]!; k < prep.itemRectStart[item + 1]!; k++) {
      if (rectSize[k] === 0) continue;
      if (m >= 0) return NaN;
      m = k;
    }
    const plain = prep.itemModulus[item] === 1;
    let base = plain ? floor : alignBase(prep, item, floor);
    if (m < 0) return base;
    const rel = whole ? 0 : prep.rectRel[m]!;
    const size = whole ? prep.itemExtent[item]! : rectSize[m]!;
    const lists = tree.collect(m);
    const unions = tree.unions();
    if (this.cursors.length < lists) {
      this.cursors = grownInts(this.cursors, lists);
      this.heap = grownInts(this.heap, lists);
      this.keys = new Float64Array(this.cursors.length);
    }
    const { cursors, heap, keys } = this;
    // every list's key: where its first piece ending above the candidate's first byte starts (Infinity: none); a key may be
    // stale (its piece ends at or below the candidate's first byte by now), but then it is below the candidate's bytes' end
    // too, so the list comes to the top before the heap can say the candidate is clear
    for (let k = 0; k < lists; k++) {
      cursors[k] = 0;
      keys[k] = unions[k]![0]!;
      heap[k] = k;
    }
    for (let h = (lists >>> 1) - 1; h >= 0; h--) siftDown(heap, keys, lists, h);
    let leaps = 0;
    let reads = 0;
    for (;;) {
      while (lists > 0) {
        const k = heap[0]!;
        if (!(keys[k]! < base + rel + size)) break; // the lowest list starts above the candidate's bytes: every list is clear
        const pieces = unions[k]!;
        const count = pieces.length >>> 1;
        const c = firstEndingAbove(pieces, cursors[k]!, count, base + rel);
        reads++;
        cursors[k] = c;
        if (c < count && pieces[2 * c]! < base + rel + size) {
          // the piece meets the candidate's bytes: leap over it (the list's key stays below the new candidate's bytes' end)
          const next = pieces[2 * c + 1]! - rel;
          base = plain ? next : alignBase(prep, item, next);
          leaps++;
        } else {
          keys[k] = c < count ? pieces[2 * c]! : Infinity;
          siftDown(heap, keys, lists, 0);
        }
      }
      let moved = false;
      for (let j = 0; j < tree.soloCount; j++) {
        if (tree.soloTo[j]! > base + rel && tree.soloFrom[j]! < base + rel + size) {
          const next = tree.soloTo[j]! - rel;
          base = plain ? next : alignBase(prep, item, next);
          moved = true;
          leaps++;
        }
      }
      reads += tree.soloCount;
      if (!moved) break;
    }
    countWork(FIRST_QUERY_WORK + LIST_WORK * lists + LEAP_WORK * (leaps + reads));
    return base;
  }

  /** Appends the forbidden ranges of the tree's single pieces from `count`, ascending (by insertion: they are few); returns the new count. */
  private gatherSolos(tree: OccupancyTree, relM: number, sizeM: number, count: number): number {
    const { lo, hi } = this;
    const first = count;
    for (let k = 0; k < tree.soloCount; k++) {
      const l = tree.soloFrom[k]! - relM - sizeM + 1;
      const h = tree.soloTo[k]! - relM;
      let at = count++;
      while (at > first && lo[at - 1]! > l) {
        lo[at] = lo[at - 1]!;
        hi[at] = hi[at - 1]!;
        at--;
      }
      lo[at] = l;
      hi[at] = h;
    }
    return count;
  }

  /**
   * Fills lo/hi with the bases forbidden by placed conflicting rectangles
   * (for `whole`, the item's whole extent against them); returns the count.
   */
  private gatherForbidden(item: number, whole = false): number {
    const { prep, offsets, found } = this;
    const { rectItem, rectRel, rectSize } = prep;
    let count = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      if (rectSize[m] === 0) continue;
      const relM = whole ? 0 : rectRel[m]!;
      const sizeM = whole ? prep.itemExtent[item]! : rectSize[m]!;
      const n = this.index.collect(prep.rectStart[m]!, prep.rectEnd[m]!, found, 0);
      if (count + n > this.lo.length) this.grow(count + n);
      const { lo, hi } = this;
      for (let k = 0; k < n; k++) {
        const r = found[k]!;
        const other = rectItem[r]!;
        if (other === item) continue;
        const at = offsets[other]! + rectRel[r]! - relM;
        lo[count] = at - sizeM + 1;
        hi[count] = at + rectSize[r]!;
        count++;
      }
    }
    return count;
  }

  /** Makes room for `needed` ranges, keeping those gathered so far. */
  private grow(needed: number): void {
    let length = this.lo.length;
    while (length < needed) length *= 2;
    const [lo, hi] = [new Float64Array(length), new Float64Array(length)];
    lo.set(this.lo);
    hi.set(this.hi);
    [this.lo, this.hi] = [lo, hi];
  }

  /** The lowest aligned base above every placed rectangle the item conflicts with. */
  private aboveAll(item: number): number {
    const tree = this.occupancyFor(item);
    if (tree !== undefined) return alignBase(this.prep, item, this.topFromTree(tree, item));
    let top = 0;
    this.forEachPlacedConflict(item, (_lo, hi) => {
      if (hi > top) top = hi;
    });
    return alignBase(this.prep, item, top);
  }

  /** The highest byte, relative to the item's base, held by a placed rectangle live with one of its members (at least 0). */
  private topFromTree(tree: OccupancyTree, item: number): number {
    const { prep } = this;
    const unions = tree.unions();
    let top = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      if (prep.rectSize[m] === 0) continue;
      const n = tree.collect(m);
      for (let u = 0; u < n; u++) {
        const pieces = unions[u]!;
        const high = pieces[pieces.length - 1]! - prep.rectRel[m]!;
        if (high > top) top = high;
      }
      for (let k = 0; k < tree.soloCount; k++) {
        const high = tree.soloTo[k]! - prep.rectRel[m]!;
        if (high > top) top = high;
      }
    }
    countWork(UNION_QUERY_WORK);
    return top;
  }
}

/** The first piece at or after `from` of the ascending pieces [a0, b0, a1, b1, ...] (`count` of them) that ends above `at`; `count` when none does. */
function firstEndingAbove(pieces: readonly number[], from: number, count: number, at: number): number {
  if (from === count || pieces[2 * from + 1]! > at) return from;
  // gallop, then bisect: the pieces passed are usually few
  let low = from; // ends at or below `at`
  let step = 1;
  let high = from + 1;
  while (high < count && !(pieces[2 * high + 1]! > at)) {
    low = high;
    step *= 2;
    high = low + step;
  }
  if (high > count) high = count;
  while (high - low > 1) {
    const mid = (low + high) >>> 1;
    if (pieces[2 * mid + 1]! > at) high = mid;
    else low = mid;
  }
  return high;
}

/** Restores the min-heap `heap[0 .. size - 1]` of list numbers by `keys` below position `at`. */
function siftDown(heap: Int32Array, keys: Float64Array, size: number, at: number): void {
  const k = heap[at]!;
  const key = keys[k]!;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= size) break;
    if (child + 1 < size && keys[heap[child + 1]!]! < keys[heap[child]!]!) child++;
    if (!(keys[heap[child]!]! < key)) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = k;
}

/** A longer copy of `array`, with room for `needed` entries. */
function grownInts(array: Int32Array, needed: number): Int32Array {
  let length = array.length;
  while (length < needed) length *= 2;
  const grown = new Int32Array(length);
  grown.set(array);
  return grown;
}
