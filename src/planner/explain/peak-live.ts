// peakLiveReasons: why each buffer live at the peak is alive there — its
// producer, its last reader, the steps and ops between them, and the reason in
// words (a skip connection, a copy to another compute unit and why that unit
// runs the reader, a wide dtype a Cast narrows right after, scratch, graph I/O
// and, among it, a decoder's KV cache, model state kept between runs, an
// operator's scratch tensor that no op writes: a Vela ethos-u op's).
// Depends only on the planner and the model's IR types.

import type { InferredGraph } from '../../model/inferred';
import type { BufferKind } from '../problem/build-buffers';
import type { StepInfo } from '../problem/build-problem';
import type { BoundaryRecord, FunctionRecord } from '../compute-units/compute-plan';
import type { LiveBuffer } from '../assembly/live-at';
import type { ComputeUnit, GraphIoPolicy } from '../targets/target';
import { formatBytes } from '../../shared/format';
import { kvCaches, type KvCaches } from '../problem/kv-cache';

/** Steps between a producer and its last reader above which the tensor is a skip connection. */
export const SKIP_STEPS = 3;

/** A node at a step of the plan. */
export interface StepNode {
  readonly node: string;
  readonly opType: string;
  readonly step: number;
}

/** How long a buffer lives and what runs meanwhile. */
export interface LiveSpan {
  readonly start: number; // first step it is live
  readonly end: number; // first step it is no longer live (half-open)
  readonly steps: number; // end - start
  readonly ops: Readonly<Record<string, number>>; // op types run strictly between producer and last reader, with counts
}

/** Why a buffer live at the peak is there, in kinds. */
export type PeakLiveCause = 'skip' | 'waiting' | 'operand' | 'copy' | 'dtype' | 'scratch' | 'cache' | 'graph-input' | 'graph-output' | 'state' | 'unfed' | 'shared';

/** One buffer live at the peak, explained (`plan --json` explanation.peakLive[]). */
export interface PeakLiveRecord {
  readonly id: number;
  readonly name: string;
  readonly kind: BufferKind;
  readonly size: number;
  readonly counted: number; // bytes it adds at the peak (live-at.ts)
  readonly producer?: StepNode; // absent for a graph input, model state and a tensor no op writes (cause `unfed`)
  readonly lastReader?: StepNode; // absent when nothing reads it (a graph output)
  readonly previousReader?: StepNode; // the reader before the last, when there are several
  readonly span: LiveSpan;
  readonly causes: readonly PeakLiveCause[]; // first is the main one
  readonly reason: string;
  readonly narrowTo?: { readonly dtype: string; readonly size: number }; // the dtype a Cast right after it converts to, and the size it would have
  readonly recomputable?: boolean; // a cheap producer whose inputs outlive its last reader: it could run again there
}

/** Producers cheap enough to run twice: element-wise, layout and shape ops. */
export const CHEAP_OPS: ReadonlySet<string> = new Set(['Relu', 'LeakyRelu', 'Sigmoid', 'Tanh', 'Clip', 'Add', 'Sub', 'Mul', 'Div', 'Cast', 'Transpose', 'Neg', 'Abs', 'Exp', 'HardSigmoid', 'HardSwish', 'Gelu', 'Erf', 'Sqrt', 'Pow']);

/** What peakLiveReasons reads of a plan. */
export interface PeakLiveInput {
  readonly graph: InferredGraph; // the planned graph (with copy nodes under compute units)
  readonly steps: readonly StepInfo[];
  readonly buffers: readonly { readonly id: number; readonly name: string; readonly start: number; readonly end: number; readonly node?: string }[];
  readonly liveAtPeak: readonly LiveBuffer[];
  readonly peakStep: number | undefined;
  readonly functions: readonly FunctionRecord[];
  readonly boundaries: readonly BoundaryRecord[];
  readonly computeUnits: readonly ComputeUnit[];
  readonly graphIo: GraphIoPolicy;
}

/** Explains every buffer of `liveAtPeak`, in its order; see the module header. */
export function peakLiveReasons(input: PeakLiveInput): PeakLiveRecord[] {
  const stepOf = new Map(input.steps.map((s, i) => [s.node, i]));
  const values = new Map(input.graph.values.map((v) => [v.name, v]));
  const endOf = new Map(input.buffers.map((b) => [b.name, b.end]));
  const opsBetween = opCounter(input.steps);
  const names = new Map(input.liveAtPeak.map((b) => [b.id, b.name]));
  const caches = kvCaches(input.graph);
  return input.liveAtPeak.map((live) => {
    const buffer = input.buffers[live.id]!;
    const value = values.get(live.name);
    const producerNode = value?.producer === undefined ? undefined : input.graph.nodes[value.producer];
    const producer = stepNode(producerNode?.name ?? buffer.node, input.steps, stepOf);
    const readers = (value?.consumers ?? [])
      .map((c) => stepNode(input.graph.nodes[c]?.name, input.steps, stepOf))
      .filter((r): r is StepNode => r !== undefined)
      .sort((a, b) => a.step - b.step);
    const lastReader = live.kind === 'scratch' || live.kind === 'cache' ? undefined : readers[readers.length - 1];
    const span = spanOf(buffer, producer, lastReader, opsBetween);
    const narrow = narrowerCast(live, value?.dtypeName, readers, input.graph, values);
    const { causes, reason } = reasonOf({ live, producer, lastReader, readers, narrow, input, names, caches });
    const recomputable =
      causes[0] === 'skip' && producerNode !== undefined && CHEAP_OPS.has(producerNode.opType) &&
      producerNode.inputs.every((name) => name === '' || !endOf.has(name) || endOf.get(name)! > lastReader!.step);
    return {
      id: live.id,
      name: live.name,
      kind: live.kind,
      size: live.size,
      counted: live.counted,
      ...(producer !== undefined && live.kind !== 'input' && { producer }),
      ...(lastReader !== undefined && { lastReader }),
      ...(lastReader !== undefined && readers.length > 1 && { previousReader: readers[readers.length - 2]! }),
      span,
      causes,
      reason,
      ...(narrow !== undefined && { narrowTo: { dtype: narrow.dtype, size: narrow.size } }),
      ...(recomputable && { recomputable }),
    };
  });
}

function stepNode(node: string | undefined, steps: readonly StepInfo[], stepOf: ReadonlyMap<string, number>): StepNode | undefined {
  const step = node === undefined ? undefined : stepOf.get(node);
  return step === undefined ? undefined : { node: node!, opType: steps[step]!.opType, step };
}

/**
 * Counts of each op type run in steps [from, to), answered from prefix sums per
 * op type, so listing the ops in every live buffer's span stays linear in steps
 * even when tens of thousands of buffers are live at the peak.
 */
function opCounter(steps: readonly StepInfo[]): (from: number, to: number) => Record<string, number> {
  const prefix = new Map<string, Int32Array>();
  steps.forEach((s, i) => {
    let counts = prefix.get(s.opType);
    if (counts === undefined) prefix.set(s.opType, (counts = new Int32Array(steps.length + 1)));
    counts[i + 1] = 1;
  });
  for (const counts of prefix.values()) for (let i = 1; i < counts.length; i++) counts[i]! += counts[i - 1]!;
  return (from, to) => {
    const ops: Record<string, number> = Object.create(null) as Record<string, number>;
    const hi = Math.min(to, steps.length);
    if (from >= hi) return ops;
    for (const [op, counts] of prefix) {
      const n = counts[hi]! - counts[from]!;
      if (n > 0) ops[op] = n;
    }
    return ops;
  };
}

function spanOf(
  buffer: { start: number; end: number },
  producer: StepNode | undefined,
  lastReader: StepNode | undefined,
  opsBetween: (from: number, to: number) => Record<string, number>,
): LiveSpan {
  const from = (producer?.step ?? buffer.start - 1) + 1;
  const to = lastReader?.step ?? buffer.end;
  return { start: buffer.start, end: buffer.end, steps: buffer.end - buffer.start, ops: opsBetween(from, to) };
}

/** Element sizes of the dtypes a Cast may narrow to. */
const ELEMENT_BYTES: Readonly<Record<string, number>> = { float64: 8, int64: 8, uint64: 8, float32: 4, int32: 4, uint32: 4, float16: 2, bfloat16: 2, int16: 2, uint16: 2, int8: 1, uint8: 1, bool: 1 };

/** The narrower dtype a Cast reading the buffer converts it to, when every reader is such a Cast. */
function narrowerCast(live: LiveBuffer, dtype: string | undefined, readers: readonly StepNode[], graph: InferredGraph, values: ReadonlyMap<string, { readonly dtypeName: string }>) {
  const wide = dtype === undefined ? undefined : ELEMENT_BYTES[dtype];
  if (wide === undefined || readers.length === 0 || live.kind === 'copy') return undefined;
  if (readers.some((r) => r.opType !== 'Cast')) return undefined;
  const cast = graph.nodes.find((n) => n.name === readers[0]!.node);
  const target = cast === undefined ? undefined : values.get(cast.outputs[0] ?? '')?.dtypeName;
  const narrow = target === undefined ? undefined : ELEMENT_BYTES[target];
  if (narrow === undefined || narrow >= wide) return undefined;
  return { dtype: target!, from: dtype!, size: Math.ceil((live.size * narrow) / wide), cast: readers[0]! };
}

interface ReasonInput {
  readonly live: LiveBuffer;
  readonly producer: StepNode | undefined;
  readonly lastReader: StepNode | undefined;
  readonly readers: readonly StepNode[];
  readonly narrow: ReturnType<typeof narrowerCast>;
  readonly input: PeakLiveInput;
  readonly names: ReadonlyMap<number, string>; // live buffers' names by id
  readonly caches: KvCaches; // the graph's KV-cache inputs and outputs
}

/** The causes and the sentence; the lifetime reason first, then the dtype one. */
function reasonOf({ live, producer, lastReader, readers, narrow, input, names, caches }: ReasonInput): { causes: PeakLiveCause[]; reason: string } {
  const parts: [PeakLiveCause, string][] = [];
  const main = mainReason(live, producer, lastReader, readers, input, caches);
  if (main !== undefined) parts.push(main);
  if (narrow !== undefined) {
    parts.push(['dtype', `${narrow.from} because the ${narrow.cast.opType} after it (${narrow.cast.node}) converts to ${narrow.dtype}; stored as ${narrow.dtype} it would take ${formatBytes(narrow.size)}`]);
  }
  if (live.sharesWith !== undefined) {
    const other = names.get(live.sharesWith);
    parts.push(['shared', `shares its bytes with ${other ?? `buffer ${live.sharesWith}`}, so it adds ${formatBytes(live.counted)}`]);
  }
  if (parts.length === 0) parts.push(['operand', 'live at the peak step']);
  return { causes: parts.map(([c]) => c), reason: parts.map(([, r]) => r).join('; ') };
}

function mainReason(
  live: LiveBuffer,
  producer: StepNode | undefined,
  lastReader: StepNode | undefined,
  readers: readonly StepNode[],
  input: PeakLiveInput,
  caches: KvCaches,
): [PeakLiveCause, string] | undefined {
  const at = input.peakStep;
  if (live.kind === 'scratch') return ['scratch', `scratch of ${opName(producer, live.node)} while it runs`];
  if (live.kind === 'cache') return ['cache', `depthwise+pointwise cache of ${opName(producer, live.node)}`];
  const copy = live.kind === 'copy' ? copyReason(live.name, input) : undefined;
  if (copy !== undefined) return ['copy', copy];
  const wholeRun = (input.buffers[live.id]?.end ?? 0) >= input.steps.length;
  if (input.graph.persistent?.includes(live.name) === true && live.kind === 'activation') return ['state', 'model state the runtime keeps between runs, in the arena for the whole run'];
  // listed among the graph's inputs only so it exists from the start: the caller gives none (a Vela ethos-u op's scratch)
  if (input.graph.unfed?.includes(live.name) === true && live.kind === 'activation') return ['unfed', unfedReason(readers)];
  if (live.kind === 'input') {
    const what = caches.byPast.has(live.name) ? 'graph input (KV cache)' : 'graph input';
    return ['graph-input', wholeRun && input.graphIo === 'whole-run' ? `${what}, kept for the whole run` : `${what}, read until ${opName(lastReader)}`];
  }
  if (live.kind === 'output' && (lastReader === undefined || wholeRun)) {
    const pair = caches.byPresent.get(live.name);
    if (pair !== undefined) return ['graph-output', `graph output (KV cache), kept to the end of the run for the next run to read as ${pair.past}`];
    return ['graph-output', 'graph output, kept to the end of the run'];
  }
  if (producer !== undefined && lastReader === undefined && producer.step === at) return ['operand', `written by ${opName(producer)} at the peak step`];
  if (producer === undefined || lastReader === undefined) return undefined;
  const wait = lastReader.step - producer.step;
  if (at !== undefined && (lastReader.step === at || producer.step === at) && wait <= SKIP_STEPS) {
    return ['operand', lastReader.step === at ? `read by ${opName(lastReader)} at the peak step` : `written by ${opName(producer)} at the peak step`];
  }
  if (wait > SKIP_STEPS && readers.length > 1) return ['skip', `kept for the skip connection into ${lastReader.node}, ${wait} steps later`];
  if (wait > SKIP_STEPS) return ['waiting', `waits ${wait} steps for its only reader ${lastReader.node}`];
  return ['operand', `read by ${opName(lastReader)}, ${wait} step${wait === 1 ? '' : 's'} after ${opName(producer)} wrote it`];
}

/** Why a tensor no op writes and the caller does not give is live: the scratch of the ops that read it, in the arena from the start. */
function unfedReason(readers: readonly StepNode[]): string {
  const of = readers.length === 0 ? 'its op' : readers.length === 1 ? opName(readers[0]) : `${opName(readers[0])} and ${readers.length - 1} more`;
  return `scratch tensor of ${of}: no op writes it and the caller gives none; TensorFlow Lite Micro allocates it in the arena`;
}

function opName(node: StepNode | undefined, fallback?: string): string {
  if (node === undefined) return fallback ?? 'its op';
  return `${node.opType} ${node.node}`;
}

/** "copied to cpu because Resize has no npu kernel", or the boundary's own sentence; undefined for a copy that is no boundary's (a Concat's). */
function copyReason(copy: string, input: PeakLiveInput): string | undefined {
  const boundary = input.boundaries.find((b) => b.copy === copy);
  if (boundary === undefined) return undefined;
  const unitOf = (fn: string) => input.functions.find((f) => f.name === fn)?.unit ?? fn;
  const to = unitOf(boundary.to);
  const from = unitOf(boundary.from);
  const reader = input.graph.values.find((v) => v.name === copy)?.consumers.map((c) => input.graph.nodes[c]!)[0];
  const preferred = input.computeUnits.find((u) => u.name !== to);
  if (reader !== undefined && preferred !== undefined && !preferred.opTypes.includes('*') && !preferred.opTypes.includes(reader.opType)) {
    return `copied to ${to} because ${reader.opType} has no ${preferred.name} kernel (from ${from}: ${boundary.detail})`;
  }
  return `copied from ${from} to ${to} because ${boundary.detail}`;
}
