import { describe, expect, it } from 'vitest';
import { sweepDim, sweepSteps, sweepValues, type SweepPoint } from './dim-sweep';

const point = (value: number, peak: number): SweepPoint => ({ value, peak, lowerBound: peak, regions: [], complete: true, fits: true });

describe('sweepValues', () => {
  it('takes the ends and the powers of two between them', () => {
    expect(sweepValues(1, 4096)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);
    expect(sweepValues(3, 20)).toEqual([3, 4, 8, 16, 20]);
    expect(sweepValues(0, 1)).toEqual([0, 1]);
  });

  it('spreads a given count on a log scale, without repeats', () => {
    expect(sweepValues(1, 1000, 4)).toEqual([1, 10, 100, 1000]);
    // from 0: 0 set apart, the rest on a log scale from 1
    expect(sweepValues(0, 100, 5)).toEqual([0, 1, 5, 22, 100]);
    expect(sweepValues(0, 1024, 5)).toEqual([0, 1, 10, 102, 1024]);
    expect(sweepValues(0, 8, 2)).toEqual([0, 8]);
  });

  it('refuses a reversed range and counts out of bounds', () => {
    expect(() => sweepValues(8, 2)).toThrow(/FROM ≤ TO/);
    expect(() => sweepValues(1, 10, 1)).toThrow(/--points/);
    expect(() => sweepValues(1, 10, 10_000)).toThrow(/--points/);
  });
});

describe('sweepDim', () => {
  // from 8 on, a tensor known to pass 2^53 − 1 bytes, planned as 0: a lower estimate of 10 bytes, as `plan` gives it with no limit to be over
  const pastFrom8 = (v: number): SweepPoint => (v < 8 ? point(v, 100 * v) : { ...point(v, 10), complete: false, pastLimit: 'scores' });

  it('a tensor past 2^53 − 1 bytes is over a byte budget, whatever the lower estimate', () => {
    const result = sweepDim('seq', [1, 16], pastFrom8, 1000);
    expect(result.crossings).toEqual([{ below: 7, above: 8, fitsBelow: true }]);
    expect(result.fitsUpTo).toBe(7);
  });

  it("with no byte budget, the caller's test judges it: a point that fits as `plan` says is a lower estimate not known to fit, not over", () => {
    const result = sweepDim('seq', [1, 16], pastFrom8, (p) => p.fits);
    // the crossing names the tensor past 2^53 − 1 bytes on the side not known to fit, as its point does
    expect(result.crossings).toEqual([{ below: 7, above: 8, fitsBelow: true, unknown: true, pastLimit: 'scores' }]);
    expect(result.fitsUpTo).toBe(7);
  });

  it('finds the exact largest value that fits by bisection on the plans', () => {
    const planned: number[] = [];
    const result = sweepDim('seq', sweepValues(1, 1024), (v) => (planned.push(v), point(v, 100 * v)), 30_000);
    expect(result.fitsUpTo).toBe(300);
    expect(result.crossings).toEqual([{ below: 300, above: 301, fitsBelow: true }]);
    expect(result.monotonic).toBe(true);
    expect(new Set(planned).size).toBe(planned.length); // each value planned once
  });

  it('reports every crossing of a curve that falls and rises again', () => {
    const peak = (v: number) => (v < 10 ? 10 * v : v < 20 ? 50 : 10 * v);
    const result = sweepDim('x', [1, 8, 16, 32], (v) => point(v, peak(v)), 60);
    expect(result.monotonic).toBe(false);
    expect(result.crossings).toEqual([
      { below: 6, above: 7, fitsBelow: true },
      { below: 9, above: 10, fitsBelow: false },
      { below: 19, above: 20, fitsBelow: true },
    ]);
    expect(result.fitsUpTo).toBe(19);
  });

  it('names the crossing from a plan over the budget to one not known to fit, and back', () => {
    // over the budget from 6; from 40 sizes overflow and the lower estimate falls back within it; from 90 it is over again
    const at = (v: number): SweepPoint => (v < 40 ? point(v, 30 * v) : { ...point(v, v < 90 ? 10 : 1000), complete: false });
    const result = sweepDim('x', [1, 64, 128], at, 150);
    expect(result.crossings).toEqual([
      { below: 5, above: 6, fitsBelow: true },
      { below: 39, above: 40, fitsBelow: false, unknown: true, notFitting: 'below' },
      { below: 89, above: 90, fitsBelow: false, unknown: true, notFitting: 'above' },
    ]);
    expect(result.fitsUpTo).toBe(5);
  });

  it('never counts a plan with a size unknown as fitting: its lower estimate within the budget is "not known", not "fits"', () => {
    // sizes are unknown from 5 to 12; the estimate stays under the budget, the complete plans are over it from 20
    const at = (v: number): SweepPoint => ({ ...point(v, 10 * v), complete: v < 5 || v > 12 });
    const result = sweepDim('x', [1, 8, 16, 32], at, 190);
    expect(result.crossings).toEqual([
      { below: 4, above: 5, fitsBelow: true, unknown: true },
      { below: 12, above: 13, fitsBelow: false, unknown: true },
      { below: 19, above: 20, fitsBelow: true },
    ]);
    expect(result.fitsUpTo).toBe(19);
    // a lower estimate already over the budget does not fit, known or not
    const over = sweepDim('x', [1, 2], (v) => ({ ...point(v, 100 * v), complete: v === 1 }), 150);
    expect(over.crossings).toEqual([{ below: 1, above: 2, fitsBelow: true }]);
    // a test of the point (the page's size limits) is asked of complete plans alone too
    const limits = sweepDim('x', [1, 2], (v) => ({ ...point(v, 1), complete: v === 1 }), () => true);
    expect(limits.fitsUpTo).toBe(1);
  });

  it('says nothing fits when the first value is already over', () => {
    const result = sweepDim('x', [1, 2], (v) => point(v, 1000), 10);
    expect(result.fitsUpTo).toBeUndefined();
  });
});

describe('sweepDim with values that cannot be planned', () => {
  it('leaves them out of monotonic, never counts them as fitting, and never as unknown', () => {
    const failed = (v: number): SweepPoint => ({ value: v, peak: 0, lowerBound: 0, regions: [], complete: false, fits: false, error: 'too large' });
    const result = sweepDim('x', [1, 2, 4, 8], (v) => (v >= 6 ? failed(v) : point(v, 10 * v)), 1000);
    expect(result.monotonic).toBe(true);
    expect(result.fitsUpTo).toBe(5);
    expect(result.crossings).toEqual([{ below: 5, above: 6, fitsBelow: true }]);
  });
});

describe('sweepSteps', () => {
  it('asks for each value once, in order, and ends with the same result as sweepDim', () => {
    const peak = (v: number) => 100 * v;
    const steps = sweepSteps<SweepPoint>('seq', [1, 4, 16], 700);
    const asked: number[] = [];
    let step = steps.next();
    while (!step.done) {
      asked.push(step.value);
      step = steps.next(point(step.value, peak(step.value)));
    }
    expect(asked.slice(0, 3)).toEqual([1, 4, 16]);
    expect(new Set(asked).size).toBe(asked.length);
    expect(step.value).toEqual(sweepDim('seq', [1, 4, 16], (v) => point(v, peak(v)), 700));
    expect(step.value.fitsUpTo).toBe(7);
  });

  it('takes a budget as a test of each point, e.g. every region within its limit', () => {
    const result = sweepDim('x', [1, 8], (v) => point(v, 10 * v), (p) => p.peak <= 35);
    expect(result.fitsUpTo).toBe(3);
    expect(result.crossings).toEqual([{ below: 3, above: 4, fitsBelow: true }]);
  });
});

describe('monotonic with values whose sizes are partly unknown', () => {
  it('is judged on complete plans only, and names the lower estimates left out', () => {
    // sizes overflow from 16: the lower estimates fall, the complete plans only grow
    const at = (v: number): SweepPoint => (v < 16 ? point(v, 100 * v) : { ...point(v, 5), complete: false });
    const result = sweepDim('x', [1, 2, 4, 8, 16, 32], at);
    expect(result.monotonic).toBe(true);
    expect(result.monotonicLeftOut).toEqual([16, 32]);
  });

  it('still says not monotonic when complete plans fall, and leaves nothing out when every plan is complete', () => {
    const result = sweepDim('x', [1, 2, 4], (v) => point(v, v === 2 ? 1 : 10 * v));
    expect(result.monotonic).toBe(false);
    expect(result.monotonicLeftOut).toEqual([]);
  });
});
