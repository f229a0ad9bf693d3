// A sweep over time that places every item as it starts, at the lowest gap
// among the items live at that moment (online first fit). Items placed
// earlier are the only ones it can meet, so a list of the live blocks sorted
// by offset is all it needs (engine/live-blocks.ts): no pairs, no time
// index. Depends only on the engine's prepared form.
//
// - Items are visited by first step, larger first on ties, then by index
//   (or, sweeping backwards, by last step from the end: another order that
//   crowded traces sometimes pack better).
// - Before an item is placed, the blocks of items that ended at or before its
//   first step leave the live list.
// - An item made of several rectangles is treated as one solid block over its
//   whole lifetime (never smaller than its real footprint, so always valid).
// - Items with a fixed offset are not supported: `sweepPlace` returns
//   undefined when the region has one.

import { Departures, LiveBlocks } from './live-blocks';
import { alignBase, type PreparedRegion } from './prepared';

/** The times and visiting orders of one direction of sweep. */
interface SweepOrder {
  readonly itemStart: Float64Array;
  readonly itemEnd: Float64Array;
  readonly order: Int32Array; // items as they start
  readonly byEnd: Int32Array; // items as they end
}

const orders = new WeakMap<PreparedRegion, Map<boolean, Int32Array>>();

/** Items in the order a sweep direction visits them, sorted once per region (the lowest and the tightest sweeps share it). */
function startOrder(prep: PreparedRegion, backwards: boolean): Int32Array {
  let byDirection = orders.get(prep);
  if (byDirection === undefined) orders.set(prep, (byDirection = new Map()));
  const known = byDirection.get(backwards);
  if (known !== undefined) return known;
  const { itemExtent, itemStart, itemEnd } = prep;
  // backwards, an item starts where it ends: time runs from the last step down
  const byStart = (a: number, b: number) => itemStart[a]! - itemStart[b]! || itemExtent[b]! - itemExtent[a]! || a - b;
  const byEnd = (a: number, b: number) => itemEnd[b]! - itemEnd[a]! || itemExtent[b]! - itemExtent[a]! || a - b;
  const order = prep.freeItems.slice().sort(backwards ? byEnd : byStart);
  byDirection.set(backwards, order);
  return order;
}

/**
 * The times and visiting orders of one direction of sweep. Items as they end
 * are the other direction's order reversed: which of the items ending
 * together leaves first changes nothing.
 */
function sweepOrder(prep: PreparedRegion, backwards: boolean): SweepOrder {
  const itemStart = backwards ? prep.itemEnd.map((t) => -t) : prep.itemStart;
  const itemEnd = backwards ? prep.itemStart.map((t) => -t) : prep.itemEnd;
  return { itemStart, itemEnd, order: startOrder(prep, backwards), byEnd: startOrder(prep, !backwards).slice().reverse() };
}

/**
 * Item offsets from the sweep, or undefined when the region has fixed items.
 * `tightest` takes the smallest gap that fits instead of the lowest;
 * `backwards` sweeps from the last step to the first.
 */
export function sweepPlace(prep: PreparedRegion, tightest = false, backwards = false): Float64Array | undefined {
  if (prep.freeItems.length !== prep.itemCount) return undefined;
  const { itemExtent } = prep;
  const { itemStart, itemEnd, order, byEnd } = sweepOrder(prep, backwards);
  const offsets = new Float64Array(prep.itemCount);
  const live = new LiveBlocks(prep.itemCount);
  const departures = new Departures(byEnd, itemEnd, itemExtent, offsets);
  for (const item of order) {
    departures.releaseUpTo(itemStart[item]!, live);
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
