// The names the page offers for planning: target presets and strategies, and the
// settings a page starts with. Kept apart from plan-settings.ts so the page can
// list them without loading the planner's placement code.

import { DEFAULT_TARGET, PRESET_NAMES, presetTarget } from '../planner/targets/presets';
import type { PlanSettings } from './protocol';

/** The settings a page starts with: the default target and its own strategy. */
export const DEFAULT_SETTINGS: PlanSettings = { target: DEFAULT_TARGET, strategy: undefined };

/** Target preset names, in menu order. */
export const TARGET_NAMES: readonly string[] = PRESET_NAMES;

/**
 * Strategy names, in menu order. The same list as planner/strategies/registry.ts
 * (a unit test keeps them equal), written out so the page does not bundle the
 * strategies themselves.
 */
export const STRATEGY_CHOICES: readonly string[] = ['best', 'tflm', 'best-fit', 'greedy-breadth', 'tvm-conflicts', 'naive', 'm1'];

/** The strategy `target` plans with when none is chosen; undefined for an unknown target. */
export function defaultStrategyOf(target: string): string | undefined {
  return PRESET_NAMES.includes(target) ? presetTarget(target).planning.strategy : undefined;
}
