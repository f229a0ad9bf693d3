// What a selection means in each view: the buffers the heap emphasizes, the
// step it marks, and the nodes the graph emphasizes. Shared by the heap, the
// graph and the details panel so the three always agree; the selection that
// stands for a tensor (the tensor table and the graph search select by it).

import type { InferredModel } from '../model/inferred';
import type { Selection } from '../store/state';
import type { HeapData } from './heap/heap-data';

/** What the heap shows for a selection. */
export interface HeapEmphasis {
  readonly highlight: Uint8Array | undefined; // 1 per emphasized buffer; undefined: nothing selected
  readonly step: number | undefined;
}

/** The step at which each node runs, by node name. */
export function stepsByNode(data: HeapData): ReadonlyMap<string, number> {
  return new Map(data.plan.steps.map((s, i) => [s.node, i]));
}

/**
 * The heap's emphasis: a node's own buffers (its outputs and scratch) at its
 * step; a buffer with the buffers sharing its bytes; a step with every buffer
 * live there.
 */
export function heapEmphasis(data: HeapData, selection: Selection | undefined, nodeSteps: ReadonlyMap<string, number>): HeapEmphasis {
  if (selection === undefined) return { highlight: undefined, step: undefined };
  const highlight = new Uint8Array(data.count);
  const buffers = data.plan.buffers;
  if (selection.kind === 'node') {
    buffers.forEach((b, i) => {
      if (b.node === selection.node) highlight[i] = 1;
    });
    return { highlight, step: nodeSteps.get(selection.node) };
  }
  if (selection.kind === 'buffer') {
    const chosen = data.indexOfId.get(selection.buffer);
    if (chosen === undefined) return { highlight: undefined, step: undefined };
    highlight[chosen] = 1;
    buffers.forEach((b, i) => {
      if (b.alias?.parent === selection.buffer) highlight[i] = 1;
    });
    return { highlight, step: undefined };
  }
  for (let i = 0; i < data.count; i += 1) if (data.start[i]! <= selection.step && selection.step < data.end[i]!) highlight[i] = 1;
  return { highlight, step: selection.step };
}

/** What the graph shows for a selection: the emphasized nodes by index, and the one to bring into view. */
export interface GraphEmphasis {
  readonly nodes: ReadonlySet<number>;
  readonly focus: number | undefined;
}

/**
 * The graph's emphasis: a node itself; a buffer's producer and consumers
 * (focus on the producer); a step's executing node.
 */
export function graphEmphasis(model: InferredModel, data: HeapData | undefined, selection: Selection | undefined): GraphEmphasis {
  if (selection === undefined) return { nodes: new Set(), focus: undefined };
  const index = (name: string | undefined): number | undefined => {
    if (name === undefined) return undefined;
    const i = model.nodes.findIndex((n) => n.name === name);
    return i < 0 ? undefined : i;
  };
  if (selection.kind === 'node') {
    const i = index(selection.node);
    return { nodes: new Set(i === undefined ? [] : [i]), focus: i };
  }
  if (selection.kind === 'step') {
    const i = index(data?.plan.steps[selection.step]?.node);
    return { nodes: new Set(i === undefined ? [] : [i]), focus: i };
  }
  const at = data?.indexOfId.get(selection.buffer);
  const buffer = at === undefined ? undefined : data?.plan.buffers[at];
  if (buffer === undefined) return { nodes: new Set(), focus: undefined };
  const producer = index(buffer.node);
  const value = model.values.find((v) => v.name === buffer.name);
  const nodes = new Set<number>(value?.consumers ?? []);
  if (producer !== undefined) nodes.add(producer);
  return { nodes, focus: producer ?? value?.consumers[0] };
}

/**
 * The selection that stands for tensor `name` in every view: its buffer when
 * the plan has one (the buffer owning the bytes before one sharing them), else
 * the node that writes it, else the first that reads it (a weight).
 */
export function tensorSelection(model: InferredModel, plan: { readonly buffers: readonly { readonly id: number; readonly name: string; readonly alias?: unknown }[] } | undefined, name: string): Selection | undefined {
  const buffers = plan?.buffers.filter((b) => b.name === name) ?? [];
  const buffer = buffers.find((b) => b.alias === undefined) ?? buffers[0];
  if (buffer !== undefined) return { kind: 'buffer', buffer: buffer.id };
  const value = model.values.find((v) => v.name === name);
  const node = value?.producer ?? value?.consumers[0];
  return node === undefined ? undefined : { kind: 'node', node: model.nodes[node]!.name };
}

/**
 * The selection a graph input's or output's box stands for (`tensors`: the
 * tensors it shows), as Find gives it for a tensor: the buffer of the first
 * tensor that has one (a folded KV-cache box: its layer's first cache
 * tensor, the key before the value), else the first tensor's selection.
 */
export function ioBoxSelection(model: InferredModel, plan: Parameters<typeof tensorSelection>[1], tensors: readonly string[]): Selection | undefined {
  const each = tensors.map((name) => tensorSelection(model, plan, name));
  return each.find((s) => s?.kind === 'buffer') ?? each.find((s) => s !== undefined);
}

/**
 * The tensors the tensor table marks for a selection: a buffer's; a node's
 * own buffers (its outputs and scratch, as the heap emphasizes them), in plan
 * order; none for a step (every live buffer, which the heap shows).
 */
export function selectedTensors(plan: { readonly buffers: readonly { readonly id: number; readonly name: string; readonly node?: string }[] } | undefined, selection: Selection | undefined): readonly string[] {
  if (plan === undefined || selection === undefined || selection.kind === 'step') return [];
  if (selection.kind === 'buffer') {
    const buffer = plan.buffers.find((b) => b.id === selection.buffer);
    return buffer === undefined ? [] : [buffer.name];
  }
  return [...new Set(plan.buffers.filter((b) => b.node === selection.node).map((b) => b.name))];
}
