// A sweep over time that places every item as it starts, at the lowest gap
// among the items live at that moment (online first fit). Items placed
// earlier are the only ones it can meet, so a list of the live blocks sorted
// by offset is all it needs: no pairs, no time index. Depends only on the
// engine's prepared form.
//
// - Items are visited by first step, larger first on ties, then by index.
// - Before an item is placed, the blocks of items that ended at or before its
//   first step leave the live list.
// - An item made of several rectangles is treated as one solid block over its
//   whole lifetime (never smaller than its real footprint, so always valid).
// - Items with a fixed offset are not supported: `sweepPlace` returns
//   undefined when the region has one.

import { alignBase, type PreparedRegion } from './prepared';

/**
 * Item offsets from the sweep, or undefined when the region has fixed items.
 * `tightest` takes the smallest gap that fits instead of the lowest.
 */
export function sweepPlace(prep: PreparedRegion, tightest = false): Float64Array | undefined {
  if (prep.freeItems.length !== prep.itemCount) return undefined;
  const { itemStart, itemEnd, itemExtent } = prep;
  const order = Array.from(prep.freeItems).sort((a, b) => itemStart[a]! - itemStart[b]! || itemExtent[b]! - itemExtent[a]! || a - b);
  const byEnd = Array.from(prep.freeItems).sort((a, b) => itemEnd[a]! - itemEnd[b]! || a - b);
  const offsets = new Float64Array(prep.itemCount);
  const live = new LiveBlocks(prep.itemCount);
  let ended = 0;
  for (const item of order) {
    const start = itemStart[item]!;
    while (ended < byEnd.length && itemEnd[byEnd[ended]!]! <= start) {
      const gone = byEnd[ended++]!;
      if (itemExtent[gone]! > 0) live.remove(offsets[gone]!, gone);
    }
    const extent = itemExtent[item]!;
    if (extent === 0) {
      offsets[item] = alignBase(prep, item, 0);
      continue;
    }
    const base = live.gap(prep, item, extent, tightest);
    offsets[item] = base;
    live.insert(base, base + extent, item);
  }
  return offsets;
}

/** Blocks [lo, hi) of live items, sorted by lo (then by item). */
class LiveBlocks {
  private lo: Float64Array;
  private hi: Float64Array;
  private item: Int32Array;
  private count = 0;

  constructor(capacity: number) {
    this.lo = new Float64Array(Math.max(1, capacity));
    this.hi = new Float64Array(Math.max(1, capacity));
    this.item = new Int32Array(Math.max(1, capacity));
  }

  /** The lowest (or the tightest) aligned base at which `extent` bytes overlap no live block. */
  gap(prep: PreparedRegion, item: number, extent: number, tightest: boolean): number {
    const { lo, hi } = this;
    let from = alignBase(prep, item, 0);
    let best = NaN;
    let bestSlack = Infinity;
    for (let k = 0; k < this.count; k++) {
      if (lo[k]! >= from + extent) {
        if (!tightest) return from;
        if (lo[k]! - from < bestSlack) {
          bestSlack = lo[k]! - from;
          best = from;
        }
      }
      if (hi[k]! > from) from = alignBase(prep, item, hi[k]!);
    }
    return best === best ? best : from;
  }

  insert(low: number, high: number, item: number): void {
    const at = this.position(low, item);
    const n = this.count;
    this.lo.copyWithin(at + 1, at, n);
    this.hi.copyWithin(at + 1, at, n);
    this.item.copyWithin(at + 1, at, n);
    this.lo[at] = low;
    this.hi[at] = high;
    this.item[at] = item;
    this.count++;
  }

  remove(low: number, item: number): void {
    const at = this.position(low, item);
    const n = this.count;
    this.lo.copyWithin(at, at + 1, n);
    this.hi.copyWithin(at, at + 1, n);
    this.item.copyWithin(at, at + 1, n);
    this.count--;
  }

  /** First position whose (lo, item) is not below (low, item). */
  private position(low: number, item: number): number {
    let a = 0;
    let b = this.count;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.lo[mid]! < low || (this.lo[mid] === low && this.item[mid]! < item)) a = mid + 1;
      else b = mid;
    }
    return a;
  }
}
