// Benchmark of diffPlans: time to compare two plans of generated residual
// networks of growing size (a batch change, and renamed tensors matched by
// producer op), and on the real models of ../shared/models (cpu preset, m1
// against naive). Prints figures; never fails on time. Run: npx tsx bench/diff.ts

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { decodeOnnx } from '../src/model/onnx/decode-onnx';
import { inferShapes } from '../src/model/infer/shapes';
import type { InferredModel } from '../src/model/inferred';
import { diffPlans } from '../src/planner/diff/diff-plans';
import { planModel } from '../src/planner/plan';
import { toPlanFile, type PlanFile } from '../src/planner/assembly/plan-file';
import { presetTarget } from '../src/planner/targets/presets';
import { tinyGraph } from '../src/planner/testing/tiny-graph';

const target = presetTarget('cpu');

/** `blocks` residual blocks (Conv-like MatMul, Relu, Add) over `batch` rows; tensor names prefixed. */
function residualNet(blocks: number, batch: number, prefix: string): InferredModel {
  const g = tinyGraph().input('x', [batch, 64]);
  let last = 'x';
  for (let k = 0; k < blocks; k++) {
    g.weight(`${prefix}w${k}`, [64, 64]);
    g.node('MatMul', [last, `${prefix}w${k}`], { [`${prefix}m${k}`]: [batch, 64] }, { name: `${prefix}mm${k}` });
    g.node('Relu', [`${prefix}m${k}`], { [`${prefix}r${k}`]: [batch, 64] }, { name: `${prefix}relu${k}` });
    g.node('Add', [last, `${prefix}r${k}`], { [`${prefix}s${k}`]: [batch, 64] }, { name: `${prefix}add${k}` });
    last = `${prefix}s${k}`;
  }
  g.node('Identity', [last], { y: [batch, 64] });
  return g.output('y').model();
}

function saved(model: InferredModel, dims: Record<string, number>, strategy = 'm1'): PlanFile {
  return toPlanFile(model, planModel(model, target, { strategy }), { model: 'bench', target: 'cpu', targetProfile: target, dims });
}

function timed(a: PlanFile, b: PlanFile): string {
  const started = performance.now();
  const diff = diffPlans(a, b);
  const ms = performance.now() - started;
  const top = diff.causes[0];
  return `${ms.toFixed(1).padStart(8)} ms  ${String(diff.causes.length).padStart(3)} causes  top: ${top === undefined ? '-' : `${top.kind}${top.dim === undefined ? '' : ` (${top.dim})`}`}`;
}

function main(): void {
  console.log('generated residual networks (cpu, m1)');
  for (const blocks of [100, 1000, 3000]) {
    const a = saved(residualNet(blocks, 1, ''), { batch: 1 });
    const batch = saved(residualNet(blocks, 4, ''), { batch: 4 });
    const renamed = saved(residualNet(blocks, 1, 'v2_'), { batch: 1 });
    console.log(`  ${String(a.plan.buffers.length).padStart(6)} buffers  batch 1 -> 4   ${timed(a, batch)}`);
    console.log(`  ${String(a.plan.buffers.length).padStart(6)} buffers  renamed        ${timed(a, renamed)}`);
  }
  const models = join(fileURLToPath(new URL('.', import.meta.url)), '../../shared/models');
  if (!existsSync(models)) return;
  console.log('real models (cpu, m1 -> naive)');
  for (const name of readdirSync(models).filter((f) => f.endsWith('.onnx'))) {
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(join(models, name)))));
    console.log(`  ${name.padEnd(44)} ${String(model.nodes.length).padStart(5)} nodes ${timed(saved(model, {}), saved(model, {}, 'naive'))}`);
  }
}

main();
