// Planning an inferred model for the page's settings: a target preset by name
// (with the page's edits of its fields) and a strategy by name, checked here so a
// bad URL parameter or field value becomes a typed error. Runs in the worker (and
// on the main thread in the fallback); no DOM.

import type { InferredModel } from '../model/inferred';
import { planModel, type ModelPlan } from '../planner/plan';
import { isStrategyName, STRATEGY_NAMES } from '../planner/strategies/registry';
import { InputError } from '../shared/errors';
import { targetForSettings } from './plan-target';
import type { PlanSettings } from './protocol';

/**
 * Plans `model` for `settings`, with evaluated suggestions unless `suggest` is
 * false; throws InputError('bad-target' | 'bad-argument') for unknown names and bad fields.
 */
export function planForSettings(model: InferredModel, settings: PlanSettings, { suggest = true }: { readonly suggest?: boolean } = {}): ModelPlan {
  const target = targetForSettings(settings);
  const { strategy } = settings;
  if (strategy !== undefined && !isStrategyName(strategy)) {
    throw new InputError('bad-argument', `unknown strategy "${strategy}" (strategies: ${STRATEGY_NAMES.join(', ')})`);
  }
  return planModel(model, target, strategy === undefined ? { suggest } : { strategy, suggest });
}
