// The saved plan file of a plan the page made: the planner's toPlanFile with the
// page's settings (target preset, its edits as the profile, the dims).

import type { InferredModel } from '../model/inferred';
import type { ModelPlan, Suggestion } from '../planner/plan';
import { toPlanFile, type PlanFile } from '../planner/assembly/plan-file';
import { isEmptyEdits, targetForSettings } from './target';
import type { DimValues, PlanSettings } from './types';

/** What a plan file is written from. */
export interface PlanSource {
  readonly name: string; // the model's file name or URL
  readonly inferred: InferredModel;
  readonly plan: ModelPlan;
  readonly settings: PlanSettings; // what the plan was made for
  readonly dims: DimValues; // the user's bindings
  readonly suggestions?: readonly Suggestion[]; // the plan's suggestions, once the worker evaluated them
}

/**
 * The plan file of `source`, as `plan --save` writes it (toPlanFile); a preset with
 * edits is saved as target 'custom' with its whole profile.
 */
export function planFileOf(source: PlanSource): PlanFile {
  const edited = source.settings.edits !== undefined && !isEmptyEdits(source.settings.edits);
  return toPlanFile(source.inferred, source.plan, {
    model: source.name,
    strategy: source.plan.strategy,
    target: edited ? 'custom' : source.settings.target,
    targetProfile: targetForSettings(source.settings),
    dims: source.dims,
    ...(source.suggestions !== undefined && { suggestions: source.suggestions }),
  });
}
