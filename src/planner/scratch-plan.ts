// The placement of a model plan's buffers: activations by the chosen strategy,
// then scratch by M4 in the free areas, and also scratch planned together with
// the activations as one-step buffers, so the two can be compared; the target
// says which one the plan keeps. Depends only on the planner.

import { assignOffsets } from './assign-offsets';
import type { BuiltProblem } from './build-problem';
import { placeScratch, type ScratchVariant } from './place-scratch';
import { withPlacedScratch, withScratchBuffers, type FullProblem } from './scratch-merge';
import type { PlanOptions } from './strategies/strategy';
import type { ScratchSettings, TargetProfile } from './target';

/** How scratch was placed, and what the other way would have cost. */
export interface ScratchSummary {
  readonly placement: ScratchSettings['placement']; // the way the plan uses
  readonly buffers: number;
  readonly freeAreasPeak: number; // sum of region peaks with M4
  readonly withActivationsPeak: number; // sum of region peaks planning scratch with the activations
  readonly grown: number; // scratch buffers for which M4 grew a heap
  readonly variant: ScratchVariant; // M4's kept choice of sides
  readonly runs: number; // M4 variants tried
}

/** Every buffer of the plan with its offset. */
export interface PlacedPlan {
  readonly full: FullProblem;
  readonly offsets: readonly number[];
  readonly activationPeaks: ReadonlyMap<string, number>; // region peaks before M4; empty when not placed by M4
  readonly scratch: ScratchSummary | undefined; // undefined without scratch
}

/** Places activations, then scratch both ways; keeps the way the target asks for. */
export function placeAll(built: BuiltProblem, target: TargetProfile, strategy: string, planOptions?: PlanOptions): PlacedPlan {
  const activations = assignOffsets(built.problem, strategy, planOptions);
  if (built.scratch.length === 0) {
    return { full: { problem: built.problem, info: built.info }, offsets: activations.offsets, activationPeaks: new Map(), scratch: undefined };
  }
  const m4 = placeScratch({
    problem: built.problem,
    offsets: activations.offsets,
    regions: target.regions,
    requests: built.scratch,
    settings: target.scratch,
  });
  const merged = withPlacedScratch(built, activations.offsets, m4);
  const joint = withScratchBuffers(built);
  const jointPlan = assignOffsets(joint.problem, strategy, planOptions);
  const scratch: ScratchSummary = {
    placement: target.scratch.placement,
    buffers: built.scratch.length,
    freeAreasPeak: m4.heaps.reduce((sum, h) => sum + h.size, 0),
    withActivationsPeak: jointPlan.peak,
    grown: m4.placed.filter((p) => p.grown).length,
    variant: m4.variant,
    runs: m4.runs,
  };
  if (target.scratch.placement === 'with-activations') {
    return { full: joint, offsets: jointPlan.offsets, activationPeaks: new Map(), scratch };
  }
  const activationPeaks = new Map(m4.heaps.map((h) => [h.name, h.activationPeak]));
  return { full: merged, offsets: merged.offsets, activationPeaks, scratch };
}
