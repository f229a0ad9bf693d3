import { describe, expect, it } from 'vitest';
import { DT } from '../../model/dtype';
import { inferShapes } from '../../model/infer-shapes';
import { irGraph } from '../../model/testing/ir-builder';
import { searchNodes, stepMatch } from './graph-search';

const model = inferShapes(
  irGraph()
    .input('image', DT.FLOAT, [1, 4])
    .node('Relu', ['image'], ['stem_out'], {}, { name: 'stem/relu' })
    .node('Sigmoid', ['stem_out'], ['gate'], {}, { name: 'block1/gate' })
    .node('Mul', ['stem_out', 'gate'], ['y'], {}, { name: 'block1/mul' })
    .output('y')
    .model(),
);

describe('searchNodes', () => {
  it('finds nodes by name, op type or tensor name, case-insensitively, every word matching', () => {
    expect(searchNodes(model, 'block1')).toEqual([1, 2]);
    expect(searchNodes(model, 'SIGMOID')).toEqual([1]);
    expect(searchNodes(model, 'stem_out')).toEqual([0, 1, 2]); // its producer and both readers
    expect(searchNodes(model, 'block1 mul')).toEqual([2]);
    expect(searchNodes(model, '  ')).toEqual([]);
    expect(searchNodes(model, 'conv')).toEqual([]);
  });
});

describe('stepMatch', () => {
  it('steps forwards and backwards through the matches, wrapping around', () => {
    expect(stepMatch(undefined, 1, 3)).toBe(0);
    expect(stepMatch(undefined, -1, 3)).toBe(2);
    expect(stepMatch(2, 1, 3)).toBe(0);
    expect(stepMatch(0, -1, 3)).toBe(2);
    expect(stepMatch(1, 1, 3)).toBe(2);
    expect(stepMatch(0, 1, 0)).toBeUndefined();
  });
});
