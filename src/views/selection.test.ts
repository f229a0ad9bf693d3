import { describe, expect, it } from 'vitest';
import { DT } from '../model/dtype';
import { inferShapes } from '../model/infer/shapes';
import { irGraph } from '../model/testing/ir-builder';
import { ioBoxSelection, selectedTensors, tensorSelection } from './selection';

const model = inferShapes(
  irGraph()
    .input('x', DT.FLOAT, [1, 4])
    .initializer('w', DT.FLOAT, [4])
    .node('Mul', ['x', 'w'], ['m'], {}, { name: 'mul' })
    .node('Relu', ['m'], ['y'], {}, { name: 'relu' })
    .output('y')
    .model(),
);

describe('tensorSelection', () => {
  const plan = {
    buffers: [
      { id: 7, name: 'm' },
      { id: 9, name: 'y', alias: { parent: 11 } },
      { id: 11, name: 'y' },
    ],
  };
  it("selects a tensor's buffer, the owner of its bytes before a buffer sharing them", () => {
    expect(tensorSelection(model, plan, 'm')).toEqual({ kind: 'buffer', buffer: 7 });
    expect(tensorSelection(model, plan, 'y')).toEqual({ kind: 'buffer', buffer: 11 });
  });
  it('selects the node writing a tensor without a buffer, or the first reading a weight', () => {
    expect(tensorSelection(model, undefined, 'm')).toEqual({ kind: 'node', node: 'mul' });
    expect(tensorSelection(model, plan, 'w')).toEqual({ kind: 'node', node: 'mul' });
    expect(tensorSelection(model, plan, 'absent')).toBeUndefined();
  });
  it("selects a graph input's or output's box as its first tensor with a buffer, else as its first tensor", () => {
    expect(ioBoxSelection(model, plan, ['y'])).toEqual({ kind: 'buffer', buffer: 11 });
    expect(ioBoxSelection(model, plan, ['w', 'm', 'y'])).toEqual({ kind: 'buffer', buffer: 7 });
    expect(ioBoxSelection(model, plan, ['w'])).toEqual({ kind: 'node', node: 'mul' });
    expect(ioBoxSelection(model, plan, [])).toBeUndefined();
  });
  it("marks a buffer's tensor, a node's outputs and scratch, and nothing for a step", () => {
    const planned = {
      buffers: [
        { id: 7, name: 'm', node: 'mul' },
        { id: 8, name: 'mul/scratch', node: 'mul' },
        { id: 9, name: 'y', node: 'relu', alias: { parent: 11 } },
        { id: 11, name: 'y', node: 'relu' },
      ],
    };
    expect(selectedTensors(planned, { kind: 'buffer', buffer: 9 })).toEqual(['y']);
    expect(selectedTensors(planned, { kind: 'node', node: 'mul' })).toEqual(['m', 'mul/scratch']);
    expect(selectedTensors(planned, { kind: 'node', node: 'relu' })).toEqual(['y']);
    expect(selectedTensors(planned, { kind: 'step', step: 0 })).toEqual([]);
    expect(selectedTensors(planned, { kind: 'buffer', buffer: 99 })).toEqual([]);
    expect(selectedTensors(undefined, { kind: 'node', node: 'mul' })).toEqual([]);
    expect(selectedTensors(planned, undefined)).toEqual([]);
  });
});
