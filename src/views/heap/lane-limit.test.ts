import { describe, expect, it } from 'vitest';
import type { RegionPlan } from '../../planner/plan';
import { laneLimit, laneLimitText, limitLabelTop } from './lane-limit';
import { heapData } from './heap-data';
import { syntheticPlan } from './synthetic-plan';

const waste = { total: 0, holes: 0, alignmentPadding: 0, scratchGrowth: 0 };
/** SRAM of 1024 B whose arena peaks at `peak` over `weights` bytes of weights at its base. */
const sram = (peak: number, weights: number): RegionPlan => ({ name: 'sram', peak, lowerBound: peak, optimal: true, fast: true, sizeLimit: 1024, overBy: Math.max(0, peak + weights - 1024), weights, used: peak + weights, waste });

describe('a lane size limit', () => {
  it('without weights is the region limit, over by what the arena peak exceeds it by', () => {
    expect(laneLimit(sram(1100, 0))).toEqual({ sizeLimit: 1024, weights: 0, arena: 1024, overBy: 76 });
    expect(laneLimitText(laneLimit(sram(1000, 0))!)).toBe('limit 1.00 KiB');
  });

  it('with weights at the base sits at the arena bytes they leave, and is over by plan --json overBy', () => {
    const limit = laneLimit(sram(800, 300))!;
    expect(limit).toEqual({ sizeLimit: 1024, weights: 300, arena: 724, overBy: 76 });
    expect(800 - limit.arena).toBe(limit.overBy);
    expect(laneLimitText(limit)).toBe('limit 1.00 KiB less 300 B weights · over by 76 B');
    expect(laneLimitText(limit, true)).toBe('over by 76 B');
  });

  it('with weights above the whole limit leaves the arena no room', () => {
    expect(laneLimit(sram(100, 2000))).toMatchObject({ arena: 0, overBy: 1076 });
  });

  it('is none without a size limit, and the heap lane carries it', () => {
    expect(laneLimit({ ...sram(8, 0), sizeLimit: undefined })).toBeUndefined();
    const base = syntheticPlan(4, 3);
    const plan = { ...base, regions: [sram(800, 300)], buffers: base.buffers.map((b) => ({ ...b, region: 'sram' })) };
    expect(heapData(plan).lanes[0]!.limit).toEqual({ sizeLimit: 1024, weights: 300, arena: 724, overBy: 76 });
  });
});

describe("a lane limit's label", () => {
  it('sits just above the line when the lane has room there, as it always did', () => {
    // The line at y 100: the box is 13 px tall and ends 2 px above the line.
    expect(limitLabelTop(100, 0)).toBe(85);
    expect(limitLabelTop(100.4, 85)).toBe(85);
  });

  it('goes just below the line when the line is near the top of the lane, so no part of it is cut off', () => {
    // FastestDet on mcu: the sram limit a few pixels under its lane's top.
    expect(limitLabelTop(40, 30)).toBe(43);
    expect(limitLabelTop(40, 30)).toBeGreaterThanOrEqual(30);
    expect(limitLabelTop(5, 0)).toBe(8);
  });
});
