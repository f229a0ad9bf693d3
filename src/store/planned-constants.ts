// The tensors a model computes from constants alone that the plan on screen
// places as buffers, and the nodes that write them. TensorFlow Lite Micro runs
// every operator of a .tflite at each inference, a DEQUANTIZE of a constant
// weight among them, and plans its output in the arena: on that target such a
// tensor is an activation (its node a box of the graph, its row among the
// run-time tensors, its bytes with the model card's activations and not its
// weights), where on other targets it stays a constant folded away. Read off
// the plan's buffers by the views that pass them to plannedKind. No DOM.

import type { InferredGraph, ValueKind } from '../model/inferred';

/** What the plan runs at each inference of the model's constants. */
export interface PlannedConstants {
  readonly values: ReadonlySet<string>; // names of constant tensors the plan places as buffers
  readonly nodes: ReadonlySet<number>; // indices of the nodes writing them: run at each inference, not folded
}

/** The plan's part read here: its buffers (a tensor's buffer by the tensor's name and its producing node's). */
export interface PlanBuffers {
  readonly buffers: readonly { readonly name: string; readonly kind: string; readonly node?: string }[];
}

/** No constant placed: the answer without a plan, or on a target that folds constants away. */
export const NO_PLANNED_CONSTANTS: PlannedConstants = { values: new Set(), nodes: new Set() };
const cache = new WeakMap<PlanBuffers['buffers'], WeakMap<InferredGraph, PlannedConstants>>();
// the last answer per model: a replan that places the same constants gets the same object, so what is keyed on it
// (the Tensors table's sorted rows, the card's figures) is not worked out again
const lastOf = new WeakMap<InferredGraph, PlannedConstants>();

/**
 * The constants of `model` that `plan` places as buffers, and their producers: none without a plan, and none on a
 * target that folds constants away (every target but TensorFlow Lite Micro plans only run-time tensors). The same
 * object for every plan of `model` that places the same constants, NO_PLANNED_CONSTANTS for every plan placing none.
 */
export function plannedConstants(model: InferredGraph, plan: PlanBuffers | undefined): PlannedConstants {
  if (plan === undefined) return NO_PLANNED_CONSTANTS;
  let byModel = cache.get(plan.buffers);
  if (byModel === undefined) {
    byModel = new WeakMap();
    cache.set(plan.buffers, byModel);
  }
  let found = byModel.get(model);
  if (found === undefined) {
    found = findPlanned(model, plan);
    const last = lastOf.get(model);
    if (last !== undefined && sameSet(last.values, found.values) && sameSet(last.nodes, found.nodes)) found = last;
    byModel.set(model, found);
    lastOf.set(model, found);
  }
  return found;
}

function findPlanned(model: InferredGraph, plan: PlanBuffers): PlannedConstants {
  // a buffer stands for a tensor by its name and the node writing it: a called subgraph's tensor may share a name
  const placed = new Set(plan.buffers.filter((b) => b.kind !== 'scratch').map((b) => `${b.name}\n${b.node ?? ''}`));
  const values = new Set<string>();
  const nodes = new Set<number>();
  for (const v of model.values) {
    if (v.kind !== 'constant') continue;
    const writer = v.producer === undefined ? '' : model.nodes[v.producer]!.name;
    if (!placed.has(`${v.name}\n${writer}`)) continue;
    values.add(v.name);
    if (v.producer !== undefined) nodes.add(v.producer);
  }
  return values.size === 0 ? NO_PLANNED_CONSTANTS : { values, nodes };
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/** The kind a tensor has on the page: an activation when it is a constant the plan places, else the model's kind. */
export function plannedKind(value: { readonly name: string; readonly kind: ValueKind }, planned: PlannedConstants): ValueKind {
  return value.kind === 'constant' && planned.values.has(value.name) ? 'activation' : value.kind;
}
