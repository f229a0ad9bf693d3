// Shape rules for dense and spatial-transform nn ops: Gemm, the MatMul family,
// Softmax/LogSoftmax/Hardmax, Attention and RotaryEmbedding (opset 23),
// Col2Im, GridSample, AffineGrid and SpaceToDepth. Pure; no DOM.

import { DT } from '../dtype';
import type { DataTypeCode } from '../ir';
import { broadcastShapes } from './broadcast';
import { einsumRule } from './einsum';
import { onnxTable } from './rule-helpers';
import { checkedRank, fail, guardRules, inputFact, inputValue, makeFact, requireInput, requireShape, unknownDims } from './tensor-facts';
import type { Dim, RuleContext, RuleResult, ShapeRule } from './types';

/** Gemm: A (M×K, or K×M with transA) times B (K×N, or N×K with transB) gives M×N. */
function gemmRule(ctx: RuleContext): RuleResult {
  const aFact = requireInput(ctx, 0, 'A');
  const a = requireShape(aFact, 'A');
  const b = requireShape(requireInput(ctx, 1, 'B'), 'B');
  if (a.length !== 2 || b.length !== 2) fail(`Gemm needs 2-D inputs, got ranks ${a.length} and ${b.length}`);
  const m = ctx.int('transA', 0) === 1 ? a[1] : a[0];
  const n = ctx.int('transB', 0) === 1 ? b[0] : b[1];
  return [makeFact(aFact.dtype, [m, n])];
}

/**
 * numpy.matmul shapes: 1-D operands are promoted (a row for A, a column for B)
 * and the added axis removed afterwards; batch axes broadcast.
 */
export function matmulShape(a: readonly Dim[], b: readonly Dim[]): Dim[] {
  if (a.length === 0 || b.length === 0) fail('MatMul does not take scalars');
  const a2 = a.length === 1 ? [1, a[0]] : a;
  const b2 = b.length === 1 ? [b[0], 1] : b;
  const batch = broadcastShapes([a2.slice(0, -2), b2.slice(0, -2)]) ?? [];
  const out: Dim[] = [...batch];
  if (a.length > 1) out.push(a2[a2.length - 2]);
  if (b.length > 1) out.push(b2[b2.length - 1]);
  return out;
}

/** MatMul-like: A at `aIndex`, B at `bIndex`, output type from `dtype`. */
function matmulLike(aIndex: number, bIndex: number, dtype: (ctx: RuleContext) => DataTypeCode | undefined): ShapeRule {
  return (ctx) => {
    const a = requireShape(requireInput(ctx, aIndex, 'A'), 'A');
    const b = requireShape(requireInput(ctx, bIndex, 'B'), 'B');
    return [makeFact(dtype(ctx), matmulShape(a, b))];
  };
}

/** Softmax and friends: the output has the input's shape and dtype. */
function sameAsInput(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'input');
  return [makeFact(x.dtype, x.shape)];
}

/** Col2Im: [N, C·∏block, L] with constant image_shape and block_shape gives [N, C, ...image_shape]. */
function col2ImRule(ctx: RuleContext): RuleResult {
  const xFact = requireInput(ctx, 0, 'input');
  const x = requireShape(xFact, 'input');
  const image = inputValue(ctx, 1);
  const block = inputValue(ctx, 2);
  const rank = image?.length ?? inputFact(ctx, 1)?.shape?.[0];
  if (rank === undefined) fail('rank of image_shape is unknown');
  const blockSize = block?.reduce((p, d) => p * d, 1);
  const channels = x[1] === undefined || blockSize === undefined ? undefined : x[1] / blockSize;
  const spatial: Dim[] = image ? [...image] : unknownDims(checkedRank(rank, 'image_shape length'));
  return [makeFact(xFact.dtype, [x[0], channels, ...spatial])];
}

/** GridSample: N and C from X, the output's spatial dims from the grid's middle axes. */
function gridSampleRule(ctx: RuleContext): RuleResult {
  const x = requireInput(ctx, 0, 'X');
  const grid = requireShape(requireInput(ctx, 1, 'grid'), 'grid');
  return [makeFact(x.dtype, [x.shape?.[0] ?? grid[0], x.shape?.[1], ...grid.slice(1, -1)])];
}

/** AffineGrid: the size input [N, C, (D,) H, W] gives a grid [N, (D,) H, W, 2 or 3]. */
function affineGridRule(ctx: RuleContext): RuleResult {
  const theta = requireInput(ctx, 0, 'theta');
  const size = inputValue(ctx, 1);
  const rank = size?.length ?? inputFact(ctx, 1)?.shape?.[0];
  if (rank === undefined) fail('length of the size input is unknown');
  const dims: Dim[] = size ? [...size] : unknownDims(checkedRank(rank, 'AffineGrid size length'));
  return [makeFact(theta.dtype, [dims[0], ...dims.slice(2), rank - 2])];
}

/** SpaceToDepth: [N, C·b², H/b, W/b]. */
function spaceToDepthRule(ctx: RuleContext): RuleResult {
  const xFact = requireInput(ctx, 0, 'input');
  const x = requireShape(xFact, 'input');
  const b = ctx.int('blocksize', 0);
  if (b <= 0 || x.length !== 4) fail('SpaceToDepth needs a 4-D input and a positive blocksize');
  const div = (d: Dim): Dim => (d === undefined ? undefined : Math.floor(d / b));
  return [makeFact(xFact.dtype, [x[0], x[1] === undefined ? undefined : x[1] * b * b, div(x[2]), div(x[3])])];
}

const add = (a: Dim, b: Dim): Dim => (a === undefined || b === undefined ? undefined : a + b);
const div = (a: Dim, b: Dim): Dim => (a === undefined || b === undefined || b === 0 ? undefined : a / b);

/**
 * Attention (opset 23). Q, K, V are 4-D [B, heads, seq, head_size] or 3-D
 * [B, seq, heads·head_size] (q_num_heads / kv_num_heads attributes). Outputs:
 * Y (Q's layout with V's head size), present key/value [B, kv_heads, past+seq,
 * head_size] and the optional QK matmul output [B, q_heads, q_seq, total_seq].
 */
function attentionRule(ctx: RuleContext): RuleResult {
  const qFact = requireInput(ctx, 0, 'Q');
  const q = requireShape(qFact, 'Q');
  const k = requireShape(requireInput(ctx, 1, 'K'), 'K');
  const v = requireShape(requireInput(ctx, 2, 'V'), 'V');
  const past = inputFact(ctx, 4)?.shape;
  const fourD = q.length === 4;
  const qHeads = fourD ? q[1] : ctx.int('q_num_heads', 0) || undefined;
  const kvHeads = k.length === 4 ? k[1] : ctx.int('kv_num_heads', 0) || undefined;
  const qSeq = fourD ? q[2] : q[1];
  const kvSeq = k.length === 4 ? k[2] : k[1];
  const headK = k.length === 4 ? k[3] : div(k[2], kvHeads);
  const headV = v.length === 4 ? v[3] : div(v[2], kvHeads);
  const total = past ? add(past[2], kvSeq) : kvSeq;
  const y: Dim[] = fourD ? [q[0], qHeads, qSeq, headV] : [q[0], qSeq, qHeads === undefined || headV === undefined ? undefined : qHeads * headV];
  const dtype = qFact.dtype;
  return [
    makeFact(dtype, y),
    makeFact(dtype, [q[0], kvHeads, total, headK]),
    makeFact(dtype, [q[0], kvHeads, total, headV]),
    makeFact(dtype, [q[0], qHeads, qSeq, total]),
  ];
}

const RULES: Readonly<Record<string, ShapeRule>> = {
  Gemm: gemmRule,
  MatMul: matmulLike(0, 1, (ctx) => inputFact(ctx, 0)?.dtype),
  MatMulInteger: matmulLike(0, 1, () => DT.INT32),
  QLinearMatMul: matmulLike(0, 3, (ctx) => inputFact(ctx, 7)?.dtype ?? inputFact(ctx, 0)?.dtype),
  Softmax: sameAsInput,
  LogSoftmax: sameAsInput,
  Hardmax: sameAsInput,
  RotaryEmbedding: sameAsInput,
  Einsum: einsumRule,
  Col2Im: col2ImRule,
  GridSample: gridSampleRule,
  AffineGrid: affineGridRule,
  SpaceToDepth: spaceToDepthRule,
  Attention: attentionRule,
};

/** Shape rules for dense nn ops. */
export const nnRules = guardRules(onnxTable(RULES));
