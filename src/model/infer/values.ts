// Turns one graph's facts into InferredGraph: every value with its kind, size in
// bytes, producer and consumers, and the nodes in execution order. No DOM.

import { dataTypeName, DT, tensorBytes } from '../dtype';
import type { IrGraph, IrNode } from '../ir';
import type { InferredGraph, InferredNode, InferredValue, ModelDiagnostic, NodeAttribute, ValueKind } from '../inferred';
import { sizePastLimit, sizePastLimitKnown } from './limits';
import { shortName } from '../../shared/short-name';
import type { Scope } from './scope';
import { nodeReads } from '../check-graph';
import type { Dim, TensorFact } from '../shape-rules/types';

/** What inference learned about a graph, as the value builder needs it. */
export interface GraphFacts {
  readonly scope: Scope;
  readonly reasons: Map<string, string>; // value name -> why its node's rule could not answer
  readonly subgraphs: Map<IrNode, readonly InferredGraph[]>;
  readonly branches: Map<IrNode, NodeBranch>; // control-flow choices, by node
  readonly report: (diagnostic: ModelDiagnostic) => void; // where a size past the exact limit is reported
}

/** What a control-flow node's rule chose: the body that runs and the assumption behind it. */
export type NodeBranch = Pick<InferredNode, 'branch' | 'takenBranch'>;

function isStatic(shape: readonly Dim[] | undefined): shape is readonly number[] {
  return shape !== undefined && shape.every((d) => d !== undefined);
}

/**
 * Shape and bytes of a fact, or the reason they are unknown. A size past
 * 2^53 − 1 bytes is not exact in a JavaScript number: reported, and without
 * bytes, but flagged `pastLimit` where its bytes are known to pass it (over any
 * limit); an element count past it with bytes that may not is unknown.
 */
function sizeOf(fact: TensorFact | undefined, reason: string | undefined, name: string, report: GraphFacts['report']): Pick<InferredValue, 'shape' | 'bytes' | 'unknownReason' | 'pastLimit'> {
  const shape = isStatic(fact?.shape) ? fact.shape : undefined;
  if (shape === undefined) {
    return { shape, bytes: undefined, unknownReason: fact?.note ?? reason ?? (fact ? 'some dims are unknown' : 'shape not inferred') };
  }
  if (fact?.dtype === DT.STRING) return { shape, bytes: undefined, unknownReason: 'string tensor: its size depends on its contents' };
  let elements = 1;
  for (const d of shape) elements *= d;
  const bytes = tensorBytes(fact?.dtype, elements);
  const over = sizePastLimitKnown(bytes);
  if (over !== undefined) {
    report({ code: 'size-past-limit', message: `'${shortName(name)}' (${shape.join('×')}): ${over}` });
    return { shape, bytes: undefined, unknownReason: over, pastLimit: true };
  }
  const past = sizePastLimit(elements, bytes);
  if (past !== undefined) {
    report({ code: 'size-past-limit', message: `'${shortName(name)}' (${shape.join('×')}): ${past}; its size is unknown` });
    return { shape, bytes: undefined, unknownReason: past };
  }
  return bytes === undefined ? { shape, bytes, unknownReason: 'data type unknown' } : { shape, bytes };
}

/** Builds the InferredGraph; `order` is the execution order of the graph's node indices. */
export function buildInferredGraph(graph: IrGraph, order: readonly number[], facts: GraphFacts): InferredGraph {
  const unfed = new Set(graph.unfed ?? []);
  const inputs = new Set(graph.inputs.map((i) => i.name).filter((name) => !unfed.has(name)));
  const initializers = new Set(graph.initializers.map((t) => t.name));
  const outputs = new Set(graph.outputs.map((o) => o.name));
  const names: string[] = [];
  const producer = new Map<string, number>();
  const consumers = new Map<string, number[]>();
  const add = (name: string): void => {
    if (name !== '' && !consumers.has(name)) {
      names.push(name);
      consumers.set(name, []);
    }
  };
  graph.inputs.forEach((i) => add(i.name));
  graph.initializers.forEach((t) => add(t.name));
  const nodes: InferredNode[] = [];
  for (const index of order) {
    const node = graph.nodes[index] as IrNode;
    const position = nodes.length;
    for (const name of new Set(nodeReads(node))) {
      if (name === '' || (!consumers.has(name) && !isLocal(name, facts.scope))) continue;
      add(name);
      consumers.get(name)?.push(position);
    }
    node.outputs.forEach((name) => {
      add(name);
      if (name !== '') producer.set(name, position);
    });
    nodes.push(inferredNode(node, facts));
  }
  graph.outputs.forEach((o) => add(o.name));
  const kindOf = (name: string): ValueKind => {
    if (inputs.has(name)) return 'input';
    if (initializers.has(name)) return 'initializer';
    if (outputs.has(name)) return 'output';
    return facts.scope.constant.has(name) ? 'constant' : 'activation';
  };
  const values = names.map((name) => valueOf(name, kindOf(name), producer.get(name), consumers.get(name) ?? [], facts));
  return { name: graph.name, nodes, values, inputs: [...inputs], outputs: graph.outputs.map((o) => o.name), ...(unfed.size > 0 && { unfed: [...unfed] }) };
}

/** True when the name is not an outer-scope value (so it belongs in this graph's list, even if dangling). */
function isLocal(name: string, scope: Scope): boolean {
  return scope.facts.has(name) || scope.parent?.lookup(name) === undefined;
}

function inferredNode(node: IrNode, facts: GraphFacts): InferredNode {
  const outputs = node.outputs.filter((n) => n !== '');
  const attributes = plainAttributes(node);
  return {
    name: node.name,
    opType: node.opType,
    domain: node.domain,
    inputs: node.inputs,
    outputs: node.outputs,
    subgraphs: facts.subgraphs.get(node) ?? [],
    constant: outputs.length > 0 && outputs.every((n) => facts.scope.constant.has(n)),
    ...(attributes !== undefined && { attributes }),
    ...facts.branches.get(node),
  };
}

/** The node's number, number-list and string attributes (tensors and graphs stay in the IR); undefined when none. */
function plainAttributes(node: IrNode): Record<string, NodeAttribute> | undefined {
  let out: Record<string, NodeAttribute> | undefined;
  for (const [key, attr] of Object.entries(node.attributes)) {
    if (attr.kind === 'int' || attr.kind === 'float' || attr.kind === 'ints' || attr.kind === 'floats' || attr.kind === 'string') {
      // Keys come from the file: a null prototype keeps `__proto__` or `constructor` plain keys.
      out ??= Object.create(null) as Record<string, NodeAttribute>;
      out[key] = attr.value;
    }
  }
  return out;
}

function valueOf(name: string, kind: ValueKind, producer: number | undefined, consumers: readonly number[], facts: GraphFacts): InferredValue {
  const fact = facts.scope.facts.get(name);
  const reason = facts.reasons.get(name) ?? (fact === undefined && producer === undefined && kind !== 'input' ? 'no node produces this value' : undefined);
  const value: InferredValue = {
    name,
    kind,
    dtype: fact?.dtype,
    dtypeName: dataTypeName(fact?.dtype),
    producer,
    consumers,
    ...sizeOf(fact, reason, name, facts.report),
  };
  return fact?.upperBound === true ? { ...value, upperBound: true } : value;
}
