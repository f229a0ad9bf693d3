// TensorFlow Lite builtin operators and the ONNX operators each one computes
// the same as: the table through which a TFLite op takes part in the methods
// that know ONNX ops (fusion M2 and M5, compute units M3). Pure data; no
// dependencies.
//
// - Layout: TFLite feature maps are NHWC (ONNX: NCHW). Filters: CONV_2D
//   [out, kh, kw, in] (Conv: [out, in / group, kh, kw]); DEPTHWISE_CONV_2D
//   [1, kh, kw, in × depth_multiplier], a Conv with group = input channels;
//   TRANSPOSE_CONV [out, kh, kw, in], its data input third (the first is the
//   output shape). Windows come from the builtin options (padding 0 SAME,
//   1 VALID; stride_h/w; dilation_h/w_factor; a pool's filter_height/width),
//   read by fusion/tflite-windows.ts, never from ONNX attributes.
// - FULLY_CONNECTED is y = x·Wᵀ + b with W [out, in] over x flattened to 2-D:
//   Gemm with transB = 1 (MatMul against Wᵀ without a bias); a unit listing
//   either runs it. RELU6, RELU_N1_TO_1 and RELU_0_TO_1 are a Clip with those
//   bounds; LOGISTIC is Sigmoid; SOFTMAX scales its logits by beta first.
// - A fused activation (fused_activation_function) is part of the op, as its
//   kernel runs it; it adds no tensor.
// - Quantization: a TFLite op on int4/int8/uint8/int16 data is the quantized
//   form of its computation (scales and zero points ride on the tensors), as
//   QLinearConv is Conv's. Ops marked `sameOnIntegers` are the same kernel on
//   integers: they move, pick or interpolate elements under their input's
//   quantization (RESHAPE, CONCATENATION, MAX_POOL_2D, the resizes...), or
//   are the conversions themselves, as the ONNX op takes integer data too.
// - QUANTIZE (float -> integer) and DEQUANTIZE (integer -> float) are
//   QuantizeLinear and DequantizeLinear; the same ops also requantize (integer
//   -> integer) and widen float16 weights, which the rules reading those ONNX
//   ops leave alone because they check the types they need.
// - RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR are a Resize (linear,
//   nearest) whose coordinate mode their align_corners and half_pixel_centers
//   options choose; those options are not decoded, so fusion gives them no
//   tiling rule (layer-geometry.ts), while a unit listing Resize runs them.
// - Not mapped: STRIDED_SLICE (its masks also squeeze and add axes),
//   BATCH_MATMUL (adj_x / adj_y not decoded), and every op without an ONNX op
//   of the same computation. They keep their own names.

/** The op domain of TFLite builtin operators (src/model/tflite); custom operators use `${TFLITE_DOMAIN}.custom`. */
export const TFLITE_DOMAIN = 'tflite';

/** What the planner knows of one TFLite builtin. */
interface TfliteOp {
  readonly ops: readonly string[]; // ONNX ops of the same computation; the first is the one the methods treat it as
  readonly sameOnIntegers?: true; // its integer form is the same kernel (see the module header)
  readonly filter?: number; // index of the filter input of a convolution
}

const op = (...ops: string[]): TfliteOp => ({ ops });
const sameOnIntegers = (...ops: string[]): TfliteOp => ({ ops, sameOnIntegers: true });

/** TFLite builtin name -> the ONNX ops of the same computation (see the module header). */
const TFLITE_OPS: Readonly<Record<string, TfliteOp>> = {
  CONV_2D: { ops: ['Conv'], filter: 1 },
  DEPTHWISE_CONV_2D: { ops: ['Conv'], filter: 1 },
  TRANSPOSE_CONV: { ops: ['ConvTranspose'], filter: 1 },
  FULLY_CONNECTED: op('Gemm', 'MatMul'),
  AVERAGE_POOL_2D: op('AveragePool'),
  MAX_POOL_2D: sameOnIntegers('MaxPool'),
  MEAN: op('ReduceMean'),
  ADD: op('Add'),
  SUB: op('Sub'),
  MUL: op('Mul'),
  DIV: op('Div'),
  MAXIMUM: op('Max'),
  MINIMUM: op('Min'),
  RELU: op('Relu'),
  RELU6: op('Clip'),
  RELU_N1_TO_1: op('Clip'),
  RELU_0_TO_1: op('Clip'),
  LOGISTIC: op('Sigmoid'),
  TANH: op('Tanh'),
  HARD_SWISH: op('HardSwish'),
  LEAKY_RELU: op('LeakyRelu'),
  PRELU: op('PRelu'),
  ELU: op('Elu'),
  GELU: op('Gelu'),
  EXP: op('Exp'),
  SQRT: op('Sqrt'),
  POW: op('Pow'),
  SOFTMAX: op('Softmax'),
  RESIZE_BILINEAR: sameOnIntegers('Resize'),
  RESIZE_NEAREST_NEIGHBOR: sameOnIntegers('Resize'),
  CONCATENATION: sameOnIntegers('Concat'),
  RESHAPE: sameOnIntegers('Reshape'),
  SQUEEZE: sameOnIntegers('Squeeze'),
  EXPAND_DIMS: sameOnIntegers('Unsqueeze'),
  TRANSPOSE: sameOnIntegers('Transpose'),
  SPLIT: sameOnIntegers('Split'),
  SPLIT_V: sameOnIntegers('Split'),
  SLICE: sameOnIntegers('Slice'),
  GATHER: sameOnIntegers('Gather'),
  PAD: sameOnIntegers('Pad'),
  PADV2: sameOnIntegers('Pad'),
  QUANTIZE: sameOnIntegers('QuantizeLinear'),
  DEQUANTIZE: sameOnIntegers('DequantizeLinear'),
  CAST: sameOnIntegers('Cast'),
};

interface OpRef {
  readonly opType: string;
  readonly domain: string;
}

/** True for a node decoded from a TFLite file, builtin or custom: its feature maps are NHWC. */
export function isTfliteNode(node: OpRef): boolean {
  return node.domain === TFLITE_DOMAIN || node.domain === `${TFLITE_DOMAIN}.custom`;
}

function tfliteOp(node: OpRef): TfliteOp | undefined {
  return node.domain === TFLITE_DOMAIN && Object.hasOwn(TFLITE_OPS, node.opType) ? TFLITE_OPS[node.opType] : undefined;
}

/** The ONNX ops a TFLite builtin computes the same as, the one the methods treat it as first; empty for any other node. */
export function tfliteEquivalents(node: OpRef): readonly string[] {
  return tfliteOp(node)?.ops ?? [];
}

/** Index of the filter input of a TFLite convolution (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV); undefined for other nodes. */
export function tfliteFilterInput(node: OpRef): number | undefined {
  return tfliteOp(node)?.filter;
}

const QUANTIZED_DATA = /^u?int(4|8|16)$/;

/**
 * True when a TFLite builtin runs as a quantized kernel: it is mapped, not
 * the same kernel on integers, and `dtypeName` (its output's type) is int4,
 * int8, uint8 or int16.
 */
export function isQuantizedTfliteKernel(node: OpRef, dtypeName: string | undefined): boolean {
  const entry = tfliteOp(node);
  return entry !== undefined && entry.sameOnIntegers !== true && dtypeName !== undefined && QUANTIZED_DATA.test(dtypeName);
}
