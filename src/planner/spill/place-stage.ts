// A stage placed as planModel places it: spilled along the memory map when
// the target spills (spill-plan.ts), else every activation in the activation
// region; and the lower bound that holds for every split. Depends only on the
// planner.
//
// The bound of a split plan: a region's peak is at least the bytes live in
// it at any step, so the sum of the map's region peaks is at least, at every
// step, the bytes live in all of them together. The bound of the problem with
// the map's regions merged into one (activations and scratch alike) is
// therefore a bound on every split, whatever the spill chooses; the regions
// outside the map keep their own bound. Each region's reported bound is the
// bound of the split the plan made (no placement of its buffers goes lower).

import { placeAll, type PlacedPlan } from '../assembly/placement';
import { stageBounds, type PlanStage } from '../assembly/stages';
import type { BuiltProblem } from '../problem/build-problem';
import type { PlanOptions } from '../strategies/strategy';
import type { TargetProfile } from '../targets/target';
import { memoryMapOf, spillsOn } from './memory-map';
import { spillPlan, type SpillResult } from './spill-plan';

/** A placed stage: the problem as placed (regions after the spill) and its placement. */
export interface PlacedStage {
  readonly built: BuiltProblem;
  readonly placed: PlacedPlan;
  readonly spill: SpillResult | undefined; // undefined when the target does not spill
}

/** Places `stage` for `target`; see the module header. */
export function placeStage(stage: PlanStage, target: TargetProfile, strategy: string, planOptions?: PlanOptions, report = true): PlacedStage {
  if (!spillsOn(target)) return { built: stage.built, placed: placeAll(stage.built, target, strategy, planOptions, report), spill: undefined };
  const spill = spillPlan(stage.built, stage.graph, target, strategy, planOptions, report);
  return { built: spill.built, placed: spill.placed, spill };
}

/** The least total bytes of any plan of `stage` for `target`, over every split the spill could make. */
export function everySplitBound(stage: PlanStage, target: TargetProfile): number {
  if (!spillsOn(target)) return stageBounds(stage, target).reduce((sum, r) => sum + r.lowerBound, 0);
  const map = new Set(memoryMapOf(target).map((r) => r.name));
  const first = memoryMapOf(target)[0]!.name;
  const merge = (region: string | undefined) => (region !== undefined && map.has(region) ? first : region);
  const { problem, scratch } = stage.built;
  const built: BuiltProblem = {
    ...stage.built,
    problem: { ...problem, buffers: problem.buffers.map((b) => ({ ...b, region: merge(b.region) ?? first })) },
    scratch: scratch.map((q) => ({ ...q, region: merge(q.region)! })),
  };
  return stageBounds({ ...stage, built }, target).reduce((sum, r) => sum + r.lowerBound, 0);
}
