import { describe, expect, it } from 'vitest';
import type { RegionPlan } from '../../planner/plan';
import { fitLaneLimitText, laneLimit, laneLimitText, LIMIT_GAP, LIMIT_LABEL_HEIGHT, limitLabelBox, splitTitleRow, type PxBox } from './lane-limit';
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
    expect(laneLimitText(limit)).toBe('limit 1.00 KiB − 300 B weights = 724 B for the activations · over by 76 B');
    expect(laneLimitText(limit, true)).toBe('over by 76 B');
  });

  it('with TensorFlow Lite Micro running another plan than the one drawn (a file\'s own offline plan kept), says its head: the limit holds that one', () => {
    // Vela's person_detect in a 100 KiB arena: heapscope's placement peaks at 154 KiB, the file's own plan at 72.7 KiB, which fits
    const arena: RegionPlan = { ...sram(1100, 0), sizeLimit: 1024, runtimeTail: 16, runtimeHead: 600, used: 616, overBy: 0 };
    const limit = laneLimit(arena)!;
    expect(limit).toMatchObject({ overBy: 0, written: 600, arena: 1008 });
    expect(laneLimitText(limit)).toBe('limit 1.00 KiB − 16 B tail and planning = 1008 B for the arena head · the plan written peaks at 600 B');
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
    expect(fitLaneLimitText(laneLimit(sram(800, 300))!, 55, (t) => t.length)).toBe('limit 1.00 KiB − 300 B weights = 724 B · over by 76 B');
    expect(fitLaneLimitText(laneLimit(sram(1000, 0))!, 10, (t) => t.length)).toBe('limit 1.00 KiB');
  });

  it("in a lane too narrow for the whole label, names the limit and what the line is, the limit less TFLite Micro's tail (person_detect under 60 KiB read only 'over by 20.4 KiB')", () => {
    const limit = laneLimit({ ...sram(55_660, 0), name: 'arena', sizeLimit: 61_440, runtimeTail: 27_034, used: 82_694, overBy: 21_254 })!;
    const chars = (t: string): number => t.length;
    expect(fitLaneLimitText(limit, 93, chars)).toBe('limit 60.0 KiB − 26.4 KiB tail and planning = 33.6 KiB for the arena head · over by 20.8 KiB');
    expect(fitLaneLimitText(limit, 73, chars)).toBe('limit 60.0 KiB − 26.4 KiB tail and planning = 33.6 KiB · over by 20.8 KiB');
    expect(fitLaneLimitText(limit, 40, chars)).toBe('limit 60.0 KiB · over by 20.8 KiB');
    expect(fitLaneLimitText(limit, 63, chars)).toBe('limit 60.0 KiB − 26.4 KiB tail and planning = 33.6 KiB');
    expect(fitLaneLimitText(laneLimit(sram(800, 300))!, 35, chars)).toBe('limit 1.00 KiB · over by 76 B');
    // The title row gives the label the title's room when the title's shortest facts would leave it none that says where the line is.
    expect(splitTitleRow(limit, 73, 22, chars, 5)).toEqual({ limitText: 'limit 60.0 KiB − 26.4 KiB tail and planning = 33.6 KiB', titleWidth: 7 });
    expect(splitTitleRow(limit, 60, 22, chars).limitText).toBe('over by 20.8 KiB');
  });

  it("with TensorFlow Lite Micro's tail in the tensor arena sits at the bytes the tail leaves the plan", () => {
    const arena: RegionPlan = { ...sram(800, 0), runtimeTail: 300, used: 1100, overBy: 76 };
    const limit = laneLimit(arena)!;
    expect(limit).toEqual({ sizeLimit: 1024, weights: 0, tail: 300, arena: 724, overBy: 76 });
    expect(laneLimitText(limit)).toBe('limit 1.00 KiB − 300 B tail and planning = 724 B for the arena head · over by 76 B');
  });

  it('with weights above the whole limit leaves the arena no room', () => {
    expect(laneLimit(sram(100, 2000))).toMatchObject({ arena: 0, overBy: 1076 });
  });

  it("with weights above the whole limit says by how much in its sum, as the banner's over does, not '= 0 B'", () => {
    // ultraface on mcu with its weights copied to sram read "limit 512 KiB − 1.15 MiB weights = 0 B" beside "662 KiB over"
    const limit = laneLimit(sram(0, 2000))!;
    expect(laneLimitText(limit)).toBe('limit 1.00 KiB − 1.95 KiB weights = −976 B, no room for the activations · over by 976 B');
    expect(fitLaneLimitText(limit, 55, (t) => t.length)).toBe('limit 1.00 KiB − 1.95 KiB weights = −976 B');
    // with TFLite Micro's tail past the limit too
    expect(laneLimitText(laneLimit({ ...sram(0, 0), runtimeTail: 1100, used: 1100, overBy: 76 })!)).toBe('limit 1.00 KiB − 1.07 KiB tail and planning = −76 B, no room for the arena head · over by 76 B');
  });

  it('is none without a size limit, and the heap lane carries it', () => {
    expect(laneLimit({ ...sram(8, 0), sizeLimit: undefined })).toBeUndefined();
    const base = syntheticPlan(4, 3);
    const plan = { ...base, regions: [sram(800, 300)], buffers: base.buffers.map((b) => ({ ...b, region: 'sram' })) };
    expect(heapData(plan).lanes[0]!.limit).toEqual({ sizeLimit: 1024, weights: 300, tail: 0, arena: 724, overBy: 76 });
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
  // ultraface_RFB-320 on mcu at 1920×1080: the sram lane's buffers reach its top right corner, under the limit line's
  // right end, where the label sat on them and ran into "scores".
  const lane = { top: 16, bottom: 106, right: 300 };
  const buffers: PxBox[] = [
    { left: 120, top: 18, right: 300, bottom: 30 }, // "scores", at the lane's top right
    { left: 0, top: lane.top, right: 110, bottom: lane.bottom },
    { left: 200, top: 40, right: 290, bottom: 106 },
  ];

  it('covers no buffer, wherever they are in the lane: it sits in the title row, at the right end', () => {
    const box = limitLabelBox(lane.top, lane.right, 80);
    for (const b of buffers) expect(overlaps(box, b), JSON.stringify(b)).toBe(false);
    expect(box.bottom).toBeLessThanOrEqual(lane.top);
    expect(box.right).toBe(lane.right);
    expect(box.right - box.left).toBe(80);
    expect(box.bottom - box.top).toBe(LIMIT_LABEL_HEIGHT);
  });

  it('moves with the lane\'s top as the heap zooms, staying above it', () => {
    for (const top of [16.4, -30, 250]) expect(limitLabelBox(top, lane.right, 60).bottom).toBeLessThanOrEqual(top);
  });

  it('shares the row with the title: the longest wording that leaves the title its room, the title the rest', () => {
    const limit = laneLimit({ ...sram(600 * 1024, 0), sizeLimit: 512 * 1024 })!;
    const measure = (t: string): number => t.length * 6;
    const wide = splitTitleRow(limit, 400, 150, measure);
    expect(wide.limitText).toBe(laneLimitText(limit));
    expect(wide.titleWidth).toBe(400 - measure(wide.limitText) - LIMIT_GAP);
    const narrow = splitTitleRow(limit, 200, 150, measure);
    expect(narrow.limitText).toBe(laneLimitText(limit, true));
    expect(narrow.titleWidth + measure(narrow.limitText) + LIMIT_GAP).toBe(200);
  });

  it("keeps a narrow lane's title its facts: the short limit label when no wording of the file's plan fits beside it", () => {
    const limit = { ...laneLimit({ ...sram(154 * 1024, 0), sizeLimit: 100 * 1024 })!, overBy: 0, written: 72.7 * 1024 };
    const measure = (t: string): number => t.length * 6;
    const row = splitTitleRow(limit, 280, measure("arena · heapscope's placement"), measure);
    expect(row.limitText).toBe('limit 100 KiB');
    expect(row.titleWidth).toBeGreaterThanOrEqual(measure("arena · heapscope's placement"));
  });
});
