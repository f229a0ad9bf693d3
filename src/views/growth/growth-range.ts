// The range the user types into the Growth pane, checked: each end a whole
// number the sweep accepts, and 'from' below 'to'. One sentence names what is
// wrong, with the values as typed.

import { shortName } from '../../shared/short-name';
import { MAX_GROWTH_VALUE } from '../../worker/growth-axes';

/** The checked range, or the sentence that says why it is not one. */
export type GrowthRange = { readonly from: number; readonly to: number; readonly error?: undefined } | { readonly from: number; readonly to: number; readonly error: string };

/** `from`..`to` as typed, checked: one end not a whole number in range, or 'from' not below 'to', each its own sentence. */
export function checkGrowthRange(text: { readonly from: string; readonly to: string }): GrowthRange {
  const ends = { from: text.from.trim(), to: text.to.trim() };
  const from = Number(ends.from);
  const to = Number(ends.to);
  for (const end of ['from', 'to'] as const) {
    const typed = ends[end];
    const n = end === 'from' ? from : to;
    if (typed === '') return { from, to, error: `'${end}' is empty: give a whole number from 0 to ${MAX_GROWTH_VALUE}` };
    if (!Number.isSafeInteger(n) || n < 0 || n > MAX_GROWTH_VALUE) {
      return { from, to, error: `'${end}' (${shortName(typed)}) must be a whole number from 0 to ${MAX_GROWTH_VALUE}` };
    }
  }
  if (from >= to) return { from, to, error: `'from' (${from}) must be below 'to' (${to})` };
  return { from, to };
}
