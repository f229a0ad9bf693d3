// Models whose plans rest on assumptions, written with the project's ONNX
// writer: a detector with unnamed image dims, an If on a graph input (a
// voice-activity model whose network sits inside the If), and a model with an
// op no rule knows. Test utility for unit, CLI and end-to-end tests; no DOM.

import { GraphBuilder, type DimSpec } from './onnx-writer';

/**
 * A detector-like network on an image input of shape `input` (default
 * `[-1, 3, -1, -1]`, as Paddle and many exporters write it): a stride-2 conv
 * stem, a conv, an upsampling Resize and a skip Add, so sizes grow with H×W.
 */
export function detectorModel(input: readonly DimSpec[] = [-1, 3, -1, -1]): Uint8Array {
  const g = new GraphBuilder('detector');
  const x = g.input('image', 'float32', input);
  const stem = g.node('Conv', [x, g.initializer('stem.w', 'float32', [16, 3, 3, 3])], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }, { name: '/stem/conv/Conv' });
  const act = g.node('Relu', [stem], {}, { name: '/stem/act/Relu' });
  const body = g.node('Conv', [act, g.initializer('body.w', 'float32', [16, 16, 3, 3])], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }, { name: '/body/conv/Conv' });
  const scales = g.initializer('up.scales', 'float32', [4], [1, 1, 2, 2]);
  const up = g.node('Resize', [body, '', scales], { mode: 'nearest' }, { name: '/neck/Resize' });
  const sum = g.node('Add', [up, act], {}, { name: '/neck/Add' });
  const head = g.node('Conv', [sum, g.initializer('head.w', 'float32', [2, 16, 1, 1])], { kernel_shape: [1, 1] }, { name: '/head/conv/Conv' });
  g.output(head, 'float32', undefined);
  return g.toBytes({ opset: 17 });
}

/** One branch of the voice-activity If: audio -> MatMul(width) -> Relu -> MatMul -> probs. */
function vadBranch(name: string, width: number): GraphBuilder {
  const b = new GraphBuilder(name);
  const h = b.nodeOutputs('MatMul', ['audio', b.initializer(`${name}.w1`, 'float32', [512, width])], [`${name}.hidden`], {}, { name: `${name}/MatMul_0` })[0]!;
  const r = b.nodeOutputs('Relu', [h], [`${name}.act`], {}, { name: `${name}/Relu` })[0]!;
  const p = b.nodeOutputs('MatMul', [r, b.initializer(`${name}.w2`, 'float32', [width, 2])], [`${name}.probs`], {}, { name: `${name}/MatMul_1` })[0]!;
  b.output(p, 'float32', [1, 2]);
  return b;
}

/**
 * A voice-activity model whose whole network is inside an If on the sample
 * rate: `sr == 16000` runs a 1024-wide branch, otherwise a 256-wide one. Both
 * give [1, 2], so without a value for `sr` the plan covers the larger body.
 */
export function vadModel(): Uint8Array {
  const g = new GraphBuilder('vad');
  g.input('audio', 'float32', [1, 512]);
  const sr = g.input('sr', 'int64', [1]);
  const is16k = g.node('Equal', [sr, g.initializer('k16000', 'int64', [1], [16000])], {}, { name: 'is16k' });
  g.nodeOutputs('If', [is16k], ['probs'], { then_branch: vadBranch('wide', 1024), else_branch: vadBranch('narrow', 256) }, { name: 'vad/If' });
  g.output('probs', 'float32', [1, 2]);
  return g.toBytes({ opset: 17 });
}

/** A model with an op of a custom domain (no shape rule) between two known ops. */
export function customOpModel(): Uint8Array {
  const g = new GraphBuilder('custom');
  const x = g.input('x', 'float32', [1, 64, 32, 32]);
  const a = g.node('Relu', [x], {}, { name: 'pre/Relu' });
  const m = g.nodeOutputs('MysteryNorm', [a], ['mystery_out'], {}, { name: 'mystery', domain: 'example.custom' })[0]!;
  const y = g.node('Sigmoid', [m], {}, { name: 'post/Sigmoid' });
  g.output(y, 'float32', undefined);
  return g.toBytes({ opset: 17, opsets: { 'example.custom': 1 } });
}

/**
 * A generation loop: Loop 'generate' runs `max_new_tokens` (a graph input)
 * times over a [4, 1000] state and emits each step's logits as the scan
 * output all_logits, [max_new_tokens, 4, 1000], which no shape is declared for.
 */
export function generateLoopModel(): Uint8Array {
  const body = new GraphBuilder('step');
  body.input('i', 'int64', []);
  body.input('cond_in', 'bool', []);
  body.input('h_in', 'float32', [4, 1000]);
  const h = body.node('Relu', ['h_in'], {}, { name: 'step' });
  body.nodeOutputs('Identity', ['cond_in'], ['cond_out'], {}, { name: 'keep' });
  body.nodeOutputs('Identity', [h], ['h_out'], {}, { name: 'carry' });
  body.nodeOutputs('Identity', [h], ['logits'], {}, { name: 'emit' });
  body.output('cond_out', 'bool', []);
  body.output('h_out', 'float32', [4, 1000]);
  body.output('logits', 'float32', [4, 1000]);
  const g = new GraphBuilder('generate');
  g.input('x', 'float32', [4, 1000]);
  g.input('max_new_tokens', 'int64', []);
  const always = g.initializer('always', 'bool', [], [1]);
  g.nodeOutputs('Loop', ['max_new_tokens', always, 'x'], ['h_final', 'all_logits'], { body }, { name: 'generate' });
  g.output('h_final', 'float32', [4, 1000]);
  g.output('all_logits', 'float32');
  return g.toBytes({ opset: 17 });
}
