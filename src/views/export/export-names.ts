// File names of the exports of one plan: the model's name without its
// extension, then what the file holds, e.g. "sample.batch-4.plan.json".

import { ownValue } from '../../shared/own';

/** The stem of every export of `model` planned with `dims`: "model.dim-value". */
export function exportStem(model: string, dims: Readonly<Record<string, number>>): string {
  const base = model.split(/[\\/]/).pop()!.replace(/\.(onnx|ort|json)$/i, '') || 'model';
  const parts = Object.keys(dims)
    .sort()
    .map((name) => `${name}-${ownValue(dims, name)}`);
  return [base, ...parts].join('.').replace(/[^\w.-]+/g, '_');
}
