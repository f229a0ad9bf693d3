// Strategy `best-fit`: TFLite's arena planner (greedy by size for offset
// calculation, best fit). Depends only on the planner engine.
//
// - Buffers with a fixed offset are placed first, at it.
// - The others are taken by size, largest first; equal sizes keep id order.
// - For each buffer, the already-placed buffers whose lifetimes overlap its
//   own are walked in order of offset; every gap between them (measured from
//   the aligned top of everything below) that is big enough is a candidate.
// - The buffer takes the smallest candidate gap, the lowest one on ties; when
//   no gap fits, it goes on top of the highest overlapping buffer.
// - Alias groups move as one item; offsets are aligned up to each item's alignment.

import { orderItems } from '../../engine/orders';
import type { PreparedRegion } from '../../engine/prepared';
import { runGreedy, type RegionContext, type Strategy, type StrategyOutcome } from '../strategy';
import { STRATEGY_TITLES } from '../strategy-names';

function planBestFit(prep: PreparedRegion, { dropAt }: RegionContext): StrategyOutcome {
  return runGreedy(prep, orderItems(prep, 'size'), 'best', dropAt);
}

/** TFLite's greedy by size with best fit. */
export const bestFit: Strategy = {
  name: 'best-fit',
  title: STRATEGY_TITLES['best-fit'],
  plan: planBestFit,
};
