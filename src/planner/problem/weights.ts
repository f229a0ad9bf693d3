// The weights of a graph: its initializers and the tensors computed from
// constants alone, and those of every If/Loop/Scan body under it, nested
// bodies included. Depends only on the model's IR types.
//
// - Each graph counts its own values: a body's list holds what it declares
//   and computes, never the outer values it reads, so no tensor is counted
//   twice, and the same name in two scopes is two tensors, both counted.
// - Every body counts, an If's branch that does not run too: its weights are
//   stored with the model all the same.
// - A body output a Constant node gives (an If branch that returns a fixed
//   tensor) is a weight too: its data is stored with the model, and what the
//   If or Loop hands on is the outer graph's own value, planned there.

import type { InferredGraph, InferredValue } from '../../model/inferred';

/** Weights and constants: stored with the model, not planned with activations. */
export interface WeightsSummary {
  readonly region: 'weights';
  readonly bytes: number; // of those whose size is known
  readonly tensors: number;
  readonly unknownSizes?: number; // how many are of unknown size (a custom op's output over constants), counted as 0 bytes: `bytes` is then a lower estimate; absent in plans saved before it
}

/** True for a value stored with the model or computed from constants alone: a weight, no activation. */
export function isWeight(value: InferredValue): boolean {
  return value.kind === 'initializer' || value.kind === 'constant';
}

/** True for a value of `body` stored with the model: a weight, or a body output computed from constants alone. */
function isBodyWeight(value: InferredValue, body: InferredGraph): boolean {
  return isWeight(value) || (value.kind === 'output' && value.producer !== undefined && body.nodes[value.producer]!.constant);
}

/** The weights of the bodies of `graph`'s nodes, nested bodies included (not the graph's own); see the module header. */
export function bodyWeights(graph: InferredGraph): InferredValue[] {
  return graph.nodes.flatMap((node) => node.subgraphs.flatMap((body) => [...body.values.filter((v) => isBodyWeight(v, body)), ...bodyWeights(body)]));
}

/** Count and bytes of the weights of `graph` and of every body under it. */
export function weightsOf(graph: InferredGraph): WeightsSummary {
  const weights = [...graph.values.filter(isWeight), ...bodyWeights(graph)];
  return { region: 'weights', bytes: weights.reduce((sum, v) => sum + (v.bytes ?? 0), 0), tensors: weights.length, unknownSizes: weights.filter((v) => v.bytes === undefined).length };
}
