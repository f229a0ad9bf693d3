import { describe, expect, it } from 'vitest';
import type { RegionPlan } from '../planner/plan';
import { overLimitText, peakText } from './plan-words';

const sram: RegionPlan = { name: 'sram', peak: 3 * 1024, lowerBound: 3 * 1024, optimal: true, fast: true, sizeLimit: 1024, overBy: 2 * 1024, waste: { total: 0, holes: 0, alignmentPadding: 0, scratchGrowth: 0 } };

describe('plan words', () => {
  it('say a peak is a lower estimate when some size is unknown', () => {
    expect(peakText(3072, true)).toBe('3.00 KiB');
    expect(peakText(3072, false)).toBe('≥ 3.00 KiB');
  });

  it('say a region over its limit needs at least its peak when some size is unknown', () => {
    expect(overLimitText(sram)).toBe('sram needs 3.00 KiB, 2.00 KiB over its 1.00 KiB limit');
    expect(overLimitText(sram, false)).toBe('sram needs at least 3.00 KiB, at least 2.00 KiB over its 1.00 KiB limit');
  });
});
