// The user's bindings (--dim, --shape, --input) on small generated models: each
// one that matches nothing, or gives a value the tensor cannot hold, is a
// diagnostic that names the binding, says why and offers close names.

import { describe, expect, it } from 'vitest';
import { decodeModel } from '../decode-model';
import { inferShapes, type InferOptions } from './shapes';
import type { InferredModel } from '../inferred';
import { GraphBuilder } from '../testing/onnx-writer';

/** image[batch, 3, 8, 8] and mask[784] -> Relu (w an initializer) ; an If whose branch reads its own input; d int64 scalar -> Range(0, 10, d). */
function bindingModel(): Uint8Array {
  const g = new GraphBuilder('bindings');
  const image = g.input('image', 'float32', ['batch', 3, 8, 8]);
  const mask = g.input('Input3', 'float32', [784]);
  const d = g.input('d', 'int64', []);
  const flag = g.input('flag', 'bool', []);
  const small = g.input('small', 'uint8', [2]);
  const w = g.initializer('w', 'float32', [1]);
  g.output(g.nodeOutputs('Add', [image, w], ['conv_out'], {}, { name: 'add' })[0]!, 'float32');
  g.output(g.nodeOutputs('Relu', [mask], ['mask_out'], {}, { name: 'relu' })[0]!, 'float32');
  const start = g.initializer('start', 'int64', [], [0]);
  const limit = g.initializer('limit', 'int64', [], [10]);
  g.output(g.nodeOutputs('Range', [start, limit, d], ['steps'], {}, { name: 'range' })[0]!, 'int64');
  g.output(g.nodeOutputs('Not', [flag], ['not_flag'], {}, { name: 'not' })[0]!, 'bool');
  g.output(g.nodeOutputs('Identity', [small], ['small_out'], {}, { name: 'id' })[0]!, 'uint8');
  const body = new GraphBuilder('body');
  const e = body.input('element', 'float32', [1]);
  body.output(body.node('Relu', [e], {}, { name: 'inner' }), 'float32');
  const seq = g.node('SequenceConstruct', [w], {}, { name: 'seq' });
  g.output(g.nodeOutputs('SequenceMap', [seq], ['mapped'], { body }, { name: 'map' })[0]!);
  return g.toBytes({ opset: 17 });
}

const MODEL = decodeModel(bindingModel());
const infer = (options: InferOptions): InferredModel => inferShapes(MODEL, options);
const messages = (model: InferredModel, code: string): string[] => model.diagnostics.filter((d) => d.code === code).map((d) => d.message);
const shapeOf = (model: InferredModel, name: string) => model.values.find((v) => v.name === name)?.shape;

describe('--dim bindings that match nothing', () => {
  it('name the binding and offer close dim names, or list the dims', () => {
    expect(messages(infer({ dims: { batc: 2 } }), 'unknown-dim')).toEqual([
      "--dim batc=2 is ignored: no graph input has a dim named 'batc' (did you mean 'batch'?)",
    ]);
    expect(messages(infer({ dims: { seqlen: 2048 } }), 'unknown-dim')).toEqual([
      "--dim seqlen=2048 is ignored: no graph input has a dim named 'seqlen'; the model's dims are 'batch'",
    ]);
  });

  it('say when an input axis is past the rank or fixed', () => {
    expect(messages(infer({ dims: { 'image:99': 5 } }), 'unknown-dim')).toEqual(["--dim image:99=5 is ignored: input 'image' has rank 4, so it has no axis 99"]);
    expect(messages(infer({ dims: { 'image:1': 5 } }), 'unknown-dim')).toEqual(["--dim image:1=5 is ignored: axis 1 of input 'image' is fixed at 3"]);
    expect(messages(infer({ dims: { 'image:0': 5 } }), 'unknown-dim')).toEqual([]);
  });
});

describe('--shape bindings that match nothing', () => {
  it('name the binding and offer close tensor names', () => {
    expect(messages(infer({ shapes: { nope: [1, 2] } }), 'unused-binding')).toEqual(["--shape nope=1x2 is ignored: no tensor is named 'nope'"]);
    // the binding by name too, so the page can tell which binding a diagnostic is about without reading its sentence
    expect(infer({ shapes: { nope: [1, 2] }, inputValues: { nope: [1] } }).diagnostics.filter((d) => d.code === 'unused-binding').map((d) => d.binding)).toEqual([
      { kind: 'shape', name: 'nope' },
      { kind: 'input', name: 'nope' },
    ]);
    expect(messages(infer({ shapes: { conv_ot: [1] } }), 'unused-binding')).toEqual([
      "--shape conv_ot=1 is ignored: no tensor is named 'conv_ot' (did you mean 'conv_out'?)",
    ]);
  });

  it('say why a weight or a subgraph input takes no shape, and apply to inputs and node outputs', () => {
    expect(messages(infer({ shapes: { w: [4] } }), 'unused-binding')).toEqual(["--shape w=4 is ignored: 'w' is an initializer, stored in the file"]);
    expect(messages(infer({ shapes: { element: [4] } }), 'unused-binding')).toEqual([
      "--shape element=4 is ignored: 'element' is an input of a subgraph, which its node feeds",
    ]);
    const applied = infer({ shapes: { image: [2, 3, 8, 8], mask_out: [784] } });
    expect(messages(applied, 'unused-binding')).toEqual([]);
    expect(shapeOf(applied, 'conv_out')).toEqual([2, 3, 8, 8]);
  });
});

describe('--input bindings', () => {
  it('that name no graph input say so, listing close names or the inputs', () => {
    expect(messages(infer({ inputValues: { nope: [1] } }), 'unused-binding')).toEqual([
      "--input nope=1 is ignored: no graph input is named 'nope'; the graph inputs are 'image', 'Input3', 'd', 'flag', 'small'",
    ]);
    expect(messages(infer({ inputValues: { flags: [1] } }), 'unused-binding')).toEqual([
      "--input flags=1 is ignored: no graph input is named 'flags' (did you mean 'flag'?)",
    ]);
    expect(messages(infer({ inputValues: { mask_out: [1] } }), 'unused-binding')).toEqual([
      "--input mask_out=1 is ignored: 'mask_out' is computed by a node, not a graph input",
    ]);
  });

  it('of the wrong element count are ignored with a diagnostic', () => {
    const model = infer({ inputValues: { Input3: [1, 2, 3] } });
    expect(messages(model, 'bad-input-value')).toEqual(["input 'Input3' has 784 element(s); the given value has 3, so it is ignored"]);
  });

  it('that an integer input cannot hold are refused, so a Range is not sized by 0.0000001', () => {
    const fractional = infer({ inputValues: { d: [0.0000001] } });
    expect(messages(fractional, 'bad-input-value')).toEqual(["input 'd' is int64; the given value 1e-7 is not an integer, so the value is ignored"]);
    expect(shapeOf(fractional, 'steps')).toBeUndefined();
    const whole = infer({ inputValues: { d: [2] } });
    expect(messages(whole, 'bad-input-value')).toEqual([]);
    expect(shapeOf(whole, 'steps')).toEqual([5]);
  });

  it('that a bool or a uint8 cannot hold are refused', () => {
    expect(messages(infer({ inputValues: { flag: [2] } }), 'bad-input-value')).toEqual([
      "input 'flag' is bool; the given value 2 is not 0 or 1, so the value is ignored",
    ]);
    expect(messages(infer({ inputValues: { small: [1, 256] } }), 'bad-input-value')).toEqual([
      "input 'small' is uint8; the given value 256 is out of range for uint8, so the value is ignored",
    ]);
    expect(messages(infer({ inputValues: { small: [0, 255], flag: [1] } }), 'bad-input-value')).toEqual([]);
  });

  it('cut a long name to 120 characters', () => {
    const long = 'x'.repeat(10_000);
    const [message] = messages(infer({ inputValues: { [long]: [1] }, shapes: {} }), 'unused-binding');
    expect(message!.length).toBeLessThan(400);
  });
});

describe('bindings the model records as given', () => {
  it('leaves out a --shape or --input that was ignored, so it is not echoed as shaping the plan', () => {
    const model = infer({ shapes: { nope: [1, 2], image: [1, 3, 32, 32] }, inputValues: { nothere: [1] } });
    expect(Object.keys(model.shapes)).toEqual(['image']);
    expect(model.inputValues).toEqual({});
    expect(messages(model, 'unused-binding')).toHaveLength(2);
  });
});
