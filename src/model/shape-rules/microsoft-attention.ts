// Shape rules for com.microsoft attention ops (Attention, MultiHeadAttention,
// GroupQueryAttention, DecoderMaskedMultiHeadAttention, RotaryEmbedding), with
// their key/value cache ("present") outputs, after onnxruntime's contrib-op
// specs. Pure functions over TensorFacts; no DOM.

import type { Dim, RuleContext, RuleResult, ShapeRule, TensorFact } from './types';
import { fail, formatShape, inputFact, inputScalar, makeFact, requireInput, requireShape } from './tensor-facts';

function div(a: Dim, b: Dim): Dim {
  return a === undefined || b === undefined || b === 0 ? undefined : a / b;
}

function add(a: Dim, b: Dim): Dim {
  return a === undefined || b === undefined ? undefined : a + b;
}

function mul(a: Dim, b: Dim): Dim {
  return a === undefined || b === undefined ? undefined : a * b;
}

function requireRank(shape: readonly Dim[], ranks: readonly number[], what: string): void {
  if (!ranks.includes(shape.length)) fail(`${what} must have rank ${ranks.join(' or ')}, got ${formatShape(shape)}`);
}

/**
 * Attention (GPT-2/BERT style, fused QKV projection): output (B, S, v_hidden);
 * present (2, B, heads, past + S, head_size), or the past's shape when the
 * buffers are shared.
 */
function attentionRule(ctx: RuleContext): RuleResult {
  const input = requireInput(ctx, 0, 'input');
  const x = requireShape(input, 'Attention input');
  requireRank(x, [3], 'Attention input');
  const weights = requireShape(requireInput(ctx, 1, 'weights'), 'Attention weights');
  const bias = inputFact(ctx, 2)?.shape;
  const dtype = inputFact(ctx, 2)?.dtype ?? input.dtype;
  const sizes = ctx.ints('qkv_hidden_sizes');
  if (sizes !== undefined && sizes.length !== 3) fail('Attention qkv_hidden_sizes must have 3 values');
  const packed = bias?.[0] ?? weights[1];
  const hidden = sizes?.[0] ?? div(packed, 3);
  const vHidden = sizes?.[2] ?? div(packed, 3);
  const heads = ctx.int('num_heads', 0);
  if (heads <= 0) fail('Attention needs a positive num_heads');
  const outputs: TensorFact[] = [makeFact(dtype, [x[0], x[1], vHidden])];
  if (ctx.node.outputs.length > 1) {
    const past = inputFact(ctx, 4)?.shape;
    if (past !== undefined) requireRank(past, [5], 'Attention past');
    let present: Dim[] = [2, x[0], heads, x[1], div(hidden, heads)];
    if (past !== undefined) {
      present = ctx.int('past_present_share_buffer', 0) !== 0 ? [...past] : [past[0], past[1], past[2], add(past[3], x[1]), past[4]];
    }
    outputs.push(makeFact(dtype, present));
  }
  return outputs;
}

/** Present key/value of MultiHeadAttention: past + new keys, or the key itself when already BNSH. */
function mhaPresent(ctx: RuleContext, batch: Dim, heads: number, kvSeq: Dim, headSize: Dim, pastIndex: number): Dim[] {
  const past = inputFact(ctx, pastIndex)?.shape;
  if (past === undefined) return [batch, heads, kvSeq, headSize];
  requireRank(past, [4], 'past_key');
  if (ctx.int('past_present_share_buffer', 0) !== 0) return [...past];
  return [past[0], past[1], add(past[2], kvSeq), past[3]];
}

/**
 * MultiHeadAttention: query (B, S, hidden) or packed QKV (B, S, N, 3, H); key
 * (B, L, hidden), BNSH (B, N, L, H) or packed KV (B, L, N, 2, H); output
 * (B, S, v_hidden); present (B, N, past + L, H).
 */
function multiHeadAttentionRule(ctx: RuleContext, pastIndex: number): RuleResult {
  const query = requireInput(ctx, 0, 'query');
  const q = requireShape(query, 'query');
  requireRank(q, [3, 5], 'query');
  const heads = ctx.int('num_heads', 0);
  if (heads <= 0) fail(`${ctx.node.opType} needs a positive num_heads`);
  const key = inputFact(ctx, 1)?.shape;
  const value = inputFact(ctx, 2)?.shape;
  let vHidden: Dim;
  let kvSeq: Dim;
  let headSize: Dim;
  if (q.length === 5) {
    [vHidden, kvSeq, headSize] = [mul(q[2], q[4]), q[1], q[4]];
  } else if (key?.length === 5) {
    [vHidden, kvSeq, headSize] = [mul(key[2], key[4]), key[1], key[4]];
  } else if (key === undefined && value === undefined) {
    // Packed QKV along the hidden axis (DecoderMaskedMultiHeadAttention): (B, S, 3·hidden).
    vHidden = div(q[2], 3);
    [kvSeq, headSize] = [q[1], div(vHidden, heads)];
  } else {
    headSize = div(q[2], heads);
    kvSeq = key?.length === 4 ? key[2] : key?.[1];
    vHidden = value === undefined ? q[2] : value.length === 4 ? mul(value[1], value[3]) : value[2];
  }
  const outputs: TensorFact[] = [makeFact(query.dtype, [q[0], q[1], vHidden])];
  if (ctx.node.outputs.length > 1) {
    const present = key?.length === 4 ? [...key] : mhaPresent(ctx, q[0], heads, kvSeq, headSize, pastIndex);
    const valuePresent = value?.length === 4 ? [...value] : [...present.slice(0, 3), div(vHidden, heads)];
    outputs.push(makeFact(query.dtype, present), makeFact(query.dtype, valuePresent));
  }
  if (ctx.node.outputs.length > 3) {
    outputs.push(makeFact(query.dtype, [q[0], heads, q[1], outputs[1]?.shape?.[2]]));
  }
  return outputs;
}

/**
 * GroupQueryAttention: query (B, S, N·H) with key/value (B, S, Nkv·H), or packed
 * QKV (B, S, (N + 2·Nkv)·H); output (B, S, N·H); present (B, Nkv, T, H) with
 * T = max(past, total_sequence_length) as onnxruntime computes it.
 */
function groupQueryAttentionRule(ctx: RuleContext): RuleResult {
  const query = requireInput(ctx, 0, 'query');
  const q = requireShape(query, 'query');
  requireRank(q, [3], 'query');
  const heads = ctx.int('num_heads', 0);
  const kvHeads = ctx.int('kv_num_heads', 0);
  if (heads <= 0 || kvHeads <= 0) fail('GroupQueryAttention needs positive num_heads and kv_num_heads');
  const packed = inputFact(ctx, 2) === undefined;
  const headSize = div(q[2], packed ? heads + 2 * kvHeads : heads);
  const outputs: TensorFact[] = [makeFact(query.dtype, [q[0], q[1], mul(headSize, heads)])];
  if (ctx.node.outputs.length < 3) return outputs;
  const kvSeq = packed ? q[1] : inputFact(ctx, 2)?.shape?.[1];
  const total = inputScalar(ctx, 6);
  const pastFact = inputFact(ctx, 3);
  const past = pastFact?.shape;
  let present: TensorFact;
  if (past === undefined) {
    present = makeFact(query.dtype, [q[0], kvHeads, total ?? kvSeq, headSize]);
  } else {
    requireRank(past, [4], 'past_key');
    const shared = ctx.int('sliding_window_cache', 0) !== 0;
    const pastSeq = past[2];
    if (shared || (total !== undefined && pastSeq !== undefined)) {
      const seq = shared ? pastSeq : Math.max(pastSeq ?? 0, total ?? 0);
      present = makeFact(pastFact?.dtype, [past[0], past[1], seq, past[3]]);
    } else {
      // Without total_sequence_length, past + new keys bounds both the shared and the growing cache.
      const note = 'GroupQueryAttention: total_sequence_length is not a constant';
      present = { ...makeFact(pastFact?.dtype, [past[0], past[1], add(pastSeq, kvSeq), past[3]]), upperBound: true, note };
    }
  }
  outputs.push(present, present);
  if (ctx.node.outputs.length > 3) outputs.push(makeFact(query.dtype, [q[0], heads, q[1], total]));
  return outputs;
}

/** RotaryEmbedding (com.microsoft): the output has the input's shape. */
function rotaryEmbeddingRule(ctx: RuleContext): RuleResult {
  const input = requireInput(ctx, 0, 'input');
  return [makeFact(input.dtype, input.shape)];
}

/** Shape rules for com.microsoft attention ops, by op type. */
export const attentionOpRules: Readonly<Record<string, ShapeRule>> = {
  Attention: attentionRule,
  MultiHeadAttention: (ctx) => multiHeadAttentionRule(ctx, 6),
  DecoderMaskedMultiHeadAttention: (ctx) => multiHeadAttentionRule(ctx, 5),
  GroupQueryAttention: groupQueryAttentionRule,
  RotaryEmbedding: rotaryEmbeddingRule,
};
