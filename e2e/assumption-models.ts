// Models for the assumptions specs, built with the project's ONNX writer: an
// image detector with unnamed dims, a custom op without a shape rule (alone,
// and after a fusable head), an If
// chosen by a graph input, a large fixed-size image, a chain with views.

import { GraphBuilder } from '../src/model/testing/onnx-writer';

/** x[-1, 3, -1, -1] (unnamed dims) -> Conv 3x3 -> Relu -> Conv -> y: a detector's input as exporters write it. */
export function detectorModel(): Uint8Array {
  const g = new GraphBuilder('detector');
  const x = g.input('x', 'float32', [undefined, 3, undefined, undefined]);
  const w1 = g.initializer('w1', 'float32', [8, 3, 3, 3]);
  const w2 = g.initializer('w2', 'float32', [4, 8, 3, 3]);
  const a = g.node('Conv', [x, w1], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: 'backbone/conv1' });
  const b = g.node('Relu', [a], {}, { name: 'backbone/relu1' });
  g.nodeOutputs('Conv', [b, w2], ['y'], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: 'head/conv2' });
  g.output('y', 'float32', [undefined, 4, undefined, undefined]);
  return g.toBytes();
}

/** x[1, 16, 64, 64] -> (Conv 3x3 -> Relu) x 2 -> com.example.Mystery -> Relu -> y: a fusable head and a tail of unknown size. */
export function fusedUnknownModel(): Uint8Array {
  const g = new GraphBuilder('fused-unknown');
  const x = g.input('x', 'float32', [1, 16, 64, 64]);
  const w1 = g.initializer('w1', 'float32', [16, 16, 3, 3]);
  const w2 = g.initializer('w2', 'float32', [16, 16, 3, 3]);
  const a = g.node('Relu', [g.node('Conv', [x, w1], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: 'c1' })], {}, { name: 'r1' });
  const b = g.node('Relu', [g.node('Conv', [a, w2], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: 'c2' })], {}, { name: 'r2' });
  g.nodeOutputs('Mystery', [b], ['mystery_out'], {}, { name: 'mystery', domain: 'com.example' });
  g.nodeOutputs('Relu', ['mystery_out'], ['y'], {}, { name: 'post' });
  g.output('y', 'float32');
  return g.toBytes({ opsets: { 'com.example': 1 } });
}

/** x[1, 256] -> Relu -> com.example.Mystery (no shape rule) -> Relu -> y: the tail's sizes are unknown. */
export function customOpModel(): Uint8Array {
  const g = new GraphBuilder('custom');
  const x = g.input('x', 'float32', [1, 256]);
  const h = g.node('Relu', [x], {}, { name: 'pre' });
  g.nodeOutputs('Mystery', [h], ['mystery_out'], {}, { name: 'mystery', domain: 'com.example' });
  g.nodeOutputs('Relu', ['mystery_out'], ['y'], {}, { name: 'post' });
  g.output('y', 'float32');
  return g.toBytes({ opsets: { 'com.example': 1 } });
}

/**
 * x[1, 1024] and a sample rate sr; If(Equal(sr, 16000)) runs a large branch
 * (then: four copies of x side by side, 16 KiB) or a small one (else: Relu of x, 4 KiB).
 */
export function branchModel(): Uint8Array {
  const g = new GraphBuilder('vad');
  const x = g.input('x', 'float32', [1, 1024]);
  const sr = g.input('sr', 'int64', []);
  const rate = g.initializer('rate_16k', 'int64', [], [16000]);
  const cond = g.node('Equal', [sr, rate], {}, { name: 'is_16k' });
  const then = new GraphBuilder('then_branch');
  then.nodeOutputs('Concat', [x, x, x, x], ['wide'], { axis: 1 }, { name: 'then/concat' });
  then.nodeOutputs('Relu', ['wide'], ['then_out'], {}, { name: 'then/relu' });
  then.output('then_out', 'float32', [1, 4096]);
  const otherwise = new GraphBuilder('else_branch');
  otherwise.nodeOutputs('Relu', [x], ['else_out'], {}, { name: 'else/relu' });
  otherwise.output('else_out', 'float32', [1, 1024]);
  g.nodeOutputs('If', [cond], ['branch_out'], { then_branch: then, else_branch: otherwise }, { name: 'vad/If_0' });
  g.nodeOutputs('Sigmoid', ['branch_out'], ['y'], {}, { name: 'score' });
  g.output('y', 'float32');
  return g.toBytes();
}

/** A fixed 1x3x640x640 image through two convolutions: megabytes of activations. */
export function largeImageModel(): Uint8Array {
  const g = new GraphBuilder('large');
  const x = g.input('image', 'float32', [1, 3, 640, 640]);
  const w1 = g.initializer('w1', 'float32', [8, 3, 3, 3]);
  const a = g.node('Conv', [x, w1], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: 'conv1' });
  const b = g.node('Relu', [a], {}, { name: 'relu1' });
  g.nodeOutputs('Relu', [b], ['out'], {}, { name: 'relu2' });
  g.output('out', 'float32', [1, 8, 640, 640]);
  return g.toBytes();
}

/**
 * x[1, 64, 32] -> Relu a -> Reshape (a view of a) -> Relu -> Concat with the view -> y,
 * and a read again at the end, so at the Concat a and its view are live together.
 */
export function viewsModel(): Uint8Array {
  const g = new GraphBuilder('views');
  const x = g.input('x', 'float32', [1, 64, 32]);
  const shape = g.initializer('flat_shape', 'int64', [2], [1, 2048]);
  const a = g.node('Relu', [x], {}, { name: 'relu_a' });
  const flat = g.node('Reshape', [a, shape], {}, { name: 'flatten' });
  const b = g.node('Relu', [flat], {}, { name: 'relu_b' });
  g.nodeOutputs('Concat', [b, flat], ['y'], { axis: 1 }, { name: 'join' });
  g.nodeOutputs('Sigmoid', [a], ['late'], {}, { name: 'late_read' });
  g.output('y', 'float32', [1, 4096]);
  g.output('late', 'float32', [1, 64, 32]);
  return g.toBytes();
}

/** A voice-activity detector's interface: audio [batch, samples], a recurrent state [2, batch, 128] (both batch axes unnamed), the sample rate. */
export function vadModel(): Uint8Array {
  const g = new GraphBuilder('vad');
  const audio = g.input('input', 'float32', [undefined, 512]);
  const state = g.input('state', 'float32', [2, undefined, 128]);
  g.input('sr', 'int64', []);
  const next = g.node('Tanh', [state]);
  const level = g.node('ReduceMean', [audio], { axes: [1], keepdims: 1 });
  g.output(level, 'float32', [undefined, 1]);
  g.output(next, 'float32', [2, undefined, 128]);
  return g.toBytes();
}
