// The gap between a plan's peak and its bounds, like with like. A plan split
// between memories has two bounds: the least of any split (every memory as
// one) and the sum of each memory's own bound; its peak, the sum of the
// memories' peaks, is read against either, and the words name which. Shared
// by `plan`'s text and the page; depends only on the plan's types.

import type { ModelPlan } from './plan-types';

/** peak / bound - 1, 0 when both are 0. */
export function gapOf(peak: number, bound: number): number {
  return bound > 0 ? peak / bound - 1 : 0;
}

/** The sum of the region bounds, which the sum of the region peaks (the plan's peak) is to be read against. */
export function regionBoundSum(plan: Pick<ModelPlan, 'regions'>): number {
  return plan.regions.reduce((sum, r) => sum + r.lowerBound, 0);
}

/** Whether the plan's lower bound is not the sum of its regions' bounds: every memory as one, a bound on any split between them. */
export function boundOfEverySplit(plan: Pick<ModelPlan, 'lowerBound' | 'regions'>): boolean {
  return plan.regions.length > 1 && plan.lowerBound !== regionBoundSum(plan);
}
