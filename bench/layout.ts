// Benchmark of the graph view's layout: DenseNet-shaped ONNX models (dense
// blocks of BN-Relu-Conv1x1-BN-Relu-Conv3x3-Concat, transitions of
// BN-Relu-Conv1x1-AveragePool) written with the ONNX writer, decoded, inferred
// and planned (cpu preset), turned into the layout input and laid out in Node
// with ELK (the code the layout worker runs) and with the simple fallback.
// Prints figures; never fails on time. Run: npx tsx bench/layout.ts [--runs N] [--large]

import { pathToFileURL } from 'node:url';
import { decodeOnnx } from '../src/model/decode-onnx';
import { inferShapes } from '../src/model/infer-shapes';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { planModel } from '../src/planner/plan';
import { presetTarget } from '../src/planner/presets';
import { graphLayoutInput } from '../src/views/graph/graph-layout-input';
import { ELK_BOX_LIMIT, boxCount, runLayout } from '../src/worker/layout-engine';
import type { LayoutEngine } from '../src/worker/layout-protocol';

/** A DenseNet variant: layers per dense block, growth rate, input size. */
export interface DenseNetShape {
  readonly name: string;
  readonly blocks: readonly number[];
  readonly growth: number;
  readonly image: number;
}

export const SHAPES: readonly DenseNetShape[] = [
  { name: 'DenseNet-121 (blocks 6/12/24/16, k=32)', blocks: [6, 12, 24, 16], growth: 32, image: 224 },
  // The same pattern with 4.25x the layers (and k=8 so the zero weights stay small): about 1,746 nodes.
  { name: 'DenseNet, blocks 26/51/102/68 (k=8)', blocks: [26, 51, 102, 68], growth: 8, image: 64 },
];

/** With --large: three times that again (about 5,200 nodes), beyond the size where 'auto' stops using ELK. */
const LARGE: DenseNetShape = { name: 'DenseNet, blocks 78/153/306/204 (k=2)', blocks: [78, 153, 306, 204], growth: 2, image: 32 };

const runs = Number(argument('--runs') ?? 2);

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Writes a DenseNet-shaped model; see the module header. */
export function densenet(shape: DenseNetShape): Uint8Array {
  const g = new GraphBuilder('densenet');
  let n = 0;
  const bn = (x: string, c: number): string => {
    const p = `bn${(n += 1)}`;
    const ins = ['scale', 'bias', 'mean', 'var'].map((k) => g.initializer(`${p}/${k}`, 'float32', [c]));
    return g.node('BatchNormalization', [x, ...ins], { epsilon: 1e-5 }, { name: p });
  };
  const relu = (x: string): string => g.node('Relu', [x], {}, { name: `relu${(n += 1)}` });
  const conv = (x: string, cin: number, cout: number, k: number, stride = 1): string => {
    const p = `conv${(n += 1)}`;
    const w = g.initializer(`${p}/weight`, 'float32', [cout, cin, k, k]);
    const pad = (k - 1) / 2;
    return g.node('Conv', [x, w], { kernel_shape: [k, k], strides: [stride, stride], pads: [pad, pad, pad, pad] }, { name: p });
  };
  let x = g.input('image', 'float32', [1, 3, shape.image, shape.image]);
  let c = 2 * shape.growth;
  x = relu(bn(conv(x, 3, c, 7, 2), c));
  x = g.node('MaxPool', [x], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }, { name: 'pool0' });
  shape.blocks.forEach((layers, b) => {
    for (let l = 0; l < layers; l += 1) {
      const y = conv(relu(bn(conv(relu(bn(x, c)), c, 4 * shape.growth, 1), 4 * shape.growth)), 4 * shape.growth, shape.growth, 3);
      x = g.node('Concat', [x, y], { axis: 1 }, { name: `concat${(n += 1)}` });
      c += shape.growth;
    }
    if (b === shape.blocks.length - 1) return;
    x = conv(relu(bn(x, c)), c, Math.floor(c / 2), 1);
    c = Math.floor(c / 2);
    x = g.node('AveragePool', [x], { kernel_shape: [2, 2], strides: [2, 2] }, { name: `transition${b + 1}/pool` });
  });
  x = g.node('GlobalAveragePool', [relu(bn(x, c))], {}, { name: 'head/pool' });
  x = g.node('Flatten', [x], { axis: 1 }, { name: 'head/flatten' });
  x = g.node('Gemm', [x, g.initializer('fc/weight', 'float32', [1000, c]), g.initializer('fc/bias', 'float32', [1000])], { transB: 1 }, { name: 'fc' });
  g.output(x, 'float32', [1, 1000]);
  return g.toBytes({ opset: 17 });
}

async function time(engine: LayoutEngine, input: ReturnType<typeof graphLayoutInput>): Promise<{ ms: number[]; size: string }> {
  const ms: number[] = [];
  let size = '';
  for (let r = 0; r < runs; r += 1) {
    const placed = await runLayout(input.graph, engine);
    ms.push(placed.ms);
    size = `${Math.round(placed.width)}×${Math.round(placed.height)} px`;
  }
  return { ms, size };
}

/** Best and all run times. */
const figures = (ms: readonly number[]): string => `best ${Math.min(...ms).toFixed(0)} ms, runs ${ms.map((m) => m.toFixed(0)).join(' / ')} ms`;

/** Lays out every shape and prints the figures. */
async function main(): Promise<void> {
  for (const shape of process.argv.includes('--large') ? [...SHAPES, LARGE] : SHAPES) {
    const bytes = densenet(shape);
    const model = inferShapes(decodeOnnx(bytes));
    const plan = planModel(model, presetTarget('cpu'));
    const started = performance.now();
    const input = graphLayoutInput(model, plan, { collapsed: new Set(), bodies: new Set() });
    const inputMs = performance.now() - started;
    console.log(`\n${shape.name}: ${model.nodes.length} nodes, ${boxCount(input.graph.boxes)} boxes, ${input.graph.links.length} labelled edges`);
    console.log(`  layout input (main thread):  ${inputMs.toFixed(1)} ms`);
    const boxes = boxCount(input.graph.boxes);
    if (boxes <= ELK_BOX_LIMIT) {
      const elk = await time('elk', input);
      console.log(`  ELK layered (worker code):   ${figures(elk.ms)}  → ${elk.size}`);
    } else console.log(`  ELK layered:                 not used above ${ELK_BOX_LIMIT} boxes (the page shows the simple layout)`);
    const simple = await time('simple', input);
    console.log(`  simple layered fallback:     ${figures(simple.ms)}  → ${simple.size}`);
  }
}

// Run as a script (npx tsx bench/layout.ts); the browser benchmark imports only the model writer.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
