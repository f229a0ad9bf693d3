// The decode step a sweep of a decoder's cache length is planned as: when the
// swept dim sizes only the KV-cache inputs (the past sequence length), the new
// tokens' length is bound to 1 unless the user gave it, as a decoder runs once
// per token with the cache holding the rest. Left at its default (a prefill of
// 128 tokens), the attention mask the graph builds for 128 queries cannot
// take a cache, so every point but the first is a lower estimate. Shared by
// the page's Growth view and the command line's `sweep`. Reads an inferred
// model only.

import type { DimBinding, InferredModel } from '../../model/inferred';
import { kvCaches } from '../problem/kv-cache';

/** The new tokens' length of a decode step. */
export const DECODE_STEP_LENGTH = 1;

/** The rule text the model layer gives a defaulted sequence dim (model/infer/dims.ts), raised or not. */
const SEQUENCE_RULE = 'sequence axis';

/** A dim a sweep binds beyond the swept one, and why. */
export interface SweepAssumedDim {
  readonly name: string; // the dim bound at every point
  readonly value: number; // its value at every point
  readonly shown: number; // its value in the plan the sweep started from (the default)
  readonly reason: string; // in words
}

/** The dim a decoder's KV-cache inputs grow with: one whose axes are all axes of cache inputs (so not the batch); undefined without a cache. */
export function cacheOnlyDim(model: InferredModel): DimBinding | undefined {
  const pasts = kvCaches(model).byPast;
  if (pasts.size === 0) return undefined;
  const inputOf = (axis: string): string => axis.slice(0, axis.lastIndexOf(':'));
  return model.dims.find((d) => d.axes.length > 0 && d.axes.every((a) => pasts.has(inputOf(a))));
}

/**
 * The sequence dim a sweep of `dim` over `model` binds to 1, a decode step:
 * when `dim` is the cache-only dim and the sequence dim is still its default
 * (the user gave no value); undefined otherwise.
 */
export function decodeStepDim(model: InferredModel, dim: string): SweepAssumedDim | undefined {
  if (cacheOnlyDim(model)?.name !== dim) return undefined;
  const sequence = model.dims.find((d) => d.name !== dim && d.source === 'default' && d.rule.startsWith(SEQUENCE_RULE));
  if (sequence === undefined) return undefined;
  return {
    name: sequence.name,
    value: DECODE_STEP_LENGTH,
    shown: sequence.value,
    reason: `a decode step: one new token, with ${dim} tokens in the cache`,
  };
}

/** `dims` with the decode step's binding added, when there is one. */
export function withDecodeStep(dims: Readonly<Record<string, number>>, step: SweepAssumedDim | undefined): Readonly<Record<string, number>> {
  return step === undefined ? dims : { ...dims, [step.name]: step.value };
}
