import { describe, expect, it } from 'vitest';
import { DT } from '../model/dtype';
import { inferShapes } from '../model/infer/shapes';
import { irGraph } from '../model/testing/ir-builder';
import { selectedTensor, tensorSelection } from './selection';

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
  it('reads back the tensor of a buffer selection, and none of a node or step', () => {
    expect(selectedTensor(plan, { kind: 'buffer', buffer: 9 })).toBe('y');
    expect(selectedTensor(plan, { kind: 'node', node: 'mul' })).toBeUndefined();
    expect(selectedTensor(plan, undefined)).toBeUndefined();
  });
});
