// The pair sort every greedy pass runs: short lists by comparison, long lists
// of integers by radix, long lists of wide or fractional low ends back by
// comparison; always ascending by low end with each pair kept whole.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortPairs, unionOfRuns } from './sort-pairs';

/** Sorts a copy of the pairs with sortPairs and checks the order and that every pair survived. */
function checkSorted(pairs: readonly (readonly [number, number])[]): void {
  const lo = Float64Array.from(pairs, ([l]) => l);
  const hi = Float64Array.from(pairs, ([, h]) => h);
  sortPairs(lo, hi, pairs.length);
  for (let i = 1; i < pairs.length; i++) expect(lo[i]!).toBeGreaterThanOrEqual(lo[i - 1]!);
  const key = (l: number, h: number) => `${l}|${h}`;
  const before = pairs.map(([l, h]) => key(l, h)).sort();
  const after = Array.from(lo, (l, i) => key(l, hi[i]!)).sort();
  expect(after).toEqual(before);
}

/** Lists long enough for the radix sort (256 pairs and more). */
const pairsOf = (low: fc.Arbitrary<number>) => fc.array(fc.tuple(low, fc.integer({ min: -1e6, max: 1e6 })), { minLength: 256, maxLength: 1_500 });

describe('sortPairs', () => {
  it('sorts long lists of integer low ends of any span below 2^32 (radix), each pair kept whole', () => {
    for (const span of [0, 200, 70_000, 2 ** 24 + 5, 2 ** 32 - 1]) {
      fc.assert(fc.property(pairsOf(fc.integer({ min: 0, max: span })), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), (pairs, shift) => checkSorted(pairs.map(([l, h]) => [l + shift, h]))), { numRuns: 40 });
    }
  });

  it('sorts lists whose low ends span 2^32 or more, or have fractions, by comparison instead', () => {
    fc.assert(fc.property(pairsOf(fc.integer({ min: -(2 ** 45), max: 2 ** 45 })), checkSorted), { numRuns: 60 });
    fc.assert(fc.property(pairsOf(fc.double({ min: -1e9, max: 1e9, noNaN: true })), checkSorted), { numRuns: 60 });
    // short lists, whatever their low ends
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer(), fc.integer()), { maxLength: 255 }), checkSorted), { numRuns: 200 });
    // a long list of integers with a single fraction at its end
    checkSorted([...Array.from({ length: 600 }, (_, i): [number, number] => [(i * 7919) % 1000, i]), [0.5, -1]]);
  });
});

describe('unionOfRuns', () => {
  it('gives the union of ascending runs of ranges: ascending, with ranges that overlap or touch merged', () => {
    const range = fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 60 })).map(([l, w]): [number, number] => [l, l + w]);
    const run = fc.array(range, { maxLength: 40 }).map((r) => r.sort((x, y) => x[0] - y[0]));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 20 }), (runs) => {
        const pairs = runs.flat();
        const lo = Float64Array.from(pairs, ([l]) => l);
        const hi = Float64Array.from(pairs, ([, h]) => h);
        let end = 0;
        const ends = Int32Array.from(runs, (r) => (end += r.length));
        const kept = unionOfRuns(lo, hi, ends, runs.length);
        // reference: sort every range, then sweep
        const union: [number, number][] = [];
        for (const [l, h] of [...pairs].sort((x, y) => x[0] - y[0])) {
          const last = union[union.length - 1];
          if (last !== undefined && l <= last[1]) last[1] = Math.max(last[1], h);
          else union.push([l, h]);
        }
        expect(Array.from(lo.subarray(0, kept), (l, i) => [l, hi[i]!])).toEqual(union);
      }),
      { numRuns: 300 },
    );
  });
});
