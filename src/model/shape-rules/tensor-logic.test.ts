import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { tensorRules } from './tensor';
import { f32, fact, firstFact, i64, runRule } from '../testing/shape-rule-context';

const bools = (values: number[], shape: number[] = [values.length]) => fact(DT.BOOL, shape, values);

describe('comparisons', () => {
  it('broadcast and give bool', () => {
    const out = firstFact(runRule(tensorRules, 'Less', { inputs: [f32([4, 1]), f32([3])] }));
    expect(out).toEqual({ dtype: DT.BOOL, shape: [4, 3] });
  });

  it('fold constant values', () => {
    const inputs = [i64([1, 5, 3]), i64([3], [])];
    expect(firstFact(runRule(tensorRules, 'Equal', { inputs })).value).toEqual([0, 0, 1]);
    expect(firstFact(runRule(tensorRules, 'Greater', { inputs })).value).toEqual([0, 1, 0]);
    expect(firstFact(runRule(tensorRules, 'GreaterOrEqual', { inputs })).value).toEqual([0, 1, 1]);
    expect(firstFact(runRule(tensorRules, 'Less', { inputs })).value).toEqual([1, 0, 0]);
    expect(firstFact(runRule(tensorRules, 'LessOrEqual', { inputs })).value).toEqual([1, 0, 1]);
  });
});

describe('logic', () => {
  it('folds Not, And, Or and Xor', () => {
    const a = bools([0, 0, 1, 1]);
    const b = bools([0, 1, 0, 1]);
    expect(firstFact(runRule(tensorRules, 'Not', { inputs: [a] })).value).toEqual([1, 1, 0, 0]);
    expect(firstFact(runRule(tensorRules, 'And', { inputs: [a, b] })).value).toEqual([0, 0, 0, 1]);
    expect(firstFact(runRule(tensorRules, 'Or', { inputs: [a, b] })).value).toEqual([0, 1, 1, 1]);
    expect(firstFact(runRule(tensorRules, 'Xor', { inputs: [a, b] })).value).toEqual([0, 1, 1, 0]);
  });
});

describe('Where', () => {
  it('broadcasts all three inputs and takes the dtype of X', () => {
    const out = firstFact(runRule(tensorRules, 'Where', { inputs: [fact(DT.BOOL, [1, 4]), f32([3, 1]), f32([])] }));
    expect(out).toEqual({ dtype: DT.FLOAT, shape: [3, 4] });
  });

  it('reports inputs that do not broadcast', () => {
    const result = runRule(tensorRules, 'Where', { inputs: [fact(DT.BOOL, [5]), i64([1, 1, 1, 1]), i64([1, 2, 3, 4, 5])] });
    expect(result).toEqual({ unknown: 'cannot broadcast [5] with [4] with [5]' });
  });

  it('selects constant values (the -1 to dim rewrite of exported Reshape targets)', () => {
    const target = i64([2, -1, 64]);
    const isMinusOne = firstFact(runRule(tensorRules, 'Equal', { inputs: [target, i64([-1], [])] }));
    const out = firstFact(runRule(tensorRules, 'Where', { inputs: [isMinusOne, i64([1], []), target] }));
    expect(out).toEqual({ dtype: DT.INT64, shape: [3], value: [2, 1, 64] });
  });
});
