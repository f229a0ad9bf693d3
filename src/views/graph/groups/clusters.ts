// What the graph groups and marks, read from a plan: clusters for compute-unit
// functions (M3) and fusion units (M2 tfu, M5 dw-pw), a fusion unit nested in
// the function that runs all of it, and the ops whose output shares bytes
// (removable, in-place, merging). Pure; no DOM, no React.

import type { InferredGraph } from '../../../model/inferred';
import type { FusionUnitRecord, ModelPlan } from '../../../planner/plan';

/** A group of nodes drawn as one box that collapses and expands. */
export interface GraphCluster {
  readonly id: string; // 'fn:<name>', 'fu:<name>' or 'sc:<scope path>'
  readonly kind: 'function' | 'tfu' | 'dw-pw' | 'scope';
  readonly label: string; // the function's or the fusion unit's name
  readonly detail: string; // 'on npu', 'fusion (tfu)', 'scope'
  readonly nodes: readonly number[]; // node indices, in model order
  readonly parent: string | undefined; // the enclosing cluster's id
}

/** How an op's output shares bytes, from the plan's aliases. */
export type AliasMark = 'removable' | 'in-place' | 'window' | 'merging';

/** A fusion unit's name: its own, or its kind and position when the plan gives none. */
export function fusionUnitName(unit: FusionUnitRecord, index: number): string {
  return unit.name || `${unit.kind}-${index}`;
}

/**
 * The clusters of `plan` over `graph`'s nodes: every function (when there are
 * several), then every
 * fusion unit whose nodes lie in one function (nested in it) or in none. A
 * fusion unit reusing a node of an earlier unit is left out.
 */
export function graphClusters(graph: InferredGraph, plan: ModelPlan | undefined): readonly GraphCluster[] {
  if (plan === undefined) return [];
  const indexOf = new Map(graph.nodes.map((n, i) => [n.name, i]));
  const indices = (names: readonly string[]): number[] =>
    names.flatMap((name) => (indexOf.has(name) ? [indexOf.get(name)!] : [])).sort((a, b) => a - b);
  const functionOf = new Map<number, string>();
  const clusters: GraphCluster[] = [];
  // One function is the whole model on one unit: nothing to group.
  for (const f of plan.functions.length > 1 ? plan.functions : []) {
    const nodes = indices(f.nodes);
    if (nodes.length === 0) continue;
    const id = `fn:${f.name}`;
    for (const i of nodes) functionOf.set(i, id);
    clusters.push({ id, kind: 'function', label: f.name, detail: `on ${f.unit}`, nodes, parent: undefined });
  }
  const fused = new Set<number>();
  plan.fusionUnits.forEach((unit, k) => {
    const nodes = indices(unit.nodes);
    if (nodes.length === 0 || nodes.some((i) => fused.has(i))) return;
    const parents = new Set(nodes.map((i) => functionOf.get(i)));
    if (parents.size !== 1) return;
    for (const i of nodes) fused.add(i);
    const name = fusionUnitName(unit, k);
    clusters.push({ id: `fu:${name}`, kind: unit.kind, label: name, detail: `fusion (${unit.kind})`, nodes, parent: [...parents][0] });
  });
  return clusters;
}

/**
 * Ops marked as aliases: the producer of a buffer that lives in its input's
 * bytes (removable, in-place, window), and the Concat whose inputs are written
 * into its output (merging).
 */
export function aliasMarks(plan: ModelPlan | undefined): ReadonlyMap<string, AliasMark> {
  const marks = new Map<string, AliasMark>();
  if (plan === undefined) return marks;
  const byId = new Map(plan.buffers.map((b) => [b.id, b]));
  for (const b of plan.buffers) {
    const rule = b.alias?.rule;
    if (rule === undefined) continue;
    if (rule === 'concat') {
      const owner = byId.get(b.alias!.parent)?.node;
      if (owner !== undefined) marks.set(owner, 'merging');
    } else if ((rule === 'removable' || rule === 'in-place' || rule === 'window') && b.node !== undefined && b.kind !== 'scratch') {
      if (!marks.has(b.node)) marks.set(b.node, rule);
    }
  }
  return marks;
}
