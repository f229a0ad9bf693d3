// The names the page offers for planning: target presets, strategies and search
// budgets, and the settings a page starts with. Kept apart from plan-settings.ts so the page can
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

/**
 * The search budget of `best` when none is given, in ms: planner/strategies/best.ts's
 * DEFAULT_BUDGET_MS (a unit test keeps them equal), written out for the same reason.
 */
export const DEFAULT_BUDGET_MS = 500;

/** The search budgets the page offers besides the default, in ms. */
export const BUDGET_CHOICES: readonly number[] = [1_000, 5_000, 30_000];

/** True for a search budget the planner takes: a positive whole number of milliseconds. */
export function isBudgetMs(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}
