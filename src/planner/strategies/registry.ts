// The registry of placement strategies, by the names the CLI, the worker and
// the UI use. Depends only on the strategy modules.

import { portfolio } from './best';
import { bestFit } from './best-fit';
import { greedyBreadth } from './greedy-breadth';
import { m1 } from './m1';
import { naive } from './naive';
import type { Strategy } from './strategy';
import { tflm } from './tflm';
import { tvmConflicts } from './tvm-conflicts';

/** Names of the strategies, in the order menus list them. */
export const STRATEGY_NAMES = ['best', 'tflm', 'best-fit', 'greedy-breadth', 'tvm-conflicts', 'naive', 'm1'] as const;

/** A strategy name. */
export type StrategyName = (typeof STRATEGY_NAMES)[number];

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

/** True when `name` is a known strategy. */
export function isStrategyName(name: string): name is StrategyName {
  return (STRATEGY_NAMES as readonly string[]).includes(name);
}
