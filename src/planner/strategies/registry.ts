// The registry of placement strategies, by the names the CLI, the worker and
// the UI use (strategy-names.ts, which the page loads without this module).
// Depends only on the strategy modules.

import { portfolio } from './best';
import { bestFit } from './greedy/best-fit';
import { greedyBreadth } from './greedy/greedy-breadth';
import { m1 } from './greedy/m1';
import { naive } from './greedy/naive';
import type { Strategy } from './strategy';
import type { StrategyName } from './strategy-names';
import { tflm } from './greedy/tflm';
import { tvmConflicts } from './greedy/tvm-conflicts';

export { isStrategyName, STRATEGY_NAMES, type StrategyName } from './strategy-names';

/** Every strategy but `best`, which runs them all first and so never does worse than any. */
const OTHERS = {
  tflm,
  'best-fit': bestFit,
  'greedy-breadth': greedyBreadth,
  'tvm-conflicts': tvmConflicts,
  naive,
  m1,
} satisfies Record<Exclude<StrategyName, 'best'>, Strategy>;

/** Every strategy, by name. */
export const STRATEGIES: Readonly<Record<StrategyName, Strategy>> = { best: portfolio(Object.values(OTHERS)), ...OTHERS };
