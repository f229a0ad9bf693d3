// The RuleContext a shape rule sees: input facts, typed attribute accessors with
// defaults, the opset of the node's domain, and subgraph inference. No DOM.

import { ownValue } from '../../shared/own';
import type { IrAttribute, IrGraph, IrNode } from '../ir';
import type { BodyUnsized, BranchChoice, RuleContext, TensorFact } from '../shape-rules/types';

/** Infers a subgraph given facts for its inputs; returns its outputs' facts. */
export type SubgraphInferrer = (
  graph: IrGraph,
  inputs: readonly (TensorFact | undefined)[],
) => readonly (TensorFact | undefined)[];

/** Builds the context for one node. */
export function ruleContext(
  node: IrNode,
  inputs: readonly (TensorFact | undefined)[],
  opset: number,
  inferSubgraph: SubgraphInferrer,
  assume?: (choice: BranchChoice) => void,
  unsized?: BodyUnsized,
): RuleContext {
  const attrs = node.attributes;
  const attr = (name: string): IrAttribute | undefined => ownValue(attrs, name);
  return {
    node,
    inputs,
    opset,
    attr,
    int: (name, fallback) => {
      const a = attr(name);
      return a?.kind === 'int' ? a.value : fallback;
    },
    ints: (name) => {
      const a = attr(name);
      if (a?.kind === 'ints') return a.value;
      return a?.kind === 'int' ? [a.value] : undefined;
    },
    float: (name, fallback) => {
      const a = attr(name);
      return a?.kind === 'float' || a?.kind === 'int' ? a.value : fallback;
    },
    string: (name, fallback) => {
      const a = attr(name);
      return a?.kind === 'string' ? a.value : fallback;
    },
    inferSubgraph,
    ...(assume !== undefined && { assume }),
    ...(unsized !== undefined && { unsized }),
  };
}
