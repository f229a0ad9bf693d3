// What a growth curve of the page can vary on a model, and how: its symbolic
// dims, and for graph inputs whose shape is fixed, the batch and the image
// size through shape overrides (as `--shape` would); the bindings at one value
// of an axis, the value on screen, and a default range around it. Pure: reads
// an inferred model, no DOM; the store, the views and the worker share it.

import type { InferredModel } from '../model/inferred';
import { SIZES_NOTHING } from '../model/infer/dims';
import { cacheOnlyDim } from '../planner/sweep/decode-step';
import { shortName } from '../shared/short-name';
import type { GrowthAxis, ModelBindings } from './protocol';

/** An axis the page offers, with what is on screen for it. */
export interface GrowthChoice {
  readonly key: string; // stable name of the axis (growthAxisName)
  readonly axis: GrowthAxis;
  readonly label: string; // for the menu: "seq_len", "data_0 batch", "data_0 image size" (names cut as every name from a file is)
  readonly current: number; // the value the plan on screen was made with
  readonly cache: boolean; // the dim only a decoder's KV-cache inputs carry: the past length (planner/sweep/decode-step.ts)
}

/** Why a TensorFlow Lite model's inputs are not offered, on the page and on the command line. */
export const TFLITE_FIXED_NOTE =
  "A TensorFlow Lite file states every tensor's shape and the runtime allocates them as stated, so its inputs' batch and image size are not offered: a new input shape would not reach the other tensors.";

/** Why nothing is offered for a TensorFlow Lite model planned as TensorFlow Lite Micro plans it, on the page and on the command line. */
export const TFLM_FIXED_NOTE =
  'On a target whose runtime is TensorFlow Lite Micro, the plan is of the shapes the file states (the runtime cannot resize a tensor): no dim changes it. Vary a dim on another target.';

/** The same of a TensorFlow Lite model with nothing to vary on any target: no advice to switch. */
const TFLM_NOTHING_NOTE =
  'On a target whose runtime is TensorFlow Lite Micro, the plan is of the shapes the file states (the runtime cannot resize a tensor): no dim changes it. Nothing to vary on any target either: the model has no symbolic dim.';

/** Largest value the page sweeps to: far past any real batch, sequence or image size, and small enough that every size stays exact. */
export const MAX_GROWTH_VALUE = 2 ** 20;

/** The axes a curve can vary, and why inputs that might look variable are not offered. */
export interface GrowthChoices {
  readonly choices: readonly GrowthChoice[];
  readonly notes: readonly string[]; // one sentence per input left out, or why there is nothing to vary
}

/** The axes of `model` a curve can vary, symbolic dims first, then the batch and image size of each fixed-shape input; none with `fixedShapes` (the target's runtime is TensorFlow Lite Micro) for a .tflite. */
export function growthChoices(model: InferredModel, fixedShapes = false): GrowthChoices {
  // another target is worth naming only when it offers an axis: a model with no symbolic dim has none on any
  if (fixedShapes && model.format === 'tflite') return { choices: [], notes: [growthChoices(model).choices.length > 0 ? TFLM_FIXED_NOTE : TFLM_NOTHING_NOTE] };
  const cacheDim = cacheOnlyDim(model)?.name;
  const tied = model.dims.flatMap((d) => (tiedDimReason(model, d.name) === undefined ? [] : [d.name]));
  const unsizing = model.dims.flatMap((d) => (unsizingDimReason(model, d.name) === undefined ? [] : [d.name]));
  const offered = model.dims.filter((d) => !tied.includes(d.name) && !unsizing.includes(d.name));
  const choices: GrowthChoice[] = offered.map((d) => ({ key: d.name, axis: { kind: 'dim', name: d.name }, label: shortName(d.name), current: d.value, cache: d.name === cacheDim }));
  const notes: string[] = [...tied.map((name) => `"${shortName(name)}" is not offered: ${tiedDimReason(model, name)!}.`), ...unsizing.map((name) => `"${shortName(name)}" is not offered: ${unsizingDimReason(model, name)!}.`)];
  const symbolic = new Set(model.dims.flatMap((d) => d.axes.map((a) => a.slice(0, a.lastIndexOf(':')))));
  if (model.format === 'tflite') {
    // Sizes come from the file's own shapes; there is no rule to carry a new input shape through the ops.
    if (model.inputs.length > 0) notes.push(TFLITE_FIXED_NOTE);
    if (choices.length === 0) notes.push('Nothing to vary: the model has no symbolic dim.');
    return { choices, notes };
  }
  for (const name of model.inputs) {
    const shape = model.values.find((v) => v.name === name && v.kind === 'input')?.shape;
    if (symbolic.has(name)) continue;
    if (shape === undefined || shape.length < 2 || shape.some((d) => d < 1)) {
      notes.push(`Input "${shortName(name)}" is not offered: ${shape === undefined ? 'its shape is unknown' : shape.length < 2 ? 'it has no batch axis (rank below 2)' : 'its shape has an empty axis'}.`);
      continue;
    }
    const add = (axes: readonly number[], what: 'batch' | 'image size'): void => {
      const axis: GrowthAxis = { kind: 'shape', input: name, axes, shape, what };
      choices.push({ key: growthAxisName(axis), axis, label: growthAxisLabel(axis), current: shape[axes[0]!]!, cache: false });
    };
    add([0], 'batch');
    const spatial = imageAxes(shape);
    if (spatial !== undefined) add(spatial, 'image size');
    else if (shape.length === 4) notes.push(`The image size of "${shortName(name)}" (${shape.join('×')}) is not offered: it is not a square image, so one value cannot say which side grows.`);
  }
  if (choices.length === 0 && unsizing.length === 0) notes.push('Nothing to vary: the model has no symbolic dim and no graph input with a fixed shape of rank 2 or more.');
  return { choices, notes };
}

/**
 * Why `dim` is no free axis of a curve, or undefined when it is one: the graph
 * ties it to other dims (a total length is the sequence plus the past length;
 * `sumOf`, or `derived` from dims the user gave), so a curve of it alone
 * would plan a length no run has at every point.
 */
export function tiedDimReason(model: InferredModel, dim: string): string | undefined {
  const binding = model.dims.find((d) => d.name === dim);
  if (binding === undefined || (binding.sumOf === undefined && binding.source !== 'derived')) return undefined;
  const parts = binding.sumOf ?? [];
  const sum = parts.length === 0 ? 'the dims it is derived from' : parts.map((p) => shortName(p)).join(' + ');
  const instead = parts.length === 0 ? 'those dims' : [...parts].reverse().map((p) => shortName(p)).join(' or ');
  return `the graph ties ${shortName(dim)} to ${sum}, so it cannot vary alone; sweep ${instead} instead`;
}

/**
 * Why a curve of `dim` would be flat however it grew: every axis it names has
 * a shape given (--shape, a link's shape), so no tensor's size follows it;
 * undefined when it sizes something.
 */
export function unsizingDimReason(model: InferredModel, dim: string): string | undefined {
  const binding = model.dims.find((d) => d.name === dim);
  if (binding?.sizesNothing !== true) return undefined;
  return `${shortName(dim)} ${SIZES_NOTHING} (${binding.axes.map((a) => shortName(a)).join(', ')}), so every value would plan alike; vary another dim, or leave that input's shape to the dims`;
}

/** Why a curve along `axis` is refused, or undefined when it can be planned (see tiedDimReason, unsizingDimReason). */
export function refusedGrowthAxis(model: InferredModel, axis: GrowthAxis): string | undefined {
  if (axis.kind !== 'dim') return undefined;
  const why = tiedDimReason(model, axis.name);
  if (why !== undefined) return `${shortName(axis.name)} is not a free axis: ${why}`;
  const unsizing = unsizingDimReason(model, axis.name);
  if (unsizing !== undefined) return unsizing;
  // a total given beside it would hold still while its part varies: every point would contradict the graph
  const held = model.dims.find((d) => d.source === 'user' && d.sumOf?.includes(axis.name) === true);
  if (held === undefined) return undefined;
  const total = shortName(held.name);
  return `${shortName(axis.name)} cannot vary while ${total}=${held.value} is given: the graph ties ${total} to ${held.sumOf!.map((p) => shortName(p)).join(' + ')}, so every point would contradict it; leave ${total} out and it follows them`;
}

/**
 * The axis a curve starts on: on a decoder with a KV cache, the dim its cache
 * inputs grow with (the past sequence length: a dim of the past inputs that
 * no other graph input has, so not the batch), the axis a decoder's memory
 * is judged by; elsewhere the first choice.
 */
export function defaultGrowthChoice(choices: readonly GrowthChoice[]): GrowthChoice | undefined {
  return choices.find((c) => c.cache) ?? choices[0];
}

/**
 * The height and width axes of a 4-D image input whose height equals its width:
 * NCHW when the channels (axis 1) are few, NHWC (TensorFlow Lite) when the last
 * axis is; undefined otherwise (not an image, or not a square one: varying one
 * number would not say which side grows).
 */
function imageAxes(shape: readonly number[]): readonly number[] | undefined {
  if (shape.length !== 4) return undefined;
  const few = (c: number): boolean => c <= 4;
  if (few(shape[1]!) && !few(shape[2]!) && shape[2] === shape[3]) return [2, 3];
  if (few(shape[3]!) && !few(shape[1]!) && shape[1] === shape[2]) return [1, 2];
  return undefined;
}

/** The axis as the command line's `sweep --dim` names it: the dim, or INPUT:AXIS[,AXIS]. */
export function growthAxisName(axis: GrowthAxis): string {
  return axis.kind === 'dim' ? axis.name : `${axis.input}:${axis.axes.join(',')}`;
}

/** The axis in words: the dim, or "INPUT batch" / "INPUT image size". */
export function growthAxisLabel(axis: GrowthAxis): string {
  return axis.kind === 'dim' ? shortName(axis.name) : `${shortName(axis.input)} ${axis.what}`;
}

/** `bindings` with `axis` at `value`: the dim bound, or the input's shape given with the swept axes at `value`. */
export function bindingsAt(axis: GrowthAxis, bindings: ModelBindings, value: number): ModelBindings {
  if (axis.kind === 'dim') return { ...bindings, dims: { ...bindings.dims, [axis.name]: value } };
  const shape = axis.shape.map((d, i) => (axis.axes.includes(i) ? value : d));
  return { ...bindings, shapes: { ...bindings.shapes, [axis.input]: shape } };
}

/** Where a curve of a decoder's cache length reaches at least: a context of a thousand tokens (GPT-2's whole one), where the cache starts to weigh. */
export const CACHE_GROWTH_TO = 1024;

/**
 * The range a curve starts with around `current`: from 1 (0 when the value on
 * screen is 0) up to eight times the power of two at or above it, at least 16,
 * or for a decoder's cache length (`cache`) at least CACHE_GROWTH_TO: its
 * default is 0, and 16 tokens of cache show no growth; an image size from a
 * quarter of it to four times it, in powers of two.
 */
export function defaultGrowthRange(axis: GrowthAxis, current: number, cache = false): { readonly from: number; readonly to: number } {
  const up = 2 ** Math.ceil(Math.log2(Math.max(1, current)));
  if (axis.kind === 'shape' && axis.what === 'image size') {
    const down = 2 ** Math.floor(Math.log2(Math.max(1, current)));
    return { from: Math.max(1, down / 4), to: Math.min(MAX_GROWTH_VALUE, up * 4) };
  }
  return { from: current === 0 ? 0 : 1, to: Math.min(MAX_GROWTH_VALUE, Math.max(cache ? CACHE_GROWTH_TO : 16, up * 8)) };
}

/** The value of `axis` the plan of `model` was made with; undefined when the model has no such dim or input. */
export function growthCurrent(model: InferredModel, axis: GrowthAxis): number | undefined {
  if (axis.kind === 'dim') return model.dims.find((d) => d.name === axis.name)?.value;
  return model.values.find((v) => v.name === axis.input && v.kind === 'input')?.shape?.[axis.axes[0]!];
}
