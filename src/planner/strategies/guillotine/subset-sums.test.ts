// Subset sums of the guillotine split, against listing every subset.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allSums, BitSums, contains, exactSums, sortedSums, subsetSumTest } from './subset-sums';

/** Every subset's sum, by mask, the slow way. */
function everySum(sizes: readonly number[]): number[] {
  return Array.from({ length: 1 << sizes.length }, (_, mask) => sizes.reduce((sum, s, k) => ((mask >> k) & 1 ? sum + s : sum), 0));
}

const sizes = fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 10 });

describe('subset sums', () => {
  it('lists every subset sum by mask, finds them when sorted, and as bits', () => {
    fc.assert(
      fc.property(sizes, fc.integer({ min: 0, max: 200 }), (list, probe) => {
        const expected = everySum(list);
        expect(Array.from(allSums(list))).toEqual(expected);
        expect(contains(sortedSums(list), probe)).toBe(expected.includes(probe));
        const bits = new BitSums(200);
        for (const s of list) bits.add(s);
        expect(bits.has(probe)).toBe(expected.includes(probe));
      }),
    );
  });

  it('lists the subsets adding up to a number, each once, up to a limit', () => {
    fc.assert(
      fc.property(sizes, fc.integer({ min: 0, max: 120 }), fc.integer({ min: 1, max: 8 }), (list, need, limit) => {
        const ids = list.map((_, k) => k);
        const found = exactSums(ids, list, need, limit);
        const all = everySum(list).filter((sum) => sum === need).length;
        expect(found.length).toBe(Math.min(all, need === 0 ? 1 : limit));
        for (const subset of found) expect(subset.reduce((sum, k) => sum + list[k]!, 0)).toBe(need);
        expect(new Set(found.map((subset) => subset.join(','))).size).toBe(found.length);
      }),
    );
  });

  it('tests sums of sizes in units, by bits where the range is narrow and by a list where it is wide', () => {
    fc.assert(
      fc.property(sizes, fc.constantFrom(1, 64, 4096), fc.integer({ min: 0, max: 200 }), fc.boolean(), (list, unit, probe, wide) => {
        const expected = everySum(list).includes(probe);
        // a wide range makes bits dearer than the list of at most 1,024 sums
        const has = subsetSumTest(
          list.map((s) => s * unit),
          unit,
          wide ? 2 ** 24 : 400,
        );
        expect(has).toBeDefined();
        expect(has!(probe * unit)).toBe(expected);
      }),
    );
  });

  it('gives no test where neither bits nor a list can hold the sums', () => {
    expect(subsetSumTest(Array.from({ length: 30 }, (_, k) => k + 1), 1, 2 ** 30)).toBeUndefined();
  });
});
