// Shape rules for ONNX's experimental and removed ops still found in old exports:
// ImageScaler, Crop, Affine, ScaledTanh, ParametricSoftplus, Scale, ConstantFill,
// GivenTensorFill, FC, GRUUnit and DynamicSlice. Pure; no DOM, no ONNX protobuf types.

// Other legacy ops live with their modern family: ThresholdedRelu and
// MeanVarianceNormalization (every opset) in elementwise.ts, Upsample (every
// opset) in tensor-resize.ts. ATen has no rule: its shape depends on the ATen
// operator it names, so it stays an unknown with a diagnostic.

import { assert } from '../../shared/assert';
import { DT } from '../dtype';
import type { DataTypeCode } from '../ir';
import { foldElementwise } from './broadcast';
import { onnxTable } from './rule-helpers';
import { castNumber } from './tensor-const';
import {
  buildValues,
  fail,
  formatShape,
  guardRules,
  inputFact,
  isKnownShape,
  makeFact,
  MAX_VALUE_ELEMENTS,
  normalizeAxis,
  product,
  requireInput,
  requireShape,
  stridesOf,
  unknownDims,
  valueAt,
} from './tensor-facts';
import { indexOpRules } from './tensor-index';
import type { Dim, RuleContext, RuleResult, ShapeRule } from './types';

/** A float-list attribute, when present. */
function floatsAttr(ctx: RuleContext, name: string): readonly number[] | undefined {
  const attr = ctx.attr(name);
  return attr?.kind === 'floats' || attr?.kind === 'ints' ? attr.value : undefined;
}

/**
 * An element-wise op with the input's shape and dtype whose function depends on
 * float attributes; small constant values are folded through it.
 */
function scaledUnary(fn: (ctx: RuleContext) => (x: number) => number): ShapeRule {
  return (ctx) => {
    const x = requireInput(ctx, 0, 'input');
    const value = x.value === undefined ? undefined : foldElementwise([x.value], [x.shape], fn(ctx));
    return [makeFact(x.dtype, x.shape, value)];
  };
}

const affine = scaledUnary((ctx) => {
  const alpha = ctx.float('alpha', 1);
  const beta = ctx.float('beta', 0);
  return (x) => alpha * x + beta;
});

const scaledTanh = scaledUnary((ctx) => {
  const alpha = ctx.float('alpha', 1);
  const beta = ctx.float('beta', 1);
  return (x) => alpha * Math.tanh(beta * x);
});

const parametricSoftplus = scaledUnary((ctx) => {
  const alpha = ctx.float('alpha', 1);
  const beta = ctx.float('beta', 1);
  return (x) => alpha * Math.log1p(Math.exp(beta * x));
});

const scale = scaledUnary((ctx) => {
  const factor = ctx.float('scale', 1);
  return (x) => factor * x;
});

/** ImageScaler: scale × x + bias[channel] on an [N, C, H, W] image; shape and dtype of the input. */
function imageScalerRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'input');
  const shape = x.shape;
  if (shape !== undefined && shape.length !== 4) fail(`ImageScaler needs an [N, C, H, W] input, got ${formatShape(shape)}`);
  const bias = floatsAttr(ctx, 'bias');
  const channels = shape?.[1];
  if (bias !== undefined && channels !== undefined && bias.length !== channels) {
    fail(`ImageScaler bias [${bias.join(', ')}] has ${bias.length} values for ${channels} channels`);
  }
  const factor = ctx.float('scale', 1);
  let value: number[] | undefined;
  if (x.value !== undefined && isKnownShape(shape)) {
    const strides = stridesOf(shape);
    const data = x.value;
    value = buildValues(shape, (index) => {
      const element = valueAt(data, strides, index);
      return element === undefined ? undefined : factor * element + (bias?.[index[1] ?? 0] ?? 0);
    });
  }
  return [makeFact(x.dtype, shape, value)];
}

/**
 * One cropped axis: `kept` elements from `before` when the scale gives them,
 * else the input less both borders. Fails when the window leaves the image.
 */
function croppedAxis(size: Dim, before: number, after: number, kept: number | undefined, name: string): Dim {
  if (kept !== undefined) {
    if (kept < 0) fail(`Crop scale ${name} ${kept} is negative`);
    if (size !== undefined && before + kept > size) {
      fail(`Crop ${name} ${kept} from border ${before} runs past the input ${name} ${size}`);
    }
    return kept;
  }
  if (size === undefined) return undefined;
  const out = size - before - after;
  if (out < 0) fail(`Crop borders ${before} + ${after} are larger than the input ${name} ${size}`);
  return out;
}

/** Crop: border [left, top, right, bottom] and optional scale [height, width] on an [N, C, H, W] image. */
function cropRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'input');
  const shape = requireShape(x, 'Crop input');
  if (shape.length !== 4) fail(`Crop needs an [N, C, H, W] input, got ${formatShape(shape)}`);
  const border = ctx.ints('border') ?? [0, 0, 0, 0];
  if (border.length !== 4) fail(`Crop border [${border.join(', ')}] needs 4 values (left, top, right, bottom)`);
  if (border.some((b) => b < 0)) fail(`Crop border [${border.join(', ')}] has a negative value`);
  const scaleAttr = ctx.ints('scale');
  if (scaleAttr !== undefined && scaleAttr.length !== 2) fail(`Crop scale [${scaleAttr.join(', ')}] needs 2 values (height, width)`);
  const [left = 0, top = 0, right = 0, bottom = 0] = border;
  const [n, c, h, w] = shape;
  const height = croppedAxis(h, top, bottom, scaleAttr?.[0], 'height');
  const width = croppedAxis(w, left, right, scaleAttr?.[1], 'width');
  return [makeFact(x.dtype, [n, c, height, width])];
}

/** Fails unless every dim of a shape given in the file is a non-negative integer. */
function checkDims(dims: readonly number[], what: string): readonly number[] {
  if (dims.some((dim) => !Number.isInteger(dim) || dim < 0)) fail(`${what} [${dims.join(', ')}] has a negative or fractional dim`);
  return dims;
}

/** The output shape of a Caffe2-era fill, and why it is partly unknown. */
interface FillShape {
  readonly shape: readonly Dim[] | undefined;
  readonly note?: string;
}

/**
 * The shape of ConstantFill and GivenTensorFill: the `shape` attribute when
 * given; else from input 0 (its value with input_as_shape, its shape otherwise)
 * followed by the `extra_shape` dims.
 */
function fillShape(ctx: RuleContext): FillShape {
  const op = ctx.node.opType;
  const attrShape = ctx.ints('shape');
  if (attrShape !== undefined) return { shape: checkDims(attrShape, `${op} shape`) };
  const input = inputFact(ctx, 0);
  if (input === undefined) fail(`${op} needs a shape attribute or an input`);
  const extra = checkDims(ctx.ints('extra_shape') ?? [], `${op} extra_shape`);
  if (ctx.int('input_as_shape', 0) === 0) {
    return { shape: input.shape === undefined ? undefined : [...input.shape, ...extra] };
  }
  if (input.value !== undefined) return { shape: [...checkDims(input.value, `${op} shape input`), ...extra] };
  const rank = input.shape?.length === 1 ? input.shape[0] : undefined;
  return { shape: rank === undefined ? undefined : [...unknownDims(rank), ...extra], note: `the ${op} shape input is not a constant` };
}

/** A fill's fact: `fill` gives the value for `count` elements, kept only when small. */
function fillFact(dtype: DataTypeCode, { shape, note }: FillShape, fill: (count: number) => readonly number[] | undefined): RuleResult {
  const count = shape === undefined ? undefined : product(shape);
  const value = count !== undefined && count <= MAX_VALUE_ELEMENTS ? fill(count) : undefined;
  const fact = makeFact(dtype, shape, value);
  return [note === undefined ? fact : { ...fact, note }];
}

/** ConstantFill: the `dtype` attribute (float by default), every element `value`. */
function constantFillRule(ctx: RuleContext): RuleResult {
  const dtype = ctx.int('dtype', DT.FLOAT);
  const element = castNumber(ctx.float('value', 0), dtype);
  return fillFact(dtype, fillShape(ctx), (count) => new Array<number>(count).fill(element));
}

const FLOAT_TYPES: ReadonlySet<number> = new Set([DT.FLOAT16, DT.FLOAT, DT.DOUBLE]);

/** GivenTensorFill: float (or the float type of a data input), holding the `values` attribute. */
function givenTensorFillRule(ctx: RuleContext): RuleResult {
  const input = inputFact(ctx, 0);
  const asShape = ctx.int('input_as_shape', 0) !== 0;
  const dtype = !asShape && input?.dtype !== undefined && FLOAT_TYPES.has(input.dtype) ? input.dtype : DT.FLOAT;
  const values = floatsAttr(ctx, 'values');
  return fillFact(dtype, fillShape(ctx), (count) => (values?.length === count ? values : undefined));
}

/** FC: X coerced to [M, K] at `axis`, W to [N, K] at `axis_w`; Y is [M, N]. */
function fcRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const xShape = requireShape(x, 'FC input');
  const wShape = requireShape(requireInput(ctx, 1, 'W'), 'FC weight');
  const axis = normalizeAxis(ctx.int('axis', 1), xShape.length, 'FC axis');
  const axisW = normalizeAxis(ctx.int('axis_w', 1), wShape.length, 'FC axis_w');
  const k = product(xShape.slice(axis));
  const kW = product(wShape.slice(axisW));
  if (k !== undefined && kW !== undefined && k !== kW) {
    fail(`FC input ${formatShape(xShape)} gives K=${k} but weight ${formatShape(wShape)} gives K=${kW}`);
  }
  return [makeFact(x.dtype, [product(xShape.slice(0, axis)), product(wShape.slice(0, axisW))])];
}

/** GRUUnit: the new hidden state has the previous one's shape and type. */
function gruUnitRule(ctx: RuleContext): RuleResult {
  const hidden = requireInput(ctx, 0, 'hidden_prev');
  return [makeFact(hidden.dtype, hidden.shape)];
}

/** DynamicSlice: Slice with starts, ends and axes as inputs (what Slice became at opset 10). */
function dynamicSliceRule(ctx: RuleContext): RuleResult {
  const slice = indexOpRules['::Slice'];
  assert(slice !== undefined, 'the tensor rules have a Slice rule');
  return slice({ ...ctx, opset: Math.max(ctx.opset, 10) });
}

/** Shape rules for ONNX's experimental and removed ops. */
export const legacyRules = guardRules(
  onnxTable({
    ImageScaler: imageScalerRule,
    Crop: cropRule,
    Affine: affine,
    ScaledTanh: scaledTanh,
    ParametricSoftplus: parametricSoftplus,
    Scale: scale,
    ConstantFill: constantFillRule,
    GivenTensorFill: givenTensorFillRule,
    FC: fcRule,
    GRUUnit: gruUnitRule,
    DynamicSlice: dynamicSliceRule,
  }),
);
