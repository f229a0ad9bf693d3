// Helpers for the element-wise, nn, reduce, recurrent and misc shape-rule
// families: table building, axes given by attribute or input, and sliding-window
// output sizes. Pure functions over TensorFacts; no DOM.

import { fail, inputFact } from './tensor-facts';
import type { Dim, RuleContext, ShapeRule } from './types';

/** Keys a record of rules by op type into the ONNX ('') domain. */
export function onnxTable(rules: Readonly<Record<string, ShapeRule>>): Record<string, ShapeRule> {
  return Object.fromEntries(Object.entries(rules).map(([op, rule]) => [`::${op}`, rule]));
}

/** Integer list given either by an attribute (older opsets) or an input (from `inputSince`). */
export type IntsSource =
  | { readonly kind: 'absent' } // neither attribute nor input: the op's default applies
  | { readonly kind: 'known'; readonly values: readonly number[] }
  | { readonly kind: 'unknown'; readonly count: number | undefined }; // input whose value is not constant

/**
 * Reads an integer list that moved from attribute `name` to input `index` at
 * opset `inputSince` (e.g. Reduce* axes, Split split, Unsqueeze axes).
 */
export function intsFromAttrOrInput(ctx: RuleContext, name: string, index: number, inputSince: number): IntsSource {
  if (ctx.opset < inputSince) {
    const values = ctx.ints(name);
    return values === undefined ? { kind: 'absent' } : { kind: 'known', values };
  }
  const fact = inputFact(ctx, index);
  if (fact === undefined) return { kind: 'absent' };
  if (fact.value !== undefined) return { kind: 'known', values: fact.value };
  return { kind: 'unknown', count: fact.shape?.length === 1 ? fact.shape[0] : undefined };
}

/** The n-element list attribute `name`, or `fill` repeated n times when absent. */
export function intsOr(ctx: RuleContext, name: string, n: number, fill: number): readonly number[] {
  const values = ctx.ints(name);
  if (values === undefined) return new Array<number>(n).fill(fill);
  if (values.length !== n) fail(`${name} has ${values.length} values, expected ${n}`);
  return values;
}

/** Sliding-window geometry of one spatial axis. */
export interface WindowAxis {
  readonly kernel: number;
  readonly stride: number;
  readonly dilation: number;
  readonly padBegin: number;
  readonly padEnd: number;
}

/** The sliding-window settings shared by Conv and the pools. */
export interface WindowSettings {
  readonly axes: readonly WindowAxis[];
  readonly autoPad: string; // NOTSET, SAME_UPPER, SAME_LOWER or VALID
  readonly ceilMode: boolean;
}

/** Reads kernel/strides/dilations/pads/auto_pad/ceil_mode for `kernel` (one entry per spatial axis). */
export function windowSettings(ctx: RuleContext, kernel: readonly number[]): WindowSettings {
  const n = kernel.length;
  const strides = intsOr(ctx, 'strides', n, 1);
  const dilations = intsOr(ctx, 'dilations', n, 1);
  const pads = intsOr(ctx, 'pads', 2 * n, 0);
  const axes = kernel.map((k, i) => ({
    kernel: k,
    stride: strides[i] ?? 1,
    dilation: dilations[i] ?? 1,
    padBegin: pads[i] ?? 0,
    padEnd: pads[i + n] ?? 0,
  }));
  return { axes, autoPad: ctx.string('auto_pad', 'NOTSET'), ceilMode: ctx.int('ceil_mode', 0) === 1 };
}

/**
 * Output size of one axis of a sliding window (Conv, pools): SAME pads to
 * ceil(in / stride), VALID uses no padding, NOTSET the explicit pads; with
 * ceil_mode the last partial window counts unless it would start in the end
 * padding. Undefined when the input size is unknown or the result is negative.
 */
export function windowOutput(size: Dim, axis: WindowAxis, autoPad: string, ceilMode: boolean): Dim {
  if (size === undefined) return undefined;
  const span = (axis.kernel - 1) * axis.dilation + 1;
  if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') return Math.ceil(size / axis.stride);
  const padded = autoPad === 'VALID' ? size : size + axis.padBegin + axis.padEnd;
  const round = ceilMode ? Math.ceil : Math.floor;
  let out = round((padded - span) / axis.stride) + 1;
  if (ceilMode && autoPad !== 'VALID' && (out - 1) * axis.stride >= size + axis.padBegin) out -= 1;
  return out >= 0 ? out : undefined;
}
