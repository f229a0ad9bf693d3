// DRAM traffic of a plan: bytes written and read of the tensors that live in
// slow regions, and of the scratch placed there (slowScratchTraffic). Ops
// that sharing turned into views (removable ops, Concats whose inputs are
// windows) move no data. Depends only on the model's IR types and the
// planner.
//
// - A tensor is written once by its producer (graph inputs by the host),
//   except a view (a removable output or a Split window) and a Concat output
//   whose inputs were written in place.
// - It is read once by every consumer that is not dropped, and graph outputs
//   once more by the host.
// - With fusion units (M2, M5): a tensor inside a unit moves nothing; the
//   layers of a unit read each of its inputs once, as many bytes as its
//   tiles or windows load (halos included). Each unit's own traffic (bytes
//   its layers write and read) is reported before and after fusion, so the
//   units' savings add up to the total's.
// - Scratch in a slow region (M4 sends scratch whose rule is not
//   latency-critical there) is written and read once by its node, fused or
//   not: the same bytes before and after fusion (slowScratchTraffic).

import type { InferredGraph, InferredValue } from '../../model/inferred';
import type { BufferInfo } from './build-problem';
import type { PlacementProblem } from './problem';

/** Bytes moved to and from slow memory. */
export interface Traffic {
  readonly before: number; // without fusion
  readonly after: number; // with the fusion units (M2/M5); equal to `before` without units
}

/** What traffic needs to know of a fusion unit. */
export interface TrafficUnit {
  readonly nodeIndices: readonly number[]; // its layers, as graph node indices
  readonly internal: readonly string[]; // tensors that never reach DRAM
  readonly inputLoads: readonly { readonly name: string; readonly bytes: number }[]; // bytes loaded per input
}

/** Total traffic and each unit's, by unit index. */
export interface FusedTraffic {
  readonly total: Traffic;
  readonly units: readonly Traffic[];
}

/** DRAM traffic without and with `units`; `problem` and `info` are the unfused plan's. */
export function fusedTraffic(
  graph: InferredGraph,
  problem: PlacementProblem,
  info: readonly BufferInfo[],
  slowRegions: ReadonlySet<string>,
  units: readonly TrafficUnit[],
): FusedTraffic {
  const idOf = new Map(problem.buffers.map((b) => [b.name, b.id]));
  const concatParents = new Set<number>();
  for (const b of info) if (b.alias?.rule === 'concat') concatParents.add(b.alias.parent);
  const dropped = droppedNodes(graph, idOf, info, concatParents);
  const outputs = new Set(graph.outputs);
  const acc: Accumulator = {
    units,
    unitOf: new Map(units.flatMap((u, k) => u.nodeIndices.map((n) => [n, k] as const))),
    internal: new Set(units.flatMap((u) => u.internal)),
    per: units.map(() => ({ before: 0, after: 0 })),
    before: 0,
    after: 0,
  };
  for (const value of graph.values) {
    const id = idOf.get(value.name);
    if (id === undefined || !slowRegions.has(problem.buffers[id]!.region ?? '')) continue;
    const buffer = info[id]!;
    const view = buffer.alias?.rule === 'removable' || buffer.alias?.rule === 'window';
    const moved: MovedBytes = {
      write: view || concatParents.has(id) ? 0 : buffer.bytes,
      readers: [...new Set(value.consumers.filter((c) => !dropped.has(c)))],
      host: outputs.has(value.name) ? buffer.bytes : 0,
      bytes: buffer.bytes,
    };
    addValue(acc, value, moved);
  }
  return { total: { before: acc.before, after: acc.after }, units: acc.per };
}

/**
 * Bytes the scratch buffers of `full` (a problem with scratch, see
 * scratch/merge.ts) in slow regions move: each written and read once, at the
 * bytes `scratchBytes` gives for it (undefined for an activation).
 */
export function slowScratchTraffic(full: PlacementProblem, scratchBytes: (id: number) => number | undefined, slowRegions: ReadonlySet<string>): number {
  let moved = 0;
  for (const b of full.buffers) {
    const bytes = slowRegions.has(b.region ?? '') ? scratchBytes(b.id) : undefined;
    if (bytes === undefined) continue;
    const { written, read } = scratchMoves(bytes);
    moved += written + read;
  }
  return moved;
}

/** Bytes a scratch buffer of `bytes` moves over one inference: its node writes it once and reads it once. */
export function scratchMoves(bytes: number): { readonly written: number; readonly read: number } {
  return { written: bytes, read: bytes };
}

/** `traffic` with `scratch` bytes more before and after fusion, the units' own unchanged. */
export function withScratchTraffic(traffic: FusedTraffic, scratch: number): FusedTraffic {
  return scratch === 0 ? traffic : { total: { before: traffic.total.before + scratch, after: traffic.total.after + scratch }, units: traffic.units };
}

/** Running sums of fusedTraffic. */
interface Accumulator {
  readonly units: readonly TrafficUnit[];
  readonly unitOf: ReadonlyMap<number, number>; // node index -> unit index
  readonly internal: ReadonlySet<string>;
  readonly per: { before: number; after: number }[];
  before: number;
  after: number;
}

/** What one tensor moves without fusion: its write, its readers (each reads `bytes`) and the host's read. */
interface MovedBytes {
  readonly write: number;
  readonly readers: readonly number[];
  readonly host: number;
  readonly bytes: number;
}

/** Adds one tensor's traffic, without and with the units, to the sums. */
function addValue(acc: Accumulator, value: InferredValue, m: MovedBytes): void {
  acc.before += m.write + m.readers.length * m.bytes + m.host;
  const producer = value.producer === undefined ? undefined : acc.unitOf.get(value.producer);
  const moves = !acc.internal.has(value.name);
  if (producer !== undefined) acc.per[producer]!.before += m.write;
  if (moves) acc.after += m.write + m.host;
  if (moves && producer !== undefined) acc.per[producer]!.after += m.write;
  const loaded = new Set<number>();
  for (const reader of m.readers) {
    const k = acc.unitOf.get(reader);
    if (k !== undefined) acc.per[k]!.before += m.bytes;
    if (!moves) continue;
    if (k === undefined) acc.after += m.bytes;
    else if (!loaded.has(k)) {
      loaded.add(k);
      const load = loadOf(acc.units[k]!, value.name, value.bytes, m.bytes);
      acc.after += load;
      acc.per[k]!.after += load;
    }
  }
}

/** Bytes a unit loads of one input, scaled from the tensor's bytes to its buffer's. */
function loadOf(unit: TrafficUnit, name: string, tensorBytes: number | undefined, bufferBytes: number): number {
  const load = unit.inputLoads.find((l) => l.name === name);
  if (load === undefined || tensorBytes === undefined || tensorBytes === 0) return bufferBytes;
  return Math.round((load.bytes / tensorBytes) * bufferBytes);
}

/** Nodes whose every output became a view or whose inputs were written into its output. */
function droppedNodes(
  graph: InferredGraph,
  idOf: ReadonlyMap<string, number>,
  info: readonly BufferInfo[],
  concatParents: ReadonlySet<number>,
): Set<number> {
  const dropped = new Set<number>();
  graph.nodes.forEach((node, n) => {
    const ids = node.outputs.filter((o) => o !== '').map((o) => idOf.get(o));
    if (ids.length === 0 || ids.some((id) => id === undefined)) return;
    const views = ids.every((id) => info[id!]!.alias?.rule === 'removable' || info[id!]!.alias?.rule === 'window');
    if (views || (ids.length === 1 && concatParents.has(ids[0]!))) dropped.add(n);
  });
  return dropped;
}

/** Bytes written and read of one buffer over one inference. */
export interface BufferMoves {
  readonly written: number;
  readonly read: number;
}

/**
 * Bytes each buffer of `problem` has written and read over one inference, by
 * buffer id, by the rules of the module header (no fusion). A buffer that is
 * no graph value (a subgraph body, a cache) is written once and read once.
 */
export function bufferTraffic(graph: InferredGraph, problem: PlacementProblem, info: readonly BufferInfo[]): BufferMoves[] {
  const idOf = new Map(problem.buffers.map((b) => [b.name, b.id]));
  const concatParents = new Set<number>();
  for (const b of info) if (b.alias?.rule === 'concat') concatParents.add(b.alias.parent);
  const dropped = droppedNodes(graph, idOf, info, concatParents);
  const outputs = new Set(graph.outputs);
  const moves: BufferMoves[] = problem.buffers.map((b) => ({ written: info[b.id]!.bytes, read: info[b.id]!.bytes }));
  for (const value of graph.values) {
    const id = idOf.get(value.name);
    if (id === undefined) continue;
    const buffer = info[id]!;
    const view = buffer.alias?.rule === 'removable' || buffer.alias?.rule === 'window';
    const readers = new Set(value.consumers.filter((c) => !dropped.has(c))).size;
    moves[id] = {
      written: view || concatParents.has(id) ? 0 : buffer.bytes,
      read: readers * buffer.bytes + (outputs.has(value.name) ? buffer.bytes : 0),
    };
  }
  return moves;
}
