// Benchmark of the graph view's layout on real-shaped models: ONNX's style of
// DenseNet-121 (a ConstantOfShape per weight), a paddle2onnx-style backbone
// (hundreds of Constant nodes) and an 80-layer Llama decoder (module-path
// names), each decoded, inferred and planned (cpu preset), turned into the
// layout input of the page's first view (constants folded, large models
// grouped) and laid out in Node with the engine the page's 'auto' picks, and
// with every group expanded. Prints figures; never fails on time.
// Run: npx tsx bench/layout.ts [--runs N]

import { pathToFileURL } from 'node:url';
import { decodeOnnx } from '../src/model/onnx/decode-onnx';
import { inferShapes } from '../src/model/infer/shapes';
import { densenetModel } from '../src/model/testing/densenet-model';
import { llamaModel } from '../src/model/testing/llama-model';
import { paddleModel } from '../src/model/testing/paddle-model';
import { planModel } from '../src/planner/plan';
import { presetTarget } from '../src/planner/targets/presets';
import { firstCollapsed, graphGroups } from '../src/views/graph/groups/groups';
import { graphLayoutInput } from '../src/views/graph/layout/layout-input';
import { autoEngine, boxCount, runLayout } from '../src/worker/layout/engine';

/** The real-shaped models the graph benchmarks measure, by name. */
export const BENCH_MODELS: readonly { readonly name: string; readonly bytes: () => Uint8Array }[] = [
  { name: 'densenet-121-constantofshape.onnx', bytes: () => densenetModel() },
  { name: 'paddle-ocr-constants.onnx', bytes: () => paddleModel() },
  { name: 'llama-80-layers.onnx', bytes: () => llamaModel() },
];

const runs = Number(argument('--runs') ?? 2);

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const figures = (ms: readonly number[]): string => `best ${Math.min(...ms).toFixed(0)} ms (runs ${ms.map((m) => m.toFixed(0)).join(' / ')})`;

/** Lays out every model and prints the figures. */
async function main(): Promise<void> {
  for (const m of BENCH_MODELS) {
    const model = inferShapes(decodeOnnx(m.bytes()));
    const plan = planModel(model, presetTarget('cpu'));
    for (const view of ['first view', 'all expanded'] as const) {
      const started = performance.now();
      const groups = graphGroups(model, plan, false);
      const collapsed = view === 'first view' ? firstCollapsed(groups) : new Set<string>();
      const input = graphLayoutInput(model, plan, { collapsed, bodies: new Set() }, groups);
      const inputMs = performance.now() - started;
      const ms: number[] = [];
      let size = '';
      for (let r = 0; r < runs; r += 1) {
        const placed = await runLayout(input.graph, 'auto');
        ms.push(placed.ms);
        size = `${Math.round(placed.width)}×${Math.round(placed.height)} px, ${placed.engine}${placed.note ? ` (${placed.note})` : ''}`;
      }
      console.log(`${m.name} [${view}]: ${model.nodes.length} nodes, ${boxCount(input.graph.boxes)} boxes, ${input.graph.links.length} edges, engine ${autoEngine(input.graph)}`);
      console.log(`  layout input ${inputMs.toFixed(0)} ms; layout ${figures(ms)} → ${size}`);
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
