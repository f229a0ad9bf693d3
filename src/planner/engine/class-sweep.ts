// Size-class sweeps: the long-lived items placed largest class first, each
// class by a sweep over time in which every item placed before is a fixed
// obstacle over its whole lifetime. Depends only on the engine's prepared form
// and live blocks.
//
// - Greedy by size packs crowded traces tighter than a sweep by start (large
//   long-lived items low, small ones in the gaps above), but its first fit
//   reads every placed item an item overlaps in time. Here the short-lived
//   items (lifetime at or below the LONG_QUANTILE of lifetimes) are swept
//   first, then the long-lived ones in CLASSES classes of equal count by size,
//   larger first: size order between classes, start order within one.
// - A class sweep keeps in its live blocks the obstacles and class items live
//   at the current step. An obstacle that starts later in the item's lifetime
//   is not live yet: `FutureObstacles` finds the highest top among those that
//   start in a step range and overlap an address range, in buckets of
//   obstacles sorted by start, each sorted by offset with a running maximum of
//   tops. A gap query alternates between the live blocks and it until both
//   agree, always upwards.
// - Items with a fixed offset are not supported: `classSweepPlace` returns
//   undefined when the region has one. Memory is linear in the items.

import { Departures, LiveBlocks } from './live-blocks';
import { alignBase, type PreparedRegion } from './prepared';

/** Lifetimes at or below this quantile are short: placed first, by one sweep. */
const LONG_QUANTILE = 0.7;
/** Classes of long-lived items, of equal count, largest first. */
const CLASSES = 8;
/** Obstacles per bucket of `FutureObstacles`. */
const BUCKET = 64;

/** Placed items by start, in buckets sorted by offset: which of them that start in a step range block an address range. */
class FutureObstacles {
  readonly items: Int32Array; // by start
  private readonly starts: Float64Array;
  private readonly startLo: Float64Array; // by start: the obstacle's block [startLo, startHi)
  private readonly startHi: Float64Array;
  private readonly lo: Float64Array; // per bucket, sorted by lo
  private readonly topMax: Float64Array; // running max of hi over the bucket's prefix

  constructor(prep: PreparedRegion, items: Int32Array, offsets: Float64Array) {
    const { itemStart, itemExtent } = prep;
    this.items = items.slice().sort((a, b) => itemStart[a]! - itemStart[b]! || a - b);
    const n = this.items.length;
    this.starts = Float64Array.from(this.items, (i) => itemStart[i]!);
    this.startLo = Float64Array.from(this.items, (i) => offsets[i]!);
    this.startHi = Float64Array.from(this.items, (i) => offsets[i]! + itemExtent[i]!);
    this.lo = new Float64Array(n);
    this.topMax = new Float64Array(n);
    for (let b = 0; b < n; b += BUCKET) {
      const bucket = Array.from(this.items.subarray(b, Math.min(n, b + BUCKET))).sort((x, y) => offsets[x]! - offsets[y]!);
      let top = -Infinity;
      bucket.forEach((item, k) => {
        this.lo[b + k] = offsets[item]!;
        top = Math.max(top, offsets[item]! + itemExtent[item]!);
        this.topMax[b + k] = top;
      });
    }
  }

  /** The first obstacle position whose start is at least `step`. */
  firstFrom(step: number): number {
    let a = 0;
    let b = this.starts.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.starts[mid]! < step) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  /** The highest top among obstacles at positions [from, to) that overlap [low, low + extent); -Infinity when none. */
  clash(from: number, to: number, low: number, extent: number): number {
    let top = -Infinity;
    for (let b = from - (from % BUCKET); b < to; b += BUCKET) {
      const end = Math.min(b + BUCKET, this.starts.length);
      if (b >= from && end <= to) top = Math.max(top, this.bucketTop(b, end, low + extent));
      else top = Math.max(top, this.partialTop(b, end, from, to, low, extent));
    }
    return top > low ? top : -Infinity;
  }

  /** max hi over the bucket's obstacles with lo below `limit` (they overlap when it exceeds the query's low). */
  private bucketTop(b: number, end: number, limit: number): number {
    let x = b;
    let y = end;
    while (x < y) {
      const mid = (x + y) >>> 1;
      if (this.lo[mid]! < limit) x = mid + 1;
      else y = mid;
    }
    return x === b ? -Infinity : this.topMax[x - 1]!;
  }

  /** The same over positions [from, to) of one bucket, read one by one in start order. */
  private partialTop(b: number, end: number, from: number, to: number, low: number, extent: number): number {
    let top = -Infinity;
    for (let k = Math.max(b, from); k < Math.min(end, to); k++) {
      if (this.startLo[k]! < low + extent && this.startHi[k]! > low) top = Math.max(top, this.startHi[k]!);
    }
    return top;
  }
}

/**
 * Item offsets from the short sweep and the size-class sweeps (see the module
 * header), or undefined when the region has fixed items, too few long-lived
 * items to form classes, or `stop` returned true (it is asked every 256 items).
 */
export function classSweepPlace(prep: PreparedRegion, tightest = false, stop?: () => boolean): Float64Array | undefined {
  if (prep.freeItems.length !== prep.itemCount || prep.itemCount === 0) return undefined;
  const { itemStart, itemEnd, itemExtent } = prep;
  const life = (i: number) => itemEnd[i]! - itemStart[i]!;
  const lifetimes = Float64Array.from(prep.freeItems, life).sort();
  const threshold = lifetimes[Math.floor(LONG_QUANTILE * (lifetimes.length - 1))]!;
  const long = prep.freeItems.filter((i) => life(i) > threshold).sort((a, b) => itemExtent[b]! - itemExtent[a]! || a - b);
  if (long.length < CLASSES) return undefined;
  const offsets = new Float64Array(prep.itemCount).fill(NaN);
  if (!classPlace(prep, prep.freeItems.filter((i) => life(i) <= threshold), offsets, tightest, stop)) return undefined;
  for (let k = 0; k < CLASSES; k++) {
    const members = long.subarray(Math.floor((k * long.length) / CLASSES), Math.floor(((k + 1) * long.length) / CLASSES));
    if (!classPlace(prep, members, offsets, tightest, stop)) return undefined;
  }
  return offsets;
}

/** Places `items` (unplaced, NaN in `offsets`) by a sweep over time among every item already placed; false when stopped. */
function classPlace(prep: PreparedRegion, items: Int32Array, offsets: Float64Array, tightest: boolean, stop?: () => boolean): boolean {
  const { itemStart, itemEnd, itemExtent } = prep;
  const placed = prep.freeItems.filter((i) => !Number.isNaN(offsets[i]!) && itemExtent[i]! > 0);
  const future = new FutureObstacles(prep, placed, offsets);
  const all = Int32Array.from([...placed, ...items]);
  const order = all.slice().sort((a, b) => itemStart[a]! - itemStart[b]! || itemExtent[b]! - itemExtent[a]! || a - b);
  const byEnd = all.slice().sort((a, b) => itemEnd[a]! - itemEnd[b]! || a - b);
  const live = new LiveBlocks(prep.itemCount);
  const departures = new Departures(byEnd, itemEnd, itemExtent, offsets);
  let visits = 0;
  for (const item of order) {
    if (stop !== undefined && (++visits & 255) === 0 && stop()) return false;
    departures.releaseUpTo(itemStart[item]!, live);
    const extent = itemExtent[item]!;
    if (extent === 0) {
      offsets[item] = alignBase(prep, item, 0);
      continue;
    }
    if (Number.isNaN(offsets[item]!)) offsets[item] = freeBase(prep, item, live, future, tightest);
    live.insert(offsets[item]!, offsets[item]! + extent, item);
  }
  return true;
}

/** The lowest (or tightest among the live blocks) base clear of the live blocks and of the obstacles that start during the item's lifetime. */
function freeBase(prep: PreparedRegion, item: number, live: LiveBlocks, future: FutureObstacles, tightest: boolean): number {
  const extent = prep.itemExtent[item]!;
  const from = future.firstFrom(prep.itemStart[item]!);
  const to = future.firstFrom(prep.itemEnd[item]!);
  let base = live.gap(prep, item, extent, tightest);
  let top = future.clash(from, to, base, extent);
  if (top === -Infinity) return base;
  base = 0;
  for (;;) {
    base = live.gapFrom(prep, item, extent, base);
    top = future.clash(from, to, base, extent);
    if (top === -Infinity) return base;
    base = top;
  }
}
