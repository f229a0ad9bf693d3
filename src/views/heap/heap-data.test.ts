import { describe, expect, it } from 'vitest';
import type { ModelPlan, PlannedBuffer } from '../../planner/plan';
import { syntheticPlan } from './synthetic-plan';
import { heapData, NO_LANE } from './heap-data';
import { GraphBuilder } from '../../model/testing/onnx-writer';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { planModel } from '../../planner/plan';
import { presetTarget } from '../../planner/targets/presets';

/** A plan over two regions, of which only `used` hold buffers. */
function twoRegionPlan(buffers: readonly PlannedBuffer[]): ModelPlan {
  const base = syntheticPlan(4, 3);
  const waste = base.waste;
  return {
    ...base,
    buffers,
    regions: [
      { name: 'dram', peak: 96, lowerBound: 96, optimal: true, fast: false, overBy: 0, waste },
      { name: 'sram', peak: buffers.some((b) => b.region === 'sram') ? 32 : 0, lowerBound: 0, optimal: true, fast: true, overBy: 0, waste },
    ],
  };
}

const buffer = (id: number, region: string, start: number, end: number, offset: number, size: number): PlannedBuffer => ({
  id, name: `b${id}`, kind: 'activation', size, bytes: size, start, end, offset, region,
});

describe('heap view model', () => {
  it('draws one lane per region holding buffers, with its live bytes per step', () => {
    const data = heapData(twoRegionPlan([buffer(0, 'dram', 0, 2, 0, 64), buffer(1, 'dram', 1, 3, 64, 32), buffer(2, 'sram', 1, 2, 0, 32)]));
    expect(data.lanes.map((l) => [l.name, l.buffers])).toEqual([['dram', 2], ['sram', 1]]);
    expect([...data.lanes[0]!.live.slice(0, 3)]).toEqual([64, 96, 32]);
    expect([...data.lane]).toEqual([0, 0, 1]);
  });

  it('gives an empty region no lane', () => {
    const data = heapData(twoRegionPlan([buffer(0, 'dram', 0, 2, 0, 64)]));
    expect(data.lanes.map((l) => l.name)).toEqual(['dram']);
  });

  it('gives a region over its limit by weights alone no lane of 0 B but a line of what it holds (ultraface with weights in the mcu SRAM)', () => {
    const plan = twoRegionPlan([buffer(0, 'dram', 0, 2, 0, 64)]);
    const over = { ...plan, regions: plan.regions.map((r) => (r.name === 'sram' ? { ...r, sizeLimit: 16, weights: 100, used: 100, overBy: 84 } : r)) };
    const data = heapData(over);
    expect(data.lanes.map((l) => [l.name, l.buffers])).toEqual([['dram', 1]]);
    expect(data.emptyRegions).toBe('sram holds no planned buffer (its 100 B are weights, 84 B over its 16 B limit), so it has no lane');
  });

  it('keeps every buffer of a large plan', () => {
    const data = heapData(syntheticPlan(5000, 2));
    expect(data.count).toBe(5000);
    expect(data.lanes[0]!.buffers).toBe(5000);
    expect(Math.max(...data.lanes[0]!.live)).toBe(data.plan.lowerBound);
  });
});

describe('the peak marker of a lane above its bound', () => {
  it('sits where a buffer reaches the peak, not where the most is live', () => {
    // step 0: 64 B live at [0, 64), the bound; step 2: 16 B at [80, 96), the peak's top over a hole
    const buffers = [buffer(0, 'dram', 0, 1, 0, 64), buffer(1, 'dram', 1, 2, 0, 16), buffer(2, 'dram', 2, 4, 80, 16)];
    const base = twoRegionPlan(buffers);
    const plan: ModelPlan = { ...base, regions: [{ ...base.regions[0]!, peak: 96, lowerBound: 64, optimal: false, peakStep: 0 }, base.regions[1]!] };
    const lane = heapData(plan).lanes.find((l) => l.name === 'dram')!;
    expect(lane.peakStep).toBe(2);
  });

  it('stays where the bound is reached when no buffer reaches the peak the plan states', () => {
    const buffers = [buffer(0, 'dram', 0, 1, 0, 64)];
    const base = twoRegionPlan(buffers);
    const plan: ModelPlan = { ...base, regions: [{ ...base.regions[0]!, peak: 96, lowerBound: 64, optimal: false, peakStep: 0 }, base.regions[1]!] };
    expect(heapData(plan).lanes.find((l) => l.name === 'dram')!.peakStep).toBe(0);
  });
});

describe('the peak marker of a lane at its bound', () => {
  it("sits at the region's fullest step when a buffer reaching the peak is live there, not where that buffer starts (tiny-llama's present.0.key lives from step 65, the peak is at step 90)", () => {
    // the top buffer [64, 96) lives over steps 1-3; the most is live at step 2, where [0, 64) is live too
    const buffers = [buffer(0, 'dram', 2, 3, 0, 64), buffer(1, 'dram', 1, 4, 64, 32)];
    const base = twoRegionPlan(buffers);
    const plan: ModelPlan = { ...base, regions: [{ ...base.regions[0]!, peak: 96, lowerBound: 96, optimal: true, peakStep: 2 }, base.regions[1]!] };
    expect(heapData(plan).lanes.find((l) => l.name === 'dram')!.peakStep).toBe(2);
  });
});

describe('regions that hold nothing', () => {
  // x -> Relu -> Relu -> y over n × 4 floats on mcu: at n = 0 every buffer is 0 B; at n = 4 all fit sram, ext-ram holds none
  const g = new GraphBuilder('empty-lanes');
  const x = g.input('x', 'float32', ['n', 4]);
  g.output(g.node('Relu', [g.node('Relu', [x])]), 'float32', ['n', 4]);
  const bytes = g.toBytes();
  const planAt = (n: number) => planModel(inferShapes(decodeOnnx(bytes), { dims: { n } }), presetTarget('mcu'));

  it('draws no lane when no region holds a byte, and says why: no address axis of 0 B to a made-up 1 B', () => {
    const plan = planAt(0);
    expect(plan.peak).toBe(0);
    const data = heapData(plan);
    expect(data.lanes).toEqual([]);
    expect(data.emptyRegions).toBe('sram and ext-ram hold nothing: no buffer to draw');
    // every buffer is still there, for the table, the keys and Details, in its region but in no lane
    expect(data.count).toBe(plan.buffers.length);
    expect([...data.lane]).toEqual(plan.buffers.map(() => NO_LANE));
    expect(data.regions).toEqual(['sram']);
  });

  it('names the region left without a lane', () => {
    const data = heapData(planAt(4));
    expect(data.lanes.map((l) => l.name)).toEqual(['sram']);
    expect(data.emptyRegions).toBe('ext-ram holds nothing, so it has no lane');
  });

  it('says nothing when every region has a lane', () => {
    const buffers = [buffer(0, 'dram', 0, 2, 0, 64), buffer(1, 'sram', 1, 2, 0, 32)];
    expect(heapData(twoRegionPlan(buffers)).emptyRegions).toBeUndefined();
  });
});
