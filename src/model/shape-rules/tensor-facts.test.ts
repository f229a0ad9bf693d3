import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import { buildValues, fail, guardRules, makeFact, MAX_VALUE_ELEMENTS, mergeFacts, normalizeAxes } from './tensor-facts';

describe('makeFact', () => {
  it('keeps a value only when it matches the shape and is small', () => {
    expect(makeFact(DT.INT64, [2], [1, 2])).toEqual({ dtype: DT.INT64, shape: [2], value: [1, 2] });
    expect(makeFact(DT.INT64, [3], [1, 2]).value).toBeUndefined();
    expect(makeFact(DT.INT64, [undefined], [1, 2]).value).toBeUndefined();
    const big = new Array<number>(MAX_VALUE_ELEMENTS + 1).fill(0);
    expect(makeFact(DT.INT64, [big.length], big).value).toBeUndefined();
  });
});

describe('mergeFacts', () => {
  it('keeps what both facts agree on', () => {
    const merged = mergeFacts(makeFact(DT.FLOAT, [2, 3], [1, 2, 3, 4, 5, 6]), makeFact(DT.FLOAT, [2, 4]));
    expect(merged).toEqual({ dtype: DT.FLOAT, shape: [2, undefined] });
    expect(mergeFacts(makeFact(DT.FLOAT, [2]), makeFact(DT.FLOAT, [2, 1]))?.shape).toBeUndefined();
    expect(mergeFacts(makeFact(DT.INT64, [1], [4]), makeFact(DT.INT64, [1], [4]))?.value).toEqual([4]);
  });
});

describe('buildValues', () => {
  it('walks the output in row-major order', () => {
    expect(buildValues([2, 3], ([i = 0, j = 0]) => 10 * i + j)).toEqual([0, 1, 2, 10, 11, 12]);
    expect(buildValues([2, undefined], () => 0)).toBeUndefined();
    expect(buildValues([2], ([i]) => (i === 1 ? undefined : 0))).toBeUndefined();
  });
});

describe('guardRules', () => {
  it('turns a failure into a reason and rethrows real bugs', () => {
    const table = guardRules({
      '::Bad': () => fail('axis 3 is out of range'),
      '::Buggy': () => {
        throw new TypeError('boom');
      },
    });
    const ctx = {} as Parameters<NonNullable<(typeof table)['::Bad']>>[0];
    expect(table['::Bad']?.(ctx)).toEqual({ unknown: 'axis 3 is out of range' });
    expect(() => table['::Buggy']?.(ctx)).toThrow(TypeError);
  });

  it('normalizeAxes reports repeated and out-of-range axes', () => {
    expect(normalizeAxes([-1, 0], 3)).toEqual([2, 0]);
    expect(() => normalizeAxes([0, -3], 3)).toThrow(/repeat/);
    expect(() => normalizeAxes([3], 3)).toThrow(/out of range/);
  });
});
