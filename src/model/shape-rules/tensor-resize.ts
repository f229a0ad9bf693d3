// Shape rules for ops that resample or rearrange a tensor: Resize (scales or sizes,
// axes, keep_aspect_ratio_policy), Upsample of every opset, DepthToSpace and OneHot.
// Pure functions over TensorFacts; no DOM.

import type { Dim, RuleContext, RuleResult, ShapeRule } from './types';
import {
  fail,
  formatShape,
  inputFact,
  inputScalar,
  inputValue,
  makeFact,
  normalizeAxes,
  normalizeAxis,
  requireInput,
  requireShape,
} from './tensor-facts';

/** Rounds half to even, as the ONNX reference implementation does for aspect-ratio sizes. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** A Resize input counts as given only when named and not an empty tensor. */
function given(ctx: RuleContext, index: number): boolean {
  const fact = inputFact(ctx, index);
  return fact !== undefined && !(fact.shape?.length === 1 && fact.shape[0] === 0);
}

/** Output dims from explicit sizes, applying keep_aspect_ratio_policy over the resized axes. */
function dimsFromSizes(ctx: RuleContext, shape: readonly Dim[], axes: readonly number[], sizes: readonly number[]): Dim[] {
  const out: Dim[] = [...shape];
  const policy = ctx.string('keep_aspect_ratio_policy', 'stretch');
  if (policy === 'stretch') {
    axes.forEach((axis, i) => (out[axis] = sizes[i]));
    return out;
  }
  if (policy !== 'not_larger' && policy !== 'not_smaller') fail(`unknown keep_aspect_ratio_policy '${policy}'`);
  const ratios = axes.map((axis, i) => {
    const dim = shape[axis];
    return dim === undefined ? undefined : (sizes[i] ?? 0) / dim;
  });
  if (ratios.some((ratio) => ratio === undefined)) {
    axes.forEach((axis) => (out[axis] = undefined));
    return out;
  }
  const known = ratios as number[];
  const scale = policy === 'not_larger' ? Math.min(...known) : Math.max(...known);
  axes.forEach((axis) => (out[axis] = roundHalfEven(scale * (shape[axis] ?? 0))));
  return out;
}

/** Output dims from scales: floor(dim × scale), times the roi extent for tf_crop_and_resize. */
function dimsFromScales(ctx: RuleContext, shape: readonly Dim[], axes: readonly number[], scales: readonly number[]): Dim[] {
  const out: Dim[] = [...shape];
  const crop = ctx.string('coordinate_transformation_mode', 'half_pixel') === 'tf_crop_and_resize';
  const roi = crop ? inputValue(ctx, 1) : undefined;
  axes.forEach((axis, i) => {
    const dim = shape[axis];
    const extent = roi === undefined ? 1 : (roi[i + axes.length] ?? 1) - (roi[i] ?? 0);
    const unknownRoi = crop && roi === undefined;
    out[axis] = dim === undefined || unknownRoi ? undefined : Math.floor(dim * extent * (scales[i] ?? 1));
  });
  return out;
}

function resizeRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'X');
  const shape = requireShape(data, 'Resize input');
  const rank = shape.length;
  const axesAttr = ctx.opset >= 18 ? ctx.ints('axes') : undefined;
  const axes = axesAttr === undefined ? shape.map((_, i) => i) : normalizeAxes(axesAttr, rank, 'Resize axes');
  const scalesIndex = ctx.opset < 11 ? 1 : 2;
  const useSizes = ctx.opset >= 11 && given(ctx, 3);
  const values = inputValue(ctx, useSizes ? 3 : scalesIndex);
  if (!useSizes && !given(ctx, scalesIndex)) fail('Resize needs scales or sizes');
  if (values === undefined) {
    const out = shape.map((dim, axis) => (axes.includes(axis) ? undefined : dim));
    return [{ ...makeFact(data.dtype, out), note: `the Resize ${useSizes ? 'sizes' : 'scales'} are not constants` }];
  }
  if (values.length !== axes.length) fail(`Resize ${useSizes ? 'sizes' : 'scales'} [${values.join(', ')}] do not match ${axes.length} axes`);
  const out = useSizes ? dimsFromSizes(ctx, shape, axes, values) : dimsFromScales(ctx, shape, axes, values);
  return [makeFact(data.dtype, out)];
}

/** A list-of-floats attribute, when present. */
function floatsAttr(ctx: RuleContext, name: string): readonly number[] | undefined {
  const attr = ctx.attr(name);
  return attr?.kind === 'floats' || attr?.kind === 'ints' ? attr.value : undefined;
}

/**
 * The Upsample scales by opset: height_scale and width_scale on an NCHW input
 * (1–6), the `scales` attribute (7–8), the `scales` input (9+). Undefined when
 * the input is not a constant.
 */
function upsampleScales(ctx: RuleContext, rank: number): readonly number[] | undefined {
  if (ctx.opset >= 9) {
    if (inputFact(ctx, 1) === undefined) fail('Upsample needs its scales input');
    return inputValue(ctx, 1);
  }
  if (ctx.opset >= 7) return floatsAttr(ctx, 'scales') ?? fail('Upsample needs a scales attribute');
  if (rank !== 4) fail(`Upsample (opset ${ctx.opset}) needs an [N, C, H, W] input, got rank ${rank}`);
  if (ctx.attr('height_scale') === undefined || ctx.attr('width_scale') === undefined) {
    fail(`Upsample (opset ${ctx.opset}) needs height_scale and width_scale`);
  }
  return [1, 1, ctx.float('height_scale', 1), ctx.float('width_scale', 1)];
}

function upsampleRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'X');
  const shape = requireShape(data, 'Upsample input');
  const scales = upsampleScales(ctx, shape.length);
  if (scales === undefined) return [{ ...makeFact(data.dtype, shape.map(() => undefined)), note: 'the Upsample scales are not constants' }];
  if (scales.length !== shape.length) fail(`Upsample scales [${scales.join(', ')}] do not match rank ${shape.length}`);
  // Every opset requires scales >= 1; ONNX Runtime refuses smaller ones.
  if (scales.some((s) => !(s >= 1) || !Number.isFinite(s))) fail(`Upsample scales [${scales.join(', ')}] must each be at least 1`);
  const out = shape.map((dim, i) => (dim === undefined ? undefined : Math.floor(dim * (scales[i] ?? 1))));
  return [makeFact(data.dtype, out)];
}

function depthToSpaceRule(ctx: RuleContext): RuleResult {
  const data = requireInput(ctx, 0, 'input');
  const shape = requireShape(data, 'DepthToSpace input');
  if (shape.length !== 4) fail(`DepthToSpace needs a rank-4 input, got ${formatShape(shape)}`);
  const block = ctx.int('blocksize', 0);
  if (block <= 0) fail('DepthToSpace needs a positive blocksize');
  const [n, c, h, w] = shape;
  if (c !== undefined && c % (block * block) !== 0) fail(`DepthToSpace channels ${c} are not divisible by ${block * block}`);
  const scaled = (dim: Dim): Dim => (dim === undefined ? undefined : dim * block);
  return [makeFact(data.dtype, [n, c === undefined ? undefined : c / (block * block), scaled(h), scaled(w)])];
}

function oneHotRule(ctx: RuleContext): RuleResult {
  const indices = requireInput(ctx, 0, 'indices');
  const values = requireInput(ctx, 2, 'values');
  const depth = inputScalar(ctx, 1);
  if (indices.shape === undefined) return [makeFact(values.dtype, undefined)];
  const rank = indices.shape.length + 1;
  const axis = normalizeAxis(ctx.int('axis', -1), rank, 'OneHot axis');
  const out: Dim[] = [...indices.shape];
  out.splice(axis, 0, depth === undefined ? undefined : Math.trunc(depth));
  const fact = makeFact(values.dtype, out);
  return [depth === undefined ? { ...fact, note: 'the OneHot depth is not a constant' } : fact];
}

/** Shape rules for resampling and rearranging ops. */
export const resizeOpRules: Readonly<Record<string, ShapeRule>> = {
  '::Resize': resizeRule,
  '::Upsample': upsampleRule,
  '::DepthToSpace': depthToSpaceRule,
  '::OneHot': oneHotRule,
};
