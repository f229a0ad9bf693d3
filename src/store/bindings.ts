// What the user binds on the shown model besides the plan settings: symbolic
// dims, tensor shapes and graph-input values. Reading them back from an
// inferred model, changing one, and checking a value before it reaches the worker.

import type { InferredModel } from '../model/inferred';
import { TFLITE_FIXED_SHAPES_NOTE } from '../model/infer/tflite-shapes';
import type { ModelFormat } from '../model/ir';
import type { DimValues, InputValues, ModelBindings, ShapeValues } from '../worker/protocol';
import { nullRecord } from '../shared/own';
import { shortName } from '../shared/short-name';
import { MAX_DIM } from './dim-params';

/** Every binding, each kind present (empty when none). */
export interface Bindings extends ModelBindings {
  readonly dims: DimValues;
  readonly shapes: ShapeValues;
  readonly inputValues: InputValues;
}

/** No bindings at all. */
export const NO_BINDINGS: Bindings = { dims: {}, shapes: {}, inputValues: {} };

/** True when `value` can bind a symbolic dim or a shape's dim: a whole number from 0 to 2^31 - 1. */
export function isDimValue(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0 && value <= MAX_DIM;
}

/** The user's dim bindings recorded in an inferred model. */
export function userDims(model: InferredModel): DimValues {
  return Object.fromEntries(model.dims.filter((d) => d.source === 'user').map((d) => [d.name, d.value]));
}

/** Everything the user bound, as recorded in an inferred model. */
export function userBindings(model: InferredModel): Bindings {
  // A model inferred before shapes and input values existed lacks the fields.
  return { dims: userDims(model), shapes: model.shapes ?? {}, inputValues: model.inputValues ?? {} };
}

/** `record` with `name` set to `value`, or removed when `value` is undefined. */
export function withEntry<T>(record: Readonly<Record<string, T>>, name: string, value: T | undefined): Readonly<Record<string, T>> {
  // Names come from the file: a record without a prototype keeps `__proto__` a plain key.
  const next = nullRecord(Object.entries(record));
  if (value === undefined) delete next[name];
  else next[name] = value;
  return next;
}

/** Why no shape can be given to a tensor of a model in `format` (a .tflite keeps its file's), or undefined when one can. */
export function fixedShapesReason(format: ModelFormat | undefined): string | undefined {
  return format === 'tflite' ? TFLITE_FIXED_SHAPES_NOTE.charAt(0).toUpperCase() + TFLITE_FIXED_SHAPES_NOTE.slice(1) : undefined;
}

/** A binding field of the page, by the link parameter that sets it ('shape.x', 'input.sr'): what a binding refusal names as its cause. */
export type BindingField = `shape.${string}` | `input.${string}`;

/** Why a shape or an input value was refused: the sentence shown, and the field whose value caused it. */
export interface BindingRefusal {
  readonly message: string;
  readonly field: BindingField;
}

/** The field of tensor `name`'s shape. */
export function shapeField(name: string): BindingField {
  return `shape.${name}`;
}

/** The field of graph input `name`'s value. */
export function inputValueField(name: string): BindingField {
  return `input.${name}`;
}

/** Why `dims` cannot be the shape of tensor `name` of a model in `format`, or undefined when it can. */
export function shapeProblem(name: string, dims: readonly number[], format?: ModelFormat): BindingRefusal | undefined {
  const field = shapeField(name);
  const fixed = fixedShapesReason(format);
  if (fixed !== undefined) return { message: `Shape of "${shortName(name)}": ${fixed}`, field };
  const bad = dims.find((d) => !isDimValue(d));
  return bad === undefined ? undefined : { message: `Shape of "${shortName(name)}": every dim must be a whole number from 0 to ${MAX_DIM}, got ${bad}`, field };
}

/** Why `values` cannot be the value of graph input `name`, or undefined when they can. */
export function inputValueProblem(name: string, values: readonly number[]): BindingRefusal | undefined {
  const field = inputValueField(name);
  if (values.length === 0) return { message: `Value of "${shortName(name)}" needs at least one number`, field };
  const bad = values.find((v) => !Number.isFinite(v));
  return bad === undefined ? undefined : { message: `Value of "${shortName(name)}": every element must be a finite number, got ${bad}`, field };
}
