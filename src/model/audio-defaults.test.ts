// Defaults that give a model that runs: an audio front end whose sample axis
// no name explains gets the smallest sample count its framing accepts (a
// Conv's kernel, an STFT's window), not 1, and the rule says why.

import { describe, expect, it } from 'vitest';
import { decodeOnnx } from './onnx/decode-onnx';
import { inferShapes } from './infer/shapes';
import type { InferredModel } from './inferred';
import { convFrontEnd, stftFrontEnd } from './testing/audio-front-ends';

const dim = (model: InferredModel, name: string) => model.dims.find((d) => d.name === name)!;
const sized = (model: InferredModel) => model.values.filter((v) => v.kind === 'activation' || v.kind === 'output').every((v) => v.bytes !== undefined && !v.shape!.includes(0));

describe('the default of a sample axis no rule explains', () => {
  it.each([
    [512, 256, 1, 512],
    [400, 160, 1, 400],
    [3, 1, 1, 3],
    [5, 2, 3, 13], // dilated: (5 - 1) × 3 + 1
  ])('a Conv of kernel %i, stride %i, dilation %i takes %i samples, the fewest it accepts, and says so', (kernel, stride, dilation, expected) => {
    const model = inferShapes(decodeOnnx(convFrontEnd(kernel, stride, dilation)));
    const samples = dim(model, 'samples');
    expect(samples).toMatchObject({ value: expected, source: 'default' });
    expect(samples.rule).toMatch(new RegExp(`^no rule applies: ${expected}, the smallest value that sizes every tensor \\(at ${expected - 1} it `));
    expect(sized(model)).toBe(true);
  });

  it('an STFT with a 400-sample window takes 400 samples', () => {
    const model = inferShapes(decodeOnnx(stftFrontEnd(400, 160)));
    expect(dim(model, 'n')).toMatchObject({ value: 400, source: 'default' });
    expect(sized(model)).toBe(true);
  });

  it('a value the user gives is kept, even one too short, and the tensors it leaves unsized stay unknown', () => {
    const model = inferShapes(decodeOnnx(convFrontEnd(512, 256)), { dims: { samples: 100 } });
    expect(dim(model, 'samples')).toMatchObject({ value: 100, source: 'user' });
    expect(sized(model)).toBe(false);
  });

  it('a dim that already sizes everything keeps its first choice', () => {
    const model = inferShapes(decodeOnnx(convFrontEnd(1, 1)));
    expect(dim(model, 'samples')).toMatchObject({ value: 1, rule: 'no rule applies: 1' });
  });
});
