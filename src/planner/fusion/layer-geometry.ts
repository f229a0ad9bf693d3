// What the fusion planners (M2, M5) need to know of one layer: its op class
// (main, scalar, vector, conversion), its feature maps and their layout (NCHW
// for ONNX, NHWC for TensorFlow Lite: layout.ts), the window of its H and W
// axes (kernel, stride, pads, dilation, or a resampling factor) and its
// weights. A quantized op is seen as the float op it runs, a TFLite builtin as
// the ONNX op of the same computation (quantized-ops.ts, tflite-ops.ts), with
// its own element sizes; a TFLite window is read from its builtin options
// (tflite-windows.ts). Read from the inferred graph only; depends on the
// model's IR types and the planner.
//
// - Run-time inputs are 4-D feature maps of the output's batch, or scalars
//   (a scale or zero point a quantized graph computes at run time).
// - A scalar side computation (every run-time input and the output scalars,
//   e.g. the product of two scales) may sit inside a unit; a unit never ends
//   at one.

import type { InferredGraph, InferredNode, InferredValue } from '../../model/inferred';
import { baseOpOf, convWeightInput, isConversion } from '../problem/quantized-ops';
import { layoutOf, shapeAxis, type Layout } from './layout';
import { isResample, resampleRule, type ResampleAxis, type ResampleRule } from './resample-window';
import { fileElementBytes, storedWeight } from './stored-sizes';
import { tfliteWeightChannelDim, tfliteWindow, type WindowGeometry } from './tflite-windows';

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

/** M2's classification of a layer; 'convert' is a quantize, dequantize or cast, an element-wise member of any unit. */
export type LayerClass = 'main' | 'scalar' | 'vector' | 'convert' | 'other';

/**
 * The window of one spatial axis: output row r reads input rows
 * [r*stride - padBegin, ... + (kernel-1)*dilation]; with `upscale` (Resize,
 * Upsample) rows [floor(r/upscale) - halo, floor(r/upscale) + halo].
 */
export interface AxisWindow {
  readonly kernel: number;
  readonly stride: number;
  readonly padBegin: number;
  readonly dilation: number;
  readonly upscale?: number; // output rows per input row of a resampling op
  readonly halo?: number; // rows read on each side beyond floor(r / upscale)
}

/** A layer as the fusion planners see it. */
export interface Layer {
  readonly node: number; // index in graph.nodes
  readonly name: string;
  readonly opType: string;
  readonly base: string | undefined; // the op it acts as: a quantized op's float op (ConvInteger: Conv), a TFLite builtin's ONNX op (CONV_2D: Conv); undefined for other domains
  readonly cls: LayerClass;
  readonly layout: Layout; // how its feature maps are stored: NCHW (ONNX) or NHWC (TFLite)
  readonly output: InferredValue | undefined; // the first output
  readonly sideOutputs: readonly InferredValue[]; // further outputs (DynamicQuantizeLinear's scale and zero point)
  readonly inputs: readonly InferredValue[]; // run-time (activation) inputs, feature maps and scalars
  readonly weights: readonly InferredValue[]; // initializer and constant inputs, sized as stored (an int8 weight dequantized at load time: int8)
  readonly h: AxisWindow;
  readonly w: AxisWindow;
  readonly group: number;
  readonly tileable: string | undefined; // undefined when a feature-map tile can flow through it, else why not
}

const IDENTITY: AxisWindow = { kernel: 1, stride: 1, padBegin: 0, dilation: 1 };

/** The class of an op type (a float op, or the float op a quantized one runs). */
export function layerClass(opType: string | undefined): LayerClass {
  if (opType === undefined) return 'other';
  if (MAIN.has(opType)) return 'main';
  if (SCALAR.has(opType)) return 'scalar';
  if (VECTOR.has(opType)) return 'vector';
  if (isConversion({ opType, domain: '' })) return 'convert';
  return 'other';
}

/** True for a value with one element (rank 0 or every dim 1): a scale or zero point, not a feature map. */
export function isScalarValue(value: InferredValue): boolean {
  return value.shape !== undefined && value.shape.every((d) => d === 1) && value.bytes !== undefined;
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
export function graphLayers(graph: InferredGraph): readonly Layer[] {
  let layers = layersOf.get(graph);
  if (layers === undefined) {
    const values = new Map(graph.values.map((v) => [v.name, v]));
    layersOf.set(graph, (layers = graph.nodes.map((node, index) => layerOf(graph, node, index, values))));
  }
  return layers;
}

/** Layers already read, per graph: both builders and every re-plan of a suggestion read the same graph. */
const layersOf = new WeakMap<InferredGraph, readonly Layer[]>();

function layerOf(graph: InferredGraph, node: InferredNode, index: number, values: ReadonlyMap<string, InferredValue>): Layer {
  const read = node.inputs.filter((n) => n !== '').map((n) => values.get(n)).filter((v): v is InferredValue => v !== undefined);
  const inputs = read.filter((v) => v.kind !== 'initializer' && v.kind !== 'constant');
  const weights = read.filter((v) => v.kind === 'initializer' || v.kind === 'constant').map((w) => storedWeight(graph, values, w));
  const [output, ...sideOutputs] = node.outputs.map((n) => (n === '' ? undefined : values.get(n)));
  const base = baseOpOf(node);
  const layout = layoutOf(node);
  const window = layout === 'NHWC' ? tfliteWindow(node, inputs[0], weights) : onnxWindow(node, base, inputs, weights);
  const resample = base !== undefined && isResample(base) ? resampleOf(node, layout, inputs[0], output) : undefined;
  const axis = (i: 0 | 1): AxisWindow => {
    if (resample !== undefined && 'axes' in resample) return resampleWindow(resample.axes[i]!);
    return window === undefined ? IDENTITY : { kernel: window.kernel[i], stride: window.strides[i], padBegin: window.pads[i], dilation: window.dilations[i] };
  };
  const layer = {
    node: index,
    name: node.name,
    opType: node.opType,
    base,
    cls: layerClass(base),
    layout,
    output,
    sideOutputs: sideOutputs.filter((v): v is InferredValue => v !== undefined),
    inputs,
    weights,
    h: axis(0),
    w: axis(1),
    group: window?.group ?? 1,
  };
  const untiled = resample !== undefined && 'reason' in resample ? resample.reason : undefined;
  return { ...layer, tileable: untiled ?? whyNotTileable(node, layer) };
}

/** The window of an ONNX Conv or pool from its attributes (auto_pad, else pads); undefined for ops without one. */
function onnxWindow(node: InferredNode, base: string | undefined, inputs: readonly InferredValue[], weights: readonly InferredValue[]): WindowGeometry | undefined {
  if (base === undefined || !WINDOWED.has(base) || base === 'Concat') return undefined;
  const kernel = kernelOf(node, base, inputs, weights);
  const strides = listAttribute(node, 'strides') ?? [1, 1];
  const dilations = listAttribute(node, 'dilations') ?? [1, 1];
  const pads = autoPads(node, inputs[0]?.shape, kernel, strides, dilations) ?? listAttribute(node, 'pads') ?? [0, 0, 0, 0];
  const pair = (list: readonly number[], fallback: number): [number, number] => [list[0] ?? fallback, list[1] ?? fallback];
  return {
    kernel: pair(kernel, 1),
    strides: pair(strides, 1),
    dilations: pair(dilations, 1),
    pads: pair(pads, 0),
    group: base === 'Conv' ? intAttribute(node, 'group', 1) : 1,
  };
}

/** The resampling rule of a Resize or Upsample; a TFLite resize has none, its coordinate options being unread. */
function resampleOf(node: InferredNode, layout: Layout, input: InferredValue | undefined, output: InferredValue | undefined): ResampleRule {
  if (layout === 'NCHW') return resampleRule(node, input, output);
  return { reason: `${node.opType} has no tiling rule (its align_corners and half_pixel_centers options are not read)` };
}

function resampleWindow(axis: ResampleAxis): AxisWindow {
  return { ...IDENTITY, upscale: axis.factor, halo: axis.halo };
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
function kernelOf(node: InferredNode, base: string | undefined, inputs: readonly InferredValue[], weights: readonly InferredValue[]): readonly number[] {
  if (base === 'GlobalAveragePool' || base === 'GlobalMaxPool') {
    const shape = inputs[0]?.shape;
    return shape === undefined ? [1, 1] : [shape[2] ?? 1, shape[3] ?? 1];
  }
  const declared = listAttribute(node, 'kernel_shape');
  if (declared !== undefined) return declared;
  const w = weights.find((v) => v.name === node.inputs[convWeightInput(node) ?? 1]);
  return w?.shape !== undefined && w.shape.length === 4 ? [w.shape[2]!, w.shape[3]!] : [1, 1];
}

/** Why a tile cannot flow through the node (undefined: it can). */
function whyNotTileable(node: InferredNode, layer: Omit<Layer, 'tileable'>): string | undefined {
  const base = layer.base;
  const elementwise = layer.cls === 'scalar' || layer.cls === 'vector' || layer.cls === 'convert';
  const known = elementwise || (base !== undefined && (WINDOWED.has(base) || isResample(base)));
  if (!known) return `${node.opType} has no feature-map tiling rule`;
  if (node.constant) return 'it is computed from constants at load time';
  const written = node.outputs.filter((o) => o !== '').length;
  if (layer.output === undefined || !layer.sideOutputs.every(isScalarValue) || layer.sideOutputs.length !== written - 1) {
    return `${node.opType} has ${written} outputs`;
  }
  const weightInput = convWeightInput(node);
  if (weightInput !== undefined && node.inputs[weightInput] !== undefined && !layer.weights.some((w) => w.name === node.inputs[weightInput])) {
    return 'its weights are computed at run time';
  }
  if (base === 'Concat' && !alongChannels(intAttribute(node, 'axis', 0), layer.layout)) return `${node.opType} is not along channels`;
  if (base === 'GlobalAveragePool' && intAttribute(node, 'channels_last', 0) !== 0) return `${node.opType} reads channels-last (NHWC) maps`;
  if (layer.inputs.length === 0) return 'it reads no feature map';
  if (elementwise && isScalarValue(layer.output) && layer.inputs.every(isScalarValue)) return undefined;
  const out = layer.output.shape;
  if (out === undefined || out.length !== 4 || layer.output.bytes === undefined) return 'its output is not a known 4-D feature map';
  for (const input of layer.inputs) {
    const s = input.shape;
    if (isScalarValue(input)) continue;
    if (s === undefined || s.length !== 4 || s[0] !== out[0]) return `input '${input.name}' is not a 4-D feature map of the same batch`;
  }
  if (layer.inputs.every(isScalarValue)) return 'it reads no feature map';
  return undefined;
}

/** Bytes per element of a value in the file's type (from its size and shape). */
export const elementBytes = fileElementBytes;

/** True when a concatenation `axis` of a 4-D map (negative: from the end) is its channel axis in `layout`. */
function alongChannels(axis: number, layout: Layout): boolean {
  const channels = shapeAxis(layout, 1);
  return axis === channels || axis === channels - 4;
}

/** The dim of a weight of `layer` that holds its output channels: the first, but the last of a TFLite depthwise filter [1, kh, kw, out]. */
export function weightChannelDim(layer: Pick<Layer, 'opType' | 'layout'>, weight: InferredValue): number {
  return layer.layout === 'NHWC' ? tfliteWeightChannelDim(layer.opType, weight) : 0;
}

/** True for a depthwise Conv: one group per input channel, more than one channel. */
export function isDepthwise(layer: Layer): boolean {
  const c = layer.inputs[0]?.shape?.[shapeAxis(layer.layout, 1)];
  return layer.base === 'Conv' && c !== undefined && c > 1 && layer.group === c;
}

/** True for a pointwise Conv: 1×1 kernel, stride 1, no pads (any group count). */
export function isPointwise(layer: Layer): boolean {
  return layer.base === 'Conv' && [layer.h, layer.w].every((a) => a.kernel === 1 && a.stride === 1 && a.padBegin === 0);
}
