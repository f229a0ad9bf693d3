// Numpy-style multidirectional broadcasting of shapes, and element-wise constant
// folding of small broadcast values (shape arithmetic). Pure; no DOM.

import type { Dim } from './types';

/** Largest output, in elements, that element-wise folding computes. */
export const MAX_FOLD_ELEMENTS = 4096;

/**
 * Broadcasts one axis: a known size other than 1 wins; all-1 gives 1; an
 * unknown dim next to only 1s is unknown (it could be anything). Two different
 * known sizes other than 1 cannot broadcast: the axis is unknown.
 */
function broadcastAxis(dims: readonly Dim[]): Dim {
  let known: number | undefined;
  let sawUnknown = false;
  for (const d of dims) {
    if (d === undefined) sawUnknown = true;
    else if (d !== 1) {
      if (known !== undefined && known !== d) return undefined;
      known = d;
    }
  }
  if (known !== undefined) return known;
  return sawUnknown ? undefined : 1;
}

/**
 * The broadcast shape of several shapes (ONNX multidirectional broadcasting,
 * aligned on the trailing axis). Undefined when any input's rank is unknown;
 * unknown dims stay unknown unless another input fixes the axis to a size > 1.
 */
export function broadcastShapes(shapes: readonly (readonly Dim[] | undefined)[]): readonly Dim[] | undefined {
  let rank = 0;
  for (const s of shapes) {
    if (s === undefined) return undefined;
    rank = Math.max(rank, s.length);
  }
  const out: Dim[] = new Array<Dim>(rank);
  const column: Dim[] = [];
  for (let axis = 0; axis < rank; axis++) {
    column.length = 0;
    for (const s of shapes as readonly (readonly Dim[])[]) {
      const i = axis - (rank - s.length);
      if (i >= 0) column.push(s[i]);
    }
    out[axis] = broadcastAxis(column);
  }
  return out;
}

/** Row-major strides of `shape`, with 0 on broadcast (size-1) axes aligned to `outShape`. */
function broadcastStrides(shape: readonly number[], outShape: readonly number[]): number[] {
  const strides = new Array<number>(outShape.length).fill(0);
  let stride = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    const size = shape[i] as number;
    strides[outShape.length - shape.length + i] = size === 1 ? 0 : stride;
    stride *= size;
  }
  return strides;
}

/** Steps a row-major multi-index by one element, keeping each input's flat offset in step. */
function advance(index: number[], shape: readonly number[], strides: readonly number[][], offsets: number[]): void {
  for (let axis = index.length - 1; axis >= 0; axis--) {
    const size = shape[axis] as number;
    const next = (index[axis] as number) + 1;
    if (next < size) {
      index[axis] = next;
      for (let k = 0; k < offsets.length; k++) offsets[k] = (offsets[k] as number) + (strides[k]?.[axis] as number);
      return;
    }
    index[axis] = 0;
    for (let k = 0; k < offsets.length; k++) offsets[k] = (offsets[k] as number) - (size - 1) * (strides[k]?.[axis] as number);
  }
}

function isStatic(shape: readonly Dim[] | undefined): shape is readonly number[] {
  return shape !== undefined && shape.every((d) => d !== undefined);
}

function product(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/**
 * Folds an element-wise function over broadcast constant values. `values[i]` is
 * input i flattened row-major with shape `shapes[i]`. Undefined when a shape is
 * not fully known, a value's length disagrees with its shape, the shapes do not
 * broadcast, or the result is larger than MAX_FOLD_ELEMENTS.
 */
export function foldElementwise(
  values: readonly (readonly number[])[],
  shapes: readonly (readonly Dim[] | undefined)[],
  fn: (...xs: number[]) => number,
): number[] | undefined {
  if (values.length !== shapes.length || values.length === 0) return undefined;
  const staticShapes: (readonly number[])[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const s = shapes[i];
    if (!isStatic(s) || product(s) !== values[i]?.length) return undefined;
    staticShapes.push(s);
  }
  const outShape = broadcastShapes(staticShapes);
  if (!isStatic(outShape)) return undefined;
  const total = product(outShape);
  if (total > MAX_FOLD_ELEMENTS) return undefined;
  const strides = staticShapes.map((s) => broadcastStrides(s, outShape));
  const offsets = new Array<number>(values.length).fill(0);
  const index = new Array<number>(outShape.length).fill(0);
  const args = new Array<number>(values.length);
  const out = new Array<number>(total);
  for (let flat = 0; flat < total; flat++) {
    for (let k = 0; k < values.length; k++) args[k] = (values[k] as readonly number[])[offsets[k] as number] as number;
    out[flat] = fn(...args);
    advance(index, outShape, strides, offsets);
  }
  return out;
}
