import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RangeArgMax } from './range-arg-max';

describe('RangeArgMax', () => {
  it('finds the first index of the largest value in every range, rebuilt in place over arrays of any length', () => {
    const table = new RangeArgMax();
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 4 }), (arrays) => {
        for (const values of arrays) {
          table.build(Float64Array.from(values));
          for (let from = 0; from < values.length; from++) {
            for (let to = from; to < values.length; to++) {
              const slice = values.slice(from, to + 1);
              const most = Math.max(...slice);
              expect(table.argMax(from, to)).toBe(from + slice.indexOf(most));
              expect(table.max(from, to)).toBe(most);
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
