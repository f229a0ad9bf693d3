// buildProblem: an inferred graph and a target profile in, the placement
// problem of its activations out (execution order, sizes with alignment,
// lifetimes, memory sharing, subgraph bodies), with the scratch requests and
// the weights kept aside. Depends only on the model's IR types and the
// planner's earlier stages: a body is placed by the caller's `place`, so the
// problem never reaches up to the strategies or the assembly.
//
// - Schedule the nodes (schedule.ts) and make one buffer per run-time tensor
//   (build-buffers.ts); constants and initializers are weights, not buffers,
//   the bodies' too (weights.ts).
// - Apply the sharing rules of METHODS.md M1 (build-sharing.ts): aliases.
// - An If/Loop/Scan node gets one buffer live during its step, as large as
//   the largest plan of its bodies (each body planned recursively; an If
//   whose branch is known counts that branch only). Each body's own lower
//   bound is kept too, for the strategy-free bound (assembly/bounds.ts).
// - Buffers are numbered by start step, so ids follow the execution order.

import type { InferredGraph, InferredNode } from '../../model/inferred';
import { alignUp, tensorBuffers, type BufferKind, type BufferSpec, type PlanDiagnostic, type SharingRule } from './build-buffers';
import { scratchRequests, type ScratchRequest, type UnknownScratch } from '../scratch/scratch-requests';
import { applySharing } from './build-sharing';
import { lowerBound } from './lower-bound';
import { opKindOf, type OpKind } from './op-kinds';
import type { Alias, PlacementProblem, PlanBuffer } from './problem';
import { scheduleGraph, type Schedule } from './schedule';
import { activationRegionOf, type TargetProfile } from '../targets/target';
import { weightsOf, type WeightsSummary } from './weights';

export type { WeightsSummary };

/** What the plan knows of a buffer beyond its placement, by buffer id. */
export interface BufferInfo {
  readonly kind: BufferKind;
  readonly node: string | undefined; // producing or owning node
  readonly bytes: number; // bytes of data
  readonly padding: number; // alignment padding: size - bytes
  readonly graphIo: boolean;
  readonly state?: true; // model state kept between runs (build-buffers.ts): whole run in the arena, not graph I/O
  readonly alias?: { readonly parent: number; readonly offset: number; readonly rule: SharingRule }; // parent is an id
}

/** One step of the execution order. */
export interface StepInfo {
  readonly node: string;
  readonly opType: string;
  readonly kind: OpKind;
}

/** A subgraph body counted at its node's step. */
export interface BodyPeak {
  readonly node: string;
  readonly step: number;
  readonly peak: number; // bytes of the largest body plan
  readonly lowerBound: number; // bytes no plan of the largest body goes below, whatever the strategy
}

/** The output of buildProblem. */
export interface BuiltProblem {
  readonly problem: PlacementProblem; // activation buffers (tensors and subgraph bodies)
  readonly info: readonly BufferInfo[]; // by buffer id
  readonly scratch: readonly ScratchRequest[];
  readonly unknownScratch: readonly UnknownScratch[]; // scratch whose rule gives no size here (bodies' included): planned as 0 bytes
  readonly steps: readonly StepInfo[];
  readonly schedule: Schedule;
  readonly weights: WeightsSummary;
  readonly bodies: readonly BodyPeak[];
  readonly activationRegion: string;
  readonly diagnostics: readonly PlanDiagnostic[];
}

/** Places a problem and returns its peak in bytes: how a caller plans subgraph bodies. */
export type ProblemPlacer = (problem: PlacementProblem) => number;

/** Options of buildProblem. */
export interface BuildOptions {
  readonly place: ProblemPlacer; // plans subgraph bodies (planModel: the plan's strategy)
  readonly schedule?: Schedule; // the graph's execution order, instead of the target's policy (bodies keep the policy)
}

/** Builds the placement problem of a graph for a target; see the module header. */
export function buildProblem(graph: InferredGraph, target: TargetProfile, options: BuildOptions): BuiltProblem {
  const diagnostics: PlanDiagnostic[] = [];
  const region = activationRegionOf(target);
  const { order, graphIo, opKinds } = target.planning;
  const schedule = options.schedule ?? scheduleGraph(graph, order, graphIo);
  const buffers = tensorBuffers(graph, schedule, graphIo, region, diagnostics);
  applySharing({ graph, schedule, buffers, kinds: opKinds, alignment: region.alignment, diagnostics });
  const unknownScratch: UnknownScratch[] = [];
  const bodies = bodyBuffers(graph, schedule, target, options, buffers.specs, diagnostics, unknownScratch);
  const { problem, info } = numberBuffers(buffers.specs, region.alignment);
  return {
    problem,
    info,
    scratch: scratchRequests(graph, schedule, target, diagnostics, unknownScratch),
    unknownScratch,
    steps: schedule.order.map((i) => {
      const node = graph.nodes[i]!;
      return { node: node.name, opType: node.opType, kind: opKindOf(node, opKinds) };
    }),
    schedule,
    weights: weightsOf(graph),
    bodies,
    activationRegion: region.name,
    diagnostics,
  };
}

/** Appends one buffer per node with subgraphs, sized by its largest body plan. */
function bodyBuffers(
  graph: InferredGraph,
  schedule: Schedule,
  target: TargetProfile,
  options: BuildOptions,
  specs: BufferSpec[],
  diagnostics: PlanDiagnostic[],
  unknownScratch: UnknownScratch[],
): BodyPeak[] {
  const region = activationRegionOf(target);
  const bodyOptions = { place: options.place };
  const bodies: BodyPeak[] = [];
  schedule.order.forEach((index, step) => {
    const node = graph.nodes[index]!;
    if (node.subgraphs.length === 0) return;
    let peak = 0;
    let bound = 0;
    for (const body of runningBodies(node)) {
      const built = buildProblem(body, target, bodyOptions);
      for (const d of built.diagnostics) diagnostics.push({ ...d, message: `in a body of '${node.name}': ${d.message}`, node: d.node ?? node.name });
      unknownScratch.push(...built.unknownScratch);
      peak = Math.max(peak, options.place(built.problem));
      bound = Math.max(bound, lowerBound(boundProblem(built)).lowerBound);
    }
    bodies.push({ node: node.name, step, peak, lowerBound: bound });
    specs.push({
      key: specs.length,
      name: `${node.name}:body`,
      kind: 'subgraph',
      bytes: peak,
      size: alignUp(peak, region.alignment),
      start: step,
      end: step + 1,
      region: region.name,
      node: node.name,
      graphIo: false,
    });
  });
  return bodies;
}

/**
 * `built`'s problem with every subgraph buffer sized by its body's lower bound
 * instead of the body's plan: what no strategy's plan can go below. With
 * `raw`, sizes are bytes of data (no alignment padding), as for the waste.
 */
export function boundProblem(built: Pick<BuiltProblem, 'problem' | 'info' | 'bodies'>, raw = false): PlacementProblem {
  const alignment = built.problem.alignment ?? 1;
  const boundAt = new Map(built.bodies.map((b) => [b.step, b.lowerBound]));
  const buffers = built.problem.buffers.map((b) => {
    const info = built.info[b.id]!;
    const body = info.kind === 'subgraph' ? boundAt.get(b.start) : undefined;
    if (body !== undefined) return { ...b, size: raw ? body : alignUp(body, b.alignment ?? alignment) };
    return raw ? { ...b, size: Math.min(b.size, info.bytes) } : b;
  });
  return { ...built.problem, buffers };
}

/** The bodies that may run: an If's taken branch when it is known, else every body. */
function runningBodies(node: InferredNode): readonly InferredGraph[] {
  const taken = node.takenBranch === undefined ? undefined : node.subgraphs[node.takenBranch];
  return taken === undefined ? node.subgraphs : [taken];
}

/** Numbers the buffers by start step (creation order on ties) and writes the problem. */
function numberBuffers(specs: readonly BufferSpec[], alignment: number): { problem: PlacementProblem; info: BufferInfo[] } {
  const sorted = specs.slice().sort((a, b) => a.start - b.start || a.key - b.key);
  const idOf = new Int32Array(specs.length);
  sorted.forEach((spec, id) => (idOf[spec.key] = id));
  const buffers: PlanBuffer[] = [];
  const aliases: Alias[] = [];
  const info: BufferInfo[] = [];
  sorted.forEach((spec, id) => {
    buffers.push({
      id,
      name: spec.name,
      size: spec.size,
      start: spec.start,
      end: spec.end,
      region: spec.region,
      ...(spec.alignment !== undefined && { alignment: spec.alignment }),
    });
    const alias = spec.alias === undefined ? undefined : { ...spec.alias, parent: idOf[spec.alias.parent]! };
    if (alias !== undefined) aliases.push({ buffer: id, parent: alias.parent, offset: alias.offset });
    info.push({
      kind: spec.kind,
      node: spec.node,
      bytes: spec.bytes,
      padding: Math.max(0, spec.size - spec.bytes),
      graphIo: spec.graphIo,
      ...(spec.state === true && { state: true as const }),
      ...(alias !== undefined && { alias }),
    });
  });
  return { problem: { buffers, aliases, alignment }, info };
}
