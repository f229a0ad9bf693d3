// One run of the live-block list (live-blocks.ts): up to 2 × RUN blocks
// sorted by offset in typed arrays, with their inner gaps also kept sorted by
// width, so the widest gap is known exactly and the smallest gap wide enough
// for an item is a binary search away. Depends only on src/shared.
//
// - A gap is named by the block above it: (width, lo of that block). Blocks
//   never overlap and hold bytes, so no two blocks share a lo.
// - Adding or removing a block changes at most three gaps; each change is a
//   binary search and a shift of the typed arrays (a native memmove).

import { assert } from '../../shared/assert';

/** Blocks a run holds before it is split in two. */
export const RUN = 64;
const CAPACITY = 2 * RUN + 1;

/** A run of blocks [lo, hi) sorted by (lo, item), with its gaps sorted by (width, lo above). */
export class BlockRun {
  readonly lo = new Float64Array(CAPACITY);
  readonly hi = new Float64Array(CAPACITY);
  readonly item = new Int32Array(CAPACITY);
  size = 0;
  readonly gapWidth = new Float64Array(CAPACITY); // ascending
  readonly gapAbove = new Float64Array(CAPACITY); // lo of the block above the gap; ascending among equal widths
  gaps = 0; // size - 1 once the run holds a block
  index = 0; // position among the live list's runs

  /** The widest gap between two of the run's blocks (0 with fewer than two). */
  widestGap(): number {
    return this.gaps === 0 ? 0 : this.gapWidth[this.gaps - 1]!;
  }

  /** Lowest position whose gap is at least `width` wide. */
  firstGapAtLeast(width: number): number {
    let a = 0;
    let b = this.gaps;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.gapWidth[mid]! < width) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  /** First position whose (lo, item) is not below (low, item). */
  position(low: number, item: number): number {
    const { lo } = this;
    let a = 0;
    let b = this.size;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (lo[mid]! < low || (lo[mid] === low && this.item[mid]! < item)) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  /** Puts a block at position `at`, shifting the later ones up. */
  insertAt(at: number, low: number, high: number, item: number): void {
    const { lo, hi } = this;
    if (at > 0 && at < this.size) this.dropGap(lo[at]! - hi[at - 1]!, lo[at]!); // the gap it lands in
    lo.copyWithin(at + 1, at, this.size);
    hi.copyWithin(at + 1, at, this.size);
    this.item.copyWithin(at + 1, at, this.size);
    lo[at] = low;
    hi[at] = high;
    this.item[at] = item;
    this.size++;
    if (at > 0) this.addGap(low - hi[at - 1]!, low);
    if (at < this.size - 1) this.addGap(lo[at + 1]! - high, lo[at + 1]!);
  }

  /** Removes the block at position `at`. */
  removeAt(at: number): void {
    const { lo, hi } = this;
    const last = this.size - 1;
    if (at > 0) this.dropGap(lo[at]! - hi[at - 1]!, lo[at]!);
    if (at < last) this.dropGap(lo[at + 1]! - hi[at]!, lo[at + 1]!);
    if (at > 0 && at < last) this.addGap(lo[at + 1]! - hi[at - 1]!, lo[at + 1]!); // two gaps become one
    lo.copyWithin(at, at + 1, this.size);
    hi.copyWithin(at, at + 1, this.size);
    this.item.copyWithin(at, at + 1, this.size);
    this.size--;
  }

  /** Moves the upper half of a full run into `tail` (an empty run), which it returns. */
  split(tail: BlockRun): BlockRun {
    tail.lo.set(this.lo.subarray(RUN, this.size));
    tail.hi.set(this.hi.subarray(RUN, this.size));
    tail.item.set(this.item.subarray(RUN, this.size));
    tail.size = this.size - RUN;
    this.size = RUN;
    this.sortGaps();
    tail.sortGaps();
    return tail;
  }

  /** Rebuilds the sorted gaps from the blocks. */
  private sortGaps(): void {
    const order = Array.from({ length: Math.max(0, this.size - 1) }, (_, k) => k + 1);
    const width = (k: number) => this.lo[k]! - this.hi[k - 1]!;
    order.sort((a, b) => width(a) - width(b) || this.lo[a]! - this.lo[b]!);
    order.forEach((k, j) => {
      this.gapWidth[j] = width(k);
      this.gapAbove[j] = this.lo[k]!;
    });
    this.gaps = order.length;
  }

  private gapIndex(width: number, above: number): number {
    let a = 0;
    let b = this.gaps;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.gapWidth[mid]! < width || (this.gapWidth[mid] === width && this.gapAbove[mid]! < above)) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  private addGap(width: number, above: number): void {
    const at = this.gapIndex(width, above);
    this.gapWidth.copyWithin(at + 1, at, this.gaps);
    this.gapAbove.copyWithin(at + 1, at, this.gaps);
    this.gapWidth[at] = width;
    this.gapAbove[at] = above;
    this.gaps++;
  }

  private dropGap(width: number, above: number): void {
    const at = this.gapIndex(width, above);
    assert(this.gapWidth[at] === width && this.gapAbove[at] === above, `block run: no gap of ${width} bytes below ${above}`);
    this.gapWidth.copyWithin(at, at + 1, this.gaps);
    this.gapAbove.copyWithin(at, at + 1, this.gaps);
    this.gaps--;
  }
}
