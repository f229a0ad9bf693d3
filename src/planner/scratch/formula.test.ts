import { describe, expect, it } from 'vitest';
import { IM2COL_FORMULA } from '../targets/presets';
import { evaluateScratchFormula, parseScratchFormula, type FormulaTensors } from './formula';

/** A 3x3 Conv, 16 -> 32 channels, 10x10 -> 8x8, float32. */
const conv: FormulaTensors = {
  inputs: [
    { shape: [1, 16, 10, 10], bytes: 6400 },
    { shape: [32, 16, 3, 3], bytes: 18432 },
    undefined,
  ],
  outputs: [{ shape: [1, 32, 8, 8], bytes: 8192 }],
};

const size = (text: string, tensors = conv) => evaluateScratchFormula(parseScratchFormula(text), tensors);

describe('scratch formulas', () => {
  it('size im2col for Conv: C_in x kH x kW x H_out x W_out x bytes per element', () => {
    expect(size(IM2COL_FORMULA)).toEqual({ bytes: 16 * 3 * 3 * 8 * 8 * 4 });
  });

  it('read dims from either end, sizes, element counts, ranks, min and max', () => {
    expect(size('out0[-1] * 4')).toEqual({ bytes: 32 });
    expect(size('bytes(in0) + numel(out0) - rank(in1)')).toEqual({ bytes: 6400 + 2048 - 4 });
    expect(size('max(in0[1], 2 * out0[1], 7) + min(1, 2)')).toEqual({ bytes: 65 });
    expect(size('-(2 - 5) * (1 + 1)')).toEqual({ bytes: 6 });
  });

  it('round a fractional size up to whole bytes', () => {
    expect(size('bytes(in0) / 3')).toEqual({ bytes: 2134 });
    expect(size('elem(in0) * 0.5')).toEqual({ bytes: 2 });
  });

  it.each([
    ['in2[0]', 'the op has no input 2'],
    ['in0[4]', 'input 0 has rank 4, no dim 4'],
    ['out0[1] - 100', 'the formula gives -68, not a size'],
    ['in0[1] / (in0[0] - 1)', 'the formula divides by zero'],
  ])('say why %s has no size', (text, error) => {
    expect(size(text)).toEqual({ error });
  });

  it("read an op's number attribute: Attention's head count, which no tensor of an op without a present output gives", () => {
    // GPT-2's com.microsoft Attention at S=2048: input [1, 2048, 32], weights [32, 96], 4 heads, T = S (no past)
    const attention: FormulaTensors = { inputs: [{ shape: [1, 2048, 32], bytes: 262_144 }, { shape: [32, 96], bytes: 12_288 }], outputs: [{ shape: [1, 2048, 32], bytes: 262_144 }], attributes: { num_heads: 4, unidirectional: 1, qkv_hidden_sizes: [32, 32, 32] } };
    // the attention probabilities, B × N × S × T × 4 = 1 × 4 × 2048 × 2048 × 4
    expect(size('in0[0] * attr(num_heads) * in0[1] * in0[1] * elem(in0)', attention)).toEqual({ bytes: 67_108_864 });
    expect(size('attr(scale)', attention)).toEqual({ error: 'the op has no attribute scale' });
    expect(size('attr(qkv_hidden_sizes)', attention)).toEqual({ error: "the op's attribute qkv_hidden_sizes is not a number" });
    expect(() => parseScratchFormula('attr(4)')).toThrow('unexpected "4" at character 6 in "attr(4)"');
  });

  it('say when a shape is unknown', () => {
    expect(size('in0[1]', { inputs: [{ shape: undefined, bytes: undefined }], outputs: [] })).toEqual({ error: 'the shape of input 0 is unknown' });
  });

  it.each([
    ['in0[1] *', 'the formula ends too early in "in0[1] *"'],
    ['in0 * 2', 'unexpected "*" at character 5 in "in0 * 2"'],
    ['x[1]', 'unexpected "x" at character 1 in "x[1]"'],
    ['bytes(4)', 'unexpected "4" at character 7 in "bytes(4)"'],
    ['in0[1.5]', 'unexpected "1.5" at character 5 in "in0[1.5]"'],
    ['2 3', 'unexpected "3" at character 3 in "2 3"'],
  ])('refuse %s with the character they cannot read', (text, message) => {
    expect(() => parseScratchFormula(text)).toThrow(message);
  });

  it.each([
    ['deep parentheses', `${'('.repeat(100_000)}1${')'.repeat(100_000)}`, /more than 1000 tokens/],
    ['parentheses just past the depth limit', `${'('.repeat(65)}1${')'.repeat(65)}`, /nests more than 64 levels/],
    ['a long chain of unary minus', `${'-'.repeat(300)}1`, /nests more than 64 levels/],
    ['a long sum', Array.from({ length: 200_000 }, () => '1').join('+'), /more than 1000 tokens/],
    ['max of 300k arguments', `max(${Array.from({ length: 300_000 }, () => '1').join(',')})`, /more than 1000 tokens/],
  ])('refuse %s with a clear error, not a stack overflow', (_what, text, message) => {
    expect(() => parseScratchFormula(text)).toThrow(message);
  });

  it('evaluate the longest formulas allowed without deep recursion', () => {
    expect(size(Array.from({ length: 500 }, () => '1').join('+'), conv)).toEqual({ bytes: 500 });
    expect(size(`max(${Array.from({ length: 499 }, (_, i) => String(i)).join(',')})`, conv)).toEqual({ bytes: 498 });
    expect(size(`${'('.repeat(64)}7${')'.repeat(64)}`, conv)).toEqual({ bytes: 7 });
  });
});
