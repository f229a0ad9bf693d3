// One point of a growth curve in the worker: the decoded model inferred with
// the axis at a value and planned for the page's settings, as the figures the
// curve draws (planner/sweep/sweep-point.ts's figures, and whether it fits
// every size limit). The sweep itself,
// which values and where the plan stops fitting, is planner/sweep/dim-sweep.ts.
// No DOM.

import type { InferOptions } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import type { IrModel } from '../../model/ir';
import { sweepPoint } from '../../planner/sweep/sweep-point';
import { bindingsAt } from '../growth-axes';
import type { GrowthAxis, GrowthPoint, ModelBindings, PlanSettings } from '../protocol';
import type { PlanFunction } from './compare';

/** What planning one point needs: inference and planning, as the handler's deps give them. */
export interface GrowthDeps {
  readonly infer: (model: IrModel, options: InferOptions) => InferredModel;
  readonly plan: PlanFunction;
  readonly inferOptions: (bindings: ModelBindings) => InferOptions;
}

/** What every point of one curve shares. */
export interface GrowthInput {
  readonly ir: IrModel;
  readonly axis: GrowthAxis;
  readonly bindings: ModelBindings;
  readonly settings: PlanSettings;
}

/** The settings every point is planned with: the page's, at the default search budget (a budget is wall-clock time per point). */
export function growthSettings(settings: PlanSettings): PlanSettings {
  const { budgetMs: _budget, ...rest } = settings;
  return rest;
}

/**
 * The figures of the plan of `input` with its axis at `value`; with `keptPast`
 * (the curve's largest value), also the bytes a runtime keeping a decoder's
 * past inputs would add (the buffers placed once more), as `sweep` gives them.
 */
export function growthPoint(input: GrowthInput, value: number, deps: GrowthDeps, keptPast = false): GrowthPoint {
  const model = deps.infer(input.ir, deps.inferOptions(bindingsAt(input.axis, input.bindings, value)));
  const plan = deps.plan(model, growthSettings(input.settings), { kvPastKept: keptPast }); // the curve's figures, and what it assumes
  return sweepPoint(value, model, plan);
}
