// The placer as it was before the occupancy tree: every placed rectangle
// live with the item, found through the time index, turned into a forbidden
// range of bases, sorted and walked. Kept only as the reference the property
// tests compare the engine's greedy passes against (and M1 on top of it).

import { alignBase, type PreparedRegion } from '../engine/prepared';
import { sortPairs } from '../engine/sort-pairs';
import { TimeIndex } from '../engine/time-index';

import type { Fit } from '../engine/placer';
import { m1Order } from '../strategies/greedy/m1';

/**
 * Item offsets under construction: NaN marks an item not placed yet. Change
 * offsets only through `set`, `place`, `reset` or `load`, which keep the time
 * index in step.
 */
/** The rectangle-walking placer (see the header). */
export class WalkPlacer {
  readonly prep: PreparedRegion;
  readonly offsets: Float64Array; // base offset per item, NaN when unplaced
  placements = 0;
  private readonly index: TimeIndex;
  private readonly found: Int32Array;
  private lo = new Float64Array(64);
  private hi = new Float64Array(64);

  constructor(prep: PreparedRegion) {
    this.prep = prep;
    this.index = new TimeIndex(prep);
    this.offsets = new Float64Array(prep.itemCount);
    this.found = new Int32Array(prep.rectCount);
    this.reset();
  }

  /** Rectangles looked at so far: a machine-independent effort measure. */
  get work(): number {
    return this.index.visited;
  }

  /** Unplaces everything, then places the items whose base is fixed. */
  reset(): void {
    this.load(this.prep.itemFixed);
  }

  /** Takes `offsets` (by item; NaN for unplaced) as the current placement. */
  load(offsets: Float64Array): void {
    this.offsets.set(offsets);
    const { rectItem } = this.prep;
    this.index.rebuild((r) => !Number.isNaN(this.offsets[rectItem[r]!]!));
  }

  /** Puts `item` at `base`, or unplaces it when `base` is NaN. */
  set(item: number, base: number): void {
    const { prep, index } = this;
    const was = this.offsets[item]!;
    this.offsets[item] = base;
    if (Number.isNaN(was) === Number.isNaN(base)) return;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      if (Number.isNaN(base)) index.deactivate(m);
      else index.activate(m);
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

  /** Fills lo/hi with the bases forbidden by placed conflicting rectangles; returns the count. */
  private gatherForbidden(item: number): number {
    const { prep, offsets, found } = this;
    const { rectItem, rectRel, rectSize } = prep;
    let count = 0;
    for (let m = prep.itemRectStart[item]!; m < prep.itemRectStart[item + 1]!; m++) {
      const sizeM = rectSize[m]!;
      if (sizeM === 0) continue;
      const relM = rectRel[m]!;
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
    let top = 0;
    this.forEachPlacedConflict(item, (_lo, hi) => {
      if (hi > top) top = hi;
    });
    return alignBase(this.prep, item, top);
  }
}

/** M1's offsets (strategies/greedy/m1.ts) placed by the rectangle walk. */
export function walkM1(prep: PreparedRegion): Float64Array {
  const placer = new WalkPlacer(prep);
  const { offsets } = placer;
  let lo: Float64Array = new Float64Array(64);
  let hi: Float64Array = new Float64Array(64);
  for (const item of m1Order(prep)) {
    let count = 0;
    const extent = prep.itemExtent[item]!;
    placer.forEachPlacedConflict(item, (_lo, _hi, other, r) => {
      if (count === lo.length) [lo, hi] = [grown(lo), grown(hi)];
      const at = offsets[other]! + prep.rectRel[r]!;
      lo[count] = at - extent + 1;
      hi[count] = at + prep.rectSize[r]!;
      count++;
    });
    sortPairs(lo, hi, count);
    let base = alignBase(prep, item, 0);
    for (let k = 0; k < count; k++) {
      if (lo[k]! > base) break;
      if (hi[k]! > base) base = alignBase(prep, item, hi[k]!);
    }
    placer.set(item, base);
  }
  return offsets;
}

function grown(array: Float64Array): Float64Array {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
