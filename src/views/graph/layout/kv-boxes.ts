// Where the graph draws a graph input or output, and which folded KV-cache box
// a decoder's cache tensor joins: one answer for the layout (layout-input.ts)
// and for the details' "in the graph's box …" sentence, so the two cannot
// name different boxes. Pure; no DOM, no React.

import type { InferredModel, InferredValue } from '../../../model/inferred';
import type { ModelPlan } from '../../../planner/plan';
import type { GraphCluster } from '../groups/clusters';
import { graphGroups, type GraphGroups } from '../groups/groups';
import { kvBoxTitle, kvCacheNames, kvLayerOf } from '../../kv-cache-names';

/** Ops that read a tensor's shape and none of its bytes. */
const SHAPE_READERS: ReadonlySet<string> = new Set(['Shape', 'Size']);

/** Where the boxes of a model's graph inputs and outputs go under one set of groups. */
export interface IoPlaces {
  readonly chains: readonly (readonly GraphCluster[])[]; // by node: enclosing scopes, outermost first
  /** The scopes (outermost first) holding the box of graph input or output `v`; see ioPlaces. */
  chainOf(v: InferredValue, role: 'input' | 'output'): readonly GraphCluster[];
}

/**
 * The scope chains of `model`'s nodes under `groups`, and where an input's or
 * output's box goes: in the deepest scope holding every shown node that uses
 * it, at the top when one of them runs in a compute-unit function. A KV-cache
 * tensor is placed by the nodes reading its values: a Shape or Size elsewhere
 * (a mask subgraph taking the past length off the first layer's key) reads no
 * byte of it, and would pull that one tensor out of its layer's box.
 */
export function ioPlaces(model: InferredModel, groups: GraphGroups): IoPlaces {
  const byId = new Map(groups.scopes.map((c) => [c.id, c]));
  const inner = new Map<number, GraphCluster>();
  for (const c of groups.scopes) for (const i of c.nodes) inner.set(i, c); // parents come first: the innermost wins
  const chains = model.nodes.map((_, i) => {
    const out: GraphCluster[] = [];
    for (let c = inner.get(i); c !== undefined; c = c.parent === undefined ? undefined : byId.get(c.parent)) out.unshift(c);
    return out;
  });
  const inFunction = new Set(groups.plan.flatMap((c) => (c.kind === 'function' ? c.nodes : [])));
  const kv = kvCacheNames(model);
  const chainOf = (v: InferredValue, role: 'input' | 'output'): readonly GraphCluster[] => {
    const shown = (role === 'input' ? v.consumers : v.producer === undefined ? [] : [v.producer]).filter((i) => !groups.folded[i]);
    const reading = kv.has(v.name) ? shown.filter((i) => !SHAPE_READERS.has(model.nodes[i]!.opType)) : [];
    const users = reading.length > 0 ? reading : shown;
    const userChains = users.map((i) => chains[i]!);
    if (userChains.length === 0 || users.some((i) => inFunction.has(i))) return [];
    return userChains[0]!.slice(0, commonDepth(userChains));
  };
  return { chains, chainOf };
}

/**
 * The id of the folded box that draws KV-cache tensor `name` (an input when
 * `role` is 'input', else an output) in the scope `chain` ends in: one box per
 * role, scope and layer number in the name, so an export without name scopes
 * (GPT-2's past_0..past_4, read by fused Attention nodes at the top) still
 * gets a box per layer.
 */
export function kvBoxId(role: 'input' | 'output', chain: readonly GraphCluster[], name: string): string {
  const layer = kvLayerOf(name);
  return `kv-${role === 'input' ? 'in' : 'out'}:${chain.at(-1)?.id ?? ''}${layer === undefined ? '' : `#${layer}`}`;
}

/** A folded KV-cache box: its title and every tensor it folds, in graph order. */
export interface KvBox {
  readonly title: string;
  readonly tensors: readonly string[];
}

const boxesOf = new WeakMap<InferredModel, WeakMap<GraphGroups, ReadonlyMap<string, KvBox>>>();

/**
 * The graph's folded KV-cache box that shows tensor `name` (a graph input or
 * output of `model`'s cache) under `plan`'s groups, with constants folded as
 * the graph first draws them (the groups the layout has too: graphGroups keeps
 * one copy); undefined for a tensor of no cache. The box as drawn while its
 * scope is open: a collapsed scope shows it inside its own box.
 */
export function kvBoxOf(model: InferredModel, plan: ModelPlan | undefined, name: string): KvBox | undefined {
  if (!kvCacheNames(model).has(name)) return undefined;
  return kvBoxesOf(model, graphGroups(model, plan, false)).get(name);
}

/** Every KV-cache tensor's folded box under `groups`, by tensor name. */
function kvBoxesOf(model: InferredModel, groups: GraphGroups): ReadonlyMap<string, KvBox> {
  let byGroups = boxesOf.get(model);
  if (byGroups === undefined) boxesOf.set(model, (byGroups = new WeakMap()));
  const found = byGroups.get(groups);
  if (found !== undefined) return found;
  const kv = kvCacheNames(model);
  const places = ioPlaces(model, groups);
  const values = new Map(model.values.map((v) => [v.name, v]));
  const boxes = new Map<string, { title: string; tensors: string[] }>();
  const byTensor = new Map<string, KvBox>();
  const add = (name: string, role: 'input' | 'output'): void => {
    const v = values.get(name);
    if (v === undefined || !kv.has(name) || byTensor.has(name)) return;
    const id = kvBoxId(role, places.chainOf(v, role), name);
    let box = boxes.get(id);
    if (box === undefined) boxes.set(id, (box = { title: kvBoxTitle(role, kvLayerOf(name)), tensors: [] }));
    box.tensors.push(name);
    byTensor.set(name, box);
  };
  for (const name of model.inputs) if (values.get(name)?.kind === 'input') add(name, 'input');
  for (const name of model.outputs) add(name, 'output');
  byGroups.set(groups, byTensor);
  return byTensor;
}

/** How many leading scopes all `chains` share. */
export function commonDepth(chains: readonly (readonly GraphCluster[])[]): number {
  if (chains.length === 0) return 0;
  let depth = 0;
  while (chains.every((c) => c.length > depth && c[depth] === chains[0]![depth])) depth += 1;
  return depth;
}
