// ONNX's rule that every node's domain has an opset_import entry (the default
// domain '' / 'ai.onnx' too), checked over the main graph and every subgraph.
// A file cut short loses its last opset imports first, so a broken rule is
// said, not ignored. Works on the IR only; no DOM.

import { shortName } from '../../shared/short-name';
import type { IrDiagnostic, IrGraph, IrNode, IrOpset } from '../ir';

/** Code of the diagnostic for nodes of a domain the model does not import. */
export const MISSING_OPSET = 'missing-opset';

/**
 * One warning per domain that nodes use but opset_import does not list, naming
 * the domain, how many nodes use it and the first of them. The model is still
 * planned: ONNX Runtime would refuse it, but every size can still be known.
 */
export function missingOpsetDiagnostics(graph: IrGraph, opsets: readonly IrOpset[]): IrDiagnostic[] {
  const imported = new Set(opsets.map((o) => o.domain));
  const missing = new Map<string, { count: number; first: IrNode; ops: Set<string> }>();
  for (const node of allNodes(graph)) {
    if (imported.has(node.domain)) continue;
    const seen = missing.get(node.domain) ?? { count: 0, first: node, ops: new Set<string>() };
    seen.count += 1;
    seen.ops.add(node.opType);
    missing.set(node.domain, seen);
  }
  return [...missing].map(([domain, { count, first, ops }]) => ({
    code: MISSING_OPSET,
    message: missingMessage(domain, count, [...ops]),
    node: first.name,
  }));
}

/** How many op types the message names before "…". */
const OPS_NAMED = 3;

function missingMessage(domain: string, count: number, ops: readonly string[]): string {
  const name = domain === '' ? "the default domain 'ai.onnx'" : `domain '${shortName(domain)}'`;
  const named = ops.slice(0, OPS_NAMED).map((op) => shortName(op)).join(', ') + (ops.length > OPS_NAMED ? ', …' : '');
  const nodes = count === 1 ? '1 node uses' : `${count} nodes use`;
  return `${nodes} ${name} (${named}), which the model does not import (no opset_import entry): the file may be cut short or the model is invalid; ONNX Runtime refuses it`;
}

/** The nodes of a graph and, depth first, of its subgraphs. */
function* allNodes(graph: IrGraph): Generator<IrNode> {
  for (const node of graph.nodes) {
    yield node;
    for (const attribute of Object.values(node.attributes)) {
      if (attribute.kind === 'graph') yield* allNodes(attribute.value);
      else if (attribute.kind === 'graphs') for (const g of attribute.value) yield* allNodes(g);
    }
  }
}
