// The occupancy tree's leaves: every start and end is ranked among the
// distinct steps, whether the steps are dense op indices (counted) or sparse
// or fractional times (sorted).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankSteps } from './occupancy-tree';

/** The ranks by definition: how many distinct steps lie below each start and end. */
function ranksBySet(starts: readonly number[], ends: readonly number[]): { from: number[]; to: number[]; distinct: number } {
  const steps = [...new Set([...starts, ...ends])];
  const below = (v: number) => steps.filter((s) => s < v).length;
  return { from: starts.map(below), to: ends.map(below), distinct: steps.length };
}

const lifetimes = (step: fc.Arbitrary<number>) =>
  fc.array(fc.tuple(step, step), { maxLength: 60 }).map((pairs) => pairs.map(([x, y]) => (x <= y ? [x, y + 1] : [y, x + 1])));

describe('rankSteps', () => {
  for (const [kind, step] of [
    ['dense op indices', fc.integer({ min: 0, max: 40 })],
    ['sparse integers', fc.integer({ min: -1e9, max: 1e9 })],
    ['fractional times', fc.double({ min: -100, max: 100, noNaN: true })],
  ] as const) {
    it(`ranks every start and end among the distinct steps, on ${kind}`, () => {
      fc.assert(
        fc.property(lifetimes(step), (pairs) => {
          const starts = Float64Array.from(pairs, (p) => p[0]!);
          const ends = Float64Array.from(pairs, (p) => p[1]!);
          const from = new Int32Array(pairs.length);
          const to = new Int32Array(pairs.length);
          const distinct = rankSteps(starts, ends, from, to);
          const expected = ranksBySet(Array.from(starts), Array.from(ends));
          expect({ from: Array.from(from), to: Array.from(to), distinct }).toEqual(expected);
        }),
        { numRuns: 200 },
      );
    });
  }
});
