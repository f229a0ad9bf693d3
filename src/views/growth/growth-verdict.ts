// What a finished growth curve says, in sentences: how many values were
// planned, where the plan stops fitting the size limits (a value whose plan
// has a size unknown is never counted as fitting), whether the peak only
// grows, and which values are lower estimates. No DOM.

import { fitsUpToText } from '../../planner/sweep/dim-sweep';
import { MAX_EXACT_POWER } from '../../shared/format';
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
  const counted = result !== undefined && limited ? ', not counted as fitting' : '';
  // a size past 2^53 − 1 bytes is known, too large: its values are named apart from those with a size unknown
  const unknownAt = open.filter((p) => p.pastLimit === undefined);
  const pastAt = open.filter((p) => p.pastLimit !== undefined);
  if (unknownAt.length > 0) {
    words.push(`Hollow dots (${unknownAt.map((p) => p.value).join(', ')}): some sizes are unknown there, so the peak is a lower estimate${counted}; first: ${unknownAt[0]!.unknown ?? 'unknown'}.`);
  }
  if (pastAt.length > 0) {
    const first = `'${pastAt[0]!.pastLimit!}' needs more than ${MAX_EXACT_POWER} bytes, over any size limit`;
    words.push(`Hollow dots (${pastAt.map((p) => p.value).join(', ')}): some sizes are too large there, planned as 0 bytes, so the peak is a lower estimate${counted}; first: ${first}.`);
  }
  return words;
}

/** The phrase with its first letter in upper case, to open a sentence. */
function capitalized(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
