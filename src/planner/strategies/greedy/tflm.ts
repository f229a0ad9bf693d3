// Strategy `tflm`: TensorFlow Lite Micro's GreedyMemoryPlanner, reproduced
// exactly (its published test offsets hold). Depends only on the planner engine.
//
// - Buffers with an offline-planned (fixed) offset are placed first, at it.
// - The others are sorted by size, largest first. TFLite Micro fills its sort
//   array from the tail (the last buffer added lands first) and then runs a
//   stable bubble sort, so among equal sizes the buffer added LAST goes first.
// - Each buffer in turn walks the already-placed buffers whose lifetimes
//   overlap its own, in order of offset, and takes the first gap big enough
//   (first fit); with no such gap it goes just above the highest of them.
// - Half-open lifetimes here: TFLite Micro's inclusive [first, last] is [first, last + 1).
// - Alias groups move as one item; offsets are aligned up to each item's alignment.

import type { PreparedRegion } from '../../engine/prepared';
import { runGreedy, type RegionContext, type Strategy, type StrategyOutcome } from '../strategy';
import { STRATEGY_TITLES } from '../strategy-names';

/** TFLite Micro's order: size descending, the later-added buffer first among equal sizes. */
export function tflmOrder(prep: PreparedRegion): Int32Array {
  const size = prep.itemExtent;
  return prep.freeItems.slice().sort((a, b) => size[b]! - size[a]! || b - a);
}

function planTflm(prep: PreparedRegion, { dropAt }: RegionContext): StrategyOutcome {
  return runGreedy(prep, tflmOrder(prep), 'first', dropAt);
}

/** TensorFlow Lite Micro's greedy planner: by size, first fit. */
export const tflm: Strategy = {
  name: 'tflm',
  title: STRATEGY_TITLES['tflm'],
  plan: planTflm,
};
