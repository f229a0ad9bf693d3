// The stages of a model plan before it is explained: the problem a model and
// a target give (compute units M3, fusion units M5 and M2 moved on chip), the
// bound no plan of it goes below (placing it: spill/place-stage.ts). planModel runs
// them for its plan; the suggestions run them for each changed setting and
// stop after the bound when it already shows no saving. Depends only on the
// planner and the model's IR types.

import type { InferredGraph, InferredModel } from '../../model/inferred';
import { computeUnitPlan, type ComputeUnitPlan } from '../compute-units/compute-plan';
import { findFusionUnits, type FoundUnits } from '../fusion/find-units';
import { withFusion } from '../fusion/fused-problem';
import { buildProblem, type BuiltProblem, type ProblemPlacer } from '../problem/build-problem';
import type { PlanOptions } from '../strategies/strategy';
import type { RegionBound } from '../scratch/bound';
import type { TargetProfile } from '../targets/target';
import { tflmProblem, type TflmProblem } from '../tflm/tflm-problem';
import { withIoOwner } from '../spill/weights-io';
import { assignOffsets } from './assign-offsets';
import { strategyFreeBounds } from './bounds';

/** The problem of a model for a target, as planModel places it. */
export interface PlanStage {
  readonly units: ComputeUnitPlan | undefined; // the compute-unit plan (M3), when the target lists units
  readonly graph: InferredGraph; // the graph laid out (with the compute units' copy nodes)
  readonly unfused: BuiltProblem; // before fusion
  readonly fusion: FoundUnits | undefined; // when the target fuses
  readonly built: BuiltProblem; // with the fusion units' tensors moved on chip
  readonly tflm?: TflmProblem; // a TFLite model for a TFLite Micro target: the buffers that runtime plans
}

/** The strategy that places the stage's bodies and compare variants, and its options. */
export interface StageOptions {
  readonly strategy: string;
  readonly planOptions?: PlanOptions;
}

/** Places a problem with the stage's strategy: the peak, for bodies and the compute units' variants. */
export function stagePlacer(options: StageOptions): ProblemPlacer {
  return (problem) => assignOffsets(problem, options.strategy, options.planOptions).peak;
}

/**
 * Builds the problem of `model` for `target`: compute units, graph I/O the
 * application owns taken out of the arena (spill/weights-io.ts), then fusion.
 * `before` is a stage of the same model, strategy and target but for its
 * fusion settings, which nothing before fusion reads: its problem before
 * fusion is taken as it is.
 */
export function buildStage(model: InferredGraph, target: TargetProfile, options: StageOptions, before?: PlanStage): PlanStage {
  const tflite = target.planning.runtime === 'tflm' ? (model as Partial<InferredModel>).tflite : undefined;
  if (tflite !== undefined) {
    // TFLite Micro runs the file's operators as they are: no compute units, no fusion, its own buffers.
    const tflm = before?.tflm ?? tflmProblem(model, tflite, target);
    return { units: undefined, graph: model, unfused: tflm.built, fusion: undefined, built: tflm.built, tflm };
  }
  const place = stagePlacer(options);
  const units = before === undefined ? computeUnitPlan(model, target, { place }) : before.units;
  const graph = units?.graph ?? model;
  const unfused = before?.unfused ?? withIoOwner(units?.built ?? buildProblem(model, target, { place }), target.planning.io);
  const fusion = findFusionUnits(graph, unfused.schedule.order, target);
  const built = fusion === undefined ? unfused : withFusion(unfused, fusion.units, fusion.region);
  return { units, graph, unfused, fusion, built };
}

/** Per region of `target`, the strategy-free bound of the stage (assembly/bounds.ts). */
export function stageBounds(stage: PlanStage, target: TargetProfile): RegionBound[] {
  return strategyFreeBounds(target, stage.built, stage.units?.alternative);
}
