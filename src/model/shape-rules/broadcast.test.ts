import { describe, expect, it } from 'vitest';
import { broadcastShapes, foldElementwise, MAX_FOLD_ELEMENTS } from './broadcast';

describe('broadcastShapes', () => {
  it('aligns on the trailing axis and stretches size-1 axes', () => {
    expect(broadcastShapes([[8, 1, 6, 1], [7, 1, 5]])).toEqual([8, 7, 6, 5]);
    expect(broadcastShapes([[2, 3], []])).toEqual([2, 3]);
    expect(broadcastShapes([[5], [4, 1], [1, 1, 1]])).toEqual([1, 4, 5]);
  });

  it('keeps an unknown dim unknown unless another input fixes the axis', () => {
    expect(broadcastShapes([[undefined, 3], [1, 3]])).toEqual([undefined, 3]);
    expect(broadcastShapes([[undefined, 3], [4, 3]])).toEqual([4, 3]);
    expect(broadcastShapes([[undefined], [undefined]])).toEqual([undefined]);
  });

  it('gives an unknown rank when any input rank is unknown', () => {
    expect(broadcastShapes([[2, 3], undefined])).toBeUndefined();
  });

  it('marks an axis with two different sizes as unknown', () => {
    expect(broadcastShapes([[2, 3], [4, 3]])).toEqual([undefined, 3]);
  });
});

describe('foldElementwise', () => {
  it('adds a scalar to a vector', () => {
    expect(foldElementwise([[1, 2, 3], [10]], [[3], []], (a, b) => a + b)).toEqual([11, 12, 13]);
  });

  it('broadcasts a column against a row', () => {
    expect(foldElementwise([[1, 2], [10, 20, 30]], [[2, 1], [1, 3]], (a, b) => a * b)).toEqual([10, 20, 30, 20, 40, 60]);
  });

  it('folds three inputs at once', () => {
    expect(foldElementwise([[1, 5], [4, 2], [3, 3]], [[2], [2], [2]], (...xs) => Math.max(...xs))).toEqual([4, 5]);
  });

  it('refuses values that do not match their shapes, unknown shapes and large outputs', () => {
    expect(foldElementwise([[1, 2]], [[3]], (a) => a)).toBeUndefined();
    expect(foldElementwise([[1]], [[undefined]], (a) => a)).toBeUndefined();
    const big = new Array<number>(MAX_FOLD_ELEMENTS + 1).fill(1);
    expect(foldElementwise([big], [[big.length]], (a) => a)).toBeUndefined();
  });
});
