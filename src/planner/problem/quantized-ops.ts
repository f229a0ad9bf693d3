// The quantized forms of ONNX operators and the float operator each one runs
// (ConvInteger and QLinearConv a Conv, com.microsoft's QLinearAdd an Add...),
// and the type conversions quantized graphs put around them. Fusion (M2, M5)
// and compute units (M3) treat a quantized layer as the layer it quantizes,
// and a TensorFlow Lite builtin as the ONNX op of the same computation
// (tflite-ops.ts). Pure data; depends only on tflite-ops.ts.

import { tfliteEquivalents, tfliteFilterInput } from './tflite-ops';

/** Quantized op (`OpType` in the ONNX domain, `domain::OpType` otherwise) -> the float op it runs. */
const FLOAT_FORM: Readonly<Record<string, string>> = {
  ConvInteger: 'Conv',
  QLinearConv: 'Conv',
  MatMulInteger: 'MatMul',
  QLinearMatMul: 'MatMul',
  'com.microsoft::QLinearAdd': 'Add',
  'com.microsoft::QLinearMul': 'Mul',
  'com.microsoft::QLinearSigmoid': 'Sigmoid',
  'com.microsoft::QLinearLeakyRelu': 'LeakyRelu',
  'com.microsoft::QLinearConcat': 'Concat',
  'com.microsoft::QLinearAveragePool': 'AveragePool',
  'com.microsoft::QLinearGlobalAveragePool': 'GlobalAveragePool',
  'com.microsoft::QuantizeLinear': 'QuantizeLinear',
  'com.microsoft::DequantizeLinear': 'DequantizeLinear',
};

/** Ops that only change a tensor's element type (quantize, dequantize, cast). */
const CONVERSIONS = new Set(['QuantizeLinear', 'DequantizeLinear', 'DynamicQuantizeLinear', 'Cast']);

/** Ops that quantize their input: the tensor they read is held in their output's type. */
const QUANTIZERS = new Set(['QuantizeLinear', 'DynamicQuantizeLinear']);

/** Index of the weight input of each Conv form (QLinearConv passes the input's scale and zero point first). */
const CONV_WEIGHT_INPUT: Readonly<Record<string, number>> = { Conv: 1, ConvInteger: 1, QLinearConv: 3 };

interface OpRef {
  readonly opType: string;
  readonly domain: string;
}

/** The op key unit op lists and the tables use: 'OpType' in the ONNX domain, 'domain::OpType' otherwise. */
export function opKey(node: OpRef): string {
  return node.domain === '' ? node.opType : `${node.domain}::${node.opType}`;
}

/** The float op a quantized op runs; undefined for ops that are not a quantized form. */
export function floatFormOf(node: OpRef): string | undefined {
  return FLOAT_FORM[opKey(node)];
}

/**
 * The op a node acts as for the planning methods: the float op of a
 * quantized form, the op itself in the ONNX domain, the first ONNX op of the
 * same computation for a TFLite builtin (tflite-ops.ts), undefined for other
 * domains' ops.
 */
export function baseOpOf(node: OpRef): string | undefined {
  return floatFormOf(node) ?? (node.domain === '' ? node.opType : tfliteEquivalents(node)[0]);
}

/** True for Q, DQ, DynamicQuantizeLinear and Cast (in the ONNX domain, Q and DQ in com.microsoft too). */
export function isConversion(node: OpRef): boolean {
  const base = baseOpOf(node);
  return base !== undefined && CONVERSIONS.has(base);
}

/** True for QuantizeLinear and DynamicQuantizeLinear (com.microsoft's QuantizeLinear too). */
export function isQuantizer(node: OpRef): boolean {
  const base = baseOpOf(node);
  return base !== undefined && QUANTIZERS.has(base);
}

/** True for DequantizeLinear (com.microsoft's too). */
export function isDequantizer(node: OpRef): boolean {
  return baseOpOf(node) === 'DequantizeLinear';
}

/** Index of the weight input of a Conv form (Conv, ConvInteger, QLinearConv, a TFLite convolution's filter); undefined for other ops. */
export function convWeightInput(node: OpRef): number | undefined {
  return node.domain === '' ? CONV_WEIGHT_INPUT[node.opType] : tfliteFilterInput(node);
}
