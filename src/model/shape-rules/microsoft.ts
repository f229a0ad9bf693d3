// Shape rules for onnxruntime's com.microsoft contrib ops: attention and
// normalisation families (microsoft-*.ts), fused activations, fused and
// quantized matrix products, and fused variants of standard ops, which reuse
// the standard rules. Pure functions over TensorFacts; no DOM.

import { DT } from '../dtype';
import type { DataTypeCode } from '../ir';
import { broadcastShapes } from './broadcast';
import { convRules } from './conv';
import { attentionOpRules } from './microsoft-attention';
import { normOpRules } from './microsoft-norm';
import { matmulShape, nnRules } from './nn';
import { concatFacts } from './tensor-combine';
import { fail, guardRules, inputFact, makeFact, requireInput, requireShape } from './tensor-facts';
import type { Dim, RuleContext, RuleResult, RuleTable, ShapeRule, TensorFact } from './types';

/** Output with the shape and type of input `index` (activations, softmax variants). */
const sameAs =
  (index = 0): ShapeRule =>
  (ctx) => {
    const x = requireInput(ctx, index, 'input');
    return [makeFact(x.dtype, x.shape)];
  };

/** Broadcast of inputs `indices`, typed like the first (BiasGelu, QLinearAdd...). */
const broadcastOf =
  (...indices: number[]): ShapeRule =>
  (ctx) => {
    const facts = indices.map((i) => requireInput(ctx, i, `#${i}`));
    return [makeFact(facts[0]?.dtype, broadcastShapes(facts.map((fact) => fact.shape)))];
  };

/** A matrix product of inputs `a` and `b`, typed by `dtype`. */
const matmulOf =
  (a: number, b: number, dtype: (ctx: RuleContext) => DataTypeCode | undefined): ShapeRule =>
  (ctx) => {
    const left = requireShape(requireInput(ctx, a, 'A'), 'A');
    const right = requireShape(requireInput(ctx, b, 'B'), 'B');
    return [makeFact(dtype(ctx), matmulShape(left, right))];
  };

const typeOf =
  (index: number, fallback?: DataTypeCode) =>
  (ctx: RuleContext): DataTypeCode | undefined =>
    inputFact(ctx, index)?.dtype ?? fallback;

/** Swaps the last two dims (a transposed matrix operand). */
function transposedLast(shape: readonly Dim[]): Dim[] {
  if (shape.length < 2) return [...shape];
  return [...shape.slice(0, -2), shape[shape.length - 1], shape[shape.length - 2]];
}

/** FusedMatMul: alpha · op(A) · op(B) with optional transposes of the matrix axes. */
function fusedMatMulRule(ctx: RuleContext): RuleResult {
  const aFact = requireInput(ctx, 0, 'A');
  if (ctx.int('transBatchA', 0) !== 0 || ctx.int('transBatchB', 0) !== 0) {
    return { unknown: 'FusedMatMul with transBatchA/transBatchB is not supported' };
  }
  let a = requireShape(aFact, 'A');
  let b = requireShape(requireInput(ctx, 1, 'B'), 'B');
  if (ctx.int('transA', 0) !== 0) a = transposedLast(a);
  if (ctx.int('transB', 0) !== 0) b = transposedLast(b);
  return [makeFact(aFact.dtype, matmulShape(a, b))];
}

/** MatMulNBits: A (..., K) times a block-quantized (N, K) weight gives (..., N). */
function matMulNBitsRule(ctx: RuleContext): RuleResult {
  const aFact = requireInput(ctx, 0, 'A');
  const a = requireShape(aFact, 'A');
  const n = ctx.int('N', 0);
  if (n <= 0) fail('MatMulNBits needs a positive N');
  return [makeFact(aFact.dtype, [...a.slice(0, -1), n])];
}

/** BiasSplitGelu: (N, S, D) gives (N, S, D/2). */
function biasSplitGeluRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const shape = requireShape(x, 'X');
  const last = shape[shape.length - 1];
  return [makeFact(x.dtype, [...shape.slice(0, -1), last === undefined ? undefined : last / 2])];
}

/** BiasDropout: output like the data, optional boolean mask of the same shape. */
function biasDropoutRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'data');
  return [makeFact(x.dtype, x.shape), makeFact(DT.BOOL, x.shape)];
}

/** QLinearConcat: inputs are (Y_scale, Y_zero_point, then X, X_scale, X_zero_point per tensor). */
function qLinearConcatRule(ctx: RuleContext): RuleResult {
  const parts: TensorFact[] = [];
  for (let i = 2; i < ctx.node.inputs.length; i += 3) parts.push(requireInput(ctx, i, `#${i}`));
  if (parts.length === 0) fail('QLinearConcat has no tensors to join');
  return [concatFacts(parts, ctx.int('axis', 0))];
}

/** QLinearGlobalAveragePool: NCHW (or NHWC with channels_last) pooled to 1 on every spatial axis. */
function qLinearGlobalPoolRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const shape = requireShape(x, 'X');
  const channelsLast = ctx.int('channels_last', 0) !== 0;
  const channelAxis = channelsLast ? shape.length - 1 : 1;
  return [makeFact(x.dtype, shape.map((dim, i) => (i === 0 || i === channelAxis ? dim : 1)))];
}

/** Uses a standard ONNX rule for a fused contrib variant with the same inputs. */
function standard(table: RuleTable, opType: string): ShapeRule {
  return (ctx) => {
    const rule = table[`::${opType}`];
    if (rule === undefined) return { unknown: `no shape rule for ${opType}` };
    return rule(ctx);
  };
}

const RULES: Readonly<Record<string, ShapeRule>> = {
  ...attentionOpRules,
  ...normOpRules,
  FastGelu: sameAs(0),
  Gelu: sameAs(0),
  QuickGelu: sameAs(0),
  BiasGelu: broadcastOf(0, 1),
  BiasAdd: sameAs(0),
  BiasSplitGelu: biasSplitGeluRule,
  BiasSoftmax: sameAs(0),
  BiasDropout: biasDropoutRule,
  Inverse: sameAs(0),
  Trilu: sameAs(0),
  FusedMatMul: fusedMatMulRule,
  MatMulNBits: matMulNBitsRule,
  GemmFastGelu: matmulOf(0, 1, typeOf(0)),
  MatMulInteger16: matmulOf(0, 1, () => DT.INT32),
  MatMulIntegerToFloat: matmulOf(0, 1, typeOf(2, DT.FLOAT)),
  DynamicQuantizeMatMul: matmulOf(0, 1, typeOf(2, DT.FLOAT)),
  QOrderedMatMul: matmulOf(0, 2, () => DT.INT8),
  FusedConv: standard(convRules, 'Conv'),
  FusedGemm: standard(nnRules, 'Gemm'),
  QLinearAveragePool: standard(convRules, 'AveragePool'),
  QLinearAdd: broadcastOf(0, 3),
  QLinearMul: broadcastOf(0, 3),
  QLinearSigmoid: sameAs(0),
  QLinearLeakyRelu: sameAs(0),
  QLinearSoftmax: sameAs(0),
  QLinearConcat: qLinearConcatRule,
  QLinearGlobalAveragePool: qLinearGlobalPoolRule,
  QuantizeLinear: (ctx) => [makeFact(typeOf(2, DT.UINT8)(ctx), requireInput(ctx, 0, 'x').shape)],
  DequantizeLinear: (ctx) => [makeFact(typeOf(1, DT.FLOAT)(ctx), requireInput(ctx, 0, 'x').shape)],
};

/** Shape rules for com.microsoft contrib ops (plus SimplifiedLayerNormalization, which onnxruntime registers in the ONNX domain). */
export const microsoftRules: RuleTable = guardRules({
  ...Object.fromEntries(Object.entries(RULES).map(([op, rule]) => [`com.microsoft::${op}`, rule])),
  '::SimplifiedLayerNormalization': normOpRules.SimplifiedLayerNormalization ?? sameAs(0),
});
