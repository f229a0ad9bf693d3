import { describe, expect, it } from 'vitest';
import type { RegionPlan } from '../../planner/plan';
import { fitLaneLimitText, laneLimit, laneLimitText, limitLabelBox, limitLabelTop, peakLineBox, peakMarkerBox, type PxBox } from './lane-limit';
import { heapData, laneExtent } from './heap-data';
import { baseScales, heapLayout } from './heap-geometry';
import { syntheticPlan } from './synthetic-plan';

const waste = { total: 0, holes: 0, alignmentPadding: 0, scratchGrowth: 0 };
/** SRAM of 1024 B whose arena peaks at `peak` over `weights` bytes of weights at its base. */
const sram = (peak: number, weights: number): RegionPlan => ({ name: 'sram', peak, lowerBound: peak, optimal: true, fast: true, sizeLimit: 1024, overBy: Math.max(0, peak + weights - 1024), weights, used: peak + weights, waste });

describe('a lane size limit', () => {
  it('without weights is the region limit, over by what the arena peak exceeds it by', () => {
    expect(laneLimit(sram(1100, 0))).toEqual({ sizeLimit: 1024, weights: 0, tail: 0, arena: 1024, overBy: 76 });
    expect(laneLimitText(laneLimit(sram(1000, 0))!)).toBe('limit 1.00 KiB');
  });

  it('with weights at the base sits at the arena bytes they leave, and is over by plan --json overBy', () => {
    const limit = laneLimit(sram(800, 300))!;
    expect(limit).toEqual({ sizeLimit: 1024, weights: 300, tail: 0, arena: 724, overBy: 76 });
    expect(800 - limit.arena).toBe(limit.overBy);
    expect(laneLimitText(limit)).toBe('limit 1.00 KiB less 300 B weights · over by 76 B');
    expect(laneLimitText(limit, true)).toBe('over by 76 B');
  });

  it('with TensorFlow Lite Micro running another plan than the one drawn (a file\'s own offline plan kept), says its head: the limit holds that one', () => {
    // Vela's person_detect in a 100 KiB arena: heapscope's placement peaks at 154 KiB, the file's own plan at 72.7 KiB, which fits
    const arena: RegionPlan = { ...sram(1100, 0), sizeLimit: 1024, runtimeTail: 16, runtimeHead: 600, used: 616, overBy: 0 };
    const limit = laneLimit(arena)!;
    expect(limit).toMatchObject({ overBy: 0, written: 600, arena: 1008 });
    expect(laneLimitText(limit)).toBe('limit 1.00 KiB less 16 B runtime tail and planning · the plan written peaks at 600 B');
    expect(laneLimit({ ...arena, runtimeHead: 1100 })!.written).toBeUndefined();
  });

  it('in a lane too narrow for the whole label, still says where the file\'s plan peaks, and that the drawing is heapscope\'s placement while it has room', () => {
    const limit = laneLimit({ ...sram(1100, 0), runtimeTail: 16, runtimeHead: 600, used: 616, overBy: 0 })!;
    const chars = (t: string): number => t.length; // one unit a character
    const texts = [80, 50, 36, 31].map((width) => fitLaneLimitText(limit, width, chars));
    expect(texts).toEqual([
      "limit 1.00 KiB · drawn: heapscope's placement; the file's plan peaks at 600 B",
      "limit 1.00 KiB · the file's plan peaks at 600 B",
      "limit 1.00 KiB · file's plan 600 B",
      "limit 1.00 KiB · file's 600 B",
    ]);
    // narrower still, the shortest wording: it is cut at the lane's edge rather than dropped
    expect(fitLaneLimitText(limit, 10, chars)).toBe(texts[3]);
    // over its limit, by the file's plan
    expect(fitLaneLimitText({ ...limit, overBy: 40 }, 31, chars)).toBe("over by 40 B · file's 600 B");
    // the whole label where it fits
    expect(fitLaneLimitText(limit, 200, chars)).toBe(laneLimitText(limit));
  });

  it('without another plan run, a narrow lane keeps how far over or the limit', () => {
    expect(fitLaneLimitText(laneLimit(sram(800, 300))!, 20, (t) => t.length)).toBe('over by 76 B');
    expect(fitLaneLimitText(laneLimit(sram(1000, 0))!, 10, (t) => t.length)).toBe('limit 1.00 KiB');
  });

  it("with TensorFlow Lite Micro's tail in the tensor arena sits at the bytes the tail leaves the plan", () => {
    const arena: RegionPlan = { ...sram(800, 0), runtimeTail: 300, used: 1100, overBy: 76 };
    const limit = laneLimit(arena)!;
    expect(limit).toEqual({ sizeLimit: 1024, weights: 0, tail: 300, arena: 724, overBy: 76 });
    expect(laneLimitText(limit)).toBe('limit 1.00 KiB less 300 B runtime tail and planning · over by 76 B');
  });

  it('with weights above the whole limit leaves the arena no room', () => {
    expect(laneLimit(sram(100, 2000))).toMatchObject({ arena: 0, overBy: 1076 });
  });

  it('is none without a size limit, and the heap lane carries it', () => {
    expect(laneLimit({ ...sram(8, 0), sizeLimit: undefined })).toBeUndefined();
    const base = syntheticPlan(4, 3);
    const plan = { ...base, regions: [sram(800, 300)], buffers: base.buffers.map((b) => ({ ...b, region: 'sram' })) };
    expect(heapData(plan).lanes[0]!.limit).toEqual({ sizeLimit: 1024, weights: 300, tail: 0, arena: 724, overBy: 76 });
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

const overlaps = (a: PxBox, b: PxBox): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe("a lane's byte axis and its size limit", () => {
  it('spans a limit a little above the peak (squeezenet on mcu: sram peak 456 KiB, limit 512 KiB), so the line is inside the lane', () => {
    const limit = laneLimit({ ...sram(456 * 1024, 0), sizeLimit: 512 * 1024 })!;
    expect(laneExtent(456 * 1024, 456 * 1024, limit)).toBe(512 * 1024);
    const base = syntheticPlan(4, 3);
    const plan = { ...base, regions: [{ ...sram(456 * 1024, 0), sizeLimit: 512 * 1024 }], buffers: base.buffers.map((b) => ({ ...b, region: 'sram', size: 1024 })) };
    const data = heapData(plan);
    const layout = heapLayout(data, 300, 200);
    const y = baseScales(data, layout).y[0]!;
    const lane = layout.lanes[0]!;
    expect(y(512 * 1024)).toBeGreaterThan(lane.top);
  });

  it('leaves out a limit far above the bytes used, which would flatten the plot, and a limit below the peak changes nothing', () => {
    const far = laneLimit({ ...sram(100, 0), sizeLimit: 8 * 1024 * 1024 })!;
    expect(laneExtent(100, 100, far)).toBe(100);
    expect(laneExtent(2000, 2000, laneLimit(sram(2000, 0)))).toBe(2000);
  });
});

describe("a lane limit's label box", () => {
  const lane = { top: 16, bottom: 106, width: 220 };
  it('is whole inside the lane when the line is at its very top, so it never runs under the title', () => {
    for (const lineY of [16, 18, 10, -40]) {
      const box = limitLabelBox(lineY, lane.top, lane.bottom, lane.width, 80, []);
      expect(box.top, `line at ${lineY}`).toBeGreaterThanOrEqual(lane.top);
      expect(box.bottom).toBeLessThanOrEqual(lane.bottom);
      expect(box.right).toBe(lane.width - 2);
    }
  });

  it('keeps clear of the peak marker and the peak line when the marker is at the right end of the line (resnet50 on mcu: limit 512 KiB, peak 490 KiB)', () => {
    // The limit line 4 px above the peak line, the marker near the right end.
    const avoid = [peakLineBox(24, lane.width), peakMarkerBox(190, 24)];
    const box = limitLabelBox(20, lane.top, lane.bottom, lane.width, 80, avoid);
    for (const b of avoid) expect(overlaps(box, b)).toBe(false);
    expect(box.top).toBeGreaterThanOrEqual(lane.top);
    expect(box.bottom).toBeLessThanOrEqual(lane.bottom);
    // Without the lines to avoid the old placement, just under the limit line, ran over the marker's tip and the peak line.
    expect(overlaps({ left: 130, top: limitLabelTop(20, lane.top), right: 218, bottom: limitLabelTop(20, lane.top) + 13 }, avoid[0]!)).toBe(true);
  });

  it('goes left of a marker it cannot pass above or below', () => {
    const marker = peakMarkerBox(200, 30);
    const box = limitLabelBox(20, 16, 45, lane.width, 80, [marker]);
    expect(overlaps(box, marker)).toBe(false);
    expect(box.top).toBeGreaterThanOrEqual(16);
    expect(box.bottom).toBeLessThanOrEqual(45);
  });

  it('stays at the right end, above the line as before, when the marker is elsewhere', () => {
    const box = limitLabelBox(100, 0, 200, lane.width, 80, [peakMarkerBox(20, 120)]);
    expect(box).toEqual({ left: lane.width - 2 - 88, top: 85, right: lane.width - 2, bottom: 98 });
  });
});
