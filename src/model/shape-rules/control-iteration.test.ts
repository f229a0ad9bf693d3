// A Loop whose loop-carried values keep their size but whose body holds a
// tensor sized by the iteration number (a Range up to it) rests on the trip
// count: without a constant one, the plan says so, naming that tensor.

import { describe, expect, it } from 'vitest';
import { decodeModel } from '../decode-model';
import { inferShapes } from '../infer/shapes';
import type { InferredModel } from '../inferred';
import { attr, GraphBuilder } from '../testing/onnx-writer';

/** (trip_count, cond, x[4]) -> Loop -> out[4]; the body adds the sum of `sized`, reshaped to 2 elements, to x, `sized` being Range(0, iteration) or, with `custom`, an op of no rule. */
function loopModel(options: { readonly trips?: number; readonly custom?: boolean } = {}): InferredModel {
  const body = new GraphBuilder('body');
  const iteration = body.input('iteration', 'int64', []);
  const condIn = body.input('cond_in', 'bool', []);
  const xIn = body.input('x_in', 'float32', [4]);
  const sized = options.custom === true
    ? body.node('Mystery', [iteration], {}, { domain: 'example.custom', name: 'mystery' })
    : body.node('Range', [body.constant('int64', [], [0]), iteration, body.constant('int64', [], [1])], {}, { name: 'range' });
  const pair = body.node('Reshape', [sized, body.constant('int64', [1], [2])]);
  const sum = body.node('Cast', [body.node('ReduceSum', [pair], { keepdims: 0 })], { to: attr.int(1) });
  body.output(body.node('Identity', [condIn]), 'bool', []);
  body.output(body.node('Add', [xIn, sum]), 'float32', [4]);
  const g = new GraphBuilder('main');
  const trips = options.trips === undefined ? g.input('trip_count', 'int64', []) : g.initializer('trip_count', 'int64', [], [options.trips]);
  const [out] = g.nodeOutputs('Loop', [trips, g.input('cond', 'bool', []), g.input('x', 'float32', [4])], ['out'], { body }, { name: 'loop' });
  g.output(out!, 'float32', [4]);
  return inferShapes(decodeModel(g.toBytes({ opsets: { 'example.custom': 1 } })));
}

const loopBranch = (model: InferredModel) => model.nodes.find((n) => n.name === 'loop')?.branch;

describe('a Loop body sized by the iteration number', () => {
  it('records the unknown trip count its size rests on, naming the tensor, though the loop-carried value keeps its size', () => {
    const model = loopModel();
    expect(model.values.find((v) => v.name === 'out')?.shape).toEqual([4]);
    expect(loopBranch(model)).toEqual({
      node: 'loop',
      taken: 'trip count unknown',
      reason: "the Loop trip count is not a constant, so the size of 'range_out' in its body (sized by the iteration number, which runs up to the trip count) is not inferred",
    });
    // the look at a known iteration says nothing: at iteration 1 the Reshape of the range to 2 elements fails, which no run of the loop need do
    expect(model.diagnostics).toEqual([]);
  });

  it('records nothing when the body tensor of unknown size is so at every iteration, or when the trip count is a constant', () => {
    expect(loopBranch(loopModel({ custom: true }))).toBeUndefined();
    expect(loopBranch(loopModel({ trips: 5 }))).toBeUndefined();
  });
});
