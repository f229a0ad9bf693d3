// Tensor, control and sequence rules through the full engine (inferShapes),
// on small graphs shaped like what exporters write.

import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import type { InferredModel } from '../inferred';
import { inferShapes } from '../infer/shapes';
import { irGraph, tensor } from '../testing/ir-builder';

function shapeOf(model: InferredModel, name: string): readonly number[] | undefined {
  const value = model.values.find((v) => v.name === name);
  if (value === undefined) throw new Error(`no value ${name}`);
  return value.shape;
}

describe('transformer shape arithmetic', () => {
  // x: [batch, seq, 64] -> [batch, seq, 4, 16] through Shape/Gather/Unsqueeze/Concat, then heads first.
  const g = irGraph()
    .input('x', DT.FLOAT, ['batch', 'seq', 64])
    .initializer('zero', DT.INT64, [], [0])
    .initializer('one', DT.INT64, [], [1])
    .initializer('axis0', DT.INT64, [1], [0])
    .initializer('heads', DT.INT64, [2], [4, 16])
    .node('Shape', ['x'], ['shape'])
    .node('Gather', ['shape', 'zero'], ['b'], { axis: 0 })
    .node('Gather', ['shape', 'one'], ['n'], { axis: 0 })
    .node('Unsqueeze', ['b', 'axis0'], ['b1'])
    .node('Unsqueeze', ['n', 'axis0'], ['n1'])
    .node('Concat', ['b1', 'n1', 'heads'], ['target'], { axis: 0 })
    .node('Reshape', ['x', 'target'], ['split'])
    .node('Transpose', ['split'], ['bhsd'], { perm: [0, 2, 1, 3] })
    .output('bhsd');

  it('resolves the Reshape target from the bound dims', () => {
    const model = inferShapes(g.model(13), { dims: { batch: 2, seq: 7 } });
    expect(shapeOf(model, 'target')).toEqual([4]);
    expect(shapeOf(model, 'split')).toEqual([2, 7, 4, 16]);
    expect(shapeOf(model, 'bhsd')).toEqual([2, 4, 7, 16]);
    expect(model.diagnostics.filter((d) => d.code === 'unknown-shape')).toEqual([]);
  });

  it('builds a causal mask through Range, Unsqueeze, Less, Where and Expand', () => {
    const mask = irGraph()
      .input('ids', DT.INT64, ['batch', 'seq'])
      .initializer('zero', DT.INT64, [], [0])
      .initializer('one', DT.INT64, [], [1])
      .initializer('axis0', DT.INT64, [1], [0])
      .initializer('axis1', DT.INT64, [1], [1])
      .initializer('minus1', DT.INT64, [], [-1])
      .initializer('ones4', DT.INT64, [4], [1, 1, 1, 1])
      .initializer('neg', DT.FLOAT, [], [-1e4])
      .initializer('nil', DT.FLOAT, [], [0])
      .node('Shape', ['ids'], ['shape'])
      .node('Gather', ['shape', 'one'], ['n'])
      .node('Range', ['zero', 'n', 'one'], ['pos'])
      .node('Unsqueeze', ['pos', 'axis1'], ['col'])
      .node('Less', ['pos', 'col'], ['future'])
      .node('Where', ['future', 'neg', 'nil'], ['square'])
      .node('Unsqueeze', ['n', 'axis0'], ['n1'])
      .node('Slice', ['shape', 'zero', 'one'], ['b1'])
      .node('Concat', ['b1', 'ones4', 'n1', 'n1'], ['wanted'], { axis: 0 })
      .node('Slice', ['wanted', 'one', 'minus1'], ['target'])
      .node('Shape', ['target'], ['rank'])
      .node('ConstantOfShape', ['rank'], ['ones'], { value: tensor('v', DT.INT64, [1], [1]) })
      .node('Equal', ['target', 'minus1'], ['isMinus'])
      .node('Where', ['isMinus', 'ones', 'target'], ['safe'])
      .node('Expand', ['square', 'safe'], ['mask'])
      .output('mask');
    const model = inferShapes(mask.model(13), { dims: { batch: 3, seq: 6 } });
    expect(shapeOf(model, 'square')).toEqual([6, 6]);
    expect(shapeOf(model, 'mask')).toEqual([1, 1, 1, 6, 6]);
  });
});

describe('control flow through the engine', () => {
  it('takes the If branch chosen by a constant shape comparison; bodies read outer values', () => {
    const wide = irGraph('wide').node('Concat', ['x', 'x'], ['y'], { axis: 1 }).output('y').graph();
    const narrow = irGraph('narrow').node('Identity', ['x'], ['y']).output('y').graph();
    const g = irGraph()
      .input('x', DT.FLOAT, [2, 3])
      .initializer('two', DT.INT64, [], [2])
      .node('Size', ['x'], ['size'])
      .node('Greater', ['size', 'two'], ['big'])
      .node('If', ['big'], ['out'], { then_branch: wide, else_branch: narrow })
      .output('out');
    expect(shapeOf(inferShapes(g.model(13)), 'out')).toEqual([2, 6]);
  });

  it('stacks Loop scan outputs by the trip count and keeps loop-carried shapes', () => {
    const body = irGraph('body')
      .input('i', DT.INT64, [])
      .input('cond', DT.BOOL, [])
      .input('acc', DT.FLOAT, [4])
      .node('Identity', ['cond'], ['cond_out'])
      .node('Add', ['acc', 'step'], ['acc_out'])
      .node('Identity', ['acc_out'], ['trace'])
      .output('cond_out')
      .output('acc_out')
      .output('trace')
      .graph();
    const g = irGraph()
      .input('start', DT.FLOAT, [4])
      .input('step', DT.FLOAT, [4])
      .initializer('trips', DT.INT64, [], [3])
      .initializer('yes', DT.BOOL, [], [1])
      .node('Loop', ['trips', 'yes', 'start'], ['final', 'history'], { body })
      .output('final')
      .output('history');
    const model = inferShapes(g.model(13));
    expect(shapeOf(model, 'final')).toEqual([4]);
    expect(shapeOf(model, 'history')).toEqual([3, 4]);
    expect(model.values.find((v) => v.name === 'history')?.upperBound).toBeFalsy();
  });
});

describe('sequences through the engine', () => {
  it('keep element shapes and their length as a constant', () => {
    const g = irGraph()
      .input('x', DT.FLOAT, [6, 4])
      .initializer('two', DT.INT64, [], [2])
      .initializer('axis0', DT.INT64, [1], [0])
      .initializer('rest', DT.INT64, [2], [2, 2])
      .node('SplitToSequence', ['x'], ['rows'], { axis: 0 })
      .node('SequenceAt', ['rows', 'two'], ['row'])
      .node('SequenceLength', ['rows'], ['count'])
      .node('Unsqueeze', ['count', 'axis0'], ['count1'])
      .node('Concat', ['count1', 'rest'], ['target'], { axis: 0 })
      .node('Reshape', ['x', 'target'], ['cube'])
      .output('row')
      .output('cube');
    const model = inferShapes(g.model(13));
    expect(shapeOf(model, 'row')).toEqual([1, 4]);
    expect(shapeOf(model, 'cube')).toEqual([6, 2, 2]);
  });
});

describe('constants from nodes', () => {
  it('reads a Constant tensor attribute and fills a ConstantOfShape', () => {
    const g = irGraph()
      .node('Constant', [], ['dims'], { value: tensor('dims', DT.INT64, [2], [3, 5]) })
      .node('ConstantOfShape', ['dims'], ['zeros'], { value: tensor('v', DT.INT32, [1], [0]) })
      .output('zeros');
    const model = inferShapes(g.model(13));
    const zeros = model.values.find((v) => v.name === 'zeros');
    expect(zeros).toMatchObject({ shape: [3, 5], dtype: DT.INT32, bytes: 60, kind: 'output' });
  });
});
