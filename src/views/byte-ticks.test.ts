import fc from 'fast-check';
import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../shared/format';
import { byteTicks } from './byte-ticks';

/** True when every value is a whole multiple of one step of 1, 2 or 5 × 10^k in `unit`, the step between neighbours. */
function roundInUnit(values: readonly number[], unit: number): boolean {
  if (values.length < 2) return true;
  const step = (values[1]! - values[0]!) / unit;
  const mantissa = step / 10 ** Math.floor(Math.log10(step));
  if (![1, 2, 5, 10].some((m) => Math.abs(mantissa - m) < 1e-6 * m)) return false;
  const whole = (q: number): boolean => Math.abs(q - Math.round(q)) < 1e-6 + 1e-9 * Math.abs(q);
  return values.every((v, i) => whole(v / unit / step) && (i === 0 || Math.abs((v - values[i - 1]!) / unit - step) < 1e-6 * step));
}

describe('byte axis ticks', () => {
  it('fall on hundreds of KiB for a lane of 300,000 B, where steps of 100,000 B read 97.7, 195, 293 KiB', () => {
    const { values, label } = byteTicks(0, 300_000, 4);
    expect(values.map(label)).toEqual(['0 B', '100 KiB', '200 KiB']);
    expect(values).toEqual([0, 100 * 1024, 200 * 1024]);
    // What D3's scale gave the axis: round in bytes, not in the unit shown.
    const d3Ticks = scaleLinear().domain([0, 300_000]).ticks(4);
    expect(d3Ticks.map(formatBytes)).toEqual(['0 B', '97.7 KiB', '195 KiB', '293 KiB']);
    expect(roundInUnit(d3Ticks, 1024)).toBe(false);
  });

  it('write a few MiB in MiB with the decimals the step needs', () => {
    const { values, label, unit } = byteTicks(0, 7.83 * 1024 ** 2, 5);
    expect(unit).toBe(1024 ** 2);
    expect(values.map(label)).toEqual(['0 B', '2 MiB', '4 MiB', '6 MiB']);
    expect(byteTicks(0, 1.5 * 1024 ** 2, 4).values.map(byteTicks(0, 1.5 * 1024 ** 2, 4).label)).toEqual(['0 B', '0.5 MiB', '1.0 MiB', '1.5 MiB']);
  });

  it('stay in bytes, whole ones, under a KiB', () => {
    const { values, label } = byteTicks(0, 700, 4);
    expect(values.map(label)).toEqual(['0 B', '200 B', '400 B', '600 B']);
    expect(byteTicks(10, 13, 8).values).toEqual([10, 11, 12, 13]);
  });

  it('fall on whole bytes: 0.2 GiB steps (214,748,364.8 B) become MiB ones, and a single tick keeps its step', () => {
    expect(byteTicks(0, 1.3 * 1024 ** 3, 5).values.every(Number.isInteger)).toBe(true);
    const single = byteTicks(1077238124.99, 1077238128, 2);
    expect(single.values.map(single.label)).toEqual(single.values.map((v) => `${v} B`));
  });

  it('move to a smaller unit when zoomed in so deep that the step would need more than two decimals', () => {
    const { values, label, unit } = byteTicks(1024 ** 2, 1024 ** 2 + 3000, 3);
    expect(unit).toBe(1024);
    expect(values.map(label)).toEqual(['1024 KiB', '1025 KiB', '1026 KiB']);
  });

  it('are round in the unit their labels use, inside the range, ascending, for any range', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 2 ** 40, noNaN: true }), fc.double({ min: 1, max: 2 ** 40, noNaN: true }), fc.integer({ min: 2, max: 8 }), (lo, span, count) => {
        const hi = lo + span;
        const { values, unit, label } = byteTicks(lo, hi, count);
        expect(values.length).toBeGreaterThan(0);
        expect(roundInUnit(values, unit)).toBe(true);
        values.forEach((v, i) => {
          expect(v).toBeGreaterThanOrEqual(lo - 1e-6 * hi);
          expect(v).toBeLessThanOrEqual(hi + 1e-6 * hi);
          expect(Math.abs(v - Math.round(v)), `a tick between bytes: ${v}`).toBeLessThan(1e-3);
          if (i > 0) expect(v).toBeGreaterThan(values[i - 1]!);
        });
        expect(new Set(values.map(label)).size).toBe(values.length);
      }),
    );
  });
});

describe('byte axis ticks past TiB', () => {
  it('are labelled in PiB, as formatBytes writes those sizes', () => {
    const { label, unit } = byteTicks(0, 4 * 2 ** 50, 4);
    expect(unit).toBe(2 ** 50);
    expect(label(2 * 2 ** 50)).toBe('2 PiB');
  });
});
