// The files the CLI campaigns run against, made once per campaign in a fresh
// temporary directory: a tiny model with every op a preset scratch rule sizes
// (Conv, pools, Gemm, MatMul, Softmax) and a symbolic batch dim, a larger
// variant of it, plans saved from them with `plan --save`, a solve problem, a
// target profile, a directory and paths that do not exist. Depends on the
// ONNX writer of model/testing and the CLI.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { PRESETS } from '../src/planner/targets/presets';
import { runCli } from '../cli/main';

/** A model of a few ops with `width` channels on a `size`×`size` image. */
export function tinyModel(width = 4, size = 8): Uint8Array {
  const g = new GraphBuilder('tiny');
  let x = g.input('image', 'float32', ['batch', 3, size, size]);
  x = g.node('Conv', [x, g.initializer('w1', 'float32', [width, 3, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: 'conv' });
  x = g.node('Relu', [x], {}, { name: 'relu' });
  const skip = x;
  x = g.node('MaxPool', [x], { kernel_shape: [2, 2], strides: [2, 2] }, { name: 'maxpool' });
  x = g.node('Conv', [x, g.initializer('w2', 'float32', [width, 1, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1], group: width }, { name: 'depthwise' });
  x = g.node('AveragePool', [x], { kernel_shape: [2, 2], strides: [2, 2] }, { name: 'avgpool' });
  const pooled = g.node('GlobalAveragePool', [skip], {}, { name: 'skip/pool' });
  x = g.node('Add', [g.node('GlobalAveragePool', [x], {}, { name: 'pool' }), pooled], {}, { name: 'join' });
  x = g.node('Flatten', [x], { axis: 1 }, { name: 'flatten' });
  x = g.node('Gemm', [x, g.initializer('fc', 'float32', [width, 6])], {}, { name: 'gemm' });
  x = g.node('MatMul', [x, g.initializer('proj', 'float32', [6, 5])], {}, { name: 'matmul' });
  g.nodeOutputs('Softmax', [x], ['probabilities'], { axis: 1 }, { name: 'softmax' });
  g.output('probabilities', 'float32', ['batch', 5]);
  return g.toBytes();
}

/** Paths of the campaign's files. */
export interface Workspace {
  readonly dir: string;
  readonly model: string; // the tiny model
  readonly modelB: string; // a wider variant, to diff against
  readonly plans: readonly string[]; // plans saved from the two models on several presets
  readonly csv: string; // a solve problem
  readonly target: string; // the mcu preset as a profile file
  readonly subdir: string; // a directory
  readonly missing: string; // a path that does not exist
}

/** A small MiniMalloc problem, as `solve` reads it. */
const PROBLEM_CSV = 'id,lower,upper,size\na,0,2,64\nb,1,3,32\nc,2,4,128\nd,0,4,16\n';

/** Makes the campaign's files in a new temporary directory. */
export function makeWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-fuzz-'));
  const path = (name: string, content?: string | Uint8Array): string => {
    const p = join(dir, name);
    if (content !== undefined) writeFileSync(p, content);
    return p;
  };
  const model = path('tiny.onnx', tinyModel());
  const modelB = path('wide.onnx', tinyModel(8, 12));
  const plans: string[] = [];
  for (const [m, label] of [[model, 'tiny'], [modelB, 'wide']] as const) {
    for (const target of ['cpu', 'mcu', 'accelerator', 'tflm']) {
      const save = path(`${label}-${target}.plan.json`);
      const code = runCli(['plan', m, '--target', target, '--save', save], { out: () => {}, err: () => {} });
      if (code !== 0 && code !== 3) throw new Error(`the fuzz workspace could not save the ${target} plan of ${label} (exit ${code})`);
      plans.push(save);
    }
  }
  const subdir = join(dir, 'sub');
  mkdirSync(subdir);
  return {
    dir,
    model,
    modelB,
    plans,
    csv: path('problem.csv', PROBLEM_CSV),
    target: path('mcu.target.json', JSON.stringify(PRESETS.get('mcu'))),
    subdir,
    missing: join(dir, 'no-such-file.onnx'),
  };
}
