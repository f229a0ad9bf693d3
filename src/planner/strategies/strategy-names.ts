// The names of the placement strategies, in the order menus list them: what
// the page, the target parser and the command line need to offer and check a
// strategy without loading the strategies. Imports nothing.

/** Names of the strategies, in the order menus list them. */
export const STRATEGY_NAMES = ['best', 'tflm', 'best-fit', 'greedy-breadth', 'tvm-conflicts', 'naive', 'm1'] as const;

/** A strategy name. */
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** Each strategy in one line, for menus, --help and the portfolio's winner (the strategies take their titles from here). */
export const STRATEGY_TITLES: Readonly<Record<StrategyName, string>> = {
  best: 'portfolio of every strategy, orders and fits, local search around the peak, then an anytime exact search',
  tflm: "TFLite Micro's greedy planner: largest first, first fit",
  'best-fit': "TFLite's arena planner: largest first, smallest gap that fits",
  'greedy-breadth': "TFLite GPU's greedy by breadth: busiest steps first, best fit",
  'tvm-conflicts': "TVM USMP's greedy by conflicts: most conflicts first, above all of them",
  naive: "no reuse: offsets are the running sum of sizes; a buffer that shares another's bytes by design (an in-place output, a view, a Concat input in its slot) still shares them",
  m1: 'M1: largest sharing set first, lowest offset clear of its dependency sets',
};

/** True when `name` is a known strategy. */
export function isStrategyName(name: string): name is StrategyName {
  return (STRATEGY_NAMES as readonly string[]).includes(name);
}
