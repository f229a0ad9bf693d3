// Name-scope groups of a graph, read from its node names the way exporters
// write module paths: `/stage1/conv/Conv` (torch.onnx), `encoder.layer.3.attention.dense`
// (dotted module paths), `stem/conv` (Keras, TF). The scopes form a tree that
// is pruned for reading: a scope of one node dissolves, a scope that is the
// only content of its parent merges into it ("model/decoder"), a top scope
// holding nearly every node dissolves, and a long run
// of numbered siblings (`layers.0` … `layers.79`) is split into runs of ten.
// Pure; no DOM, no React.

import type { InferredGraph } from '../../../model/inferred';
import type { GraphCluster } from './clusters';

/** More numbered siblings than this are split into runs of RUN_SIZE. */
const RUN_SPLIT = 16;
const RUN_SIZE = 10;
/** A top scope with this share of the nodes is dissolved. */
const DOMINANT = 0.9;

/** The scopes of a node name, outermost first (the node's own last segment excluded). */
export function scopePath(name: string): readonly string[] {
  const slashed = name.split('/').filter(Boolean);
  if (slashed.length > 1) return slashed.slice(0, -1);
  // A dotted module path: a numeric part belongs to the name before it (layer.3).
  const parts: string[] = [];
  for (const p of name.split('.')) {
    if (/^\d+$/.test(p) && parts.length > 0) parts[parts.length - 1] += `.${p}`;
    else if (p !== '') parts.push(p);
  }
  return parts.slice(0, -1);
}

interface Scope {
  key: string;
  label: string;
  parent: Scope | undefined;
  children: Scope[];
  direct: number[]; // node indices directly in this scope
}

/**
 * The scope groups of the nodes of `graph` that `shown` accepts, outermost
 * first (a parent before its children), each listing every node under it.
 */
export function scopeClusters(graph: InferredGraph, shown: (node: number) => boolean): readonly GraphCluster[] {
  const root: Scope = { key: '', label: '', parent: undefined, children: [], direct: [] };
  const byKey = new Map<string, Scope>();
  graph.nodes.forEach((n, i) => {
    if (!shown(i)) return;
    let at = root;
    for (const segment of scopePath(n.name)) {
      const key = `${at.key}/${segment}`;
      let next = byKey.get(key);
      if (next === undefined) {
        next = { key, label: segment, parent: at, children: [], direct: [] };
        byKey.set(key, next);
        at.children.push(next);
      }
      at = next;
    }
    at.direct.push(i);
  });
  prune(root);
  flattenDominant(root);
  const out: GraphCluster[] = [];
  emit(root, out);
  return out;
}

/** Dissolves one-node scopes, merges only children, splits long numbered runs; bottom-up. */
function prune(scope: Scope): void {
  for (const child of [...scope.children]) prune(child);
  for (const child of [...scope.children]) if (count(child) < 2) dissolve(child);
  splitRuns(scope);
  if (scope.children.length === 1 && scope.direct.length === 0) {
    const only = scope.children[0]!;
    if (scope.parent === undefined) dissolve(only);
    else {
      scope.label = `${scope.label}/${only.label}`;
      scope.key = only.key;
      dissolve(only);
    }
  }
}

/** A top scope holding nearly every node (`model`, `/model`) frames the whole graph and says nothing: it dissolves. */
function flattenDominant(root: Scope): void {
  const total = count(root);
  for (;;) {
    const dominant = root.children.find((c) => count(c) >= DOMINANT * total);
    if (dominant === undefined || dominant.children.length === 0) return;
    dissolve(dominant);
  }
}

function dissolve(child: Scope): void {
  const parent = child.parent!;
  const at = parent.children.indexOf(child);
  parent.children.splice(at, 1, ...child.children);
  for (const c of child.children) c.parent = parent;
  parent.direct.push(...child.direct);
}

function count(scope: Scope): number {
  return scope.children.reduce((n, c) => n + count(c), scope.direct.length);
}

/** Groups numbered siblings (`layers.0`, `layers.1`, …) into runs of RUN_SIZE when there are many. */
function splitRuns(scope: Scope): void {
  const series = new Map<string, Scope[]>();
  for (const c of scope.children) {
    const m = /^(.*?)[._]?(\d+)$/.exec(c.label);
    if (m !== null && m[1] !== '') series.set(m[1]!, [...(series.get(m[1]!) ?? []), c]);
  }
  for (const [prefix, members] of series) {
    if (members.length <= RUN_SPLIT) continue;
    const number = (s: Scope): number => Number(/(\d+)$/.exec(s.label)![1]);
    members.sort((a, b) => number(a) - number(b));
    for (let k = 0; k < members.length; k += RUN_SIZE) {
      const run = members.slice(k, k + RUN_SIZE);
      const label = `${prefix} ${number(run[0]!)}–${number(run.at(-1)!)}`;
      const group: Scope = { key: `${scope.key}/${prefix}[${number(run[0]!)}]`, label, parent: scope, children: run, direct: [] };
      const at = scope.children.indexOf(run[0]!);
      scope.children = scope.children.filter((c) => !run.includes(c));
      scope.children.splice(Math.min(at, scope.children.length), 0, group);
      for (const c of run) c.parent = group;
    }
  }
}

function emit(scope: Scope, out: GraphCluster[]): number[] {
  const id = `sc:${scope.key}`;
  const at = out.length;
  const nodes = [...scope.direct];
  for (const c of scope.children) nodes.push(...emit(c, out));
  nodes.sort((a, b) => a - b);
  if (scope.parent !== undefined) {
    const parent = scope.parent.parent === undefined ? undefined : `sc:${scope.parent.key}`;
    out.splice(at, 0, { id, kind: 'scope', label: scope.label, detail: 'scope', nodes, parent });
  }
  return nodes;
}
