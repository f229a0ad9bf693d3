// The model card's weights and constants in words, as the plan on screen has
// them: a target that runs the nodes computed from constants at each inference
// (TensorFlow Lite Micro runs a .tflite's DEQUANTIZE of a constant) stores only
// the file's weights and plans those outputs with the activations, so the card
// gives the plan's weights and says where the rest went. No DOM.

import { formatBytes, formatCount } from '../../shared/format';
import type { WeightStats } from '../../store/selectors';

/** What the card shows for the weights and beside the count of tensors computed from constants. */
export interface WeightsWords {
  readonly value: string; // "113 · 208 KiB", "223 · ≥ 623 KiB"
  readonly note: string | undefined; // after the value, muted
  readonly constantsNote: string | undefined; // after "computed from constants", muted
}

/**
 * The words for the model's weights `weights` under `plan` (its weights, its target, and the runtime's own plan when
 * the target is a runtime that runs a .tflite as the file has it: TFLite Micro; undefined before a plan).
 */
export function weightsWords(weights: WeightStats, plan: { readonly target: string; readonly weights: { readonly tensors: number; readonly bytes: number }; readonly runtimePlan?: unknown } | undefined): WeightsWords {
  const run = plan?.runtimePlan === undefined || weights.unknown > 0 ? 0 : weights.count - plan.weights.tensors;
  if (plan !== undefined && run > 0 && run <= weights.fromConstants) {
    return {
      value: `${formatCount(plan.weights.tensors)} · ${formatBytes(plan.weights.bytes)}`,
      note: ` the file's; ${formatCount(run)} computed from constants are run at each inference on ${plan.target}, planned with the activations`,
      constantsNote: ` · run at each inference on ${plan.target}, not stored`,
    };
  }
  const parts = [
    ...(weights.fromConstants > 0 ? [` incl. ${formatCount(weights.fromConstants)} from constants`] : []),
    ...(weights.unknown > 0 ? [` (${formatCount(weights.unknown)} of unknown size)`] : []),
  ];
  return { value: `${formatCount(weights.count)} · ${weights.unknown > 0 ? '≥ ' : ''}${formatBytes(weights.bytes)}`, note: parts.length === 0 ? undefined : parts.join(''), constantsNote: undefined };
}
