// The interval-placement helper every strategy shares: puts one item (a buffer
// or an alias group) at the lowest fitting gap, the tightest fitting gap, or
// above everything it conflicts with. Depends only on the engine's typed arrays.

import { conflictGraph, type ConflictGraph } from './conflict-graph';
import { alignBase, type PreparedRegion } from './prepared';
import { sortPairs } from './sort-pairs';

/**
 * Where an item goes among the already-placed items it conflicts with:
 * - `first`: the lowest base offset that fits (TFLite Micro, first fit);
 * - `best`: the smallest gap that fits, lowest on ties; on top when no gap fits
 *   (TFLite's greedy by size, best fit);
 * - `above`: just above every placed conflicting item, never into a gap (TVM USMP).
 */
export type Fit = 'first' | 'best' | 'above';

/** Item offsets under construction: NaN marks an item not placed yet. */
export class Placer {
  readonly prep: PreparedRegion;
  readonly graph: ConflictGraph;
  readonly offsets: Float64Array; // base offset per item, NaN when unplaced
  work = 0; // adjacency entries scanned so far: a machine-independent effort measure
  placements = 0;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;

  constructor(prep: PreparedRegion) {
    this.prep = prep;
    this.graph = conflictGraph(prep);
    this.offsets = new Float64Array(prep.itemCount);
    this.lo = new Float64Array(this.graph.maxItemRectDegree);
    this.hi = new Float64Array(this.graph.maxItemRectDegree);
    this.reset();
  }

  /** Unplaces everything, then places the items whose base is fixed. */
  reset(): void {
    this.offsets.set(this.prep.itemFixed);
  }

  /** Places `order`'s items one after another with `fit`; returns the region's peak. */
  placeAll(order: Int32Array, fit: Fit): number {
    this.reset();
    for (let k = 0; k < order.length; k++) this.place(order[k]!, fit);
    return this.peak();
  }

  /** max(base + extent) over placed items. */
  peak(): number {
    let peak = 0;
    const { itemExtent } = this.prep;
    for (let i = 0; i < this.offsets.length; i++) {
      const top = this.offsets[i]! + itemExtent[i]!;
      if (top > peak) peak = top;
    }
    return peak;
  }

  /** The lowest base at or above `floor` where the item fits among the placed items. */
  lowestFit(item: number, floor: number): number {
    return this.findGap(item, false, floor);
  }

  /** Places one item with `fit` and returns its base offset. */
  place(item: number, fit: Fit): number {
    const x = fit === 'above' ? this.aboveAll(item) : this.findGap(item, fit === 'best');
    this.offsets[item] = x;
    this.placements++;
    return x;
  }

  /**
   * How it works: each placed rectangle r that conflicts with a member m of
   * the item forbids the half-open range of bases [lo, hi) that would make m
   * overlap r (lo = r.offset − m.rel − m.size + 1, hi = r.offset + r.size − m.rel).
   * Sorted by their low ends, the ranges are walked in address order while
   * `from` tracks the highest end seen so far: whenever the next range starts
   * above the aligned `from`, the stretch between them is free. First fit
   * takes the first free stretch; best fit takes the tightest one (the
   * smallest gap), falling back to the open space above everything.
   */
  private findGap(item: number, best: boolean, floor = 0): number {
    const count = this.gatherForbidden(item);
    const { lo, hi, prep } = this;
    sortPairs(lo, hi, count);
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
   * Calls `visit(lo, hi, other)` for every placed rectangle conflicting with a
   * member of `item`: bases in [lo, hi) would make them overlap.
   */
  forEachPlacedConflict(item: number, visit: (lo: number, hi: number, other: number) => void): void {
    const { prep, graph, offsets } = this;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      for (let e = graph.start[m]!; e < graph.start[m + 1]!; e++) {
        const r = graph.rects[e]!;
        const other = prep.rectItem[r]!;
        const base = offsets[other]!;
        if (Number.isNaN(base)) continue;
        const at = base + prep.rectRel[r]! - prep.rectRel[m]!;
        visit(at - prep.rectSize[m]! + 1, at + prep.rectSize[r]!, other);
      }
      this.work += graph.start[m + 1]! - graph.start[m]!;
    }
  }

  /** Fills lo/hi with the bases forbidden by placed conflicting rectangles; returns the count. */
  private gatherForbidden(item: number): number {
    const { prep, graph, offsets, lo, hi } = this;
    const { rectItem, rectRel, rectSize } = prep;
    let count = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      const relM = rectRel[m]!;
      const sizeM = rectSize[m]!;
      const endEdge = graph.start[m + 1]!;
      for (let e = graph.start[m]!; e < endEdge; e++) {
        const r = graph.rects[e]!;
        const base = offsets[rectItem[r]!]!;
        if (base !== base) continue; // NaN: not placed yet
        const at = base + rectRel[r]! - relM;
        lo[count] = at - sizeM + 1;
        hi[count] = at + rectSize[r]!;
        count++;
      }
      this.work += endEdge - graph.start[m]!;
    }
    return count;
  }

  /** The lowest aligned base above every placed rectangle the item conflicts with. */
  private aboveAll(item: number): number {
    const { prep, graph, offsets } = this;
    let top = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      for (let e = graph.start[m]!; e < graph.start[m + 1]!; e++) {
        const r = graph.rects[e]!;
        const base = offsets[prep.rectItem[r]!]!;
        if (base !== base) continue;
        top = Math.max(top, base + prep.rectRel[r]! + prep.rectSize[r]! - prep.rectRel[m]!);
      }
      this.work += graph.start[m + 1]! - graph.start[m]!;
    }
    return alignBase(prep, item, top);
  }
}
