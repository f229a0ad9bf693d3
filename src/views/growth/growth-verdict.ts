// What a finished growth curve says, in sentences: how many values were
// planned, where the plan stops fitting the size limits (a value whose plan
// has a size unknown is never counted as fitting), whether the peak only
// grows, and which values are lower estimates. No DOM.

import { fitsUpToText } from '../../planner/sweep/dim-sweep';
import type { GrowthState } from '../../store/state';

/** What a finished curve says, in sentences. */
export function growthVerdict(growth: Pick<GrowthState, 'points' | 'values' | 'result'>, dim: string, limited: boolean): string[] {
  const result = growth.result;
  const words = [`${growth.points.length} values of ${dim} planned, each as a click would plan it (default search budget).`];
  const open = growth.points.filter((p) => !p.complete);
  if (result !== undefined && limited) {
    const last = growth.values[growth.values.length - 1];
    const unsure = open.some((p) => p.fits);
    words.push(
      result.fitsUpTo === undefined
        ? `No value from ${growth.values[0]} ${unsure ? 'is known to fit' : 'fits'} the size limits.`
        : `${capitalized(fitsUpToText(dim, result.fitsUpTo, last))}.`,
    );
  }
  if (result !== undefined && !result.monotonic) words.push('Not monotonic: the peak falls somewhere as the value grows.');
  if (open.length > 0) {
    const counted = result !== undefined && limited ? ', not counted as fitting' : '';
    words.push(`Hollow dots (${open.map((p) => p.value).join(', ')}): some sizes are unknown there, so the peak is a lower estimate${counted}; first: ${open[0]!.unknown ?? 'unknown'}.`);
  }
  return words;
}

/** The phrase with its first letter in upper case, to open a sentence. */
function capitalized(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
