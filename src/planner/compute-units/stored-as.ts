// Which tensors the compute-unit plan (M3) stores in another type than the
// model's, on which unit: the NPU's int8 where the model says float32. The
// plan's buffers carry it, so a size a quarter of shape × dtype says why.
// Depends only on the model's IR types and the planner.

import type { InferredGraph } from '../../model/inferred';
import type { Boundary } from './boundaries';
import type { TensorView } from './level-sizes';

/** A buffer stored in its compute unit's type rather than the model's. */
export interface StoredAs {
  readonly dtype: string; // the type the plan stores it in
  readonly unit: string; // the compute unit whose type that is
  readonly modelDtype: string; // the model's type
  readonly modelBytes: number; // shape × the model's type
}

/**
 * By buffer name: each tensor whose home view (producer's unit; a graph
 * input's first reader's) has another type than the model gives it, and each
 * copy buffer whose reader's view does.
 */
export function storedTypes(model: InferredGraph, homes: ReadonlyMap<string, TensorView>, boundaries: readonly Boundary[]): ReadonlyMap<string, StoredAs> {
  const byName = new Map(model.values.map((v) => [v.name, v]));
  const stored = new Map<string, StoredAs>();
  const add = (name: string, tensor: string, view: TensorView | undefined): void => {
    const value = byName.get(tensor);
    if (view === undefined || value?.bytes === undefined || view.dtype === value.dtypeName) return;
    stored.set(name, { dtype: view.dtype, unit: view.unit, modelDtype: value.dtypeName, modelBytes: value.bytes });
  };
  for (const [name, view] of homes) add(name, name, view);
  for (const b of boundaries) if (b.copy !== undefined) add(b.copy, b.tensor, b.reader);
  return stored;
}
