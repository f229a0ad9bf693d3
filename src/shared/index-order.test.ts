// ascendingOrder: the built-in sort's order, ties in position order, on whole
// numbers (the counting sort) and on any others (the comparator).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ascendingOrder } from './index-order';

const byComparator = (key: number[]): number[] => key.map((_, k) => k).sort((a, b) => key[a]! - key[b]! || a - b);

describe('ascendingOrder', () => {
  it('orders small whole numbers as the comparator does, ties by position', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(40), fc.nat(2 ** 32 - 1), fc.constantFrom(65_535, 65_536, 2 ** 32 - 1)), { maxLength: 300 }), (key) => {
        expect(Array.from(ascendingOrder(Float64Array.from(key)))).toEqual(byComparator(key));
      }),
      { seed: 3, numRuns: 200 },
    );
  });

  it('orders negative, fractional and huge numbers as the comparator does', () => {
    const key = [5, -1, 2 ** 40, 0.5, 5, 2 ** 32, 3, -1];
    expect(Array.from(ascendingOrder(Float64Array.from(key)))).toEqual(byComparator(key));
    expect(Array.from(ascendingOrder(Float64Array.from(key)))).toEqual([1, 7, 3, 6, 0, 4, 5, 2]);
  });
});
