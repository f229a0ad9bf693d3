// The bound on inference work inside control-flow bodies. Rules infer a body
// once per element, round or branch, and bodies nest, so the count multiplies
// with depth; one budget per inference attempt caps the total. No DOM.
//
// The bound: every body inference costs 1 + its node count (nested bodies are
// charged when they run), a node in a body also the elements of the sequences
// it reads (rules walk them), and an attempt may spend
// BODY_WORK_BASE + BODY_WORK_PER_NODE × (nodes of every body in the file).
// Past that, a rule asking for a body gets unknown outputs with one
// 'body-budget' diagnostic, and the node's bodies are inferred once each from
// their declarations, so the rest of the work is linear in the file.

import type { IrGraph } from '../ir';
import { nodeSubgraphs } from '../check-graph';
import type { ModelDiagnostic } from '../inferred';
import { listedLength } from '../shape-rules/tensor-sequence';
import type { TensorFact } from '../shape-rules/types';

/** Body work every model may spend, whatever its size. */
export const BODY_WORK_BASE = 200_000;

/** Body work allowed per node of the file's bodies: each body inferred this many times on average. */
export const BODY_WORK_PER_NODE = 8;

/** What one inference attempt may still spend on bodies. */
export interface BodyBudget {
  readonly limit: number;
  spent: number;
  exhausted: boolean; // a request was refused (reported once)
}

/** The budget of a model whose main graph is `graph`. */
export function bodyBudget(graph: IrGraph): BodyBudget {
  return { limit: BODY_WORK_BASE + BODY_WORK_PER_NODE * bodyNodes(graph), spent: 0, exhausted: false };
}

/** Nodes of every body nested in `graph` (not its own). */
function bodyNodes(graph: IrGraph): number {
  let count = 0;
  const stack = graph.nodes.flatMap(nodeSubgraphs);
  for (let g = stack.pop(); g !== undefined; g = stack.pop()) {
    count += g.nodes.length;
    for (const node of g.nodes) stack.push(...nodeSubgraphs(node));
  }
  return count;
}

/** What inferring `graph` once costs. */
function cost(graph: IrGraph): number {
  return 1 + graph.nodes.length;
}

/** Charges one inference of a body that must run (the node's own record of it). */
export function chargeBody(budget: BodyBudget, graph: IrGraph): void {
  budget.spent += cost(graph);
}

/** Charges the sequences a node inside a body reads: its rule may walk each element. */
export function chargeNode(budget: BodyBudget, inputs: readonly (TensorFact | undefined)[]): void {
  for (const fact of inputs) budget.spent += listedLength(fact);
}

/** Charges one inference a rule would like but can do without, and returns true, or returns false, with nothing said, when the budget cannot pay for it. */
export function takeOptionalBody(budget: BodyBudget, graph: IrGraph): boolean {
  if (budget.spent + cost(graph) > budget.limit) return false;
  budget.spent += cost(graph);
  return true;
}

/**
 * Charges one inference a rule asked for and returns true, or returns false
 * when the budget cannot pay for it (reporting that once, at `node`).
 */
export function takeBody(budget: BodyBudget, graph: IrGraph, node: string, report: (d: ModelDiagnostic) => void): boolean {
  if (budget.spent + cost(graph) <= budget.limit) {
    budget.spent += cost(graph);
    return true;
  }
  if (!budget.exhausted) {
    budget.exhausted = true;
    report({
      code: 'body-budget',
      message: `control-flow bodies needed more than ${budget.limit} steps of inference (a node, or an element of a sequence it reads); the bodies past that are left unknown or read from their declarations`,
      node,
    });
  }
  return false;
}
