// The TFLite Micro runtime plan on the real .tflite models of ../shared/models/tflite:
// the head against the figure TFLM's own memory_arena_threshold_test publishes,
// the arena formula against the smallest arena TFLM accepts, the written offline
// plan re-read and re-planned, and every plan valid. Skips with a notice when the folder is absent.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { withOfflinePlan } from '../../model/tflite/write-offline-plan';
import { planModel, type ModelPlan } from '../plan';
import { presetTarget } from '../targets/presets';
import { tflmAllocation } from './allocation-info';
import { planGreedy } from './greedy-planner';
import { simulateOffline } from './runtime-plan';
import { BUILD_64, smallestArena, tflmArena, tflmPlanningBytes } from './tail';

const DIR = join(__dirname, '../../../../shared/models/tflite');
const have = existsSync(DIR);
if (!have) console.log(`runtime-plan: ${DIR} is absent; skipping the real-model tests`);
const FILES = have ? readdirSync(DIR).filter((f) => f.endsWith('.tflite')).sort() : [];

const bytesOf = (file: string): Uint8Array => new Uint8Array(readFileSync(join(DIR, file)));
const modelOf = (bytes: Uint8Array): InferredModel => inferShapes(decodeModel(bytes));
const tflmPlan = (model: InferredModel): ModelPlan => planModel(model, presetTarget('tflm'));

describe.skipIf(!have)('TFLite Micro on keyword_scrambled.tflite (memory_arena_threshold_test.cc)', () => {
  const model = have ? modelOf(bytesOf('tflm_keyword_scrambled.tflite')) : undefined;

  it('reproduces the published head: 672 bytes', () => {
    const plan = tflmPlan(model!);
    expect(plan.runtimePlan?.head).toBe(672); // kKeywordModelHeadSize
    expect(plan.valid).toBe(true);
  });

  it('sizes the variable buffers exactly: 10,240 bytes in the tail', () => {
    const allocation = tflmAllocation(model!.tflite!);
    expect(allocation.tensorCount).toBe(54); // kKeywordModelTensorCount
    expect(allocation.variables.reduce((sum, v) => sum + v.bytes, 0)).toBe(10240); // kKeywordModelTfLiteTensorVariableBufferDataSize
    expect(model!.tflite!.subgraphs[0]!.operators).toHaveLength(15); // kKeywordModelNodeAndRegistrationCount
  });

  it('needs a 17,632-byte arena on a 64-bit build, where TFLM uses 14,720', () => {
    // TFLM on x86-64: 672 B head + 14,048 B tail used (graph I/O structs 2 × 112 B among them), and
    // AllocateTensors() first succeeds at 17,632 B: planning holds 3,808 B over the tail as it stands then.
    const allocation = tflmAllocation(model!.tflite!);
    const planning = tflmPlanningBytes(model!.tflite!, allocation, BUILD_64);
    expect(planning).toBe(3808);
    // each input's and output's pointer array lands 16-aligned after the 8-aligned records before it: 8 B and 8 B of padding
    const io = tflmArena(model!.tflite!, allocation, 672, BUILD_64).io;
    expect(io).toBe(224);
    expect(smallestArena({ head: 672, tail: 14048, io, planningBytes: planning })).toBe(17632);
  });

  it('says its tail and arena are of a 32-bit build, and gives the 64-bit figures TFLM uses on x86-64', () => {
    const runtime = tflmPlan(model!).runtimePlan!;
    expect(runtime.build).toBe('32-bit');
    const word = (runtime.assumes ?? []).find((a) => a.startsWith('the tail and arena are of a 32-bit build'));
    // 14,048 B of tail and a 17,632-byte arena: what TFLM uses and first accepts on x86-64 (see above)
    expect(word).toBe(
      `the tail and arena are of a 32-bit build (4-byte pointers: TfLiteEvalTensor 12 B, NodeAndRegistration 32 B, TfLiteTensor 40 B); a 64-bit build (a host, a Cortex-A) keeps wider records: a tail of about 14,048 B and an arena of about 17,632 B, not 12,668 B and ${runtime.arena.toLocaleString('en-US')} B`,
    );
    expect(runtime.tail).toBe(12_668);
  });

  it('a lower-estimate arena is at least so much on either build (the selfie segmenter: a kernel whose scratch is not known)', () => {
    const runtime = tflmPlan(modelOf(bytesOf('mediapipe_selfie_segmentation.tflite'))).runtimePlan!;
    expect(runtime.notes.length).toBeGreaterThan(0); // the arena line reads "≥ 4.05 MiB"
    const word = (runtime.assumes ?? []).find((a) => a.startsWith('the tail and arena are of a 32-bit build'))!;
    expect(word).toMatch(/an arena of at least about [\d,]+ B, not [\d,]+ B and ≥ [\d,]+ B$/);
    expect(word.endsWith(`≥ ${runtime.arena.toLocaleString('en-US')} B`)).toBe(true);
  });

  it("says how its 32-bit arena adds up: planning's bytes on top of the tail before the graph I/O structs", () => {
    const runtime = tflmPlan(model!).runtimePlan!;
    const io = tflmArena(model!.tflite!, tflmAllocation(model!.tflite!), runtime.head).io;
    expect([runtime.planningBytes, runtime.tail - io, io]).toEqual([3152, 12_528, 140]);
    // byte figures with thousands separators, as every other figure of a plan
    expect(runtime.arenaReason).toContain('holds 3,152 B between head and tail');
    expect(runtime.arenaReason).toContain('12,528 B, the 140 B of graph input and output structs coming later (3,152 + 12,528 B, each rounded up to 16)');
    // GetAvailableMemory aligns the tail's start down to 16 before the planner may use what lies below it
    expect(runtime.arena).toBe(runtime.planningBytes! + Math.ceil((runtime.tail - io) / 16) * 16);
  });

  it('gives each SVDF its scratch requests (int8: two) for the step it runs', () => {
    const allocation = tflmAllocation(model!.tflite!);
    const svdfs = model!.tflite!.subgraphs[0]!.operators.filter((op) => op.op === 'SVDF').length;
    const scratch = allocation.buffers.filter((b) => b.kind === 'scratch');
    expect(scratch).toHaveLength(2 * svdfs);
    for (const s of scratch) expect(s.first).toBe(s.last);
  });
});

describe.skipIf(!have)('the runtime plan of every real .tflite model', () => {
  it.each(FILES)('%s: valid, heapscope never worse than TFLM, the written plan re-plans to the same head', (file) => {
    const bytes = bytesOf(file);
    const model = modelOf(bytes);
    const plan = tflmPlan(model);
    const runtime = plan.runtimePlan!;
    expect(plan.valid).toBe(true);
    expect(plan.lowerBound).toBeLessThanOrEqual(plan.peak);
    expect(runtime.planned.head).toBeLessThanOrEqual(runtime.head);
    expect(runtime.arena).toBeGreaterThanOrEqual(runtime.head + runtime.tail);
    // Written, re-read, planned again: the same offsets and the head TFLM reaches with them.
    const written = withOfflinePlan(bytes, runtime.planned.offsets);
    const reread = modelOf(written);
    expect(reread.tflite!.offlinePlan!.offsets).toEqual(runtime.planned.offsets);
    const again = tflmPlan(reread).runtimePlan!;
    expect(again.head).toBe(runtime.planned.head);
    expect(again.filePlan?.valid ?? false).toBe(runtime.filePlan?.insideCustomOp === undefined);
    expect(simulateOffline(reread.tflite!, runtime.planned.offsets)).toBe(runtime.planned.head);
  });

  it.each(FILES.filter((f) => !f.includes('vela')))('%s: every planned tensor has an offset and no two live at once overlap', (file) => {
    const model = modelOf(bytesOf(file));
    const runtime = tflmPlan(model).runtimePlan!;
    const allocation = tflmAllocation(model.tflite!, runtime.planned.offsets);
    const tensors = allocation.buffers.filter((b) => b.kind === 'tensor');
    for (const t of tensors) expect(t.offlineOffset, t.name).toBeGreaterThanOrEqual(0);
    const placed = planGreedy(allocation.buffers.map((b) => ({ size: b.size, first: b.first, last: b.last, ...(b.offlineOffset !== undefined && { offlineOffset: b.offlineOffset }) })));
    const list = allocation.buffers;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const [a, b] = [list[i]!, list[j]!];
        if (a.first > b.last || b.first > a.last) continue;
        const apart = placed.offsets[i]! + a.size <= placed.offsets[j]! || placed.offsets[j]! + b.size <= placed.offsets[i]!;
        expect(apart, `${a.name} and ${b.name}`).toBe(true);
      }
    }
    // the C header's offsets: where TFLM puts each plan buffer (problem ids are TFLM's planner ids) with the plan written in
    expect(runtime.planned.bufferOffsets).toEqual(placed.offsets);
  });
});

describe.skipIf(!have)("strategy tflm on a .tflite model: TensorFlow Lite Micro's own offsets", () => {
  it.each(FILES)('%s: every buffer where GreedyMemoryPlanner puts it without an offline plan', (file) => {
    const model = modelOf(bytesOf(file));
    const plan = planModel(model, presetTarget('tflm'), { strategy: 'tflm' });
    const allocation = tflmAllocation(model.tflite!);
    const greedy = planGreedy(allocation.buffers.map((b) => ({ size: b.size, first: b.first, last: b.last })));
    const byName = new Map(plan.buffers.map((b) => [b.name, b.offset]));
    const wrong = allocation.buffers.flatMap((b, i) => (byName.get(b.name) === greedy.offsets[i] ? [] : [`${b.name}: ${byName.get(b.name)}, TFLM ${greedy.offsets[i]}`]));
    expect(wrong).toEqual([]);
    expect(plan.peak).toBe(greedy.head);
  });
});

describe.skipIf(!have)('the offline plan a file carries (person_detect_vela.tflite)', () => {
  it('is what TFLM plans with, checked, and compared with its greedy plan', () => {
    const model = modelOf(bytesOf('tflm_person_detect_vela.tflite'));
    const runtime = tflmPlan(model).runtimePlan!;
    expect(runtime.filePlan).toBeDefined();
    expect(runtime.head).toBe(runtime.filePlan!.head);
    expect(runtime.greedyHead).toBeGreaterThan(runtime.head);
    // Vela overlaps its own operator's tensors by a schedule heapscope cannot see: named, not refuted.
    expect(runtime.filePlan!.insideCustomOp).toBe('ethos-u_0');
  });
  it("calls the ethos-u operator's scratch tensors activations in the model (tensor table, graph) and in the plan (heap), on every target", () => {
    const model = modelOf(bytesOf('tflm_person_detect_vela.tflite'));
    const scratch = ['_split_1_scratch', '_split_1_scratch_fast'];
    // no operator writes them and the application does not provide them: only the custom operator reads them
    expect(model.inputs).toEqual(['input']);
    expect(scratch.map((n) => model.values.find((v) => v.name === n)?.kind)).toEqual(['activation', 'activation']);
    for (const target of ['tflm', 'cpu']) {
      const plan = planModel(model, presetTarget(target));
      expect(scratch.map((n) => plan.buffers.find((b) => b.name === n)?.kind), target).toEqual(['activation', 'activation']);
      expect(plan.buffers.find((b) => b.name === '_split_1_scratch')!.size, target).toBeGreaterThanOrEqual(74_464);
    }
  });
});
