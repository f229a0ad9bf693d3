// The interval-placement helper every strategy shares: puts one item (a buffer
// or an alias group) at the lowest fitting gap, the tightest fitting gap, or
// above everything it conflicts with. Only the bytes held in the item's step
// range are looked at: during a greedy pass (places only, since the last
// reset) as merged pieces from the occupancy tree (occupancy-tree.ts, asked
// through tree-queries.ts), else
// rectangle by rectangle through the time index (time-index.ts); no conflict
// pairs are stored. Depends only on the engine's typed arrays.

import { OccupancyTree } from './occupancy-tree';
import { alignBase, type PreparedRegion } from './prepared';
import { sortPairs } from './sort-pairs';
import { TimeIndex } from './time-index';
import { grownFloats } from './piece-lists';
import { TreeQueries } from './tree-queries';

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
  private treeQueries: TreeQueries | undefined; // with the tree
  private lo = new Float64Array(64); // the forbidden ranges of the rectangle walk
  private hi = new Float64Array(64);

  private readonly wholeLevel: number | undefined;

  /** `wholeLevel` overrides the occupancy tree's choice of it (occupancy-tree.ts): tests reach `whole` unions on small problems. */
  constructor(prep: PreparedRegion, { wholeLevel }: { readonly wholeLevel?: number } = {}) {
    this.prep = prep;
    this.wholeLevel = wholeLevel;
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
    // the tree answers an item with one member that holds bytes without building the union: a first fit by
    // leaping, a best fit (always from 0, of the member alone) by leaping gap to gap or, for a lifetime short of
    // the tree's `whole` unions, by one walk over every hole of its step. NaN: not answered there
    if (tree !== undefined && !(best && (floor !== 0 || whole))) {
      const fit = best ? this.treeQueries!.bestFit(tree, item) : this.treeQueries!.firstFit(tree, item, floor, whole);
      if (fit === fit) return fit;
    }
    // otherwise: the union of the bases each member forbids, merged, walked gap by gap
    let count: number;
    let lo: Float64Array;
    let hi: Float64Array;
    if (tree === undefined) {
      count = this.gatherForbidden(item, whole);
      ({ lo, hi } = this);
      sortPairs(lo, hi, count);
    } else {
      const queries = this.treeQueries!;
      count = queries.forbidden(tree, item, whole); // their union, in order
      ({ lo, hi } = queries);
    }
    const { prep } = this;
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
      this.occupancy = new OccupancyTree(this.prep, this.wholeLevel);
      this.treeQueries = new TreeQueries(this.prep);
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
      if (count + n > this.lo.length) {
        this.lo = grownFloats(this.lo, count + n);
        this.hi = grownFloats(this.hi, count + n);
      }
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

  /** The lowest aligned base above every placed rectangle the item conflicts with. */
  private aboveAll(item: number): number {
    const tree = this.occupancyFor(item);
    if (tree !== undefined) return alignBase(this.prep, item, this.treeQueries!.top(tree, item));
    let top = 0;
    this.forEachPlacedConflict(item, (_lo, hi) => {
      if (hi > top) top = hi;
    });
    return alignBase(this.prep, item, top);
  }
}
