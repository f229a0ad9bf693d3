// Groups for a large model whose node names carry no scopes (`n1`, `n2`, … as
// in ONNX's own DenseNet-121): the model's order is cut into consecutive
// segments of similar size, preferably where a single tensor crosses the cut
// (between the blocks of a network), so the first view is a short column of
// collapsible groups instead of a column of hundreds of boxes. Pure; no DOM, no React.

import type { InferredGraph } from '../../../model/inferred';
import { graphLabel } from './boxes';
import type { GraphCluster } from '../groups/clusters';

/** About this many segments; fewer for a model of few nodes. */
const SEGMENTS = 16;
/** A segment is at least this many nodes. */
const MIN_SEGMENT = 12;

/**
 * The segments of the nodes of `graph` that `shown` accepts, as scope groups
 * (ids `sc:#<k>`): each closes at the first cut past the target size where
 * only one tensor is live, or past three times that size at the narrowest cut seen.
 */
export function segmentClusters(graph: InferredGraph, shown: (node: number) => boolean): readonly GraphCluster[] {
  const order = graph.nodes.map((_, i) => i).filter(shown);
  const target = Math.max(MIN_SEGMENT, Math.ceil(order.length / SEGMENTS));
  if (order.length < 2 * target) return [];
  const crossing = liveAcross(graph, order);
  const out: GraphCluster[] = [];
  let start = 0;
  let best = -1; // the narrowest cut of the current segment past its target size
  const close = (end: number): void => {
    const nodes = order.slice(start, end + 1);
    const first = graph.nodes[nodes[0]!]!;
    const last = graph.nodes[nodes.at(-1)!]!;
    const label = `${graphLabel(first.name, 14)} → ${graphLabel(last.name, 14)}`;
    out.push({ id: `sc:#${out.length}`, kind: 'scope', label, detail: 'segment', nodes, parent: undefined });
    start = end + 1;
    best = -1;
  };
  for (let p = 0; p < order.length - 1; p += 1) {
    const size = p - start + 1;
    if (size < target || order.length - p - 1 < MIN_SEGMENT) continue;
    if (best < 0 || crossing[p]! < crossing[best]!) best = p;
    if (crossing[p]! <= 1 || size >= 3 * target) close(crossing[p]! <= 1 ? p : best);
  }
  if (start < order.length) close(order.length - 1);
  return out.length > 1 ? out : [];
}

/** For each position p of `order`: how many tensors produced at or before p are read after it. */
function liveAcross(graph: InferredGraph, order: readonly number[]): Int32Array {
  const position = new Map(order.map((n, p) => [n, p]));
  const delta = new Int32Array(order.length + 1);
  for (const v of graph.values) {
    const from = v.producer === undefined ? undefined : position.get(v.producer);
    if (from === undefined) continue;
    let to = from;
    for (const c of v.consumers) to = Math.max(to, position.get(c) ?? from);
    delta[from] = delta[from]! + 1;
    delta[to] = delta[to]! - 1;
  }
  const live = new Int32Array(order.length);
  let sum = 0;
  for (let p = 0; p < order.length; p += 1) {
    sum += delta[p]!;
    live[p] = sum;
  }
  return live;
}
