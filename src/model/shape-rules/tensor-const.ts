// Shape rules for ops that create or convert constants: Constant, ConstantOfShape,
// Range, Cast, CastLike. Their values feed the shape arithmetic of exported
// models. Pure functions over TensorFacts; no DOM.

import type { DataTypeCode, IrTensor } from '../ir';
import { DT } from '../dtype';
import { tensorValues } from '../tensor-values';
import type { RuleContext, RuleResult, ShapeRule } from './types';
import { fail, inputFact, inputScalar, inputValue, makeFact, MAX_VALUE_ELEMENTS, requireInput, unknownDimsOf } from './tensor-facts';

/** Type names of Cast's `to` attribute before opset 6, when it was a string. */
const CAST_TYPE_NAMES: Readonly<Record<string, DataTypeCode>> = {
  FLOAT: DT.FLOAT,
  UINT8: DT.UINT8,
  INT8: DT.INT8,
  UINT16: DT.UINT16,
  INT16: DT.INT16,
  INT32: DT.INT32,
  INT64: DT.INT64,
  STRING: DT.STRING,
  BOOL: DT.BOOL,
  FLOAT16: DT.FLOAT16,
  DOUBLE: DT.DOUBLE,
  UINT32: DT.UINT32,
  UINT64: DT.UINT64,
};

const INTEGER_TYPES: ReadonlySet<DataTypeCode> = new Set([
  DT.UINT8, DT.INT8, DT.UINT16, DT.INT16, DT.INT32, DT.INT64, DT.UINT32, DT.UINT64, DT.UINT4, DT.INT4,
]);

/** Converts one number as Cast does: integers truncate toward zero, bool is 0 or 1, float32 rounds. */
export function castNumber(x: number, to: DataTypeCode): number {
  if (to === DT.BOOL) return x !== 0 ? 1 : 0;
  if (INTEGER_TYPES.has(to)) return Number.isFinite(x) ? Math.trunc(x) : 0;
  if (to === DT.FLOAT) return Math.fround(x);
  return x;
}

/** The fact of a constant tensor (a Constant's value, ConstantOfShape's fill...). */
export function tensorFact(tensor: IrTensor): ReturnType<typeof makeFact> {
  return makeFact(tensor.dtype, tensor.dims, tensorValues(tensor, MAX_VALUE_ELEMENTS));
}

function constantRule(ctx: RuleContext): RuleResult {
  const attr =
    ctx.attr('value') ?? ctx.attr('value_float') ?? ctx.attr('value_floats') ?? ctx.attr('value_int') ??
    ctx.attr('value_ints') ?? ctx.attr('value_string') ?? ctx.attr('value_strings') ?? ctx.attr('sparse_value');
  if (attr === undefined) fail('Constant has no value attribute');
  switch (attr.kind) {
    case 'tensor':
      return [tensorFact(attr.value)];
    case 'float':
      return [makeFact(DT.FLOAT, [], [attr.value])];
    case 'floats':
      return [makeFact(DT.FLOAT, [attr.value.length], attr.value)];
    case 'int':
      return [makeFact(DT.INT64, [], [attr.value])];
    case 'ints':
      return [makeFact(DT.INT64, [attr.value.length], attr.value)];
    case 'string':
      return [makeFact(DT.STRING, [])];
    case 'strings':
      return [makeFact(DT.STRING, [attr.value.length])];
    default:
      return fail(`Constant with a ${attr.kind} value (sparse tensors are not supported)`);
  }
}

function constantOfShapeRule(ctx: RuleContext): RuleResult {
  const fillAttr = ctx.attr('value');
  const fill = fillAttr?.kind === 'tensor' ? tensorFact(fillAttr.value) : makeFact(DT.FLOAT, [1], [0]);
  const shape = inputValue(ctx, 0);
  if (shape === undefined) {
    const rank = inputFact(ctx, 0)?.shape?.[0];
    const dims = unknownDimsOf(rank, 'ConstantOfShape shape length');
    return [{ ...makeFact(fill.dtype, dims), note: 'the ConstantOfShape shape is not a constant' }];
  }
  if (shape.some((dim) => dim < 0)) fail(`ConstantOfShape shape [${shape.join(', ')}] has a negative dim`);
  const count = shape.reduce((a, b) => a * b, 1);
  const element = fill.value?.[0];
  const value = element !== undefined && count <= MAX_VALUE_ELEMENTS ? new Array<number>(count).fill(element) : undefined;
  return [makeFact(fill.dtype, shape, value)];
}

function rangeRule(ctx: RuleContext): RuleResult {
  const start = requireInput(ctx, 0, 'start');
  const first = inputScalar(ctx, 0);
  const limit = inputScalar(ctx, 1);
  const delta = inputScalar(ctx, 2);
  if (first === undefined || limit === undefined || delta === undefined) {
    return [{ ...makeFact(start.dtype, [undefined]), note: 'the Range bounds are not constants' }];
  }
  if (delta === 0) fail('Range delta is 0');
  const count = Math.max(Math.ceil((limit - first) / delta), 0);
  const value = count <= MAX_VALUE_ELEMENTS ? Array.from({ length: count }, (_, i) => first + i * delta) : undefined;
  return [makeFact(start.dtype, [count], value)];
}

/** The target type of Cast: an int code from opset 6 on, a type name before. */
function castTarget(ctx: RuleContext): DataTypeCode {
  const attr = ctx.attr('to');
  if (attr?.kind === 'int') return attr.value;
  if (attr?.kind === 'string') {
    const code = CAST_TYPE_NAMES[attr.value.toUpperCase()];
    if (code === undefined) fail(`Cast to unknown type '${attr.value}'`);
    return code;
  }
  return fail('Cast has no `to` attribute');
}

function castTo(ctx: RuleContext, to: DataTypeCode | undefined): RuleResult {
  const input = requireInput(ctx, 0, 'input');
  const convertible = to !== undefined && to !== DT.STRING && input.dtype !== DT.STRING;
  const value = convertible ? input.value?.map((x) => castNumber(x, to)) : undefined;
  return [makeFact(to, input.shape, value)];
}

/** Shape rules for ops that create or convert constants. */
export const constOpRules: Readonly<Record<string, ShapeRule>> = {
  '::Constant': constantRule,
  '::ConstantOfShape': constantOfShapeRule,
  '::Range': rangeRule,
  '::Cast': (ctx) => castTo(ctx, castTarget(ctx)),
  '::CastLike': (ctx) => castTo(ctx, requireInput(ctx, 1, 'target_type').dtype),
};
