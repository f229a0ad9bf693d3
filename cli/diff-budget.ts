// What `heapscope diff --budget` judges b by: its tensor arena to declare on
// TensorFlow Lite Micro (whatever a is planned for), else its peak; whether that figure is a lower
// estimate; and the verdict. Depends only on the plan diff.

import type { PlanDiff, RuntimeArenaFigures } from '../src/planner/diff/diff-plans';

/**
 * B's tensor arena when B is a plan of TensorFlow Lite Micro, whatever side a
 * is planned for: from the both-sides `runtime`, else from `runtimeB`.
 */
export function bArena(diff: Pick<PlanDiff, 'runtime' | 'runtimeB'>): RuntimeArenaFigures | undefined {
  return diff.runtime?.b ?? diff.runtimeB;
}

/** The field that names what a budget judges of b on TensorFlow Lite Micro: `runtime.b.arenaAsIs`, or with a not a TFLM plan `runtimeB.arenaAsIs`; undefined when b is not one. */
export function bArenaField(diff: Pick<PlanDiff, 'runtime' | 'runtimeB'>): string | undefined {
  return diff.runtime !== undefined ? 'runtime.b.arenaAsIs' : diff.runtimeB !== undefined ? 'runtimeB.arenaAsIs' : undefined;
}

/**
 * What B needs: its tensor arena to declare when it is a plan of TensorFlow
 * Lite Micro (a budget is a firmware's arena), else its peak. The arena is the
 * file's as it is, what TFLM plans for the file flashed unchanged: a model
 * guarded in CI is the file given, not the file heapscope's plan would make
 * of it (`plannedAside` is that one's arena, said beside the verdict).
 */
export function bNeeds(diff: Pick<PlanDiff, 'peakB' | 'runtime' | 'runtimeB'>): number {
  return bArena(diff)?.arenaAsIs ?? diff.peakB;
}

/** B's arena with heapscope's plan written into the file, when it differs from the file's as it is (TFLM); else undefined. */
export function plannedAside(diff: Pick<PlanDiff, 'runtime' | 'runtimeB'>): number | undefined {
  const b = bArena(diff);
  return b === undefined || b.arena === b.arenaAsIs ? undefined : b.arena;
}

/**
 * Whether what B needs is a lower estimate. A TensorFlow Lite Micro arena is
 * one when a kernel's scratch requests are not known (none are assumed, as
 * `plan` says with "≥"); a size heapscope's inference left unknown does not
 * make it one: TFLM sizes every buffer from the file's shapes and types (a
 * type it cannot size refuses the plan). Any other peak is one when some size
 * is unknown (planned as 0 B).
 */
export function bLowerEstimate(diff: Pick<PlanDiff, 'completeB' | 'runtime' | 'runtimeB'>): boolean {
  const b = bArena(diff);
  return b === undefined ? !diff.completeB : b.lowerEstimate;
}

/** Why B's figure is a lower estimate, in a few words. */
export function unknownWhy(diff: Pick<PlanDiff, 'runtime' | 'runtimeB'>): string {
  return bArena(diff) === undefined ? 'some sizes unknown' : "a kernel's scratch requests are not known, none assumed";
}

/**
 * B against the budget: over, within, or unknown when what B needs is a lower
 * estimate within the budget: the unknown is not counted as fitting (a size
 * known to pass 2^53 − 1 bytes is no unknown: over); refused
 * when TensorFlow Lite Micro refuses B, so that no arena, however large, works.
 */
export function budgetVerdict(diff: Pick<PlanDiff, 'peakB' | 'completeB' | 'runtime' | 'runtimeB' | 'refusedB' | 'pastLimitB'>, budget: number): 'over' | 'within' | 'unknown' | 'refused' {
  if (diff.refusedB === true) return 'refused';
  // a tensor known to need more than 2^53 − 1 bytes is over any budget (at most 2^53 − 1), not a size unknown within it
  if (bNeeds(diff) > budget || diff.pastLimitB !== undefined) return 'over';
  return bLowerEstimate(diff) ? 'unknown' : 'within';
}
