// Everything the graph groups nodes by, and what it folds away: name-scope
// groups (from node names, or segments of a large model without them), the plan's compute-unit functions and fusion units,
// the constant nodes folded into their consumers (not those the plan runs at each
// inference: TensorFlow Lite Micro's DEQUANTIZE of a weight), and the first view
// of a large model (which groups start collapsed). Pure; no DOM, no React.

import type { InferredGraph, InferredModel } from '../../../model/inferred';
import type { ModelPlan } from '../../../planner/plan';
import { plannedConstants } from '../../../store/planned-constants';
import { graphClusters, type GraphCluster } from './clusters';
import { scopeClusters } from './scopes';
import { segmentClusters } from '../layout/segments';

/** The groups of one model and plan. */
export interface GraphGroups {
  readonly scopes: readonly GraphCluster[]; // name-scope groups, parents first
  readonly plan: readonly GraphCluster[]; // functions and fusion units (drawn as frames unless collapsed)
  readonly folded: readonly boolean[]; // by node: drawn inside its consumers, not as a box
  readonly weight: ReadonlyMap<string, number>; // cluster id -> bytes its nodes write
}

/** Models with at most this many drawn nodes open with every group expanded. */
const OPEN_ALL_UP_TO = 300;
/** A larger model opens with about this many boxes at most. */
const FIRST_VIEW_BOXES = 18;

// One set of groups per model, plan and Constants toggle, shared by the layout and the details' KV-cache box: working
// them out takes a tenth of a second on a large decoder. A model without a plan is keyed by NO_PLAN.
const NO_PLAN = {};
const groupCache = new WeakMap<InferredModel, WeakMap<object, { folded?: GraphGroups; shown?: GraphGroups }>>();

/**
 * The groups of `model` under `plan`; constants folded unless `showConstants`, except those `plan` runs. The same
 * object for the same three.
 */
export function graphGroups(model: InferredModel, plan: ModelPlan | undefined, showConstants: boolean): GraphGroups {
  let byPlan = groupCache.get(model);
  if (byPlan === undefined) groupCache.set(model, (byPlan = new WeakMap()));
  let entry = byPlan.get(plan ?? NO_PLAN);
  if (entry === undefined) byPlan.set(plan ?? NO_PLAN, (entry = {}));
  const key = showConstants ? 'shown' : 'folded';
  return (entry[key] ??= buildGroups(model, plan, showConstants));
}

function buildGroups(model: InferredModel, plan: ModelPlan | undefined, showConstants: boolean): GraphGroups {
  const folded = foldedNodes(model, plan, showConstants);
  const shown = (i: number): boolean => !folded[i];
  const named = scopeClusters(model, shown);
  // A large model without name scopes is cut into segments, so it too opens as a short column of groups.
  const scopes = named.length === 0 && folded.filter((f) => !f).length > OPEN_ALL_UP_TO ? segmentClusters(model, shown) : named;
  const planned = graphClusters(model, plan).map((c) => ({ ...c, nodes: c.nodes.filter((i) => !folded[i]) })).filter((c) => c.nodes.length > 0);
  const bytes = model.nodes.map((n, i) => (folded[i] ? 0 : n.outputs.reduce((sum, o) => sum + (valueBytes(model, o) ?? 0), 0)));
  const weight = new Map<string, number>();
  for (const c of [...scopes, ...planned]) weight.set(c.id, c.nodes.reduce((sum, i) => sum + bytes[i]!, 0));
  return { scopes, plan: planned, folded, weight };
}

/** By node: folded into its consumers, not drawn as a box: a constant node, unless shown or run by `plan` at each inference. */
export function foldedNodes(model: InferredModel, plan: ModelPlan | undefined, showConstants: boolean): readonly boolean[] {
  const run = plannedConstants(model, plan).nodes;
  return model.nodes.map((n, i) => !showConstants && n.constant && !run.has(i));
}

const byteCache = new WeakMap<InferredGraph, Map<string, number | undefined>>();
function valueBytes(graph: InferredGraph, name: string): number | undefined {
  let map = byteCache.get(graph);
  if (map === undefined) {
    map = new Map(graph.values.map((v) => [v.name, v.bytes]));
    byteCache.set(graph, map);
  }
  return map.get(name);
}

/**
 * The scope groups a model opens with collapsed: none for a small model; for a
 * large one, every group except those opened heaviest first (when they write
 * a fair share of the bytes) while the view stays within FIRST_VIEW_BOXES boxes.
 */
export function firstCollapsed(groups: GraphGroups): ReadonlySet<string> {
  const shown = groups.folded.filter((f) => !f).length;
  if (shown <= OPEN_ALL_UP_TO || groups.scopes.length === 0) return new Set();
  const collapsed = new Set(groups.scopes.map((s) => s.id));
  const children = new Map<string | undefined, GraphCluster[]>();
  for (const s of groups.scopes) children.set(s.parent, [...(children.get(s.parent) ?? []), s]);
  const size = (s: GraphCluster | undefined): number => {
    const kids = children.get(s?.id) ?? [];
    const inKids = kids.reduce((n, k) => n + k.nodes.length, 0);
    const direct = (s === undefined ? shown : s.nodes.length) - inKids;
    return kids.length + direct;
  };
  let boxes = size(undefined);
  const total = groups.scopes.filter((s) => s.parent === undefined).reduce((n, s) => n + (groups.weight.get(s.id) ?? 0), 0);
  const heavier = (a: GraphCluster, b: GraphCluster): number => (groups.weight.get(b.id) ?? 0) - (groups.weight.get(a.id) ?? 0) || b.nodes.length - a.nodes.length;
  const queue = [...(children.get(undefined) ?? [])].sort(heavier);
  while (queue.length > 0) {
    const s = queue.shift()!;
    const cost = size(s) - 1;
    // Only a group with a fair share of the bytes is worth its room in the first view.
    if (boxes + cost > FIRST_VIEW_BOXES || (groups.weight.get(s.id) ?? 0) < total / FIRST_VIEW_BOXES) continue;
    collapsed.delete(s.id);
    boxes += cost;
    queue.push(...(children.get(s.id) ?? []));
    queue.sort(heavier);
  }
  return collapsed;
}

/** For each folded node, the node drawn as a box that it feeds (first in model order, through other folded nodes). */
export function foldTargets(model: InferredGraph, folded: readonly boolean[]): readonly (number | undefined)[] {
  const consumers = new Map<string, readonly number[]>(model.values.map((v) => [v.name, v.consumers]));
  const target: (number | undefined)[] = model.nodes.map(() => undefined);
  for (let i = model.nodes.length - 1; i >= 0; i -= 1) {
    if (!folded[i]) continue;
    const fed = model.nodes[i]!.outputs.flatMap((o) => consumers.get(o) ?? []);
    target[i] = fed.map((c) => (folded[c] ? target[c] : c)).find((c) => c !== undefined);
  }
  return target;
}
