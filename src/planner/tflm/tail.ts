// TensorFlow Lite Micro's persistent ("tail") section on a 32-bit
// microcontroller build, and the smallest arena with which AllocateTensors()
// succeeds. Depends only on the IR types and this folder.
//
// The tail, in TFLM's allocation order (micro_allocator.cc, micro_interpreter.cc):
// - exact: variable tensors' buffers (16-aligned each), resource variables'
//   buffers (the largest value assigned to each VAR_HANDLE), the eval tensors
//   (12 B each), the node-and-registration records (32 B each), the subgraph
//   records (8 B each), scratch handles (4 B each) and the graph inputs' and
//   outputs' TfLiteTensor structs (40 B, with 12 B + 4 + 4 × channels of
//   quantization each when quantized) behind a 16-aligned pointer array;
// - estimated: the allocator objects themselves (124 B), each operator's
//   builtin parameters and each kernel's persistent data (OpData, and the
//   per-channel multipliers and shifts every convolution allocates, float
//   ones too, and the transposed input copies of BATCH_MATMUL), by a rule
//   per operator type, since they depend on the kernel build.
//
// Every tail allocation is aligned down from where the last one began
// (SingleArenaBufferAllocator::AllocatePersistentBuffer): 16 B for variable
// and resource buffers, kernel data and the graph I/O pointer arrays, 4 B for
// the records. The padding that leaves between them is a part of its own,
// found by replaying the allocations in TFLM's order from a 16-aligned arena
// end; it is an estimate when an estimated part comes before a 16-aligned one.
//
// The arena: while it plans, TFLM holds at once, between the head and the
// tail, its scratch-request list (12 B × (requests + 12)), a subgraph offset
// per subgraph (4 B), an allocation record per tensor and request (24 B) and
// the planner's own memory (40 B per planned buffer, 16-aligned). An arena
// too small for that does not always fail: when the temporary pointer passes
// the tail inside one 16-byte window, TFLM hands its planner a negative size
// and writes past the arena. So the arena to declare is the larger of what
// planning holds and what the plan keeps, each on top of the tail.

import { formatCount } from '../../shared/format';
import type { IrTflite, IrTfliteOperator, IrTfliteSubgraph, IrTfliteTensor } from '../../model/ir-tflite';
import type { TflmAllocation } from './allocation-info';
import { GREEDY_BYTES_PER_BUFFER } from './greedy-planner';
import { inputTensor } from './scratch-requests';

/** One part of the tail. */
export interface TailPart {
  readonly what: string;
  readonly bytes: number;
  readonly estimated: boolean;
  readonly rule: string; // how it is sized
}

/** The tail and the arena to declare. */
export interface TflmArena {
  readonly tail: number; // every part, the alignment padding included
  readonly io: number; // of the tail, what the graph inputs' and outputs' structs take (allocated after planning), with their padding
  readonly tailEstimated: boolean;
  readonly parts: readonly TailPart[];
  readonly arena: number; // the smallest arena with which AllocateTensors succeeds
  readonly planningBytes: number; // what TFLM holds between head and tail while it plans
  readonly arenaReason: string;
}

/** Sizes of TFLM's records on a build: a 32-bit microcontroller, or a 64-bit host (where TFLM's own tests measure). */
export interface TflmBuild {
  readonly name: string;
  readonly pointer: number;
  readonly scratchRequest: number; // ScratchBufferRequest
  readonly allocationInfo: number; // AllocationInfo
  readonly evalTensor: number; // TfLiteEvalTensor
  readonly node: number; // NodeAndRegistration
  readonly tensor: number; // TfLiteTensor
  readonly quantization: number; // TfLiteAffineQuantization
  readonly allocators: number; // the arena, planner, allocator and builtin-data allocator objects (estimated)
}

/** A 32-bit microcontroller build (the tail heapscope reports). */
export const BUILD_32: TflmBuild = { name: '32-bit', pointer: 4, scratchRequest: 12, allocationInfo: 24, evalTensor: 12, node: 32, tensor: 40, quantization: 12, allocators: 124 };

/** A 64-bit host build, as TFLM's memory_arena_threshold_test measures. */
export const BUILD_64: TflmBuild = { name: '64-bit', pointer: 8, scratchRequest: 16, allocationInfo: 32, evalTensor: 24, node: 64, tensor: 64, quantization: 24, allocators: 232 };

/** Builtin parameter structs (TfLite*Params), 32-bit, by operator; others 8 bytes. */
const PARAMS_BYTES: Readonly<Record<string, number>> = {
  CONV_2D: 28, DEPTHWISE_CONV_2D: 32, AVERAGE_POOL_2D: 36, MAX_POOL_2D: 36, FULLY_CONNECTED: 12, SOFTMAX: 4,
  RESHAPE: 36, SVDF: 12, CONCATENATION: 8, ADD: 8, SUB: 8, MUL: 4, UNIDIRECTIONAL_SEQUENCE_LSTM: 20, QUANTIZE: 0, DEQUANTIZE: 0,
};

/** Kernel OpData, 32-bit, by operator; others 16 bytes. */
const OPDATA_BYTES: Readonly<Record<string, number>> = {
  CONV_2D: 64, DEPTHWISE_CONV_2D: 64, FULLY_CONNECTED: 48, SOFTMAX: 48, SVDF: 64, AVERAGE_POOL_2D: 32, MAX_POOL_2D: 32,
  ADD: 64, SUB: 64, MUL: 48, QUANTIZE: 32, DEQUANTIZE: 32, UNIDIRECTIONAL_SEQUENCE_LSTM: 512, RESHAPE: 0,
  TFLite_Detection_PostProcess: 112, // the custom kernel's OpData, exact
};

const align = (n: number, a: number): number => Math.ceil(n / a) * a;

/** An exact byte figure of the reason, with thousands separators: "12,504 B". */
const bytes = (n: number): string => `${formatCount(n)} B`;

/** The tail and arena of a model whose head TFLM plans to `head` bytes. */
export function tflmArena(model: IrTflite, allocation: TflmAllocation, head: number, build: TflmBuild = BUILD_32): TflmArena {
  const { parts, tail, io } = tailLayout(model, allocation, build);
  const planningBytes = tflmPlanningBytes(model, allocation, build);
  const arena = smallestArena({ head, tail, io, planningBytes });
  const reason =
    planningBytes + align(tail - io, 16) > head + align(tail, 16)
      ? `while it plans, TensorFlow Lite Micro holds ${bytes(planningBytes)} between head and tail (${GREEDY_BYTES_PER_BUFFER} B per planned buffer for its planner, 24 B per tensor and scratch request, the request list), more than the ${bytes(head)} head it ends up using, on top of the tail as it stands then: ${bytes(tail - io)}, the ${bytes(io)} of graph input and output structs coming later (${formatCount(planningBytes)} + ${bytes(tail - io)}, each rounded up to 16); a smaller arena can fail with its planner handed a negative size and writing out of bounds`
      : 'the head and tail it ends up using; planning needs less in between';
  return { tail, io, tailEstimated: parts.some((p) => p.estimated), parts, arena, planningBytes, arenaReason: reason };
}

/**
 * What TFLM holds between head and tail while it plans: the scratch-request
 * list, a subgraph offset each, an allocation record per tensor and request,
 * then (16-aligned) the planner's 40 B per planned buffer.
 */
export function tflmPlanningBytes(model: IrTflite, allocation: TflmAllocation, build: TflmBuild = BUILD_32): number {
  const records =
    align(build.scratchRequest * (allocation.scratchCount + 12), 4) + build.pointer * model.subgraphs.length + build.allocationInfo * (allocation.tensorCount + allocation.scratchCount);
  return align(records, 16) + GREEDY_BYTES_PER_BUFFER * allocation.buffers.length;
}

/**
 * The smallest arena with which AllocateTensors() succeeds: planning needs its
 * bytes on top of the tail as it stands then (without the graph inputs' and
 * outputs' structs, allocated last); the plan needs the head on top of the whole tail.
 * The arena is taken to start 16-aligned (MicroAllocator::Create aligns it up,
 * losing the bytes before) and so end 16-aligned, being a multiple of 16.
 */
export function smallestArena(a: { readonly head: number; readonly tail: number; readonly io: number; readonly planningBytes: number }): number {
  // GetAvailableMemory aligns the tail's start down to 16 again before the head or the planner may use what lies below it
  return align(Math.max(a.planningBytes + align(a.tail - a.io, 16), a.head + align(a.tail, 16)), 16);
}

/** One persistent allocation: its part, bytes asked for and alignment. */
interface TailRecord {
  readonly part: string;
  readonly bytes: number;
  readonly align: number;
}

/**
 * The tail's parts and how many bytes they take once TFLM has aligned each
 * allocation, replayed in its order (see the module header): the records in
 * StartModelAllocation, kernels' Init and Prepare, FinishModelAllocation, then
 * after planning the graph inputs' and outputs' structs.
 */
function tailLayout(model: IrTflite, allocation: TflmAllocation, build: TflmBuild): { parts: TailPart[]; tail: number; io: number } {
  const parts = tailParts(model, allocation, build);
  const estimated = new Set(parts.filter((p) => p.estimated).map((p) => p.what));
  const sized = new Map(parts.map((p) => [p.what, p.bytes]));
  const one = (part: string, a: number): TailRecord[] => [{ part, bytes: sized.get(part) ?? 0, align: a }];
  const main = model.subgraphs[0]!;
  const before: TailRecord[] = [
    ...one('allocators', build.pointer),
    ...one('subgraph records', build.pointer),
    ...one('operator records', build.pointer),
    ...one('eval tensors', build.pointer),
    ...one('builtin parameters', build.pointer),
    ...one('kernel data', 16),
    ...resourceVariableSizes(model).map((bytes) => ({ part: 'resource variables', bytes, align: 16 })),
    ...one('scratch handles', build.pointer),
    ...allocation.variables.map((v) => ({ part: 'variable tensors', bytes: v.bytes, align: 16 })),
  ];
  const after = [...ioRecords('graph inputs', main, main.inputs, build), ...ioRecords('graph outputs', main, main.outputs, build)];
  // `used` replays the allocations with the estimated sizes; where an estimate comes before a 16-aligned record, where
  // that record lands is not known, so its padding is counted as the most it can be (16 less the records' alignment)
  let used = 0;
  let padding = 0;
  let unsure = false; // an estimated record since the last 16-aligned one: the next one's padding is not known
  let padded = false;
  const place = (r: TailRecord): void => {
    if (r.bytes === 0) return; // nothing is allocated
    const next = align(used + r.bytes, r.align);
    const pad = next - used - r.bytes;
    if (r.align > build.pointer && unsure) {
      padding += 16 - build.pointer;
      padded = true;
      unsure = false;
    } else {
      padding += pad;
    }
    if (estimated.has(r.part)) unsure = true;
    used = next;
  };
  const bytesOf = (records: readonly TailRecord[]): number => records.reduce((sum, r) => sum + r.bytes, 0);
  before.forEach(place);
  const beforeIo = bytesOf(before) + padding;
  after.forEach(place);
  const tail = bytesOf(before) + bytesOf(after) + padding;
  const pad: TailPart = {
    what: 'alignment padding',
    bytes: padding,
    estimated: padded,
    rule: `TFLM aligns each allocation down from the last: 16 B for variable and resource buffers, kernel data and the graph I/O pointer arrays, ${build.pointer} B for the records; the bytes that leaves between them${padded ? `, counted as the most it can be (${16 - build.pointer} B) where an estimated part comes before` : ''}`,
  };
  return { parts: pad.bytes > 0 ? [...parts, pad] : parts, tail, io: tail - beforeIo };
}

function tailParts(model: IrTflite, allocation: TflmAllocation, build: TflmBuild): TailPart[] {
  const ops = model.subgraphs.flatMap((sg) => sg.operators.map((op) => ({ sg, op })));
  const variables = allocation.variables.reduce((sum, v) => sum + v.bytes, 0);
  const resources = resourceVariableSizes(model).reduce((sum, b) => sum + b, 0);
  const main = model.subgraphs[0]!;
  const io = (indices: readonly number[]) => ioRecords('', main, indices, build).reduce((sum, r) => sum + r.bytes, 0);
  const parts: TailPart[] = [
    { what: 'variable tensors', bytes: variables, estimated: false, rule: `${allocation.variables.length} buffer(s), each placed 16-aligned` },
    { what: 'resource variables', bytes: resources, estimated: false, rule: 'the largest value assigned to each resource variable (by its shared name), each placed 16-aligned' },
    { what: 'eval tensors', bytes: build.evalTensor * allocation.tensorCount, estimated: false, rule: `${build.evalTensor} B per tensor (TfLiteEvalTensor)` },
    { what: 'operator records', bytes: build.node * ops.length, estimated: false, rule: `${build.node} B per operator (NodeAndRegistration)` },
    { what: 'subgraph records', bytes: 2 * build.pointer * model.subgraphs.length, estimated: false, rule: `${2 * build.pointer} B per subgraph` },
    { what: 'scratch handles', bytes: build.pointer * allocation.scratchCount, estimated: false, rule: `${build.pointer} B per scratch request` },
    { what: 'allocators', bytes: build.allocators, estimated: true, rule: `the arena, planner and allocator objects of a ${build.name} build` },
    { what: 'builtin parameters', bytes: ops.reduce((sum, { op }) => sum + (op.custom ? 0 : (PARAMS_BYTES[op.op] ?? 8)), 0), estimated: true, rule: 'the TfLite*Params struct of each builtin operator type (a custom operator has none)' },
    { what: 'kernel data', bytes: ops.reduce((sum, { sg, op }) => sum + kernelData(sg, op, build), 0), estimated: true, rule: "each kernel's OpData, 16-aligned, plus 2 × 4 B per output channel of a convolution and the transposed input copies of a batch matmul" },
    { what: 'graph inputs', bytes: io(main.inputs), estimated: false, rule: `a pointer array (placed 16-aligned) and a TfLiteTensor (${build.tensor} B) per input, with its quantization` },
    { what: 'graph outputs', bytes: io(main.outputs), estimated: false, rule: 'the same per output' },
  ];
  return parts.filter((p) => p.bytes > 0);
}

function kernelData(sg: IrTfliteSubgraph, op: IrTfliteOperator, build: TflmBuild): number {
  const base = align((Object.hasOwn(OPDATA_BYTES, op.op) ? OPDATA_BYTES[op.op] : undefined) ?? 16, 16); // a custom code may be any string, 'constructor' too
  const channels = perChannelCount(sg, op);
  const perChannel = channels === undefined ? 0 : 2 * align(4 * channels, 16);
  return base + perChannel + (op.op === 'BATCH_MATMUL' ? transposedCopies(sg, op, build) : 0);
}

/**
 * The transposed copies BATCH_MATMUL's Prepare keeps for the whole run
 * (AllocInitTransposeTensorFromTfLiteTensor: an eval tensor, its dims and a
 * copy of the data, each a persistent allocation aligned to 16): of the left
 * input when adj_x, of the right one unless adj_y.
 */
function transposedCopies(sg: IrTfliteSubgraph, op: IrTfliteOperator, build: TflmBuild): number {
  const copy = (t: IrTfliteTensor | undefined): number =>
    t === undefined ? 0 : align(build.evalTensor, 16) + align(4 + 4 * t.shape.length, 16) + align(t.bytes ?? 0, 16);
  return (op.options.adj_x === 1 ? copy(inputTensor(sg, op, 0)) : 0) + (op.options.adj_y === 1 ? 0 : copy(inputTensor(sg, op, 1)));
}

/**
 * A convolution's output channels as its Prepare counts them for the
 * per-channel multiplier and shift arrays (AllocatePersistentBuffer, whatever
 * the type: conv_common.cc, depthwise_conv_common.cc, transpose_conv.cc): the
 * filter's dimension 0, or 3 for a depthwise filter; undefined for other operators.
 */
function perChannelCount(sg: IrTfliteSubgraph, op: IrTfliteOperator): number | undefined {
  if (op.op !== 'CONV_2D' && op.op !== 'DEPTHWISE_CONV_2D' && op.op !== 'TRANSPOSE_CONV') return undefined;
  return inputTensor(sg, op, 1)?.shape[op.op === 'DEPTHWISE_CONV_2D' ? 3 : 0] ?? 0;
}

/** The allocations of graph inputs' or outputs' structs: the pointer array (16-aligned), then each TfLiteTensor and its quantization. */
function ioRecords(part: string, sg: IrTfliteSubgraph, indices: readonly number[], build: TflmBuild): TailRecord[] {
  if (indices.length === 0) return [];
  const perTensor = (t: IrTfliteTensor): TailRecord[] => [
    { part, bytes: build.tensor, align: build.pointer },
    ...(t.quantization === undefined ? [] : [{ part, bytes: build.quantization, align: build.pointer }, { part, bytes: 4 + 4 * t.quantization.zeroPoint.length, align: 4 }]),
  ];
  return [{ part, bytes: build.pointer * indices.length, align: 16 }, ...indices.flatMap((i) => perTensor(sg.tensors[i]!))];
}

/** Each resource variable's buffer (one per shared name): the largest value ASSIGN_VARIABLE writes to it. */
function resourceVariableSizes(model: IrTflite): number[] {
  const largest = new Map<string, number>();
  model.subgraphs.forEach((sg, s) => {
    const handles = new Map<number, string>();
    sg.operators.forEach((op, i) => {
      if (op.op === 'VAR_HANDLE' && op.outputs[0] !== undefined) handles.set(op.outputs[0], op.resource ?? `subgraph${s}/${i}`);
    });
    for (const op of sg.operators) {
      if (op.op !== 'ASSIGN_VARIABLE') continue;
      const name = handles.get(op.inputs[0] ?? -1) ?? `subgraph${s}/tensor${op.inputs[0]}`;
      const value = sg.tensors[op.inputs[1] ?? -1];
      largest.set(name, Math.max(largest.get(name) ?? 0, value?.bytes ?? 0));
    }
  });
  return [...largest.values()];
}
