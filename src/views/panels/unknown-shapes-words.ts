// The model card's count of tensors of unknown size, in words: how many in the
// main graph and in which If/Loop/Scan node's bodies the rest are, so the card
// agrees with the heap's banner, which counts the bodies' tensors too. No DOM.

import type { InferredGraph, InferredNode } from '../../model/inferred';
import { formatCount } from '../../shared/format';
import { shortName } from '../../shared/short-name';

/** Bodies of more nodes than this are counted together rather than named one by one. */
const NAMED_NODES = 2;

/**
 * "none"; "3"; "1 in the body of Loop 'loop'"; "2 in the main graph; 1 in the body of Loop 'loop'"; `unknown` lists every tensor of unknown size the plan names, in the main graph or in a body.
 */
export function unknownShapesText(model: InferredGraph, unknown: readonly string[]): string {
  const main = new Set(model.values.map((v) => v.name));
  const inMain = unknown.filter((t) => main.has(t)).length;
  const byNode = new Map<InferredNode, number>();
  let unplaced = 0; // in a body, but none of the model's bodies names it
  for (const tensor of unknown) {
    if (main.has(tensor)) continue;
    const owner = model.nodes.find((n) => n.subgraphs.some((g) => holds(g, tensor)));
    if (owner === undefined) unplaced += 1;
    else byNode.set(owner, (byNode.get(owner) ?? 0) + 1);
  }
  const inBodies = unknown.length - inMain;
  if (inBodies === 0) return inMain === 0 ? 'none' : formatCount(inMain);
  const parts = inMain > 0 ? [`${formatCount(inMain)} in the main graph`] : [];
  if (byNode.size > NAMED_NODES || unplaced > 0) parts.push(`${formatCount(inBodies)} in If/Loop/Scan bodies`);
  else for (const [node, count] of byNode) parts.push(`${formatCount(count)} in the body of ${node.opType}${node.name ? ` '${shortName(node.name)}'` : ''}`);
  return parts.join('; ');
}

/** True when `graph` or a graph nested in it has a value named `tensor`. */
function holds(graph: InferredGraph, tensor: string): boolean {
  return graph.values.some((v) => v.name === tensor) || graph.nodes.some((n) => n.subgraphs.some((g) => holds(g, tensor)));
}
