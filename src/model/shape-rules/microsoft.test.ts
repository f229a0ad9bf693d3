import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { microsoftRules } from './microsoft';
import type { RunOptions } from '../testing/shape-rule-context';
import { attr, f32, fact, factsOf, firstFact, i64, runRule } from '../testing/shape-rule-context';

const ms = (op: string, options: RunOptions) => runRule(microsoftRules, op, { domain: 'com.microsoft', opset: 1, ...options });
const shapes = (op: string, options: RunOptions) => factsOf(ms(op, options)).map((f) => f?.shape);
const int32Scalar = (value?: number) => fact(DT.INT32, [], value === undefined ? undefined : [value]);

describe('Attention', () => {
  const inputs = [f32([1, 3, 32]), f32([32, 96]), f32([96]), fact(DT.INT32, [1, 8])];

  it('grows the present cache by the sequence (GPT-2 with past)', () => {
    const result = shapes('Attention', { inputs: [...inputs, f32([2, 1, 4, 5, 8])], attrs: { num_heads: attr.int(4) }, outputs: 2 });
    expect(result).toEqual([[1, 3, 32], [2, 1, 4, 8, 8]]);
  });

  it('keeps the past shape when past and present share a buffer', () => {
    const attrs = { num_heads: attr.int(4), past_present_share_buffer: attr.int(1) };
    expect(shapes('Attention', { inputs: [...inputs, f32([2, 1, 4, 64, 8])], attrs, outputs: 2 })[1]).toEqual([2, 1, 4, 64, 8]);
  });

  it('uses qkv_hidden_sizes for a different value width, and builds present without past', () => {
    const attrs = { num_heads: attr.int(4), qkv_hidden_sizes: attr.ints([32, 32, 16]) };
    const result = shapes('Attention', { inputs: [f32([2, 3, 32]), f32([32, 80]), f32([80])], attrs, outputs: 2 });
    expect(result).toEqual([[2, 3, 16], [2, 2, 4, 3, 8]]);
  });
});

describe('MultiHeadAttention', () => {
  it('appends new keys to the BNSH past (tiny-llama layout)', () => {
    const q = f32([1, 3, 16]);
    const past = f32([1, 1, 5, 16]);
    const inputs = [q, q, q, undefined, undefined, fact(DT.INT32, [1, 8]), past, past];
    expect(shapes('MultiHeadAttention', { inputs, attrs: { num_heads: attr.int(1) }, outputs: 3 })).toEqual([
      [1, 3, 16],
      [1, 1, 8, 16],
      [1, 1, 8, 16],
    ]);
  });

  it('reads packed QKV queries (B, S, N, 3, H)', () => {
    expect(shapes('MultiHeadAttention', { inputs: [f32([2, 7, 4, 3, 8])], attrs: { num_heads: attr.int(4) } })).toEqual([[2, 7, 32]]);
  });
});

describe('GroupQueryAttention', () => {
  const past = f32([1, 2, 5, 8]);
  const attrs = { num_heads: attr.int(4), kv_num_heads: attr.int(2) };

  it('sizes present by max(past, total_sequence_length)', () => {
    const inputs = [f32([1, 3, 32]), f32([1, 3, 16]), f32([1, 3, 16]), past, past, fact(DT.INT32, [1]), int32Scalar(8)];
    expect(shapes('GroupQueryAttention', { inputs, attrs, outputs: 3 })).toEqual([[1, 3, 32], [1, 2, 8, 8], [1, 2, 8, 8]]);
  });

  it('splits packed QKV by num_heads + 2 kv_num_heads', () => {
    const inputs = [f32([1, 3, 64]), undefined, undefined, past, past, fact(DT.INT32, [1]), int32Scalar(8)];
    expect(shapes('GroupQueryAttention', { inputs, attrs, outputs: 3 })[0]).toEqual([1, 3, 32]);
  });

  it('bounds present by past + new tokens when the total is not constant', () => {
    const inputs = [f32([1, 3, 32]), f32([1, 3, 16]), f32([1, 3, 16]), past, past, fact(DT.INT32, [1]), int32Scalar()];
    const present = factsOf(ms('GroupQueryAttention', { inputs, attrs, outputs: 3 }))[1];
    expect(present).toMatchObject({ shape: [1, 2, 8, 8], upperBound: true });
  });
});

describe('normalisation ops', () => {
  it('SkipLayerNormalization gives output, statistics and the residual sum', () => {
    const x = f32([1, 3, 32]);
    const result = shapes('SkipLayerNormalization', { inputs: [x, x, f32([32]), f32([32])], outputs: 4 });
    expect(result).toEqual([[1, 3, 32], [1, 3, 1], [1, 3, 1], [1, 3, 32]]);
  });

  it('EmbedLayerNormalization turns (B, S) ids into (B, S, hidden) and a (B) mask index', () => {
    const ids = fact(DT.INT32, [2, 7]);
    const inputs = [ids, undefined, f32([1000, 32]), f32([64, 32]), undefined, f32([32]), f32([32]), undefined, ids];
    const outs = factsOf(ms('EmbedLayerNormalization', { inputs, outputs: 3 }));
    expect(outs).toEqual([
      { dtype: DT.FLOAT, shape: [2, 7, 32] },
      { dtype: DT.INT32, shape: [2] },
      { dtype: DT.FLOAT, shape: [2, 7, 32] },
    ]);
  });

  it('SimplifiedLayerNormalization is also known in the ONNX domain', () => {
    const out = runRule(microsoftRules, 'SimplifiedLayerNormalization', { inputs: [fact(DT.FLOAT16, [1, 3, 16]), f32([16])], outputs: 2, opset: 14 });
    expect(factsOf(out)).toEqual([
      { dtype: DT.FLOAT16, shape: [1, 3, 16] },
      { dtype: DT.FLOAT, shape: [1, 3, 1] },
    ]);
  });
});

describe('fused and quantized products', () => {
  it('FusedMatMul transposes the matrix axes', () => {
    const out = ms('FusedMatMul', { inputs: [f32([2, 8, 3]), f32([5, 8])], attrs: { transA: attr.int(1), transB: attr.int(1) } });
    expect(firstFact(out).shape).toEqual([2, 3, 5]);
  });

  it('MatMulNBits outputs (..., N)', () => {
    const out = ms('MatMulNBits', { inputs: [f32([1, 3, 64]), fact(DT.UINT8, [128, 2, 16]), f32([256])], attrs: { N: attr.int(128), K: attr.int(64) } });
    expect(firstFact(out).shape).toEqual([1, 3, 128]);
  });

  it('FusedConv reuses the Conv rule', () => {
    const attrs = { kernel_shape: attr.ints([3, 3]), pads: attr.ints([1, 1, 1, 1]), strides: attr.ints([2, 2]) };
    expect(firstFact(ms('FusedConv', { inputs: [f32([1, 3, 32, 32]), f32([16, 3, 3, 3])], attrs })).shape).toEqual([1, 16, 16, 16]);
  });

  it('FastGelu and BiasGelu keep the input shape', () => {
    expect(firstFact(ms('FastGelu', { inputs: [f32([1, 3, 128]), f32([128])] })).shape).toEqual([1, 3, 128]);
    expect(firstFact(ms('BiasGelu', { inputs: [f32([1, 3, 128]), f32([128])] })).shape).toEqual([1, 3, 128]);
  });

  it('QLinearConcat joins the tensors between their scales', () => {
    const q = (shape: number[]) => fact(DT.UINT8, shape);
    const inputs = [f32([]), q([]), q([1, 4, 5]), f32([]), q([]), q([1, 6, 5]), f32([]), q([])];
    expect(firstFact(ms('QLinearConcat', { inputs, attrs: { axis: attr.int(1) } }))).toEqual({ dtype: DT.UINT8, shape: [1, 10, 5] });
  });

  it('DequantizeLinear takes the dtype of its scale', () => {
    expect(firstFact(ms('DequantizeLinear', { inputs: [fact(DT.INT8, [4]), fact(DT.FLOAT16, [])] })).dtype).toBe(DT.FLOAT16);
  });
});

describe('errors', () => {
  it('are reasons, not exceptions', () => {
    expect(ms('Attention', { inputs: [f32([1, 3, 32]), f32([32, 96])], attrs: {} })).toEqual({ unknown: expect.stringMatching(/num_heads/) });
    expect(ms('MatMulNBits', { inputs: [f32([3, 64]), i64([1])] })).toHaveProperty('unknown');
  });
});
