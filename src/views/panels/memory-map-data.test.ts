import { existsSync, readFileSync } from 'node:fs';
import { decodeModel } from '../../model/decode-model';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { planForSettings } from '../../worker/plan/settings';
import { heapData } from '../heap/heap-data';
import { formatBytes } from '../../shared/format';
import { barPartsText, barSpilledText, barUsedText, ioText, memoryMapData, weightsText, type MapBar } from './memory-map-data';
import { assumptionLines } from '../../store/assumptions';
import { customOpModel } from '../../model/testing/assumption-models';

const SAMPLE = new Uint8Array(readFileSync(new URL('../../../public/sample.onnx', import.meta.url)));
const model = inferShapes(decodeOnnx(SAMPLE, {}), { dims: {} });

describe('the memory map of a plan', () => {
  it("says a region's use is at least its figure when some size is unknown (ONNX's test_loop11 on the mcu target)", () => {
    const loop = '/usr/share/libonnx-testdata/data/node/test_loop11/model.onnx';
    if (!existsSync(loop)) return void console.log('memory map: libonnx-testdata is absent; skipping the incomplete plan');
    const plan = planForSettings(inferShapes(decodeModel(new Uint8Array(readFileSync(loop))), { dims: {} }), { target: 'mcu', strategy: undefined });
    expect(plan.complete).toBe(false);
    const sram = memoryMapData(plan).bars.find((b) => b.name === 'sram')!;
    expect(barUsedText(sram)).toBe(`≥ ${formatBytes(sram.used)} / 512 KiB`);
    expect(barUsedText({ ...sram, overBy: 2048 })).toBe(`≥ ${formatBytes(sram.used)} / 512 KiB · ≥ 2.00 KiB over`);
    const complete = memoryMapData(planForSettings(model, { target: 'mcu', strategy: undefined })).bars[0]!;
    expect(barUsedText(complete)).toBe(`${formatBytes(complete.used)} / 512 KiB`);
  });

  it("shows TensorFlow Lite Micro's tail in the tensor arena as its own part of the bar, named in the key only then", () => {
    const plan = planForSettings(model, { target: 'mcu', strategy: undefined });
    expect(memoryMapData(plan).tail).toBe(false);
    const sram = plan.regions[0]!;
    const withTail = { ...plan, regions: [{ ...sram, runtimeTail: 4096, used: sram.peak + 4096 }, ...plan.regions.slice(1)] };
    const map = memoryMapData(withTail);
    const bar = map.bars[0]!;
    expect(map.tail).toBe(true);
    expect(bar.tail).toBe(4096);
    expect(bar.weights + bar.io + bar.kv + bar.activations + bar.scratch + bar.rest + bar.tail).toBe(bar.used);
    expect(barPartsText(bar)).toMatch(/ · TFLite Micro's tail and planning 4\.00 KiB$/);
  });

  it('names the tensor arena to declare with the plan written into a .tflite, the file as it is beside it, and a plan written that is not the one drawn', () => {
    const vela = new URL('../../../../shared/models/tflite/tflm_person_detect_vela.tflite', import.meta.url);
    const mediapipe = new URL('../../../../shared/models/tflite/mediapipe_selfie_segmentation.tflite', import.meta.url);
    if (!existsSync(vela) || !existsSync(mediapipe)) return void console.log('memory map: ../shared/models/tflite is absent; skipping the TFLite Micro arena words');
    const tflite = (url: URL) => inferShapes(decodeModel(new Uint8Array(readFileSync(url))), { dims: {} });
    // Vela's file keeps its own offline plan (72.7 KiB head); heapscope's placement drawn peaks at 154 KiB
    const velaBar = memoryMapData(planForSettings(tflite(vela), { target: 'tflm', strategy: undefined })).bars[0]!;
    expect(velaBar.used).toBe(74_880);
    // the ethos-u kernel's scratch requests are not known: the arena is a lower estimate, "≥" as in Details
    expect(barPartsText(velaBar)).toContain(' · the tensor arena to declare with the plan written in: ≥ 73.1 KiB, as for the file as it is; the plan written peaks at 72.7 KiB, not the plan drawn');
    expect(barUsedText(velaBar)).toBe('≥ 73.1 KiB');
    expect(barUsedText({ ...velaBar, sizeLimit: 102_400 })).toBe('≥ 73.1 KiB / 100 KiB');
    // mediapipe: TFLM refuses its float16 DEQUANTIZE, so no arena works; were it accepted, heapscope's plan written in
    // would need ≥ 3.55 MiB, the file as it is ≥ 4.05 MiB (its custom transposed convolution's scratch unknown)
    const bar = memoryMapData(planForSettings(tflite(mediapipe), { target: 'tflm', strategy: undefined })).bars[0]!;
    expect(barUsedText(bar)).toBe('none works · TFLite Micro refuses the model');
    expect(barPartsText(bar)).toMatch(
      / · TFLite Micro refuses the model: no tensor arena works, AllocateTensors\(\) fails whatever its size \(Details says why\); were it accepted, the tensor arena to declare with the plan written in: ≥ 3\.55 MiB \(≥ 4\.05 MiB for the file as it is\)$/,
    );
  });

  it("says TensorFlow Lite Micro's arena is an estimate when its tail is, as Details and the CLI do (person_detect: 80.4 KiB)", () => {
    const person = new URL('../../../../shared/models/tflite/tflm_person_detect.tflite', import.meta.url);
    if (!existsSync(person)) return void console.log('memory map: ../shared/models/tflite is absent; skipping the estimated arena');
    const graph = inferShapes(decodeModel(new Uint8Array(readFileSync(person))), { dims: {} });
    const bar = memoryMapData(planForSettings(graph, { target: 'tflm', strategy: undefined })).bars[0]!;
    expect(bar.used).toBe(82_352);
    expect(barUsedText(bar)).toBe('80.4 KiB (estimate)');
    expect(barUsedText({ ...bar, sizeLimit: 102_400 })).toBe('80.4 KiB (estimate) / 100 KiB');
    expect(barPartsText(bar)).toContain(' · the tensor arena to declare with the plan written in: 80.4 KiB (estimate), as for the file as it is');
  });

  it("says graph I/O is in TensorFlow Lite Micro's arena when io=application is asked on target tflm, data and placed bytes apart", () => {
    const person = new URL('../../../../shared/models/tflite/tflm_person_detect.tflite', import.meta.url);
    if (!existsSync(person)) return void console.log('memory map: ../shared/models/tflite is absent; skipping the TFLite Micro graph I/O words');
    const graph = inferShapes(decodeModel(new Uint8Array(readFileSync(person))), { dims: {} });
    // the map said "the application's own buffers, outside the arena" beside an arena holding input (9232 B as placed)
    const plan = planForSettings(graph, { target: 'tflm', strategy: undefined, edits: { io: 'application' } });
    const map = memoryMapData(plan);
    expect(map.io).toEqual({ owner: 'arena', bytes: 9218, placed: 9232, kv: 0, unknown: 0 });
    expect(ioText(map)).toBe('graph I/O 9.00 KiB of data (9.02 KiB as placed, with alignment) in all over the run, planned in the arena');
    expect(plan.regions[0]!.io).toBe(map.io.placed);
    expect(assumptionLines(plan, graph).map((l) => l.key)).toContain('tflm-io');
    // on another target the application owns them
    const mcu = memoryMapData(planForSettings(graph, { target: 'mcu', strategy: undefined, edits: { io: 'application' } }));
    expect(ioText(mcu)).toBe("graph I/O 9.00 KiB in all over the run, the application's own buffers, outside the arena");
  });

  it("says a decoder's graph I/O is a total over the run and names its KV cache's share", () => {
    const decoder = { io: { owner: 'arena', bytes: 46_285, placed: 46_285, kv: 42_240 } } as unknown as Parameters<typeof ioText>[0];
    expect(ioText(decoder)).toBe('graph I/O 45.2 KiB in all over the run, 41.3 KiB of it KV cache, planned in the arena');
    // GPT-2 with a past of 1000: 2,569,292 B of data, 2,569,472 B as placed, both 2.45 MiB
    const long = { io: { owner: 'arena', bytes: 2_569_292, placed: 2_569_472, kv: 2_561_280 } } as unknown as Parameters<typeof ioText>[0];
    expect(ioText(long)).toBe('graph I/O 2.45 MiB in all over the run, 2.44 MiB of it KV cache, planned in the arena');
  });

  it('never counts a graph output of unknown size as zero: the total is at least its figure and says how many it leaves out', () => {
    const plan = planForSettings(inferShapes(decodeOnnx(customOpModel(), {}), { dims: {} }), { target: 'cpu', strategy: undefined });
    const map = memoryMapData(plan);
    expect(map.io).toMatchObject({ bytes: 64 * 32 * 32 * 4, unknown: 1 });
    expect(ioText(map)).toBe('graph I/O at least 256 KiB in all over the run (1 of unknown size, planned as 0 bytes), planned in the arena');
  });

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
    expect(map.weights).toEqual({ bytes: plan.weights.bytes, tensors: plan.weights.tensors, unknownSizes: 0, in: 'flash', copied: false, home: 'flash' });
    expect(map.io).toEqual({ owner: 'arena', bytes: plan.storage!.io.bytes, placed: plan.storage!.io.inArena, kv: 0, unknown: 0 });
    for (const bar of map.bars) expect([bar.weights, bar.used]).toEqual([0, bar.peak]);
  });

  it('puts weights copied to a region below its arena and counts them in what it uses; application I/O in no bar', () => {
    const plan = planForSettings(model, { target: 'mcu', strategy: undefined, edits: { weights: { region: 'ext-ram', copied: true }, io: 'application' } });
    const map = memoryMapData(plan);
    const ext = map.bars.find((b) => b.name === 'ext-ram')!;
    expect(ext.weights).toBe(plan.regions.find((r) => r.name === 'ext-ram')!.weights);
    expect(ext.weights).toBeGreaterThanOrEqual(plan.weights.bytes);
    expect(ext.used).toBe(ext.peak + ext.weights);
    expect(ext.io + ext.activations + ext.scratch + ext.rest).toBe(ext.peak); // the arena's parts; the weights sit below it
    expect(map.weights).toMatchObject({ in: 'ext-ram', copied: true });
    expect(map.io.owner).toBe('application');
    for (const bar of map.bars) expect(bar.io).toBe(0);
  });

  it('says nothing spilled when spilling is off, and the SRAM is over its limit', () => {
    const plan = planForSettings(model, { target: 'mcu', strategy: undefined, edits: { spill: 'off' } });
    const [sram, ext] = memoryMapData(plan).bars;
    expect(sram).toMatchObject({ spilled: 0, spilledBuffers: 0, overBy: plan.regions[0]!.overBy });
    expect(sram!.overBy).toBeGreaterThan(0);
    expect(ext!.spilledBuffers).toBe(0);
  });

  it('says the spilled bytes are a total over the run, and which step the parts are live at', () => {
    const plan = planForSettings(model, { target: 'mcu', strategy: undefined });
    const [sram, ext] = memoryMapData(plan).bars;
    // The spilled groups live at different steps: their sum may exceed the region, so it must not read as bytes held.
    expect(barSpilledText(ext!)).toBe(`${ext!.spilledBuffers} buffers spilled here, ${formatBytes(ext!.spilled)} of them in all over the run`);
    expect(barSpilledText({ ...ext!, spilledBuffers: 1 } as MapBar)).toBe(`1 buffer spilled here, ${formatBytes(ext!.spilled)} of it in all over the run`);
    expect(barSpilledText(sram!)).toBeUndefined();
    expect(barPartsText(sram!)).toBe(`at its fullest step ${sram!.step}: I/O ${formatBytes(sram!.io)} · activations ${formatBytes(sram!.activations)}${sram!.scratch > 0 ? ` · scratch ${formatBytes(sram!.scratch)}` : ''}`);
    expect(sram!.step).toBe(plan.regions[0]!.peakStep);
  });
});

describe('where the memory map says the weights are', () => {
  const sample = () => inferShapes(decodeOnnx(new Uint8Array(readFileSync(new URL('../../../public/sample.onnx', import.meta.url)))), { dims: {} });

  it('on a host, which has no flash, outside the planned regions; on a microcontroller in flash', () => {
    // the cpu target read "in flash (not in a region)"
    const model = sample();
    const host = weightsText(memoryMapData(planForSettings(model, { target: 'cpu', strategy: undefined })));
    expect(host).toMatch(/ tensors, outside the planned regions \(loaded or mapped by the runtime\)$/);
    expect(host).not.toContain('flash');
    const copied = weightsText(memoryMapData(planForSettings(model, { target: 'cpu', strategy: undefined, edits: { weights: { region: 'ram', copied: true } } })));
    expect(copied).toMatch(/, in ram below its arena, copied there at start$/);
    expect(weightsText(memoryMapData(planForSettings(model, { target: 'mcu', strategy: undefined })))).toMatch(/ tensors, in flash \(not in a region\)$/);
  });
});

describe('the memory map\'s weights line with a weight of unknown size', () => {
  it('says the weights are at least their known bytes, and how many are unknown, as plan does', async () => {
    const { GraphBuilder } = await import('../../model/testing/onnx-writer');
    // x · Mystery(W): W is 64 bytes of floats; Mystery (com.example) has no shape rule, so its output, a weight, has no size
    const g = new GraphBuilder('mystery-weights');
    const x = g.input('x', 'float32', [1, 4]);
    const c = g.node('Mystery', [g.initializer('W', 'float32', [4, 4], new Uint8Array(64))], {}, { domain: 'com.example' });
    g.output(g.node('MatMul', [x, c]), 'float32', [1, 4]);
    const mystery = inferShapes(decodeOnnx(g.toBytes({ opsets: { 'com.example': 1 } }), {}), { dims: {} });
    const text = weightsText(memoryMapData(planForSettings(mystery, { target: 'cpu', strategy: undefined })));
    // it read "weights 64 B in 2 tensors, …": the unknown one counted as 0 B, unsaid
    expect(text).toMatch(/^weights at least 64 B in 2 tensors \(1 of unknown size, counted as 0 bytes\), outside the planned regions/);
    expect(weightsText(memoryMapData(planForSettings(model, { target: 'cpu', strategy: undefined })))).not.toContain('at least');
  });
});
