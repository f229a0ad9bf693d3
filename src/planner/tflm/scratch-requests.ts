// The scratch buffers TensorFlow Lite Micro's reference kernels request in their
// Prepare step (RequestScratchBufferInArena), one rule per operator, from the
// kernel sources (tensorflow/lite/micro/kernels). Depends only on the IR types.
//
// | operator | when | requests (bytes) |
// |---|---|---|
// | SVDF | int8 input | batch × filters × 4, batch × units × 4 (units = filters / rank) |
// | SVDF | float input | batch × filters × 4 |
// | ADD_N | float or int8 | 4 × inputs (pointers, 32-bit build) |
// | TRANSPOSE_CONV | int8 input | output elements × 4 |
// | TRANSPOSE_CONV | int16 input | output elements × 8, and bias elements × 8 for an int16 bias |
// | MEAN, SUM | int8 or int16 input | output elements × 4 |
// | REDUCE_MAX, REDUCE_MIN | any | 4 × input rank, 4 × axis elements |
// | UNIDIRECTIONAL_SEQUENCE_LSTM | any | 4 × batch × state dimension × cell-state element size |
// | CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED | int4 filter | filter elements (unpacked) |
// | TFLite_Detection_PostProcess (custom) | any | eleven, from the boxes, classes and max_detections (detection_postprocess.cc) |
// Every other builtin requests nothing; any other custom operator's kernel is
// not known, so the plan says it assumes none.

import type { IrTfliteOperator, IrTfliteSubgraph, IrTfliteTensor } from '../../model/ir-tflite';

/** What the scratch rules rest on: the kernels of TFLM's reference build, not an optimized one. */
export const REFERENCE_KERNELS_ASSUMPTION =
  "the kernels are TensorFlow Lite Micro's reference kernels: an optimized build (CMSIS-NN, ESP-NN, Xtensa, …) requests scratch of its own in Prepare, CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED among them, and keeps other kernel data, so its head, tail and arena can be larger";

/** One RequestScratchBufferInArena call. */
export interface TflmScratchRequest {
  readonly node: string;
  readonly label: string; // 'scratch0', 'scratch1', … in request order
  readonly bytes: number;
}

/** Pointer size of the build the requests are sized for (a 32-bit microcontroller). */
const POINTER_BYTES = 4;

/** An operator's requests, and a note when its kernel is not known. */
export function scratchRequests(sg: IrTfliteSubgraph, op: IrTfliteOperator): { readonly requests: TflmScratchRequest[]; readonly note?: string } {
  const named = (sizes: readonly number[]): TflmScratchRequest[] => sizes.map((bytes, k) => ({ node: op.node, label: `scratch${k}`, bytes }));
  if (!op.custom) return { requests: named(requestBytes(sg, op)) };
  if (op.op === DETECTION_POSTPROCESS && op.customOptions !== undefined) {
    if ('unreadable' in op.customOptions) {
      return { requests: [], note: `custom operator ${op.op} (${op.node}): ${op.customOptions.unreadable}, so its scratch requests are not known; none are assumed` };
    }
    return { requests: named(detectionPostProcess(sg, op, op.customOptions.numbers)) };
  }
  return { requests: [], note: `custom operator ${op.op} (${op.node}): its kernel's scratch requests are not known; none are assumed` };
}

/** The custom code of TFLM's detection post-process kernel (an SSD detector's last operator). */
const DETECTION_POSTPROCESS = 'TFLite_Detection_PostProcess';

/**
 * detection_postprocess.cc Prepare: num_boxes from the box encodings
 * [1, boxes, 4+]; the scores as the class predictions [1, boxes, classes]
 * hold them (float); max_detections and num_classes from the options (a key
 * the options lack reads as 0 there, AsInt32 of a null).
 */
function detectionPostProcess(sg: IrTfliteSubgraph, op: IrTfliteOperator, options: Readonly<Record<string, number>>): number[] {
  const tensor = (k: number): IrTfliteTensor | undefined => inputTensor(sg, op, k);
  const boxes = tensor(0)?.shape[1] ?? 0;
  const predictions = tensor(1)?.shape ?? [];
  const maxDetections = options.max_detections ?? 0;
  const classes = options.num_classes ?? 0;
  const float = 4;
  const int = 4;
  return [
    boxes, // active candidates (one byte each)
    boxes * 4 * float, // decoded boxes
    (predictions[1] ?? 0) * (predictions[2] ?? 0) * float, // scores
    boxes * float, // score buffer
    boxes * float, // kept scores
    maxDetections * boxes * float, // scores after regular non-max suppression
    maxDetections * boxes * float, // sorted values
    boxes * int, // kept indices
    maxDetections * boxes * int, // sorted indices
    Math.max(classes, maxDetections) * boxes * int, // buffer
    Math.min(boxes, maxDetections) * boxes * int, // selected
  ];
}

/** Operator input `k`'s tensor; undefined when the operator omits it (-1) or has fewer inputs. */
export function inputTensor(sg: IrTfliteSubgraph, op: IrTfliteOperator, k: number): IrTfliteTensor | undefined {
  const index = op.inputs[k];
  return index !== undefined && index >= 0 ? sg.tensors[index] : undefined;
}

function requestBytes(sg: IrTfliteSubgraph, op: IrTfliteOperator): number[] {
  const tensor = (k: number): IrTfliteTensor | undefined => inputTensor(sg, op, k);
  const output = op.outputs[0] !== undefined && op.outputs[0] >= 0 ? sg.tensors[op.outputs[0]] : undefined;
  const input = tensor(0);
  switch (op.op) {
    case 'SVDF':
      return svdf(input, tensor(1), op.options.rank ?? 1);
    case 'ADD_N':
      return input?.type === 'FLOAT32' || input?.type === 'INT8' ? [POINTER_BYTES * op.inputs.length] : [];
    case 'TRANSPOSE_CONV':
      return transposeConv(tensor(2), tensor(3), output);
    case 'MEAN':
    case 'SUM':
      return input?.type === 'INT8' || input?.type === 'INT16' ? [4 * elements(output)] : [];
    case 'REDUCE_MAX':
    case 'REDUCE_MIN':
      return [4 * (input?.shape.length ?? 0), 4 * Math.max(1, elements(tensor(1)))];
    case 'UNIDIRECTIONAL_SEQUENCE_LSTM':
      return lstm(input, tensor(18), tensor(19), op.options.time_major === 1);
    case 'CONV_2D':
    case 'DEPTHWISE_CONV_2D':
    case 'FULLY_CONNECTED':
      return tensor(1)?.type === 'INT4' ? [elements(tensor(1))] : [];
    default:
      return [];
  }
}

/** svdf_common.cc PrepareSvdf: batch from the input, filters from weights_feature. */
function svdf(input: IrTfliteTensor | undefined, weightsFeature: IrTfliteTensor | undefined, rank: number): number[] {
  if (input === undefined || weightsFeature === undefined) return [];
  const batch = input.shape[0] ?? 1;
  const filters = weightsFeature.shape[0] ?? 0;
  if (input.type === 'INT8') return [batch * filters * 4, batch * Math.floor(filters / Math.max(1, rank)) * 4];
  return input.type === 'FLOAT32' ? [batch * filters * 4] : [];
}

function transposeConv(input: IrTfliteTensor | undefined, bias: IrTfliteTensor | undefined, output: IrTfliteTensor | undefined): number[] {
  if (input?.type === 'INT8') return [elements(output) * 4];
  if (input?.type !== 'INT16') return [];
  return bias?.type === 'INT16' ? [elements(output) * 8, elements(bias) * 8] : [elements(output) * 8];
}

/**
 * unidirectional_sequence_lstm.cc: four buffers of batch × state dimension
 * cells (CreateLstmSizeInfo: the batch from the input, dimension 1 when time
 * major, else 0; the state dimension from the output state, dimension 1 —
 * the projection's size when the LSTM projects), each as wide as the cell state's type.
 */
function lstm(input: IrTfliteTensor | undefined, outputState: IrTfliteTensor | undefined, cellState: IrTfliteTensor | undefined, timeMajor: boolean): number[] {
  if (input === undefined || outputState === undefined || cellState === undefined) return [];
  const batch = input.shape[timeMajor ? 1 : 0] ?? 0;
  const bytes = batch * (outputState.shape[1] ?? 0) * (cellState.type === 'INT16' ? 2 : 4);
  return [bytes, bytes, bytes, bytes];
}

function elements(t: IrTfliteTensor | undefined): number {
  return t === undefined ? 0 : t.shape.reduce((a, d) => a * d, 1);
}
