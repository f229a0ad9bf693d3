// A TensorFlow Lite builtin as a target's scratch rules see it. The rules of
// the presets (and of most target files) name ONNX ops and size their buffers
// by formulas over ONNX shapes (Conv's im2col reads the filter as
// [out, in / group, kh, kw] and the output as NCHW), so a TFLite op takes
// the rules of the ONNX op it computes the same as (problem/tflite-ops.ts,
// the first one listed: FULLY_CONNECTED is a Gemm, not also a MatMul), and
// its tensors are shown to the formulas as that op's would be:
//
// - 4-D feature maps NHWC -> NCHW;
// - CONV_2D filters [out, kh, kw, in] -> [out, in, kh, kw]; DEPTHWISE_CONV_2D
//   [1, kh, kw, channels] -> [channels, 1, kh, kw] (one input channel per
//   group); TRANSPOSE_CONV [out, kh, kw, in] -> ConvTranspose's
//   [in, out, kh, kw];
// - inputs in the ONNX op's order: TRANSPOSE_CONV's (output shape, filter,
//   data, bias) become ConvTranspose's (data, filter, bias).
//
// Bytes never change: the view only moves axes. A rule naming the TFLite op
// itself (`tflite::CONV_2D`) sees its tensors as decoded, as every node's
// own op does. Depends only on the model's IR types and the planner's op
// tables.

import type { InferredNode, InferredValue } from '../../model/inferred';
import { isTfliteNode, tfliteEquivalents, tfliteFilterInput } from '../problem/tflite-ops';
import type { TensorFacts } from './formula';

/** The op a scratch rule must name to apply to a node, and the node's tensors as its formula reads them. */
export interface RuleView {
  readonly opType: string; // `domain::op` outside the default domain, as rules name them
  readonly inputs: readonly (TensorFacts | undefined)[];
  readonly outputs: readonly (TensorFacts | undefined)[];
}

/** Where each ONNX input of the op comes from among the TFLite node's inputs, when not in the same order. */
const INPUT_ORDER: Readonly<Record<string, readonly number[]>> = {
  TRANSPOSE_CONV: [2, 1, 3],
};

/** Axis permutation (new axis k takes old axis p[k]) of each convolution's filter into the ONNX weight layout. */
const FILTER_AXES: Readonly<Record<string, readonly number[]>> = {
  CONV_2D: [0, 3, 1, 2],
  DEPTHWISE_CONV_2D: [3, 0, 1, 2],
  TRANSPOSE_CONV: [3, 0, 1, 2],
};

const NHWC_TO_NCHW: readonly number[] = [0, 3, 1, 2];

/** How the scratch rules see `node`: as its own op, and a TFLite builtin also as its ONNX op (see the module header). */
export function ruleViews(node: InferredNode, values: ReadonlyMap<string, InferredValue>): readonly RuleView[] {
  const facts = (name: string | undefined, axes?: readonly number[]): TensorFacts | undefined => {
    const value = name === undefined || name === '' ? undefined : values.get(name);
    if (value === undefined) return undefined;
    const shape = value.shape;
    return { shape: shape !== undefined && axes !== undefined && shape.length === 4 ? axes.map((a) => shape[a]!) : shape, bytes: value.bytes };
  };
  const own: RuleView = {
    opType: node.domain === '' ? node.opType : `${node.domain}::${node.opType}`,
    inputs: node.inputs.map((n) => facts(n)),
    outputs: node.outputs.map((n) => facts(n)),
  };
  const onnxOp = isTfliteNode(node) ? tfliteEquivalents(node)[0] : undefined;
  if (onnxOp === undefined) return [own];
  const filter = tfliteFilterInput(node);
  const order = INPUT_ORDER[node.opType] ?? node.inputs.map((_, k) => k);
  const asOnnx: RuleView = {
    opType: onnxOp,
    inputs: order.map((k) => facts(node.inputs[k], k === filter ? FILTER_AXES[node.opType] : NHWC_TO_NCHW)),
    outputs: node.outputs.map((n) => facts(n, NHWC_TO_NCHW)),
  };
  return [own, asOnnx];
}
