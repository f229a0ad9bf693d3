// The weights suggestion: a plan over its limits whose weights sit in a RAM
// region (loaded there, or copied there at start) planned again with the
// weights in flash, or in each other region. Moving weights does not lower
// the activations' peak as such, so, as a spill, it is judged by fit, not by
// bytes saved. Depends only on the planner.

import { formatBytes } from '../../shared/format';
import type { TargetProfile, WeightsHome, WeightsPlacement } from '../targets/target';
import type { FitReplan } from './suggest-spill';
import { applyTargetChange, changeArgs, type TargetChange } from './target-change';

/** What weightsSuggestions reads about the plan. */
export interface WeightsInput {
  readonly target: TargetProfile;
  readonly peak: number;
  readonly overBy: number; // bytes over the size limits, summed over the regions (weights counted in their region)
  readonly replanFit?: (target: TargetProfile) => FitReplan; // the plan with the changed target, in full
}

/** The fields of a weights suggestion (a Suggestion of kind 'weights'). */
export interface WeightsSuggestion {
  readonly kind: 'weights';
  readonly action: string;
  readonly saves: number;
  readonly args: readonly string[];
  readonly change: TargetChange;
  readonly fits: boolean;
}

/**
 * The placements tried for weights now in a region: flash first, then each
 * other region, copied there or loaded as they are now (never TensorFlow Lite
 * Micro's tensor arena, which it does not read weights from). None when the
 * weights are in flash already or the plan fits.
 */
export function weightsCandidates({ target, overBy, replanFit }: WeightsInput): WeightsPlacement[] {
  const now = target.planning.weights;
  if (replanFit === undefined || overBy <= 0 || now?.region === undefined) return [];
  const others = target.regions.filter((r) => r.name !== now.region && !(target.planning.runtime === 'tflm' && r.name === target.planning.activationRegion));
  return [{ copied: false }, ...others.map((r) => ({ region: r.name, copied: now.copied }))];
}

/**
 * The suggestion of `placement` for the weights when the plan with it is over
 * its limits by fewer bytes (fits, or comes closer): where they go, the verdict,
 * and the total peak where it moves (`saves` is the peak it lowers, negative
 * when the activations then take more).
 */
export function weightsSuggestion(input: WeightsInput, placement: WeightsPlacement): WeightsSuggestion[] {
  const now = input.target.planning.weights;
  const region = now?.region;
  if (now === undefined || region === undefined || input.replanFit === undefined) return [];
  const change: TargetChange = { weights: placement };
  const after = input.replanFit(applyTargetChange(input.target, change));
  if (after.overBy >= input.overBy) return [];
  const fits = after.overBy === 0;
  const verdict = fits ? 'the plan fits' : `the plan is ${formatBytes(after.overBy)} over its limits instead of ${formatBytes(input.overBy)}`;
  const total = after.peak === input.peak ? '' : `; the peak of the activations ${after.peak > input.peak ? 'rises' : 'falls'} to ${formatBytes(after.peak)}`;
  return [{ kind: 'weights', action: `${placementWords({ region, copied: now.copied }, placement, input.target.planning.weightsHome)}: ${verdict}${total}`, saves: input.peak - after.peak, args: changeArgs(change), change, fits }];
}

/** "keep the weights in flash instead of copying them to sram at start", "copy the weights to ext-ram at start instead of to sram". */
function placementWords(now: { readonly region: string; readonly copied: boolean }, to: WeightsPlacement, home: WeightsHome | undefined): string {
  const was = now.copied ? `copying them to ${now.region} at start` : `loading them in ${now.region}`;
  if (to.region === undefined) return `keep the weights ${home === 'runtime' ? 'outside the planned regions' : 'in flash'} instead of ${was}`;
  return to.copied ? `copy the weights to ${to.region} at start instead of to ${now.region}` : `keep the weights in ${to.region} instead of ${now.region}`;
}
