// Search of the graph view: the nodes whose name, op type or tensor names
// (inputs and outputs) contain the query, the groups (name scopes, functions,
// fusion units) whose name or kind does, and stepping through them. Pure.

import type { InferredGraph } from '../../model/inferred';
import type { GraphCluster } from './graph-clusters';

/** Indices of the nodes matching `query` (case-insensitive; every word must match), in model order. */
export function searchNodes(graph: InferredGraph, query: string): readonly number[] {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const out: number[] = [];
  graph.nodes.forEach((n, i) => {
    const haystack = [n.name, n.opType, ...n.inputs, ...n.outputs].join('\n').toLowerCase();
    if (words.every((w) => haystack.includes(w))) out.push(i);
  });
  return out;
}

/** The groups matching `query` by name, kind ('scope', 'function', 'fusion', 'tfu') or unit. */
export function searchClusters(clusters: readonly GraphCluster[], query: string): readonly GraphCluster[] {
  const words = queryWords(query);
  if (words.length === 0) return [];
  return clusters.filter((c) => {
    const haystack = `${c.label}\n${c.id}\n${c.kind}\n${c.detail}${c.kind === 'function' ? '\nfunction' : ''}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** The position after `current` when stepping by `delta` through `count` matches (wrapping); undefined without matches. */
export function stepMatch(current: number | undefined, delta: 1 | -1, count: number): number | undefined {
  if (count === 0) return undefined;
  if (current === undefined) return delta > 0 ? 0 : count - 1;
  return (((current + delta) % count) + count) % count;
}
