// Partitioning a graph into functions, one compute unit each (METHODS.md M3,
// the function level). Depends only on the model's IR types and the planner.
//
// - A unit supports a node when its op types list the node's type ('OpType'
//   for the default domain, 'domain::OpType' otherwise, or '*') and the node
//   meets the unit's constraints (Conv kernels up to `maxConvKernel` on every
//   spatial axis, read from `kernel_shape`, else from the weight's shape; an
//   unknown kernel fails the constraint).
// - A unit that computes quantized (integer activations or fake
//   quantization) also runs the quantized forms of the ops it lists
//   (ConvInteger and QLinearConv when it lists Conv, com.microsoft's
//   QLinearAdd when it lists Add...: quantized-ops.ts), DynamicQuantizeLinear
//   and Cast when it lists QuantizeLinear or DequantizeLinear, and Upsample
//   when it lists Resize.
// - A TensorFlow Lite builtin runs on a unit that lists its own name
//   ('CONV_2D', or 'tflite::CONV_2D'), or an ONNX op of the same computation
//   (tflite-ops.ts: CONV_2D and DEPTHWISE_CONV_2D where Conv is listed,
//   FULLY_CONNECTED where Gemm or MatMul is...). On int8, uint8 or int16 data
//   a computing builtin is a quantized kernel, which the ONNX listing lets run
//   only on a unit that computes quantized, as for QLinearConv; a builtin
//   that is the same kernel on integers (RESHAPE, CONCATENATION,
//   MAX_POOL_2D...) runs on any unit listing its ONNX op. A TFLite
//   convolution's kernel is its filter's dims 1 and 2 ([out, kh, kw, in],
//   depthwise [1, kh, kw, out]).
// - Priority: the units in the order the target lists them; each node goes
//   to the first unit that supports it. The fallback unit (the last one that
//   lists '*', else the last unit) takes every node no unit supports; that
//   is reported when the fallback does not list the op.
// - Functions are maximal runs of nodes on one unit that are consecutive in
//   the execution order, split into their connected parts (nodes joined by a
//   tensor one produces and the other reads). A run of consecutive steps is
//   convex, so each function can be called as one piece.
// - Nodes not scheduled (computed from constants at load time) belong to no
//   function.

import type { InferredGraph, InferredNode, InferredValue } from '../../model/inferred';
import type { PlanDiagnostic } from '../problem/build-buffers';
import type { Schedule } from '../problem/schedule';
import { baseOpOf, convWeightInput, floatFormOf, opKey } from '../problem/quantized-ops';
import { isQuantizedTfliteKernel, isTfliteNode, TFLITE_DOMAIN, tfliteEquivalents } from '../problem/tflite-ops';
import type { ComputeUnit } from '../targets/target';
import { computesQuantized } from './dtypes';

/** A partition of the graph that runs on one compute unit. */
export interface GraphFunction {
  readonly index: number; // position in Partition.functions (ordered by first step)
  readonly name: string; // '<unit>#<index>'
  readonly unit: string;
  readonly nodes: readonly number[]; // node indices, in execution order
  readonly firstStep: number;
  readonly lastStep: number;
}

/** The functions of a graph and the function of every node. */
export interface Partition {
  readonly functions: readonly GraphFunction[];
  readonly functionOf: Int32Array; // node index -> function index; -1 when not scheduled
  readonly units: readonly ComputeUnit[]; // by the names functions use
}

/** Ops a quantized unit runs besides the quantized forms of the ops it lists, with the op whose listing lets it run them. */
const QUANTIZED_PEERS: Readonly<Record<string, readonly string[]>> = {
  DynamicQuantizeLinear: ['QuantizeLinear'],
  Cast: ['QuantizeLinear', 'DequantizeLinear'],
  Upsample: ['Resize'],
};

/**
 * True when `unit` lists `node`'s op, or, computing quantized, the op it is a
 * quantized form or peer of; for a TFLite builtin, its own name or an ONNX op
 * of the same computation (see the module header). `values` (by name) give a
 * TFLite op's data type.
 */
export function listsOp(unit: ComputeUnit, node: InferredNode, values: ReadonlyMap<string, InferredValue>): boolean {
  if (unit.opTypes.includes('*') || unit.opTypes.includes(opKey(node))) return true;
  if (node.domain === TFLITE_DOMAIN) return listsTfliteOp(unit, node, values);
  if (!computesQuantized(unit)) return false;
  const float = floatFormOf(node);
  if (float !== undefined) return unit.opTypes.includes(float);
  const peers = node.domain === '' ? QUANTIZED_PEERS[node.opType] : undefined;
  return peers !== undefined && peers.some((op) => unit.opTypes.includes(op));
}

/** A TFLite builtin: listed by its own name, or by an ONNX op of the same computation (a quantized kernel on a quantized unit only). */
function listsTfliteOp(unit: ComputeUnit, node: InferredNode, values: ReadonlyMap<string, InferredValue>): boolean {
  if (unit.opTypes.includes(node.opType)) return true;
  if (!tfliteEquivalents(node).some((op) => unit.opTypes.includes(op))) return false;
  return computesQuantized(unit) || !isQuantizedTfliteKernel(node, values.get(node.outputs[0] ?? '')?.dtypeName);
}

/** True when `unit` runs `node` (op type listed and constraints met). */
export function unitSupports(unit: ComputeUnit, node: InferredNode, values: ReadonlyMap<string, InferredValue>): boolean {
  if (!listsOp(unit, node, values)) return false;
  const maxKernel = unit.constraints?.maxConvKernel;
  const base = baseOpOf(node);
  if (maxKernel !== undefined && (base === 'Conv' || base === 'ConvTranspose')) {
    const kernel = convKernel(node, values);
    return kernel !== undefined && kernel.every((k) => k <= maxKernel);
  }
  return true;
}

/** The spatial kernel of a Conv: its `kernel_shape` attribute, else the weight's dims after the first two (a TFLite filter's dims 1 and 2). */
export function convKernel(node: InferredNode, values: ReadonlyMap<string, InferredValue>): readonly number[] | undefined {
  const attribute = node.attributes?.['kernel_shape'];
  if (Array.isArray(attribute) && attribute.length > 0) return attribute as readonly number[];
  const shape = values.get(node.inputs[convWeightInput(node) ?? 1] ?? '')?.shape;
  if (isTfliteNode(node)) return shape === undefined || shape.length !== 4 ? undefined : shape.slice(1, 3);
  return shape === undefined || shape.length < 3 ? undefined : shape.slice(2);
}

/** The unit that takes nodes no other unit supports. */
export function fallbackUnit(units: readonly ComputeUnit[]): ComputeUnit {
  for (let i = units.length - 1; i >= 0; i--) if (units[i]!.opTypes.includes('*')) return units[i]!;
  return units[units.length - 1]!;
}

/** Partitions the scheduled nodes of `graph` over `units` (at least one); see the module header. */
export function partitionGraph(
  graph: InferredGraph,
  schedule: Schedule,
  units: readonly ComputeUnit[],
  diagnostics: PlanDiagnostic[],
): Partition {
  const values = new Map(graph.values.map((v) => [v.name, v]));
  const fallback = fallbackUnit(units);
  const unsupported = new Set<string>();
  const unitOf = schedule.order.map((n) => {
    const node = graph.nodes[n]!;
    const unit = units.find((u) => unitSupports(u, node, values));
    if (unit === undefined) unsupported.add(opKey(node));
    return unit ?? fallback;
  });
  if (unsupported.size > 0) {
    diagnostics.push({
      code: 'unsupported-op',
      message: `no compute unit lists ${[...unsupported].join(', ')}; the fallback unit ${fallback.name} runs them`,
    });
  }
  const functions: GraphFunction[] = [];
  const functionOf = new Int32Array(graph.nodes.length).fill(-1);
  for (const run of runsOf(unitOf)) {
    for (const part of connectedParts(graph, schedule, values, run.steps)) {
      const index = functions.length;
      const nodes = part.map((step) => schedule.order[step]!);
      for (const n of nodes) functionOf[n] = index;
      functions.push({ index, name: `${run.unit.name}#${index}`, unit: run.unit.name, nodes, firstStep: part[0]!, lastStep: part[part.length - 1]! });
    }
  }
  return { functions, functionOf, units };
}

/** Maximal runs of consecutive steps on one unit. */
function runsOf(unitOf: readonly ComputeUnit[]): { unit: ComputeUnit; steps: number[] }[] {
  const runs: { unit: ComputeUnit; steps: number[] }[] = [];
  unitOf.forEach((unit, step) => {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.unit === unit) last.steps.push(step);
    else runs.push({ unit, steps: [step] });
  });
  return runs;
}

/** The connected parts of a run (steps in order), ordered by first step. */
function connectedParts(
  graph: InferredGraph,
  schedule: Schedule,
  values: ReadonlyMap<string, InferredValue>,
  steps: readonly number[],
): number[][] {
  const first = steps[0]!;
  const parent = steps.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (const step of steps) {
    const node = graph.nodes[schedule.order[step]!]!;
    for (const input of node.inputs) {
      const producer = values.get(input)?.producer;
      const at = producer === undefined ? -1 : schedule.stepOf[producer]!;
      if (at < first || at > steps[steps.length - 1]!) continue;
      const a = find(at - first);
      const b = find(step - first);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const parts = new Map<number, number[]>();
  for (const step of steps) {
    const root = find(step - first);
    const part = parts.get(root) ?? [];
    part.push(step);
    parts.set(root, part);
  }
  return [...parts.values()].sort((a, b) => a[0]! - b[0]!);
}
