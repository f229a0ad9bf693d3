// Search of the graph view: what matches a query, one match per thing found
// (each group — name scope, function, fusion unit —, each node by name or op
// type, inside If/Loop/Scan bodies too, each run-time tensor by name, a constant the plan runs at each
// inference among them), never one per drawn box, so a query
// that several nodes of one collapsed group match counts each of them; and,
// for one match, the collapsed groups that hide it (to open), the box that
// shows it in a layout, and stepping through matches. Pure.

import type { InferredGraph, InferredNode } from '../../../model/inferred';
import type { GraphCluster } from '../groups/clusters';
import type { GraphLayoutInput } from '../layout/layout-input';

/** One thing the search found. */
export type SearchMatch =
  | { readonly kind: 'group'; readonly cluster: GraphCluster }
  | { readonly kind: 'node'; readonly node: number }
  | { readonly kind: 'tensor'; readonly name: string; readonly node: number | undefined } // node: its producer, else its first reader
  /** A node of an If/Loop/Scan body: `node` is the main-graph op that holds it, `box` its own box when the bodies on its path (`bodies`, outermost first) are shown. */
  | { readonly kind: 'body-node'; readonly node: number; readonly name: string; readonly box: string; readonly bodies: readonly string[] };

/**
 * Everything matching `query` (case-insensitive; every word must match):
 * groups first, in their order, then nodes in model order, each followed by
 * its output tensors that match; graph inputs come before the first node.
 * Weights and constants are not searched as tensors: their readers are found by name. A constant in `run` (those
 * the plan places as buffers: plannedConstants) is a run-time tensor.
 */
export function searchGraph(graph: InferredGraph, clusters: readonly GraphCluster[], query: string, run: ReadonlySet<string> = new Set()): readonly SearchMatch[] {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const hit = (text: string): boolean => {
    const lower = text.toLowerCase();
    return words.every((w) => lower.includes(w));
  };
  const out: SearchMatch[] = [];
  for (const c of clusters) if (hit(`${c.label}\n${c.id}\n${c.kind}\n${c.detail}${c.kind === 'function' ? '\nfunction' : ''}`)) out.push({ kind: 'group', cluster: c });
  const tensors = new Map(graph.values.map((v) => [v.name, v]));
  const isStored = (name: string): boolean => {
    const kind = tensors.get(name)?.kind;
    return kind === 'initializer' || (kind === 'constant' && !run.has(name));
  };
  const tensor = (name: string): void => {
    const v = tensors.get(name);
    if (v === undefined || isStored(name) || !hit(name)) return;
    out.push({ kind: 'tensor', name, node: v.producer ?? v.consumers[0] });
  };
  graph.inputs.forEach(tensor);
  const stored = (name: string): boolean => isStored(name) && hit(name);
  graph.nodes.forEach((n, i) => {
    if (hit(`${n.name}\n${n.opType}`) || n.inputs.some(stored)) out.push({ kind: 'node', node: i });
    n.outputs.forEach(tensor);
    bodyMatches(n, i, `n${i}`, [], hit, out);
  });
  return out;
}

/** Appends the nodes of `owner`'s bodies (and theirs) that `hit` matches, with the box ids boxes.ts gives them; `node` is the main-graph op holding them. */
function bodyMatches(owner: InferredNode, node: number, ownerBox: string, path: readonly string[], hit: (text: string) => boolean, out: SearchMatch[]): void {
  const bodies = [...path, ownerBox];
  owner.subgraphs.forEach((body, k) =>
    body.nodes.forEach((b, j) => {
      const box = `${ownerBox}/g${k}/${j}`;
      if (hit(`${b.name}\n${b.opType}`)) out.push({ kind: 'body-node', node, name: b.name, box, bodies });
      bodyMatches(b, node, box, bodies, hit, out);
    }),
  );
}

function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** The node a match stands at: the node, the tensor's producer (or reader), the group's first node, the op holding a body's node. */
export function matchNode(match: SearchMatch): number | undefined {
  return match.kind === 'group' ? match.cluster.nodes[0] : match.node;
}

/** The op boxes whose bodies must be shown for `match` to have a box of its own; empty for any other match. */
export function bodiesToShow(match: SearchMatch, shown: ReadonlySet<string>): readonly string[] {
  return match.kind === 'body-node' ? match.bodies.filter((id) => !shown.has(id)) : [];
}

/**
 * The collapsed groups that hide `match`, outermost first: every collapsed
 * group holding its node (for a group: the groups it is nested in, not itself,
 * which shows as a box when collapsed).
 */
export function groupsToOpen(match: SearchMatch, clusters: readonly GraphCluster[], collapsed: ReadonlySet<string>): readonly string[] {
  if (match.kind === 'group') {
    const byId = new Map(clusters.map((c) => [c.id, c]));
    const out: string[] = [];
    for (let p = match.cluster.parent; p !== undefined; p = byId.get(p)?.parent) if (collapsed.has(p)) out.unshift(p);
    // Groups holding all of its nodes hide it too (a fusion unit inside a function), unless nested in it.
    const nestedIn = (c: GraphCluster): boolean => {
      for (let p = c.parent; p !== undefined; p = byId.get(p)?.parent) if (p === match.cluster.id) return true;
      return false;
    };
    const inside = clusters.filter((c) => c.id !== match.cluster.id && collapsed.has(c.id) && !out.includes(c.id) && !nestedIn(c) && match.cluster.nodes.every((i) => c.nodes.includes(i)));
    return [...inside.map((c) => c.id), ...out].sort((a, b) => depth(byId, a) - depth(byId, b));
  }
  const node = matchNode(match);
  if (node === undefined) return [];
  return clusters.filter((c) => collapsed.has(c.id) && c.nodes.includes(node)).map((c) => c.id);
}

function depth(byId: ReadonlyMap<string, GraphCluster>, id: string): number {
  let d = 0;
  for (let p = byId.get(id)?.parent; p !== undefined; p = byId.get(p)?.parent) d += 1;
  return d;
}

/** The box of `input` that shows `match`: a group's own box or frame, a graph input's or output's box, else its node's box. */
export function matchBox(match: SearchMatch, input: GraphLayoutInput): string | undefined {
  if (match.kind === 'group') {
    const c = match.cluster;
    if (input.items.has(c.id) || input.overlays.some((o) => o.id === c.id)) return c.id;
  }
  if (match.kind === 'body-node' && input.items.has(match.box)) return match.box;
  if (match.kind === 'tensor') {
    for (const id of [`in:${match.name}`, `out:${match.name}`]) {
      const box = input.ioBoxes.get(id);
      if (box !== undefined && input.items.has(box)) return box;
    }
  }
  const node = matchNode(match);
  return node === undefined ? undefined : input.boxOfNode[node];
}

/** The box to pan to for `match`: its box when that is laid out (a frame is not), else its node's. */
export function revealBox(match: SearchMatch, input: GraphLayoutInput): string | undefined {
  const box = matchBox(match, input);
  if (box !== undefined && input.items.has(box)) return box;
  const node = matchNode(match);
  return node === undefined ? undefined : input.boxOfNode[node];
}

/** The position after `current` when stepping by `delta` through `count` matches (wrapping); undefined without matches. */
export function stepMatch(current: number | undefined, delta: 1 | -1, count: number): number | undefined {
  if (count === 0) return undefined;
  if (current === undefined) return delta > 0 ? 0 : count - 1;
  return (((current + delta) % count) + count) % count;
}
