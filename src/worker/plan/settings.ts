// Planning an inferred model for the page's settings: a target preset by name
// (with the page's edits of its fields), a strategy by name and a search budget,
// checked here so a bad URL parameter or field value becomes a typed error. Runs in the worker (and
// on the main thread in the fallback); no DOM.

import type { InferredModel } from '../../model/inferred';
import { planModel, planWithSuggestionSteps, type ModelPlan, type PlanModelOptions, type SuggestionStep } from '../../planner/plan';
import { isStrategyName, STRATEGY_NAMES } from '../../planner/strategies/strategy-names';
import type { TargetProfile } from '../../planner/targets/target';
import { InputError } from '../../shared/errors';
import { isBudgetMs } from '../../settings/names';
import type { PlanHooks } from './search';
import { targetForSettings } from '../../settings/target';
import type { PlanSettings } from '../protocol';

/** What planForSettings computes beyond the plan's figures: suggestions (default none), `explanation.kvPastKept` (default computed). */
export type PlanExtras = Pick<PlanModelOptions, 'suggest' | 'kvPastKept'>;

/**
 * Plans `model` for `settings`, with evaluated suggestions when `suggest` is
 * true and without `explanation.kvPastKept` when `kvPastKept` is false (a plan
 * only its figures are read of); throws InputError('bad-target' | 'bad-argument') for unknown names and bad fields.
 */
export function planForSettings(model: InferredModel, settings: PlanSettings, { suggest = false, kvPastKept = true }: PlanExtras = {}): ModelPlan {
  const { target, options } = checkedSettings(settings);
  return planModel(model, target, { ...options, suggest, kvPastKept });
}

/** A plan without its suggestions, and the steps that evaluate them one by one (planWithSuggestionSteps). */
export interface PlanWithSteps {
  readonly plan: ModelPlan;
  readonly steps: readonly SuggestionStep[];
}

/**
 * Plans `model` for `settings` without suggestions, keeping the steps that
 * evaluate them, so the page sees the plan first; `hooks` follow and stop the
 * search of a budgeted plan. Throws as planForSettings does.
 */
export function planStepsForSettings(model: InferredModel, settings: PlanSettings, hooks: PlanHooks = {}): PlanWithSteps {
  const { target, options } = checkedSettings(settings);
  const planOptions = { ...options.planOptions, ...hooks };
  return planWithSuggestionSteps(model, target, Object.keys(planOptions).length > 0 ? { ...options, planOptions } : options);
}

function checkedSettings(settings: PlanSettings): { target: TargetProfile; options: PlanModelOptions } {
  const target = targetForSettings(settings);
  const { strategy, budgetMs } = settings;
  if (strategy !== undefined && !isStrategyName(strategy)) {
    throw new InputError('bad-argument', `unknown strategy "${strategy}" (strategies: ${STRATEGY_NAMES.join(', ')})`);
  }
  if (budgetMs !== undefined && !isBudgetMs(budgetMs)) {
    throw new InputError('bad-argument', `the search budget must be a positive whole number of milliseconds, got ${budgetMs}`);
  }
  return {
    target,
    options: {
      ...(strategy !== undefined && { strategy }),
      ...(budgetMs !== undefined && { planOptions: { budgetMs } }),
    },
  };
}
