// Weights of unknown size: a custom op's output computed from an initializer
// alone is a weight whose size no rule gives. plan counts it as 0 bytes, so
// its weights figure is "at least" so many in the text and --json says how
// many are unknown.

import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { planJson, run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';

/** x · Mystery(W): W is 64 bytes of floats, Mystery (com.example) has no shape rule, so its output's size is unknown. */
function mysteryWeights(): Uint8Array {
  const g = new GraphBuilder('mystery-weights');
  const x = g.input('x', 'float32', [1, 4]);
  const w = g.initializer('W', 'float32', [4, 4], new Uint8Array(64));
  const c = g.node('Mystery', [w], {}, { domain: 'com.example' });
  g.output(g.node('MatMul', [x, c]), 'float32', [1, 4]);
  return g.toBytes({ opsets: { 'com.example': 1 } });
}

const file = tempFiles('weights-unknown');
const MODEL = file('mystery.onnx', mysteryWeights());

describe('plan with a weight of unknown size', () => {
  it('says the weights are at least their known bytes, and how many are unknown', () => {
    const text = run(['plan', MODEL]);
    expect(text.code).toBe(0);
    // it read "weights       64 B in 2 tensors (…)": the unknown one counted as 0 B, unsaid
    expect(text.out).toMatch(/\n {2}weights {7}at least 64 B in 2 tensors \(1 of unknown size, counted as 0 bytes; /);
  });

  it('gives in --json how many weights are of unknown size, so bytes is a lower estimate', () => {
    expect(planJson([MODEL]).weights).toEqual({ region: 'weights', bytes: 64, tensors: 2, unknownSizes: 1 });
  });

  it('marks the bytes a region sets aside for them, and the region\'s sum, as at least so many', () => {
    const text = run(['plan', MODEL, '--weights', 'ram']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/\n {2}region ram .* \+ ≥ 64 B weights = ≥ [\d.]+ [KMG]?i?B\)/);
  });
});
