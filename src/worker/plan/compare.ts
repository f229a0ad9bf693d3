// The strategy comparison: the peak every strategy of the registry reaches for
// one model and target, planned one at a time so the caller can report progress
// and stop between strategies. Runs in the worker; no DOM.

import type { InferredModel } from '../../model/inferred';
import type { ModelPlan, PlanModelOptions } from '../../planner/plan';
import { STRATEGY_NAMES } from '../../planner/strategies/strategy-names';
import { toErrorData } from '../../shared/errors';
import type { PlanSettings, StrategyPeak } from '../protocol';

/** Plans a model for settings (planForSettings, or a test double); `options` as planForSettings takes them. */
export type PlanFunction = (model: InferredModel, settings: PlanSettings, options?: Pick<PlanModelOptions, 'suggest' | 'kvPastKept'>) => ModelPlan;

/** Strategies compared, in registry order. */
export const COMPARED_STRATEGIES: readonly string[] = STRATEGY_NAMES;

/** The peak of `strategy` for `settings`'s target, or why planning failed. */
export function strategyPeak(plan: PlanFunction, model: InferredModel, settings: PlanSettings, strategy: string, now: () => number): StrategyPeak {
  const started = now();
  try {
    const p = plan(model, { ...settings, strategy }, { suggest: false, kvPastKept: false }); // only the peak is compared
    return {
      strategy,
      status: 'planned',
      peak: p.peak,
      lowerBound: p.lowerBound,
      regions: p.regions.map((r) => ({ name: r.name, peak: r.peak })),
      ms: now() - started,
    };
  } catch (error) {
    return { strategy, status: 'failed', error: toErrorData(error) };
  }
}
