// The model card's weights and constants in words, as the plan on screen has
// them: a target that runs nodes computed from constants at each inference
// (TensorFlow Lite Micro runs a .tflite's DEQUANTIZE of a constant) stores only
// the other weights and plans those outputs with the activations; the card
// gives the weights the plan keeps (WeightStats leaves the run ones out) and
// says where the rest went. No DOM.

import { formatBytes, formatCount } from '../../shared/format';
import type { WeightStats } from '../../store/planned-selectors';

/** What the card shows for the weights and beside the count of tensors computed from constants. */
export interface WeightsWords {
  readonly value: string; // "113 · 208 KiB", "223 · ≥ 623 KiB"
  readonly note: string | undefined; // after the value, muted
  readonly constantsNote: string | undefined; // after "computed from constants", muted
}

/** The words for the model's weights `weights` under `plan` (its target; undefined before a plan). */
export function weightsWords(weights: WeightStats, plan: { readonly target: string } | undefined): WeightsWords {
  const unknown = weights.unknown > 0 ? [` (${formatCount(weights.unknown)} of unknown size)`] : [];
  const value = `${formatCount(weights.count)} · ${weights.unknown > 0 ? '≥ ' : ''}${formatBytes(weights.bytes)}`;
  if (weights.run > 0) {
    const on = plan === undefined ? '' : ` on ${plan.target}`;
    return {
      value,
      note: [weights.fromConstants > 0 ? ` incl. ${formatCount(weights.fromConstants)} from constants` : " the file's", ...unknown, `; ${formatCount(weights.run)} computed from constants are run at each inference${on}, planned with the activations`].join(''),
      constantsNote: ` · ${formatCount(weights.run)} run at each inference${on}, counted with the activations`,
    };
  }
  const parts = [...(weights.fromConstants > 0 ? [` incl. ${formatCount(weights.fromConstants)} from constants`] : []), ...unknown];
  return { value, note: parts.length === 0 ? undefined : parts.join(''), constantsNote: undefined };
}
