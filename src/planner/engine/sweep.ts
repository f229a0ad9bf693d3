// Sweeps over time that place every item as it starts, at the lowest (or the
// tightest) gap among the items live at that moment (online fit). Items placed
// earlier are the only ones it can meet, so a list of the live blocks sorted
// by offset is all it needs (engine/live-blocks.ts): no pairs, no time
// index. Depends only on the engine's prepared form.
//
// - Items are visited by first step, larger first on ties, then by index
//   (or, sweeping backwards, by last step from the end: another order that
//   crowded traces sometimes pack better).
// - Before an item is placed, the blocks of items that ended at or before its
//   first step leave the live list.
// - The anchored sweep (`anchoredSweepPlace`) starts at the busiest step
//   instead: the items live there are stacked one on another, the latest to
//   end lowest, so that step holds exactly its live bytes; a sweep forwards
//   then places the items that start after it and a sweep backwards those
//   that end at or before it, each around the stack. An online sweep from
//   the first step leaves holes that the busiest step then pays for; this
//   one cannot, there.
// - An item made of several rectangles is treated as one solid block over its
//   whole lifetime (never smaller than its real footprint, so always valid).
// - Items with a fixed offset are not supported: both return undefined when
//   the region has one.

import { Departures, LiveBlocks } from './live-blocks';
import { liveProfile } from '../problem/lower-bound';
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
  const { itemStart, itemEnd, order, byEnd } = sweepOrder(prep, backwards);
  const offsets = new Float64Array(prep.itemCount);
  sweepAround(prep, offsets, [], order, byEnd, itemStart, itemEnd, tightest);
  return offsets;
}

/**
 * Item offsets from the anchored sweep (see the module header), or undefined
 * when the region has fixed items. `tightest` as for `sweepPlace`; `busiest`:
 * the busiest step, when the caller already knows it (the lower bound's peak step).
 */
export function anchoredSweepPlace(prep: PreparedRegion, tightest = true, busiest = busiestStep(prep)): Float64Array | undefined {
  if (prep.freeItems.length !== prep.itemCount) return undefined;
  const { itemStart, itemEnd, itemExtent } = prep;
  const forwards = sweepOrder(prep, false);
  const backwards = sweepOrder(prep, true);
  const offsets = new Float64Array(prep.itemCount);
  // the latest to end lowest: as the forward sweep passes, the stack frees from the top
  const anchored = forwards.order.filter((i) => itemStart[i]! <= busiest && itemEnd[i]! > busiest);
  anchored.sort((a, b) => itemEnd[b]! - itemEnd[a]! || itemStart[a]! - itemStart[b]! || itemExtent[b]! - itemExtent[a]! || a - b);
  let top = 0;
  for (const item of anchored) {
    offsets[item] = alignBase(prep, item, top);
    if (itemExtent[item]! > 0) top = offsets[item]! + itemExtent[item]!;
  }
  const after = forwards.order.filter((i) => itemStart[i]! > busiest);
  sweepAround(prep, offsets, anchored, after, forwards.byEnd.filter((i) => itemEnd[i]! > busiest), forwards.itemStart, forwards.itemEnd, tightest);
  const before = backwards.order.filter((i) => itemEnd[i]! <= busiest);
  sweepAround(prep, offsets, anchored, before, backwards.byEnd.filter((i) => itemStart[i]! <= busiest), backwards.itemStart, backwards.itemEnd, tightest);
  return offsets;
}

/** The step with the most bytes live, by the lower bound's live profile; the earliest on ties. */
function busiestStep(prep: PreparedRegion): number {
  const { times, live } = liveProfile(prep.problem, prep.groups);
  let busiest = 0;
  for (let k = 1; k < live.length; k++) if (live[k]! > live[busiest]!) busiest = k;
  return times[busiest] ?? 0;
}

/**
 * Places `items` (in the order they start, in the sweep's time) at the gaps
 * among the blocks live at their first step: the `anchored` items, already
 * placed in `offsets`, and the items placed before them. `byEnd` lists
 * every item of both as they end.
 */
function sweepAround(
  prep: PreparedRegion,
  offsets: Float64Array,
  anchored: ArrayLike<number>,
  items: ArrayLike<number>,
  byEnd: ArrayLike<number>,
  itemStart: ArrayLike<number>,
  itemEnd: ArrayLike<number>,
  tightest: boolean,
): void {
  const { itemExtent } = prep;
  const live = new LiveBlocks(prep.itemCount);
  for (let k = 0; k < anchored.length; k++) {
    const item = anchored[k]!;
    if (itemExtent[item]! > 0) live.insert(offsets[item]!, offsets[item]! + itemExtent[item]!, item);
  }
  const departures = new Departures(byEnd, itemEnd, itemExtent, offsets);
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
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
}
