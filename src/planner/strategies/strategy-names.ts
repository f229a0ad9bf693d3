// The names of the placement strategies, in the order menus list them: what
// the page, the target parser and the command line need to offer and check a
// strategy without loading the strategies. Imports nothing.

/** Names of the strategies, in the order menus list them. */
export const STRATEGY_NAMES = ['best', 'tflm', 'best-fit', 'greedy-breadth', 'tvm-conflicts', 'naive', 'm1'] as const;

/** A strategy name. */
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** True when `name` is a known strategy. */
export function isStrategyName(name: string): name is StrategyName {
  return (STRATEGY_NAMES as readonly string[]).includes(name);
}
