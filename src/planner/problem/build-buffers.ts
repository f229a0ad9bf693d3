// The buffers of a graph before sharing: one per run-time tensor (graph input,
// activation, output) with its size rounded up to the region's alignment and
// its half-open lifetime. Depends only on the model's IR types and the planner.

import type { InferredGraph } from '../../model/inferred';
import { isRunTimeValue, valueLifetime, type Schedule } from './schedule';
import type { GraphIoPolicy } from '../targets/target';

/** What a buffer of a model plan holds. */
export type BufferKind = 'input' | 'output' | 'activation' | 'copy' | 'scratch' | 'subgraph' | 'cache';

/** Why a buffer shares its parent's bytes. */
export type SharingRule = 'removable' | 'window' | 'in-place' | 'concat' | 'overlay';

/** A buffer being built; `key` is its creation index (ids are assigned later, by start step). */
export interface BufferSpec {
  readonly key: number;
  readonly name: string; // tensor name, or '<node>:<label>' for scratch and subgraph buffers
  kind: BufferKind;
  readonly bytes: number; // bytes of data (tensor bytes; 0 when unknown)
  size: number; // bytes in the plan: data rounded up to the alignment, or a window's exact bytes
  readonly start: number;
  readonly end: number;
  readonly region: string;
  readonly node: string | undefined; // producing (or owning) node's name; undefined for graph inputs
  readonly graphIo: boolean; // a graph input or output
  readonly state?: true; // model state the runtime keeps between runs (a TFLite variable tensor): in the arena for the whole run, never graph I/O
  alignment?: number; // when it differs from the region's
  alias?: { readonly parent: number; readonly offset: number; readonly rule: SharingRule }; // parent is a key
}

/** A diagnostic of planning: something the plan could not do as asked, or assumed. */
export interface PlanDiagnostic {
  readonly code: string;
  readonly message: string;
  readonly node?: string;
}

/** Rounds `bytes` up to a multiple of `alignment`. */
export function alignUp(bytes: number, alignment: number): number {
  return Math.ceil(bytes / alignment) * alignment;
}

/** Tensor buffers of a graph, by value name. */
export interface TensorBuffers {
  readonly specs: BufferSpec[];
  readonly byName: Map<string, BufferSpec>;
}

/** One buffer per run-time tensor; unknown sizes count as 0 bytes and are reported. */
export function tensorBuffers(
  graph: InferredGraph,
  schedule: Schedule,
  io: GraphIoPolicy,
  region: { readonly name: string; readonly alignment: number },
  diagnostics: PlanDiagnostic[],
): TensorBuffers {
  const outputs = new Set(graph.outputs);
  const persistent = new Set(graph.persistent ?? []); // state kept across runs: live from the first step to the last
  const unfed = new Set(graph.unfed ?? []); // activations present from the start that no node writes (a Vela operator's scratch)
  const specs: BufferSpec[] = [];
  const byName = new Map<string, BufferSpec>();
  const unknown: string[] = [];
  for (const value of graph.values) {
    if (!isRunTimeValue(value)) continue;
    if (value.producer !== undefined && graph.nodes[value.producer]!.constant && !outputs.has(value.name)) continue;
    if (value.kind === 'activation' && value.producer === undefined && !unfed.has(value.name)) continue; // read but never defined: checked by the model
    // one known to pass 2^53 − 1 bytes is no unknown: inference's size-past-limit says it is over any limit
    if (value.bytes === undefined && value.pastLimit !== true) unknown.push(value.name);
    const bytes = value.bytes ?? 0;
    const life = persistent.has(value.name)
      ? { start: 0, end: Math.max(1, schedule.order.length) }
      : valueLifetime(value, schedule.stepOf, schedule.order.length, io, outputs.has(value.name));
    const isOutput = outputs.has(value.name);
    // the IR reads state as an input (nothing computes it before the first step), but the interpreter allocates it in
    // its arena and keeps it between runs: no application buffer, so an activation, whatever the graph I/O owner
    const state = persistent.has(value.name) && !isOutput;
    const spec: BufferSpec = {
      key: specs.length,
      name: value.name,
      kind: state ? 'activation' : value.kind === 'input' ? 'input' : isOutput ? 'output' : 'activation',
      bytes,
      size: alignUp(bytes, region.alignment),
      start: life.start,
      end: life.end,
      region: region.name,
      node: value.producer === undefined ? undefined : graph.nodes[value.producer]!.name,
      graphIo: !state && (value.kind === 'input' || isOutput),
      ...(state && { state: true as const }),
    };
    specs.push(spec);
    byName.set(value.name, spec);
  }
  if (unknown.length > 0) {
    const list = unknown.slice(0, 5).join(', ') + (unknown.length > 5 ? `, ... (${unknown.length} in all)` : '');
    diagnostics.push({ code: 'unknown-size', message: `${unknown.length} tensor(s) of unknown size planned as 0 bytes: ${list}` });
  }
  return { specs, byName };
}
