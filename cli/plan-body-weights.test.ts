// The weights of a model whose largest weights sit in a Loop body, with an If
// nested there: plan counts every body's weights, once each, in its text, its
// --json and the bytes a region sets aside for them.

import { describe, expect, it } from 'vitest';
import { BODY_WEIGHTS, bodyWeightsModel } from '../src/model/testing/body-weights-model';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { formatBytes } from '../src/shared/format';
import { planJson, run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';

const file = tempFiles('body-weights');
const MODEL = file('decoder.onnx', bodyWeightsModel());
const { total } = BODY_WEIGHTS;

describe('plan counts the weights of If/Loop/Scan bodies', () => {
  it('gives the weights of the main graph, the Loop body and the If nested in it, each once, in the text and --json', () => {
    expect(total.bytes).toBe(256_777);
    const text = run(['plan', MODEL]);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`\n  weights       ${formatBytes(total.bytes)} in 6 tensors (`);
    expect(planJson([MODEL]).weights).toEqual({ region: 'weights', bytes: total.bytes, tensors: total.tensors, unknownSizes: 0 });
  });

  it('sets all of them aside in the region that holds the weights, and copies all of them there', () => {
    const held = planJson([MODEL, '--weights', 'ram']);
    const ram = held.regions.find((r: { name: string }) => r.name === 'ram');
    expect(ram.weights).toBe(Math.ceil(total.bytes / 64) * 64);
    expect(ram.used).toBe(ram.peak + ram.weights);
    expect(held.storage.weights).toMatchObject({ in: 'ram', bytes: total.bytes });
    const written = (weights: string) => planJson([MODEL, '--target', 'mcu', '--weights', weights]).regions.find((r: { name: string }) => r.name === 'ext-ram').moved.written;
    expect(written('copy-to:ext-ram') - written('ext-ram')).toBe(total.bytes);
  });
});

describe('plan counts a body output a Constant gives as a weight', () => {
  // cond → If: each branch returns a fixed [256] float32 tensor from a Constant node, as ONNX's test_if does
  function ifOfConstants(): Uint8Array {
    const branch = (name: string, fill: number) => {
      const b = new GraphBuilder(name);
      b.output(b.constant('float32', [256], new Array(256).fill(fill), { name: `${name}/Constant` }), 'float32', [256]);
      return b;
    };
    const g = new GraphBuilder('pick');
    g.input('cond', 'bool', []);
    const [res] = g.nodeOutputs('If', ['cond'], ['res'], { then_branch: branch('then', 1), else_branch: branch('else', 2) }, { name: 'pick' });
    g.output(res!, 'float32', [256]);
    return g.toBytes({ opset: 17 });
  }

  it("counts both branches' returned tensors, stored with the model, and still plans the If's output", () => {
    const model = file('if-constants.onnx', ifOfConstants());
    expect(planJson([model]).weights).toEqual({ region: 'weights', bytes: 2 * 1024, tensors: 2, unknownSizes: 0 });
    expect(planJson([model]).buffers.map((b: { name: string }) => b.name)).toContain('res');
  });
});
