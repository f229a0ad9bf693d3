// What a plan rests on beyond the file: the symbolic dims and how each value
// was chosen, run-time tensors of unknown size (planned as 0 bytes, so the
// peak is a lower estimate) and If/Loop branches chosen without knowing the
// condition. Depends only on the model's IR types and the planner.

import type { DimBinding, InferredGraph, InferredModel } from '../../model/inferred';
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
    branches: branchChoices(model),
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
      out.push({ tensor: value.name, op: producer?.opType ?? '', reason: value.unknownReason ?? 'shape not inferred', ...(value.pastLimit === true && { pastLimit: true as const }) });
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

function branchChoices(graph: InferredGraph): PlanAssumptions['branches'] {
  const out: { node: string; taken: string; reason: string }[] = [];
  const visit = (g: InferredGraph): void => {
    for (const node of g.nodes) {
      if (node.branch !== undefined) out.push({ ...node.branch });
      node.subgraphs.forEach((body) => visit(body));
    }
  };
  visit(graph);
  return out;
}
