// What a plan rests on beyond the file: the symbolic dims and how each value
// was chosen, run-time tensors of unknown size (planned as 0 bytes, so the
// peak is a lower estimate) and If/Loop branches chosen without knowing the
// condition. Depends only on the model's IR types and the planner.

import type { DimBinding, InferredGraph, InferredModel, InferredNode } from '../../model/inferred';
import { isRunTimeValue } from '../problem/schedule';
import type { KernelWorkspace } from '../scratch/kernel-workspace';

/** A symbolic dim the plan rests on (DESIGN.md `assumptions.dims`). */
export interface DimAssumption {
  readonly name: string;
  readonly value: number;
  readonly bound: boolean; // given by the user; false: a default
  readonly axes: readonly string[]; // graph-input axes it sizes ("pixel_values:2")
  readonly rule: string; // how the value was chosen
  readonly givenAs?: string; // bound by a graph-input axis it sizes ("x:0"), not by its name: the key the user wrote
  readonly derived?: true; // fixed by dims the user gave (a total length, their sum), not given itself
  readonly sumOf?: readonly string[]; // a total length: the dims the graph requires it to be the sum of
  readonly sizesNothing?: true; // bound, yet every axis it names has a shape given: the value sizes no tensor
}

/** A run-time tensor of unknown size: planned as 0 bytes, so the peak is a lower estimate. */
export interface UnknownAssumption {
  readonly tensor: string;
  readonly op: string; // op type of its producer ('' for a graph input)
  readonly reason: string;
  readonly scratch?: true; // a scratch buffer whose rule gives no size for its op ("<node>:<rule name>"), not a tensor
  readonly pastLimit?: true; // its size is known to pass 2^53 − 1 bytes: no unknown, but over any size limit or budget
  readonly tripCount?: TripCountInputs; // an output of a Loop whose trip count is unknown but computed from graph inputs: their values (--input) size it
  readonly string?: true; // a string tensor: its bytes depend on its contents, known only at run time; no shape, dim or value given sizes it
}

/** A Loop whose unknown trip count the values of graph inputs would give. */
export interface TripCountInputs {
  readonly node: string; // the Loop
  readonly inputs: readonly string[]; // the graph inputs its trip count is computed from
}

/**
 * A kernel whose scratch requests the runtime's model does not know (a
 * TensorFlow Lite Micro custom operator): none are assumed, so the runtime's
 * arena is a lower estimate.
 */
export interface KernelAssumption {
  readonly node: string;
  readonly op: string;
  readonly reason: string;
}

/** An If branch or Loop trip count the plan had to choose. */
export interface BranchChoice {
  readonly node: string;
  readonly taken: string;
  readonly reason: string;
}

/** Everything a plan rests on that the file alone does not fix. */
export interface PlanAssumptions {
  readonly dims: readonly DimAssumption[];
  readonly unknown: readonly UnknownAssumption[];
  readonly branches: readonly BranchChoice[];
  readonly kernels?: readonly KernelAssumption[]; // kernels whose scratch requests are not known (none assumed); absent from a plan saved before they were recorded
  readonly workspace?: readonly KernelWorkspace[]; // fused attention ops whose kernel workspace no scratch rule plans, ONNX Runtime's CPU estimate, largest first; absent when none
  readonly shapes: Readonly<Record<string, readonly number[]>>; // user-given tensor shapes
  readonly inputValues: Readonly<Record<string, readonly number[]>>; // user-given graph-input values
}

/**
 * Whether the sizes a plan is judged on are lower estimates: a run-time
 * tensor of unknown size (planned as 0 bytes) or a kernel whose scratch
 * requests are not known (none planned). A plan within its limits then fits
 * only as far as known.
 */
export function restsOnUnknown(assumptions: Pick<PlanAssumptions, 'unknown' | 'kernels'>): boolean {
  return assumptions.unknown.length > 0 || (assumptions.kernels ?? []).length > 0;
}

/** Whether `plan`'s figures are lower estimates (`lowerEstimate`, or for a plan saved before it, what it rests on). */
export function planLowerEstimate(plan: { readonly complete: boolean; readonly lowerEstimate?: boolean; readonly assumptions?: Pick<PlanAssumptions, 'unknown' | 'kernels'> }): boolean {
  return plan.lowerEstimate ?? (!plan.complete || (plan.assumptions !== undefined && restsOnUnknown(plan.assumptions)));
}

/**
 * Whether what region `r` needs rests on TensorFlow Lite Micro's tail where
 * some part of it is estimated (`runtimePlan.tailEstimated`): the need is then
 * "(estimate)", as the arena to declare it is, in every verdict over a limit.
 */
export function regionNeedEstimated(plan: { readonly runtimePlan?: { readonly tailEstimated?: boolean } }, r: { readonly runtimeTail?: number }): boolean {
  return (r.runtimeTail ?? 0) > 0 && plan.runtimePlan?.tailEstimated === true;
}

/** Whether TensorFlow Lite Micro refuses `plan`'s model (`runtimePlan.refused`): AllocateTensors() fails whatever the arena, so no memory makes it fit. */
export function planRefused(plan: { readonly runtimePlan?: { readonly refused?: readonly string[] } }): boolean {
  return (plan.runtimePlan?.refused ?? []).length > 0;
}

/** The dims a plan rests on: a default that sizes nothing (a shape given fixes every axis it names) is none; a bound one is kept, flagged. */
export function dimAssumptions(dims: readonly DimBinding[]): DimAssumption[] {
  return dims
    .filter((d) => d.sizesNothing !== true || d.source !== 'default')
    .map((d) => ({
      name: d.name,
      value: d.value,
      bound: d.source !== 'default',
      axes: d.axes,
      rule: d.rule,
      ...(d.source === 'derived' && { derived: true as const }),
      ...(d.givenAs !== undefined && { givenAs: d.givenAs }),
      ...(d.sumOf !== undefined && { sumOf: d.sumOf }),
      ...(d.sizesNothing === true && { sizesNothing: true as const }),
    }));
}

/** The assumptions of a plan of `model` (an InferredModel carries dims and user-given facts). */
export function planAssumptions(model: InferredGraph | InferredModel): PlanAssumptions {
  const full = 'dims' in model ? model : undefined;
  return {
    dims: dimAssumptions(full?.dims ?? []),
    unknown: unknownTensors(model),
    branches: branchChoices(model, new Set(Object.keys(full?.shapes ?? {}))),
    kernels: [],
    shapes: full?.shapes ?? {},
    inputValues: full?.inputValues ?? {},
  };
}

/** Run-time tensors (graph inputs, activations, outputs) whose size is unknown, bodies of the branch that runs included. */
export function unknownTensors(graph: InferredGraph): UnknownAssumption[] {
  const out: UnknownAssumption[] = [];
  const visit = (g: InferredGraph): void => {
    for (const value of g.values) {
      if (!isRunTimeValue(value) || value.bytes !== undefined) continue;
      const producer = value.producer === undefined ? undefined : g.nodes[value.producer];
      if (producer?.constant === true && !g.outputs.includes(value.name)) continue;
      const trips = producer === undefined ? undefined : tripCountInputs(graph, producer);
      out.push({
        tensor: value.name,
        op: producer?.opType ?? '',
        reason: value.unknownReason ?? 'shape not inferred',
        ...(value.pastLimit === true && { pastLimit: true as const }),
        ...(trips !== undefined && { tripCount: trips }),
        ...(value.dtypeName === 'string' && { string: true as const }),
      });
    }
    for (const node of g.nodes) {
      node.subgraphs.forEach((body, k) => {
        if (node.takenBranch === undefined || node.takenBranch === k) visit(body);
      });
    }
  };
  visit(graph);
  return out;
}

/** What a Loop's shape rule says of a trip count it could not find (model/shape-rules/control.ts). */
const TRIP_COUNT_UNKNOWN = 'trip count unknown';

/** The Loop `node`, when its trip count is unknown and computed from graph inputs: those inputs; undefined otherwise. */
function tripCountInputs(graph: InferredGraph, node: InferredNode): TripCountInputs | undefined {
  if (node.opType !== 'Loop' || node.branch?.taken !== TRIP_COUNT_UNKNOWN) return undefined;
  const inputs = inputsFeeding(graph, node.inputs.slice(0, 1));
  return inputs.length === 0 ? undefined : { node: node.name, inputs };
}

/** The graph inputs of `graph` that `names` are computed from (or are), through every node of it and of its bodies, in the graph's input order. */
export function inputsFeeding(graph: InferredGraph, names: readonly string[]): string[] {
  const producers = new Map<string, InferredNode>();
  const collect = (g: InferredGraph): void => {
    for (const n of g.nodes) {
      for (const out of n.outputs) if (out) producers.set(out, n);
      n.subgraphs.forEach(collect);
    }
  };
  collect(graph);
  const seen = new Set<string>();
  const queue = names.filter(Boolean);
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...(producers.get(name)?.inputs.filter(Boolean) ?? []));
  }
  return graph.inputs.filter((i) => seen.has(i));
}

/**
 * A Loop whose trip count is unknown rests on nothing once every output of it
 * and every run-time value of its body has a size, and those sizes are no
 * declaration of the file: each output it could not size has a shape the user
 * gave (`--shape all_logits=20x4x1000`). The file's declared shape of a scan
 * output still rests on the trip count (the store's line says so).
 */
function settledByShapes(g: InferredGraph, node: InferredNode, given: ReadonlySet<string>): boolean {
  if (node.opType !== 'Loop' || node.branch?.taken !== TRIP_COUNT_UNKNOWN) return false;
  const outputs = node.outputs.filter(Boolean);
  const sized = (body: InferredGraph): boolean => body.values.every((v) => !isRunTimeValue(v) || v.bytes !== undefined) && body.nodes.every((n) => n.subgraphs.every(sized));
  return outputs.some((o) => given.has(o)) && outputs.every((o) => given.has(o) || g.values.find((v) => v.name === o)?.bytes !== undefined) && node.subgraphs.every(sized);
}

function branchChoices(graph: InferredGraph, given: ReadonlySet<string> = new Set()): PlanAssumptions['branches'] {
  const out: { node: string; taken: string; reason: string }[] = [];
  const visit = (g: InferredGraph): void => {
    for (const node of g.nodes) {
      if (node.branch !== undefined && !settledByShapes(g, node, given)) out.push({ ...node.branch });
      node.subgraphs.forEach((body) => visit(body));
    }
  };
  visit(graph);
  return out;
}
