import { describe, expect, it } from 'vitest';
import { sweepDim } from '../../planner/sweep/dim-sweep';
import type { GrowthPoint } from '../../worker/protocol';
import { growthVerdict } from './growth-verdict';

const LIMIT = 1000;
/** A point whose peak is 100 × value, under a 1000 B limit; `known` says whether every size is known. */
const point = (value: number, known: boolean): GrowthPoint => ({
  value,
  peak: 100 * value,
  lowerBound: 100 * value,
  regions: [],
  complete: known,
  fits: 100 * value <= LIMIT,
  ...(!known && { unknown: "'mask': cannot expand [1, 128] to [1, 129]" }),
});

function verdict(values: readonly number[], known: (v: number) => boolean): string {
  const result = sweepDim('past', values, (v) => point(v, known(v)), (p) => p.fits);
  return growthVerdict({ points: result.points, values, result }, 'past', true).join(' ');
}

describe('growthVerdict', () => {
  it('says where a curve of complete plans stops fitting', () => {
    expect(verdict([1, 4, 16], () => true)).toBe('3 values of past planned, each as a click would plan it (default search budget). Fits up to past=10.');
    // every value fitting is not where the plan stops fitting: nothing past the range's end was planned
    expect(verdict([1, 4], () => true)).toBe(
      '2 values of past planned, each as a click would plan it (default search budget). Every value swept fits, up to past=4, the end of the range (larger values were not tried).',
    );
  });

  it('never says a value fits whose plan has a size unknown: the peak there is a lower estimate', () => {
    // within the limit everywhere, but sizes are unknown from 2: only 1 is known to fit
    const text = verdict([0, 1, 2, 4], (v) => v < 2);
    expect(text).toContain('Fits up to past=1.');
    expect(text).not.toContain('Every value swept fits');
    expect(text).toContain("Hollow dots (2, 4): some sizes are unknown there, so the peak is a lower estimate, not counted as fitting; first: 'mask': cannot expand [1, 128] to [1, 129].");
    expect(verdict([1, 4], () => false)).toContain('No value from 1 is known to fit the size limits.');
    expect(verdict([20, 40], () => true)).toContain('No value from 20 fits the size limits.');
  });

  it('says a size past 2^53 − 1 bytes is too large, not unknown, apart from the sizes unknown', () => {
    // unknown sizes at 2; from 4 a tensor needing more than 2^53 − 1 bytes, in no region with a size limit (it fits as plan says)
    const at = (v: number): GrowthPoint => (v < 4 ? point(v, v < 2) : { ...point(v, false), peak: 100, lowerBound: 100, fits: true, unknown: "'scores': it needs more than 2^53 − 1 bytes", pastLimit: 'scores' });
    const values = [1, 2, 4, 8];
    const result = sweepDim('past', values, at, (p) => p.fits);
    const text = growthVerdict({ points: result.points, values, result }, 'past', false).join(' ');
    expect(text).toContain("Hollow dots (2): some sizes are unknown there, so the peak is a lower estimate; first: 'mask': cannot expand [1, 128] to [1, 129].");
    expect(text).toContain("Hollow dots (4, 8): some sizes are too large there, planned as 0 bytes, so the peak is a lower estimate; first: 'scores' needs more than 2^53 − 1 bytes, over any size limit.");
    expect(text).not.toMatch(/\(2, 4, 8\): some sizes are unknown/);
  });
});
