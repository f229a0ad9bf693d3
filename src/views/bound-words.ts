// Which bound a figure is measured from, in words that agree with the heap
// header: the lower bound ("bound", which holds for every plan) or the bound
// of the plan's own choices ("own": its split between the regions, its
// sharing), which a split plan's waste is measured from. Pure; tested in
// bound-words.test.ts.

import type { ModelPlan } from '../planner/plan';
import { formatBytes } from '../shared/format';

type BoundFacts = Pick<ModelPlan, 'peak' | 'lowerBound' | 'strategy' | 'regions' | 'waste'> & Partial<Pick<ModelPlan, 'strategyBound'>>;

/** The header's "own" bound, when it shows one: the strategy's own bound above the lower bound. */
export function shownOwn(plan: BoundFacts): number | undefined {
  return plan.strategyBound !== undefined && plan.strategyBound > plan.lowerBound ? plan.strategyBound : undefined;
}

/** The title of the header's "own" figure: what the bound is, and how it differs from the lower bound beside it. */
export function ownBoundTitle(plan: BoundFacts): string | undefined {
  const own = shownOwn(plan);
  if (own === undefined) return undefined;
  return `${plan.strategy}'s own bound, ${formatBytes(own)}: no plan that makes ${plan.strategy}'s choices (its split between the regions, the tensors it lets share bytes) can be smaller. The bound, ${formatBytes(plan.lowerBound)}, holds for every plan.`;
}

/**
 * The base of the waste line, after "<total> above ": the lower bound when the
 * regions' bounds add up to it; else the bound of this split (the regions'
 * bounds added up: the header's "own" when that is the same figure), with what
 * the split costs over the lower bound. Each names its figure with padding, and
 * the waste is on data bytes, the padding in the bound counted as waste.
 */
export function wasteBaseWords(plan: BoundFacts): string {
  const regionsBound = plan.regions.reduce((sum, r) => sum + r.lowerBound, 0);
  const padding = plan.waste.alignmentPadding;
  const onData = padding > 0 ? `, on data bytes (its ${formatBytes(padding)} of alignment padding counted as waste)` : '';
  if (regionsBound <= plan.lowerBound) return `the bound, ${formatBytes(plan.lowerBound)}${onData}`;
  const own = shownOwn(plan) === regionsBound ? ', "own" in the header' : '';
  return `the bound of this split between the regions, ${formatBytes(regionsBound)}${own}${onData}; the split itself keeps the plan ${formatBytes(regionsBound - plan.lowerBound)} above the bound of any split, ${formatBytes(plan.lowerBound)}`;
}
