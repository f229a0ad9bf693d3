import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { planForSettings } from '../../worker/plan-settings';
import { heapData } from '../heap/heap-data';
import { memoryMapData } from './memory-map-data';

const SAMPLE = new Uint8Array(readFileSync(new URL('../../../public/sample.onnx', import.meta.url)));
const model = inferShapes(decodeOnnx(SAMPLE, {}), { dims: {} });

describe('the memory map of a plan', () => {
  it('splits each region of the spilled mcu plan into what is live at its fullest step and the rest of its peak', () => {
    const plan = planForSettings(model, { target: 'mcu', strategy: undefined });
    const map = memoryMapData(plan);
    const lanes = heapData(plan).lanes;
    expect(map.bars.map((b) => b.name)).toEqual(['sram', 'ext-ram']);
    for (const bar of map.bars) {
      const region = plan.regions.find((r) => r.name === bar.name)!;
      expect(bar).toMatchObject({ peak: region.peak, lowerBound: region.lowerBound, sizeLimit: region.sizeLimit, overBy: region.overBy, spilled: region.spilled });
      const live = lanes.find((l) => l.name === bar.name)!.live[bar.step!]!;
      expect(bar.io + bar.activations + bar.scratch).toBe(live);
      expect(bar.io + bar.activations + bar.scratch + bar.rest).toBe(bar.peak);
      expect(bar.spilledBuffers).toBe(plan.buffers.filter((b) => b.region === bar.name && b.wanted !== undefined).length);
    }
    const [sram, ext] = map.bars;
    expect(sram!.overBy).toBe(0);
    expect(sram!.spilledBuffers).toBe(0);
    expect(ext!.spilled).toBeGreaterThan(0);
    expect(ext!.spilledBuffers).toBeGreaterThan(0);
    // Graph I/O is counted where it lies: the image input, in whichever region holds it at that region's fullest step.
    const input = plan.buffers.find((b) => b.kind === 'input')!;
    const holder = map.bars.find((b) => b.name === input.region)!;
    expect(holder.io).toBe(input.start <= holder.step! && holder.step! < input.end ? input.size : 0);
    expect(map.weights).toEqual({ bytes: plan.weights.bytes, tensors: plan.weights.tensors });
  });

  it('says nothing spilled when spilling is off, and the SRAM is over its limit', () => {
    const plan = planForSettings(model, { target: 'mcu', strategy: undefined, edits: { spill: 'off' } });
    const [sram, ext] = memoryMapData(plan).bars;
    expect(sram).toMatchObject({ spilled: undefined, spilledBuffers: 0, overBy: plan.regions[0]!.overBy });
    expect(sram!.overBy).toBeGreaterThan(0);
    expect(ext!.spilledBuffers).toBe(0);
  });
});
