// What the fusion planners (M2, M5) need to know of one layer: its op class
// (main, scalar, vector), its NCHW feature maps, the window of its H and W axes
// (kernel, stride, pads, dilation) and its weights. Read from the inferred
// graph only; depends on the model's IR types.

import type { InferredGraph, InferredNode, InferredValue } from '../../model/inferred';

/** Main layers of METHODS.md M2 (depthwise Conv is a Conv). */
const MAIN = new Set(['Conv', 'MaxPool', 'AveragePool', 'GlobalAveragePool', 'GlobalMaxPool', 'MatMul', 'Gemm']);
/** Element-wise arithmetic (M2's "scalar" layers). */
const SCALAR = new Set(['Add', 'Sub', 'Mul', 'Div', 'Sum', 'Max', 'Min']);
/** Activations and normalisations (M2's "vector" layers). */
const VECTOR = new Set([
  'Relu', 'Clip', 'Sigmoid', 'Tanh', 'HardSwish', 'HardSigmoid', 'LeakyRelu', 'PRelu', 'Elu', 'Selu', 'Softplus',
  'BatchNormalization', 'InstanceNormalization', 'LRN', 'Mish', 'Gelu',
]);
/** Ops with a row-window rule besides the element-wise ones. */
const WINDOWED = new Set(['Conv', 'MaxPool', 'AveragePool', 'GlobalAveragePool', 'GlobalMaxPool', 'Concat']);

/** M2's classification of a layer. */
export type LayerClass = 'main' | 'scalar' | 'vector' | 'other';

/** The window of one spatial axis: output row r reads input rows [r*stride - padBegin, ... + (kernel-1)*dilation]. */
export interface AxisWindow {
  readonly kernel: number;
  readonly stride: number;
  readonly padBegin: number;
  readonly dilation: number;
}

/** A layer as the fusion planners see it. */
export interface Layer {
  readonly node: number; // index in graph.nodes
  readonly name: string;
  readonly opType: string;
  readonly cls: LayerClass;
  readonly output: InferredValue | undefined; // the first output
  readonly inputs: readonly InferredValue[]; // run-time (activation) inputs
  readonly weights: readonly InferredValue[]; // initializer and constant inputs
  readonly h: AxisWindow;
  readonly w: AxisWindow;
  readonly group: number;
  readonly tileable: string | undefined; // undefined when a feature-map tile can flow through it, else why not
}

const IDENTITY: AxisWindow = { kernel: 1, stride: 1, padBegin: 0, dilation: 1 };

/** The class of an op type. */
export function layerClass(opType: string): LayerClass {
  if (MAIN.has(opType)) return 'main';
  if (SCALAR.has(opType)) return 'scalar';
  if (VECTOR.has(opType)) return 'vector';
  return 'other';
}

/** An integer attribute, or `fallback`. */
export function intAttribute(node: InferredNode, key: string, fallback: number): number {
  const value = node.attributes?.[key];
  return typeof value === 'number' ? value : fallback;
}

/** A list attribute, or undefined. */
export function listAttribute(node: InferredNode, key: string): readonly number[] | undefined {
  const value = node.attributes?.[key];
  return Array.isArray(value) ? (value as readonly number[]) : undefined;
}

/** The layers of a graph by node index, with values looked up by name. */
export function graphLayers(graph: InferredGraph): Layer[] {
  const values = new Map(graph.values.map((v) => [v.name, v]));
  return graph.nodes.map((node, index) => layerOf(node, index, values));
}

function layerOf(node: InferredNode, index: number, values: ReadonlyMap<string, InferredValue>): Layer {
  const read = node.inputs.filter((n) => n !== '').map((n) => values.get(n)).filter((v): v is InferredValue => v !== undefined);
  const inputs = read.filter((v) => v.kind !== 'initializer' && v.kind !== 'constant');
  const weights = read.filter((v) => v.kind === 'initializer' || v.kind === 'constant');
  const output = node.outputs[0] === undefined ? undefined : values.get(node.outputs[0]);
  const isConv = node.opType === 'Conv';
  const kernel = kernelOf(node, inputs, weights);
  const strides = listAttribute(node, 'strides') ?? [1, 1];
  const dilations = listAttribute(node, 'dilations') ?? [1, 1];
  const pads = autoPads(node, inputs[0]?.shape, kernel, strides, dilations) ?? listAttribute(node, 'pads') ?? [0, 0, 0, 0];
  const windowed = WINDOWED.has(node.opType) && node.opType !== 'Concat';
  const axis = (i: number): AxisWindow =>
    windowed ? { kernel: kernel[i] ?? 1, stride: strides[i] ?? 1, padBegin: pads[i] ?? 0, dilation: dilations[i] ?? 1 } : IDENTITY;
  const layer = {
    node: index,
    name: node.name,
    opType: node.opType,
    cls: layerClass(node.opType),
    output,
    inputs,
    weights,
    h: axis(0),
    w: axis(1),
    group: isConv ? intAttribute(node, 'group', 1) : 1,
  };
  return { ...layer, tileable: whyNotTileable(node, layer) };
}

/**
 * Leading pads [H, W] of an auto_pad window: SAME_UPPER and SAME_LOWER pad so
 * that out = ceil(in / stride), the odd pixel at the end (UPPER) or the start
 * (LOWER); VALID pads nothing. Undefined without auto_pad (or NOTSET).
 */
export function autoPads(
  node: InferredNode,
  shape: readonly number[] | undefined,
  kernel: readonly number[],
  strides: readonly number[],
  dilations: readonly number[],
): number[] | undefined {
  const mode = node.attributes?.auto_pad;
  if (mode === undefined || mode === 'NOTSET') return undefined;
  if (mode === 'VALID' || shape === undefined) return [0, 0];
  return [0, 1].map((i) => {
    const size = shape[2 + i] ?? 1;
    const s = strides[i] ?? 1;
    const total = Math.max(0, (Math.ceil(size / s) - 1) * s + ((kernel[i] ?? 1) - 1) * (dilations[i] ?? 1) + 1 - size);
    return mode === 'SAME_LOWER' ? Math.ceil(total / 2) : Math.floor(total / 2);
  });
}

/** Kernel [kH, kW]: the Conv weight's spatial dims, a pool's kernel_shape, a global pool's whole map. */
function kernelOf(node: InferredNode, inputs: readonly InferredValue[], weights: readonly InferredValue[]): readonly number[] {
  if (node.opType === 'GlobalAveragePool' || node.opType === 'GlobalMaxPool') {
    const shape = inputs[0]?.shape;
    return shape === undefined ? [1, 1] : [shape[2] ?? 1, shape[3] ?? 1];
  }
  const declared = listAttribute(node, 'kernel_shape');
  if (declared !== undefined) return declared;
  const w = weights.find((v) => v.name === node.inputs[1]);
  return w?.shape !== undefined && w.shape.length === 4 ? [w.shape[2]!, w.shape[3]!] : [1, 1];
}

/** Why a tile cannot flow through the node (undefined: it can). */
function whyNotTileable(node: InferredNode, layer: Omit<Layer, 'tileable'>): string | undefined {
  const known = layer.cls === 'scalar' || layer.cls === 'vector' || WINDOWED.has(node.opType);
  if (!known || node.domain !== '') return `${node.opType} has no feature-map tiling rule`;
  if (node.constant) return 'it is computed from constants at load time';
  if (node.outputs.filter((o) => o !== '').length !== 1) return `${node.opType} has ${node.outputs.length} outputs`;
  if (node.opType === 'Conv' && node.inputs[1] !== undefined && !layer.weights.some((w) => w.name === node.inputs[1])) {
    return 'its weights are computed at run time';
  }
  if (node.opType === 'Concat' && intAttribute(node, 'axis', 0) !== 1 && intAttribute(node, 'axis', 0) !== -3) return 'Concat is not along channels';
  if (node.opType === 'MaxPool' && node.outputs.length > 1 && node.outputs[1] !== '') return 'MaxPool also returns indices';
  const out = layer.output?.shape;
  if (out === undefined || out.length !== 4 || layer.output?.bytes === undefined) return 'its output is not a known 4-D feature map';
  for (const input of layer.inputs) {
    const s = input.shape;
    if (s === undefined || s.length !== 4 || s[0] !== out[0]) return `input '${input.name}' is not a 4-D feature map of the same batch`;
  }
  if (layer.inputs.length === 0) return 'it reads no feature map';
  return undefined;
}

/** Bytes per element of a value (from its size and shape). */
export function elementBytes(value: InferredValue): number {
  const count = (value.shape ?? []).reduce((a, b) => a * b, 1);
  return count === 0 || value.bytes === undefined ? 0 : value.bytes / count;
}

/** Dims [N, C, H, W] of a 4-D value. */
export function nchw(value: InferredValue): readonly [number, number, number, number] {
  const s = value.shape ?? [1, 1, 1, 1];
  return [s[0] ?? 1, s[1] ?? 1, s[2] ?? 1, s[3] ?? 1];
}

/** True for a depthwise Conv: one group per input channel, more than one channel. */
export function isDepthwise(layer: Layer): boolean {
  const c = layer.inputs[0]?.shape?.[1];
  return layer.opType === 'Conv' && c !== undefined && c > 1 && layer.group === c;
}

/** True for a pointwise Conv: 1×1 kernel, stride 1, no pads (any group count). */
export function isPointwise(layer: Layer): boolean {
  return layer.opType === 'Conv' && [layer.h, layer.w].every((a) => a.kernel === 1 && a.stride === 1 && a.padBegin === 0);
}
