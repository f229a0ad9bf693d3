// The names the page offers for planning: target presets, strategies and search
// budgets, and the settings a page starts with. Kept apart from worker/plan/settings.ts so the page can
// list them without loading the planner's placement code.

import { STRATEGY_NAMES } from '../planner/strategies/strategy-names';
import { DEFAULT_TARGET, PRESET_NAMES, presetTarget } from '../planner/targets/presets';
import type { PlanSettings } from './types';

/** The settings a page starts with: the default target and its own strategy. */
export const DEFAULT_SETTINGS: PlanSettings = { target: DEFAULT_TARGET, strategy: undefined };

/** Target preset names, in menu order. */
export const TARGET_NAMES: readonly string[] = PRESET_NAMES;

/** Strategy names, in menu order (strategy-names.ts, which imports no strategy). */
export const STRATEGY_CHOICES: readonly string[] = STRATEGY_NAMES;

/** The strategy `target` plans with when none is chosen; undefined for an unknown target. */
export function defaultStrategyOf(target: string): string | undefined {
  return PRESET_NAMES.includes(target) ? presetTarget(target).planning.strategy : undefined;
}

/**
 * What the search budget of `best` is worth when none is given, in ms:
 * planner/strategies/search-budget.ts's DEFAULT_BUDGET_MS (a unit test keeps
 * them equal), written out for the same reason. Without a budget the planner
 * stops by counted work worth about that long, so the plan does not depend on
 * the machine; a budget chosen on the page is wall-clock time.
 */
export const DEFAULT_BUDGET_MS = 500;

/** The search budgets the page offers besides the default, in ms. */
export const BUDGET_CHOICES: readonly number[] = [1_000, 5_000, 30_000];

/** True for a search budget the planner takes: a positive whole number of milliseconds. */
export function isBudgetMs(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}
