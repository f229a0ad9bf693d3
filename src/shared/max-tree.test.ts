// The max-segment tree the overlap sweeps rest on: the highest value of a
// prefix, and the leaves of a prefix above a floor, as a scan of the leaves
// finds them, after any sequence of sets and clears.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MaxTree } from './max-tree';

describe('MaxTree', () => {
  it('answers a prefix maximum and a prefix listing as a scan of the leaves does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((leaves) =>
          fc.tuple(
            fc.constant(leaves),
            fc.array(fc.tuple(fc.integer({ min: 0, max: leaves - 1 }), fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined })), { maxLength: 60 }),
            fc.integer({ min: 0, max: leaves + 2 }),
            fc.integer({ min: -60, max: 60 }),
          ),
        ),
        ([leaves, sets, limit, floor]) => {
          const tree = new MaxTree(leaves);
          const values = new Array<number>(leaves).fill(-Infinity);
          for (const [leaf, value] of sets) {
            values[leaf] = value ?? -Infinity; // undefined: the leaf is cleared
            tree.set(leaf, values[leaf]!);
          }
          const prefix = values.slice(0, limit);
          expect(tree.maxBelow(limit)).toBe(Math.max(-Infinity, ...prefix));
          expect(tree.above(limit, floor).sort((a, b) => a - b)).toEqual(prefix.flatMap((v, i) => (v > floor ? [i] : [])));
        },
      ),
      { numRuns: 400, seed: 63 },
    );
  });
});
