// The dims a link or an embed's `dims` attribute binds that the model on
// screen does not have, in the words the page's link notice and the embed's
// notice both use: "the model has no dim nosuch (its dims: batch, h, w)", or
// for an input's axis what that axis is, as inference tells it.

import { dimByKey, noDimReason } from '../model/infer/dims';
import type { InferredModel } from '../model/inferred';

/** The entries of `dims` that bind no dim of `model`, each with why: [key, value, reason]. */
export function dimsNotInModel(model: InferredModel, dims: Readonly<Record<string, number>>): [string, number, string][] {
  const known = new Set(model.dims.map((d) => d.name));
  const inputs = model.inputs.flatMap((name) => model.values.find((v) => v.name === name) ?? []);
  return Object.entries(dims)
    .filter(([key]) => dimByKey(model.dims, key) === undefined)
    .map(([key, value]) => [key, value, noDimReason(key, inputs) ?? `the model has no dim ${key}${known.size === 0 ? '' : ` (its dims: ${[...known].join(', ')})`}`]);
}
