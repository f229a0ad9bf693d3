import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferShapes } from '../model/infer/shapes';
import { decodeModel } from '../model/decode-model';
import { GraphBuilder } from '../model/testing/onnx-writer';
import type { InferredModel } from '../model/inferred';
import { decodeOnnx } from '../model/onnx/decode-onnx';
import { headsDecoderModel, tinyDecoderIr, tinyMaskedDecoderIr } from '../model/testing/tiny-decoder';
import { decodeStepDim } from '../planner/sweep/decode-step';
import { bindingsAt, CACHE_GROWTH_TO, defaultGrowthChoice, defaultGrowthRange, growthAxisName, growthChoices, refusedGrowthAxis } from './growth-axes';
import type { GrowthAxis } from './protocol';
import { fakeInfer, fakeIr } from './testing/fakes';

/** The real-model corpus beside the checkout. */
const MODELS = join(__dirname, '../../../shared/models');

/** The fake model with its one input given fixed `shape` and no symbolic dim. */
function fixedInput(shape: number[] | undefined, name = 'x'): InferredModel {
  const base = fakeInfer(fakeIr('t'));
  const input = { ...base.values[0]!, name, shape, bytes: undefined };
  return { ...base, dims: [], inputs: [name], values: [input, base.values[1]!] };
}

describe('growthChoices', () => {
  it('does not offer a dim a shape given leaves sizing nothing, whose curve would be flat, and says why', () => {
    const g = new GraphBuilder('sym');
    g.output(g.node('Relu', [g.input('x', 'float32', ['N', 'C'])]), 'float32', ['N', 'C']);
    const ir = decodeModel(g.toBytes());
    expect(growthChoices(inferShapes(ir)).choices.map((c) => c.key)).toEqual(['N', 'C']);
    const shaped = inferShapes(ir, { shapes: { x: [1, 8] } });
    const { choices, notes } = growthChoices(shaped);
    expect(choices.map((c) => c.key)).toEqual([]);
    expect(notes).toContain('"N" is not offered: N sizes nothing: every axis it names has the shape given (x:0), so every value would plan alike; vary another dim, or leave that input\'s shape to the dims.');
    expect(notes.some((n) => n.includes('no symbolic dim'))).toBe(false); // it has two, each said why it is not offered
    expect(refusedGrowthAxis(shaped, { kind: 'dim', name: 'C' })).toMatch(/^C sizes nothing/);
  });

  it('does not offer a total length the graph ties to the sequence and past lengths, and says what to sweep instead', () => {
    const { choices, notes } = growthChoices(inferShapes(tinyMaskedDecoderIr()));
    expect(choices.map((c) => c.key)).toEqual(['batch', 'seq', 'past_len']);
    expect(notes).toEqual(['"total_len" is not offered: the graph ties total_len to seq + past_len, so it cannot vary alone; sweep past_len or seq instead.']);
    const derived = inferShapes(tinyMaskedDecoderIr(), { dims: { seq: 1, past_len: 8 } });
    expect(derived.dims.find((d) => d.name === 'total_len')).toMatchObject({ source: 'derived', value: 9 });
    expect(growthChoices(derived).choices.map((c) => c.key)).toEqual(['batch', 'seq', 'past_len']);
    expect(refusedGrowthAxis(derived, { kind: 'dim', name: 'total_len' })).toBe('total_len is not a free axis: the graph ties total_len to seq + past_len, so it cannot vary alone; sweep past_len or seq instead');
    expect(refusedGrowthAxis(derived, { kind: 'dim', name: 'past_len' })).toBeUndefined();
    // a total given by the user would hold still while its part varies: refused, saying to leave it out
    const pinned = inferShapes(tinyMaskedDecoderIr(), { dims: { seq: 1, past_len: 16, total_len: 5 } });
    expect(refusedGrowthAxis(pinned, { kind: 'dim', name: 'past_len' })).toBe(
      'past_len cannot vary while total_len=5 is given: the graph ties total_len to seq + past_len, so every point would contradict it; leave total_len out and it follows them',
    );
    expect(refusedGrowthAxis(pinned, { kind: 'dim', name: 'batch' })).toBeUndefined();
  });

  it('offers symbolic dims, and leaves inputs they size alone', () => {
    const { choices, notes } = growthChoices(fakeInfer(fakeIr('t'), { dims: { batch: 3 } }));
    expect(choices).toEqual([{ key: 'batch', axis: { kind: 'dim', name: 'batch' }, label: 'batch', current: 3, cache: false }]);
    expect(notes).toEqual([]);
  });

  it('offers the batch and the square image size of a fixed NCHW input', () => {
    const { choices } = growthChoices(fixedInput([1, 3, 224, 224], 'data_0'));
    expect(choices.map((c) => [c.key, c.label, c.current])).toEqual([
      ['data_0:0', 'data_0 batch', 1],
      ['data_0:2,3', 'data_0 image size', 224],
    ]);
  });

  it('finds the height and width of an NHWC input', () => {
    const { choices } = growthChoices(fixedInput([1, 96, 96, 1]));
    expect(choices.map((c) => c.key)).toEqual(['x:0', 'x:1,2']);
  });

  it('says why a non-square image or a rank-1 input is not offered, and when nothing is', () => {
    const wide = growthChoices(fixedInput([1, 3, 240, 320], 'input'));
    expect(wide.choices.map((c) => c.key)).toEqual(['input:0']);
    expect(wide.notes).toEqual([expect.stringMatching(/image size of "input" \(1×3×240×320\) is not offered: it is not a square image/)]);
    const flat = growthChoices(fixedInput([16]));
    expect(flat.choices).toEqual([]);
    expect(flat.notes).toEqual([expect.stringMatching(/"x" is not offered: it has no batch axis/), expect.stringMatching(/^Nothing to vary/)]);
    expect(growthChoices(fixedInput(undefined)).notes[0]).toMatch(/its shape is unknown/);
  });

  it("offers no input axis of a TensorFlow Lite model: the file's shapes are the sizes, and a new input shape would reach no other tensor", () => {
    const { choices, notes } = growthChoices({ ...fixedInput([1, 256, 256, 3], 'input_1'), format: 'tflite' });
    expect(choices).toEqual([]);
    expect(notes).toEqual([expect.stringMatching(/TensorFlow Lite file states every tensor's shape/), expect.stringMatching(/^Nothing to vary/)]);
  });

  it("offers no dim of a TensorFlow Lite model planned as TensorFlow Lite Micro plans it: the plan is of the file's shapes", () => {
    const tflite = { ...fakeInfer(fakeIr('t'), { dims: { batch: 3 } }), format: 'tflite' as const };
    expect(growthChoices(tflite).choices.map((c) => c.key)).toEqual(['batch']);
    expect(growthChoices(tflite, true)).toEqual({ choices: [], notes: [expect.stringMatching(/^On a target whose runtime is TensorFlow Lite Micro, the plan is of the shapes the file states.*Vary a dim on another target\.$/)] });
  });

  it('sends no one to another target when no target offers anything to vary (person_detect has no symbolic dim)', () => {
    const fixed = { ...fixedInput([1, 96, 96, 1], 'input'), format: 'tflite' as const };
    expect(growthChoices(fixed).choices).toEqual([]);
    const { choices, notes } = growthChoices(fixed, true);
    expect(choices).toEqual([]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^On a target whose runtime is TensorFlow Lite Micro, the plan is of the shapes the file states .*Nothing to vary on any target either: the model has no symbolic dim\.$/);
    expect(notes[0]).not.toMatch(/another target/);
  });
});

describe('bindingsAt', () => {
  it('binds a dim over the others, or gives the input its shape with the swept axes at the value', () => {
    const dim: GrowthAxis = { kind: 'dim', name: 'seq' };
    expect(bindingsAt(dim, { dims: { batch: 2, seq: 8 } }, 64)).toEqual({ dims: { batch: 2, seq: 64 } });
    const image: GrowthAxis = { kind: 'shape', input: 'img', axes: [2, 3], shape: [1, 3, 224, 224], what: 'image size' };
    expect(bindingsAt(image, { dims: {}, shapes: { other: [5] } }, 96)).toEqual({ dims: {}, shapes: { other: [5], img: [1, 3, 96, 96] } });
    expect(growthAxisName(image)).toBe('img:2,3');
  });
});

describe('defaultGrowthRange', () => {
  const dim: GrowthAxis = { kind: 'dim', name: 'seq' };
  const image: GrowthAxis = { kind: 'shape', input: 'img', axes: [2, 3], shape: [1, 3, 224, 224], what: 'image size' };
  it('runs from 1 to eight times the power of two at or above the value, at least 16', () => {
    expect(defaultGrowthRange(dim, 128)).toEqual({ from: 1, to: 1024 });
    expect(defaultGrowthRange(dim, 100)).toEqual({ from: 1, to: 1024 });
    expect(defaultGrowthRange(dim, 1)).toEqual({ from: 1, to: 16 });
    expect(defaultGrowthRange(dim, 0)).toEqual({ from: 0, to: 16 });
    expect(defaultGrowthRange(dim, 2 ** 19)).toEqual({ from: 1, to: 2 ** 20 });
  });
  it("reaches a context of a thousand tokens on a decoder's cache length, whose value on screen is 0", () => {
    expect(defaultGrowthRange(dim, 0, true)).toEqual({ from: 0, to: CACHE_GROWTH_TO });
    expect(defaultGrowthRange(dim, 64, true)).toEqual({ from: 1, to: 1024 });
    expect(defaultGrowthRange(dim, 512, true)).toEqual({ from: 1, to: 4096 });
  });
  it('takes an image size from a quarter to four times its powers of two', () => {
    expect(defaultGrowthRange(image, 224)).toEqual({ from: 32, to: 1024 });
    expect(defaultGrowthRange(image, 2)).toEqual({ from: 1, to: 8 });
  });
});

describe('defaultGrowthChoice', () => {
  const decoder = () => inferShapes(tinyDecoderIr());

  it('starts a decoder with a KV cache on the dim its cache grows with, not the batch', () => {
    const model = decoder();
    const { choices } = growthChoices(model);
    expect(choices[0]!.key).toBe('batch');
    expect(choices.filter((c) => c.cache).map((c) => c.key)).toEqual(['past_len']);
    expect(defaultGrowthChoice(choices)?.key).toBe('past_len');
  });

  it('starts a decoder whose dims have no name, or odd ones, on its cache axis at 0, swept as a decode step', () => {
    for (const [seq, past] of [[undefined, undefined], ['n', 'cache_len']] as const) {
      const model = inferShapes(decodeModel(headsDecoderModel(seq, past)));
      const choice = defaultGrowthChoice(growthChoices(model).choices)!;
      const cacheDim = past ?? 'past_key:2';
      expect(choice).toMatchObject({ key: cacheDim, current: 0, cache: true });
      expect(defaultGrowthRange(choice.axis, choice.current, choice.cache).from).toBe(0);
      expect(decodeStepDim(model, cacheDim)).toMatchObject({ name: seq ?? 'hidden:1', value: 1, shown: 128 });
    }
  });

  it('keeps the first choice on a model without a cache', () => {
    const model = fakeInfer(fakeIr('t'), { dims: { batch: 3 } });
    const { choices } = growthChoices(model);
    expect(defaultGrowthChoice(choices)).toBe(choices[0]);
  });

  it.runIf(existsSync(MODELS))('starts GPT-2 with past and tiny-llama on their past sequence length', () => {
    for (const [file, dim] of [
      ['tiny-random-gpt2-fp32-past.onnx', 'past_seq_len'],
      ['tiny-llama-fp16/model.onnx', 'past_sequence_length'],
    ] as const) {
      const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(join(MODELS, file)))));
      expect(defaultGrowthChoice(growthChoices(model).choices)?.key, file).toBe(dim);
    }
  });
});
