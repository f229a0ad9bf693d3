// Execution orders of a graph: the file's topological order, a depth-first
// order, and a memory-aware order that lowers the most bytes live at once on
// branchy graphs. Also the lifetime rule every run-time tensor follows.
// Depends only on the model's IR types.
//
// - Steps number the scheduled nodes 0, 1, 2, ...; nodes computed from
//   constants alone are not scheduled (they run at load time).
// - depth-first: after a node runs, the consumers it made ready run next
//   (a stack of ready nodes; file order among siblings).
// - memory-aware: greedy; among ready nodes take the one whose outputs
//   allocate the fewest bytes net of the inputs it frees (file order on ties).
//   Its effect is measured as the most bytes live at one step (no sharing);
//   when it is not lower than the file order's, the file order is kept.

import { MinHeap } from '../../shared/min-heap';
import type { InferredGraph, InferredValue } from '../../model/inferred';
import type { GraphIoPolicy, OrderPolicy } from '../targets/target';

/** An execution order and what it does to live bytes. */
export interface Schedule {
  readonly policy: OrderPolicy;
  readonly order: readonly number[]; // node indices, in execution order
  readonly stepOf: Int32Array; // node index -> step; -1 when not scheduled
  readonly maxLiveBytes: number; // most tensor bytes live at one step in this order (no sharing)
  readonly fileMaxLiveBytes: number; // the same for the file's order
  readonly keptFileOrder: boolean; // the policy found no better order; the file's is used
}

/** A half-open lifetime in steps. */
export interface Lifetime {
  readonly start: number;
  readonly end: number;
}

/** True for values that exist at run time (graph inputs, activations, outputs). */
export function isRunTimeValue(value: InferredValue): boolean {
  return value.kind === 'input' || value.kind === 'activation' || value.kind === 'output';
}

/**
 * The lifetime of a run-time value: from its producer's step (or step 0, or
 * its first use, for values present before the run) to its last consumer's
 * step + 1; graph inputs from step 0 and outputs to the end under 'whole-run'.
 */
export function valueLifetime(
  value: InferredValue,
  stepOf: Int32Array,
  stepCount: number,
  io: GraphIoPolicy,
  isGraphOutput: boolean,
): Lifetime {
  let first = Infinity;
  let last = -1;
  for (const c of value.consumers) {
    const s = stepOf[c]!;
    if (s < 0) continue;
    first = Math.min(first, s);
    last = Math.max(last, s);
  }
  const produced = value.producer === undefined ? -1 : stepOf[value.producer]!;
  let start: number;
  if (produced >= 0) start = produced;
  else start = io === 'whole-run' || last < 0 ? 0 : first;
  let end = last < 0 ? start + 1 : last + 1;
  if (isGraphOutput && io === 'whole-run') end = Math.max(end, stepCount);
  return { start, end: Math.max(end, start + 1) };
}

/** Orders the graph's nodes by `policy`. */
export function scheduleGraph(graph: InferredGraph, policy: OrderPolicy, io: GraphIoPolicy): Schedule {
  const deps = dependencies(graph);
  const fileOrder = graph.nodes.map((_, i) => i).filter((i) => !graph.nodes[i]!.constant);
  const fileMax = maxLiveBytes(graph, fileOrder, io);
  let order = fileOrder;
  if (policy === 'depth-first') order = depthFirstOrder(graph, deps);
  else if (policy === 'memory-aware') order = memoryAwareOrder(graph, deps, io);
  let max = order === fileOrder ? fileMax : maxLiveBytes(graph, order, io);
  const kept = policy === 'memory-aware' && max >= fileMax && order !== fileOrder;
  if (kept) {
    order = fileOrder;
    max = fileMax;
  }
  return { policy, order, stepOf: stepsOf(graph, order), maxLiveBytes: max, fileMaxLiveBytes: fileMax, keptFileOrder: kept };
}

/** Node index -> step for an order. */
export function stepsOf(graph: InferredGraph, order: readonly number[]): Int32Array {
  const stepOf = new Int32Array(graph.nodes.length).fill(-1);
  order.forEach((node, step) => (stepOf[node] = step));
  return stepOf;
}

/** The most bytes of run-time tensors live at one step of `order`, each tensor in its own bytes. */
export function maxLiveBytes(graph: InferredGraph, order: readonly number[], io: GraphIoPolicy): number {
  const stepOf = stepsOf(graph, order);
  const outputs = new Set(graph.outputs);
  const delta = new Float64Array(order.length + 2);
  for (const value of graph.values) {
    if (!isRunTimeValue(value) || !value.bytes) continue;
    const life = valueLifetime(value, stepOf, order.length, io, outputs.has(value.name));
    delta[life.start]! += value.bytes;
    delta[Math.min(life.end, delta.length - 1)]! -= value.bytes;
  }
  let live = 0;
  let max = 0;
  for (const d of delta) {
    live += d;
    max = Math.max(max, live);
  }
  return max;
}

interface Dependencies {
  readonly preds: number[][]; // scheduled producers each node waits for
  readonly succs: number[][]; // scheduled consumers of each node's outputs
  readonly reads: number[][]; // value indices each node reads
}

function dependencies(graph: InferredGraph): Dependencies {
  const n = graph.nodes.length;
  const preds: Set<number>[] = Array.from({ length: n }, () => new Set());
  const succs: Set<number>[] = Array.from({ length: n }, () => new Set());
  const reads: number[][] = Array.from({ length: n }, () => []);
  graph.values.forEach((value, v) => {
    for (const c of value.consumers) {
      reads[c]!.push(v);
      const p = value.producer;
      if (p === undefined || graph.nodes[p]!.constant || p === c) continue;
      preds[c]!.add(p);
      succs[p]!.add(c);
    }
  });
  return { preds: preds.map((s) => [...s]), succs: succs.map((s) => [...s].sort((a, b) => a - b)), reads };
}

function depthFirstOrder(graph: InferredGraph, deps: Dependencies): number[] {
  const waiting = deps.preds.map((p) => p.length);
  const stack: number[] = [];
  for (let i = graph.nodes.length - 1; i >= 0; i--) if (!graph.nodes[i]!.constant && waiting[i] === 0) stack.push(i);
  const order: number[] = [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    order.push(node);
    const ready = deps.succs[node]!.filter((s) => --waiting[s]! === 0);
    for (let k = ready.length - 1; k >= 0; k--) stack.push(ready[k]!);
  }
  return order;
}

/** How it works: see the module header (memory-aware). */
function memoryAwareOrder(graph: InferredGraph, deps: Dependencies, io: GraphIoPolicy): number[] {
  const outputs = new Set(graph.outputs);
  const remaining = graph.values.map((v) => new Set(v.consumers.filter((c) => !graph.nodes[c]!.constant)).size);
  const sizeOf = (v: number): number => {
    const value = graph.values[v]!;
    return isRunTimeValue(value) ? (value.bytes ?? 0) : 0;
  };
  const index = new Map(graph.values.map((value, v) => [value.name, v]));
  const outputBytes = graph.nodes.map((node) => {
    let bytes = 0;
    for (const name of new Set(node.outputs)) {
      const v = index.get(name);
      if (v !== undefined) bytes += sizeOf(v);
    }
    return bytes;
  });
  const costOf = (node: number): number => {
    let freed = 0;
    for (const v of new Set(deps.reads[node])) {
      const kept = io === 'whole-run' && outputs.has(graph.values[v]!.name);
      if (remaining[v] === 1 && !kept) freed += sizeOf(v);
    }
    return outputBytes[node]! - freed;
  };
  // Ready nodes by (cost, index). A cost falls only when a value it reads is
  // left with one reader; that reader gets a fresh entry, and entries whose
  // cost is no longer current are skipped when they come out.
  const cost = new Float64Array(graph.nodes.length);
  const isReady = new Uint8Array(graph.nodes.length);
  const heap = new MinHeap<readonly [number, number]>((a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]));
  const makeReady = (node: number): void => {
    isReady[node] = 1;
    cost[node] = costOf(node);
    heap.push([cost[node]!, node]);
  };
  const waiting = deps.preds.map((p) => p.length);
  graph.nodes.forEach((n, i) => {
    if (!n.constant && waiting[i] === 0) makeReady(i);
  });
  const order: number[] = [];
  while (heap.size > 0) {
    const [entryCost, node] = heap.pop()!;
    if (isReady[node] === 0 || entryCost !== cost[node]) continue;
    isReady[node] = 0;
    order.push(node);
    for (const v of new Set(deps.reads[node])) {
      if (--remaining[v]! !== 1) continue;
      for (const reader of graph.values[v]!.consumers) {
        if (isReady[reader] === 1 && costOf(reader) !== cost[reader]) makeReady(reader);
      }
    }
    for (const s of deps.succs[node]!) if (--waiting[s]! === 0) makeReady(s);
  }
  return order;
}
