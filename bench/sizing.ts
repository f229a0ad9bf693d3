// `npx tsx bench/sizing.ts [DIR]`: how much of each model heapscope can size
// with no help from the user, on every model in ../shared/models/ (or DIR):
// run-time tensors sized, the defaults chosen for symbolic dims (with their
// rules), the tensors left unknown and the branches assumed. Prints figures;
// never fails on them.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeOnnx } from '../src/model/onnx/decode-onnx';
import { inferShapes } from '../src/model/infer/shapes';
import type { InferredGraph } from '../src/model/inferred';
import { planAssumptions } from '../src/planner/assembly/assumptions';
import { isRunTimeValue } from '../src/planner/problem/schedule';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = resolve(process.argv[2] ?? join(root, '../shared/models'));

/** Run-time tensors (inputs, activations, outputs) of a graph and its bodies, and how many have a size. */
function countSized(graph: InferredGraph): { all: number; sized: number } {
  let all = 0;
  let sized = 0;
  for (const v of graph.values) {
    if (!isRunTimeValue(v)) continue;
    all++;
    if (v.bytes !== undefined) sized++;
  }
  for (const node of graph.nodes) {
    for (const body of node.subgraphs) {
      const inner = countSized(body);
      all += inner.all;
      sized += inner.sized;
    }
  }
  return { all, sized };
}

const files = readdirSync(dir, { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && e.name.endsWith('.onnx'))
  .map((e) => join(e.parentPath, e.name))
  .sort();
let total = 0;
let totalSized = 0;
console.log(`sizing without user input, ${files.length} models in ${dir}\n`);
for (const file of files) {
  const name = relative(dir, file);
  try {
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(file))));
    const { all, sized } = countSized(model);
    total += all;
    totalSized += sized;
    const a = planAssumptions(model);
    const defaults = a.dims.filter((d) => !d.bound).map((d) => `${d.name}=${d.value} [${d.axes.join(' ')}] (${d.rule})`);
    console.log(`${name}: ${sized}/${all} run-time tensors sized (${((100 * sized) / Math.max(1, all)).toFixed(1)} %)`);
    if (defaults.length > 0) console.log(`  defaults: ${defaults.join('; ')}`);
    if (a.unknown.length > 0) console.log(`  unknown: ${a.unknown.slice(0, 5).map((u) => `${u.tensor} (${u.op}: ${u.reason})`).join('; ')}`);
    for (const b of a.branches) console.log(`  branch: ${b.node} ${b.taken} (${b.reason})`);
  } catch (error) {
    console.log(`${name}: not opened: ${error instanceof Error ? error.message : String(error)}`);
  }
}
console.log(`\nall models: ${totalSized}/${total} run-time tensors sized (${((100 * totalSized) / Math.max(1, total)).toFixed(1)} %)`);
