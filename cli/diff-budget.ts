// What `heapscope diff --budget` judges b by: its tensor arena to declare on
// TensorFlow Lite Micro, else its peak; whether that figure is a lower
// estimate; and the verdict. Depends only on the plan diff.

import type { PlanDiff } from '../src/planner/diff/diff-plans';

/**
 * What B needs: its tensor arena to declare when it is a plan of TensorFlow
 * Lite Micro (a budget is a firmware's arena), else its peak. The arena is the
 * file's as it is, what TFLM plans for the file flashed unchanged: a model
 * guarded in CI is the file given, not the file heapscope's plan would make
 * of it (`plannedAside` is that one's arena, said beside the verdict).
 */
export function bNeeds(diff: Pick<PlanDiff, 'peakB' | 'runtime'>): number {
  return diff.runtime?.b.arenaAsIs ?? diff.peakB;
}

/** B's arena with heapscope's plan written into the file, when it differs from the file's as it is (TFLM); else undefined. */
export function plannedAside(diff: Pick<PlanDiff, 'runtime'>): number | undefined {
  const b = diff.runtime?.b;
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
export function bLowerEstimate(diff: Pick<PlanDiff, 'completeB' | 'runtime'>): boolean {
  return diff.runtime === undefined ? !diff.completeB : diff.runtime.b.lowerEstimate;
}

/** Why B's figure is a lower estimate, in a few words. */
export function unknownWhy(diff: Pick<PlanDiff, 'runtime'>): string {
  return diff.runtime === undefined ? 'some sizes unknown' : "a kernel's scratch requests are not known, none assumed";
}

/**
 * B against the budget: over, within, or unknown when what B needs is a lower
 * estimate within the budget: the unknown is not counted as fitting (a size
 * known to pass 2^53 − 1 bytes is no unknown: over); refused
 * when TensorFlow Lite Micro refuses B, so that no arena, however large, works.
 */
export function budgetVerdict(diff: Pick<PlanDiff, 'peakB' | 'completeB' | 'runtime' | 'refusedB' | 'pastLimitB'>, budget: number): 'over' | 'within' | 'unknown' | 'refused' {
  if (diff.refusedB === true) return 'refused';
  // a tensor known to need more than 2^53 − 1 bytes is over any budget (at most 2^53 − 1), not a size unknown within it
  if (bNeeds(diff) > budget || diff.pastLimitB !== undefined) return 'over';
  return bLowerEstimate(diff) ? 'unknown' : 'within';
}
