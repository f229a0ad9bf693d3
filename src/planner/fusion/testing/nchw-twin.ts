// Test utility: the ONNX twin of a TensorFlow Lite graph, written independently
// of the planner's TFLite reading, to compare what the methods find on both.
// Same node and tensor names, same element types and bytes; NHWC maps become
// NCHW, filters [out, kh, kw, in] become [out, in, kh, kw] (a depthwise
// [1, kh, kw, out] becomes [out, 1, kh, kw] with group = input channels),
// builtins become the ONNX ops of the same computation with ONNX attributes
// (SAME padding is ONNX's SAME_UPPER: ceil(in / stride) rows, the odd pad
// last). Fused activations are left out, on both sides an op's own business.
// Throws on a builtin it has no twin for.

import type { InferredGraph, InferredModel, InferredNode, InferredValue, NodeAttribute } from '../../../model/inferred';

/** Builtin -> ONNX op of the twin. */
const TWIN_OPS: Readonly<Record<string, string>> = {
  CONV_2D: 'Conv',
  DEPTHWISE_CONV_2D: 'Conv',
  AVERAGE_POOL_2D: 'AveragePool',
  MAX_POOL_2D: 'MaxPool',
  FULLY_CONNECTED: 'Gemm',
  CONCATENATION: 'Concat',
  RESHAPE: 'Reshape',
  SOFTMAX: 'Softmax',
  ADD: 'Add',
  MUL: 'Mul',
  RELU: 'Relu',
  RELU6: 'Clip',
  LOGISTIC: 'Sigmoid',
  HARD_SWISH: 'HardSwish',
  DEQUANTIZE: 'DequantizeLinear',
  QUANTIZE: 'QuantizeLinear',
};

const toNchw = (s: readonly number[]): number[] => [s[0]!, s[3]!, s[1]!, s[2]!];

/** The ONNX twin of a TFLite graph (see the module header). */
export function nchwTwin<G extends InferredGraph | InferredModel>(graph: G): G {
  const values = new Map(graph.values.map((v) => [v.name, v]));
  const filters = new Map<string, string>(); // filter tensor -> its convolution's op type
  for (const n of graph.nodes) if (n.opType === 'CONV_2D' || n.opType === 'DEPTHWISE_CONV_2D') filters.set(n.inputs[1]!, n.opType);
  const twinValues = graph.values.map((v) => twinValue(v, filters.get(v.name)));
  const nodes = graph.nodes.map((n) => twinNode(n, values));
  const { tflite: _tflite, format: _format, ...rest } = graph as InferredModel;
  return { ...rest, nodes, values: twinValues } as unknown as G;
}

function twinValue(v: InferredValue, filterOf: string | undefined): InferredValue {
  const s = v.shape;
  if (s === undefined || s.length !== 4) return v;
  if (filterOf === 'CONV_2D') return { ...v, shape: [s[0]!, s[3]!, s[1]!, s[2]!] };
  if (filterOf === 'DEPTHWISE_CONV_2D') return { ...v, shape: [s[3]!, s[0]!, s[1]!, s[2]!] };
  return { ...v, shape: toNchw(s) };
}

function twinNode(n: InferredNode, values: ReadonlyMap<string, InferredValue>): InferredNode {
  const opType = TWIN_OPS[n.opType];
  if (opType === undefined) throw new Error(`no ONNX twin for ${n.opType}`);
  const { attributes: _attributes, ...node } = n;
  const attributes = twinAttributes(n, values);
  return { ...node, opType, domain: '', ...(Object.keys(attributes).length > 0 && { attributes }) };
}

function twinAttributes(n: InferredNode, values: ReadonlyMap<string, InferredValue>): Record<string, NodeAttribute> {
  const a = (key: string, fallback: number): number => (typeof n.attributes?.[key] === 'number' ? (n.attributes[key] as number) : fallback);
  const input = values.get(n.inputs[0]!)?.shape;
  const autoPad = a('padding', 0) === 1 ? 'VALID' : 'SAME_UPPER';
  const strides = [a('stride_h', 1), a('stride_w', 1)];
  switch (n.opType) {
    case 'CONV_2D':
    case 'DEPTHWISE_CONV_2D': {
      const filter = values.get(n.inputs[1]!)!.shape!;
      const channels = input![3]!;
      const group = n.opType === 'DEPTHWISE_CONV_2D' ? channels : channels / filter[3]!;
      const dilations = [a('dilation_h_factor', 1), a('dilation_w_factor', 1)];
      return { kernel_shape: [filter[1]!, filter[2]!], strides, dilations, group, auto_pad: autoPad };
    }
    case 'AVERAGE_POOL_2D':
    case 'MAX_POOL_2D':
      return { kernel_shape: [a('filter_height', 1), a('filter_width', 1)], strides, auto_pad: autoPad };
    case 'FULLY_CONNECTED':
      return { transB: 1 };
    case 'CONCATENATION': {
      const axis = a('axis', 0);
      const at = axis < 0 ? axis + 4 : axis;
      return { axis: [0, 2, 3, 1][at]! };
    }
    default:
      return {};
  }
}
