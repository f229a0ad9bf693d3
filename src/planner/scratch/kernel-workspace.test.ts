// The kernel workspace ONNX Runtime's CPU kernels allocate for fused attention
// ops, estimated from the real models' attention nodes, and said in the plan
// when the target has no scratch rule for them.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel, InferredNode, InferredValue } from '../../model/inferred';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';
import { kernelWorkspace, uncountedWorkspace, workspaceDiagnostics, WORKSPACE_NOT_COUNTED } from './kernel-workspace';

const MODELS = join(__dirname, '../../../../shared/models');
const GPT2 = join(MODELS, 'tiny-random-gpt2-fp32-past.onnx');
const LLAMA = join(MODELS, 'tiny-llama-fp16/model.onnx');

function load(file: string, dims: Record<string, number>): InferredModel {
  return inferShapes(decodeOnnx(new Uint8Array(readFileSync(file))), { dims });
}

function workspaceOf(model: InferredModel, node: string) {
  const values = new Map(model.values.map((v) => [v.name, v]));
  return kernelWorkspace(model.nodes.find((n) => n.name === node)!, values);
}

describe.skipIf(!existsSync(GPT2))('GPT-2 (com.microsoft Attention, float32, 4 heads, hidden 32)', () => {
  it('is the Q/K/V projection, the causal mask, the attention probabilities and the output temp at seq_len=2048', () => {
    const w = workspaceOf(load(GPT2, { seq_len: 2048 }), 'GptAttention_0');
    // B=1, S=2048, past 0 so T=2048, N=4, weights [32, 96], output [1, 2048, 32], 4-byte floats:
    //   gemm_data        1 × 2048 × 96 × 4       =    786,432
    //   mask (causal)    1 × 2048 × 2048 × 4     = 16,777,216
    //   attention probs  1 × 4 × 2048 × 2048 × 4 = 67,108,864
    //   out_tmp          1 × 2048 × 32 × 4       =    262,144
    //   total                                    = 84,934,656 (81.0 MiB)
    expect(w).toMatchObject({ opType: 'com.microsoft::Attention', bytes: 84_934_656, lowerEstimate: false });
  });

  it('adds the past to T: seq_len=1 after a past of 2047 reads 2048 keys', () => {
    const w = workspaceOf(load(GPT2, { seq_len: 1, past_seq_len: 2047, total_seq_len: 2048 }), 'GptAttention_0');
    // S=1 so no causal mask, but attention_mask is given: mask 1 × 1 × 2048 × 4 = 8,192;
    // gemm 1 × 1 × 96 × 4 = 384; probs 1 × 4 × 1 × 2048 × 4 = 32,768; out_tmp 1 × 1 × 32 × 4 = 128; total 41,472
    expect(w?.bytes).toBe(41_472);
  });

  it('is said in the plan on cpu, which has no scratch rule for it, and not counted in its peak', () => {
    const model = load(GPT2, { seq_len: 2048 });
    const plan = planModel(model, presetTarget('cpu'));
    const note = plan.diagnostics.find((d) => d.code === WORKSPACE_NOT_COUNTED);
    expect(note?.message).toContain("kernel workspace not counted: 5 Attention operators (com.microsoft::Attention); ONNX Runtime's CPU kernel allocates about 81.0 MiB (84,934,656 B) for the largest, 'GptAttention_0'");
    expect(note?.message).toContain('add a scratch rule for com.microsoft::Attention to the target to plan it');
    expect(plan.assumptions.workspace).toHaveLength(5);
    expect(plan.peak).toBe(11_075_584); // the cpu preset's figures are unchanged
  });

  it('is not said for a target whose scratch rule plans it', () => {
    const values = new Map(load(GPT2, { seq_len: 8 }).values.map((v) => [v.name, v]));
    const model = load(GPT2, { seq_len: 8 });
    expect(uncountedWorkspace(model.nodes, values, new Set(['com.microsoft::Attention']))).toEqual([]);
  });
});

describe.skipIf(!existsSync(LLAMA))('tiny-llama (com.microsoft MultiHeadAttention, float16, 1 head of 16)', () => {
  it('is at least the attention probabilities and the output temp at sequence_length=2048', () => {
    const w = workspaceOf(load(LLAMA, { sequence_length: 2048 }), '/model/layers.0/attn/MultiHeadAttention');
    // B=1, S=2048, past 0 so T = present key's 2048, N=1, no key_padding_mask and not unidirectional (the causal
    // mask comes in as attention_bias, input 5), 2-byte halves:
    //   attention probs  1 × 1 × 2048 × 2048 × 2 = 8,388,608
    //   out_tmp          1 × 2048 × 16 × 2       =    65,536
    //   total                                    = 8,454,144 (8.06 MiB); Q/K/V copies not counted: at least
    expect(w).toMatchObject({ opType: 'com.microsoft::MultiHeadAttention', bytes: 8_454_144, lowerEstimate: true });
  });
});

describe('a workspace the shapes do not give', () => {
  const value = (name: string, shape: number[], bytes: number): InferredValue => ({ name, kind: 'activation', dtype: 1, dtypeName: 'float32', shape, bytes, producer: undefined, consumers: [] });
  const values = new Map([value('x', [1, 1, 32], 128), value('w', [32, 96], 12_288), value('past', [2, 1, 4, 2048, 8], 524_288), value('y', [1, 1, 32], 128), value('present', [2, 1, 4, 2048, 8], 524_288)].map((v) => [v.name, v]));
  const attention = (attributes: InferredNode['attributes']): InferredNode => ({ name: 'attn', opType: 'Attention', domain: 'com.microsoft', inputs: ['x', 'w', '', '', 'past'], outputs: ['y', 'present'], subgraphs: [], constant: false, attributes });

  it('is unknown, never 0, when the past and present share a buffer whose length read is a run-time input', () => {
    const w = kernelWorkspace(attention({ num_heads: 4, past_present_share_buffer: 1 }), values);
    expect(w).toMatchObject({ bytes: undefined, reason: expect.stringContaining('past_sequence_length') });
    expect(workspaceDiagnostics([w!])[0]!.message).toContain("ONNX Runtime's CPU kernel allocates workspace of unknown size for 'attn' (its past and present share a buffer");
  });

  it('is unknown without num_heads, and said so beside the sizes known', () => {
    const unknown = kernelWorkspace(attention({}), values)!;
    expect(unknown.bytes).toBeUndefined();
    // S=1 after a past of 2048: T = 2049; 1 × 96 × 4 + 4 × 1 × 2049 × 4 + 128 (output) = 33,296 B, no mask (S=1, none given)
    const known = kernelWorkspace(attention({ num_heads: 4 }), new Map([...values, ['present', value('present', [2, 1, 4, 2049, 8], 524_544)]]))!;
    expect(known.bytes).toBe(33_296);
    expect(workspaceDiagnostics([known, unknown])[0]!.message).toContain("about 32.5 KiB (33,296 B) for the largest known, 'attn' (the Q/K/V projection, batch × heads × S × T attention probabilities and the output before its transpose) and workspace of unknown size for 1 more, not in this plan");
  });
});
