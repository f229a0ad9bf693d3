// Strategy `greedy-breadth`: TFLite GPU's greedy by breadth, placing offsets
// with best fit. Depends only on the planner engine.
//
// - The breadth of a step is the bytes live at it (alias groups counted once).
// - Steps are visited from the broadest to the narrowest (earlier step first
//   on ties); at each step, the buffers live there and not yet placed are
//   placed largest first (id order on ties).
// - Visiting steps this way places each buffer at the busiest step of its
//   lifetime, so the order is computed directly: by the breadth of that step,
//   then by the step, then by size - one range arg-max per buffer, O(n log n).
// - Each buffer takes the smallest gap that fits among the placed buffers
//   whose lifetimes overlap its own (best fit), or goes on top.

import { orderItems } from '../../engine/orders';
import type { PreparedRegion } from '../../engine/prepared';
import { runGreedy, type RegionContext, type Strategy, type StrategyOutcome } from '../strategy';
import { STRATEGY_TITLES } from '../strategy-names';

function planGreedyBreadth(prep: PreparedRegion, { dropAt }: RegionContext): StrategyOutcome {
  return runGreedy(prep, orderItems(prep, 'breadth'), 'best', dropAt);
}

/** TFLite GPU's greedy by breadth, best fit. */
export const greedyBreadth: Strategy = {
  name: 'greedy-breadth',
  title: STRATEGY_TITLES['greedy-breadth'],
  plan: planGreedyBreadth,
};
