// Time to build the heap panel's view models on the main thread once a plan
// arrives: the heap data (lanes, live-bytes curve, hit index) and the peak
// chart's data, both of which resolve the plan's alias groups and measure
// shared bytes with the lower bound's live profile, and then picking a step
// (the live list of every region there, on the groups the views resolved).
// On every model of ../shared/models, DenseNet-121 (Concat chains: one alias
// group per dense block), a paddle2onnx-style backbone (hundreds of Constant
// nodes), an 80-layer Llama decoder (module-path names, KV caches) and
// exported-looking chains of 10k-100k nodes (residual blocks with skip
// edges; in-place Relu chains, one group of every buffer). Medians of 5 runs
// after one untimed. Prints figures; never fails on time.
//
//   npx tsx bench/view-data.ts

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeOnnx } from '../src/model/onnx/decode-onnx';
import { inferShapes } from '../src/model/infer/shapes';
import { densenetModel } from '../src/model/testing/densenet-model';
import { llamaModel } from '../src/model/testing/llama-model';
import { paddleModel } from '../src/model/testing/paddle-model';
import { planModel, type ModelPlan } from '../src/planner/plan';
import { presetTarget } from '../src/planner/targets/presets';
import { heapData } from '../src/views/heap/heap-data';
import { peakChartData } from '../src/views/heap/peak-chart-data';
import { liveAtStep } from '../src/planner/assembly/live-at';
import { chainBytes } from './planner-chains';

const MODELS = fileURLToPath(new URL('../../shared/models', import.meta.url));
const RUNS = 5;

function planOf(bytes: Uint8Array): ModelPlan {
  return planModel(inferShapes(decodeOnnx(bytes), {}), presetTarget('cpu'));
}

/** Median ms of `RUNS` runs of `build` after one untimed, each on a fresh copy of the plan (the views cache per plan). */
function median(plan: ModelPlan, build: (p: ModelPlan) => unknown): number {
  const times: number[] = [];
  for (let run = -1; run < RUNS; run++) {
    const copy = { ...plan, buffers: plan.buffers.slice() };
    const started = performance.now();
    build(copy);
    if (run >= 0) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

/** Median ms of picking one step after the views are built: every region's live list there (`steps` in turn, per run). */
function pickMedian(plan: ModelPlan, steps: readonly number[], regions: readonly string[]): number {
  const copy = { ...plan, buffers: plan.buffers.slice() };
  heapData(copy);
  peakChartData(copy);
  const times: number[] = [];
  for (let run = -1; run < steps.length; run++) {
    const step = steps[Math.max(0, run)]!;
    const started = performance.now();
    for (const region of regions) liveAtStep(copy.buffers, step, region);
    if (run >= 0) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

function row(name: string, plan: ModelPlan): void {
  const aliases = plan.buffers.filter((b) => b.alias !== undefined).length;
  const heap = median(plan, heapData);
  const chart = median(plan, peakChartData);
  const both = median(plan, (p) => (heapData(p), peakChartData(p)));
  // a step picked in the heap once both views are built: the live list of every region at ten steps
  const steps = Array.from({ length: 10 }, (_, k) => Math.floor((k * plan.steps.length) / 10));
  const regions = [...new Set(plan.buffers.map((b) => b.region))];
  const pick = pickMedian(plan, steps, regions);
  console.log(
    [name.padEnd(30), String(plan.buffers.length).padStart(8), String(aliases).padStart(8), `${heap.toFixed(1)} ms`.padStart(10), `${chart.toFixed(1)} ms`.padStart(10), `${both.toFixed(1)} ms`.padStart(10), `${pick.toFixed(2)} ms`.padStart(10)].join('  '),
  );
}

console.log(['model (cpu preset)'.padEnd(30), 'buffers'.padStart(8), 'aliases'.padStart(8), 'heap'.padStart(10), 'chart'.padStart(10), 'both'.padStart(10), 'pick'.padStart(10)].join('  '));
if (existsSync(MODELS)) {
  const files = readdirSync(MODELS).filter((f) => f.endsWith('.onnx')).map((f) => join(MODELS, f));
  if (existsSync(join(MODELS, 'tiny-llama-fp16/model.onnx'))) files.push(join(MODELS, 'tiny-llama-fp16/model.onnx'));
  for (const file of files) row(file.slice(MODELS.length + 1).slice(0, 30), planOf(new Uint8Array(readFileSync(file))));
} else console.log('(models skipped: ../shared/models is absent)');
row('densenet-121 (generated)', planOf(densenetModel()));
row('paddle-ocr, constants (gen.)', planOf(paddleModel()));
row('llama 80 layers (generated)', planOf(llamaModel()));
for (const n of [10_000, 100_000]) {
  row(`conv-res chain ${n}`, planOf(chainBytes('conv-res', n)));
  row(`relu chain ${n}`, planOf(chainBytes('relu', n)));
}
