// The explanation's words for a plan over its limits: which memory grown alone
// would make it fit (as `plan` prints it under DOES NOT FIT), and what a plan
// at its lower bound still leaves open. Pure; tested in fit-words.test.ts.

import { planRefused } from '../../planner/assembly/assumptions';
import type { FitNeed, ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';

/**
 * The line of what would make `plan` fit, fitNeedsText of its fitNeeds (shown when it does not fit); undefined when it
 * has no such needs, or when TensorFlow Lite Micro refuses its model: no memory makes that fit.
 */
export function fitNeedsLine(plan: Pick<ModelPlan, 'fitNeeds' | 'runtimePlan'>, lowerEstimate = false): string | undefined {
  if (planRefused(plan) || (plan.fitNeeds ?? []).length === 0) return undefined;
  return fitNeedsText(plan.fitNeeds!, lowerEstimate);
}

/** "To fit needs 4.19 MiB more sram, or at least 1.2 MiB more ext-ram." */
export function fitNeedsText(needs: readonly FitNeed[], lowerEstimate = false): string {
  return `To fit needs ${needs.map((n) => `${n.atLeast || lowerEstimate ? 'at least ' : ''}${formatBytes(n.bytes)} more ${n.region}`).join(', or ')}.`;
}

/** What What to change found for a plan over its limits: a suggestion that makes it fit, none, or not yet known (still evaluating, or failed). */
export type FitSuggestions = 'fits' | 'none' | 'unknown';

/** What `list` offers a plan over its limits, once evaluated (`done`): a suggestion that makes it fit, or none. */
export function fitSuggestions(done: boolean, list: readonly { readonly fits?: boolean }[]): FitSuggestions {
  if (!done) return 'unknown';
  return list.some((s) => s.fits === true) ? 'fits' : 'none';
}

/**
 * The sentence for a plan at its lower bound: no placement of these buffers
 * is smaller; when it does not fit, the bound is of these settings only, so
 * the sentence says what What to change found (`found`), never pointing there
 * for a change it does not list; unless TensorFlow Lite Micro refuses the
 * model (`refused`), which no memory changes.
 */
export function atBoundText(fits: boolean, refused = false, found: FitSuggestions = 'unknown'): string {
  const base = 'Every region is at its lower bound: no placement of these buffers with these settings can be smaller.';
  if (fits) return base;
  // TensorFlow Lite Micro refuses the model: AllocateTensors() fails whatever the arena, so no memory makes it fit
  if (refused) return `${base} No memory makes it fit: TensorFlow Lite Micro refuses the model.`;
  if (found === 'fits') return `${base} Other settings make it fit (see What to change), as more memory would.`;
  if (found === 'none') return `${base} No other setting the planner tried makes it fit; more memory would.`;
  return `${base} Other settings may still make it fit, as more memory would.`;
}
