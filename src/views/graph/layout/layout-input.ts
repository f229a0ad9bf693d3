// Turns a model and its plan into the graph the layout worker places: one box
// per node drawn (constants fold into their consumers unless shown), nested
// boxes for expanded name-scope groups and If/Loop bodies, one box per
// collapsed group, boxes for the graph's inputs and outputs (inside the scope
// that uses them; a decoder's KV-cache inputs, and its outputs, folded into
// one box per scope, so eighty layers' caches are eighty pairs of boxes, not
// 320 in rows), and one edge per producer-consumer pair labelled with shape
// and size (and, on hover, a TensorFlow Lite tensor's quantization). Functions
// and fusion units are frames drawn around their members
// (overlays) unless collapsed, so a re-plan that changes them keeps positions.
// `key` names the layout's structure: plans with the same key share positions.
// Pure; no DOM, no React.

import type { InferredModel, InferredValue } from '../../../model/inferred';
import type { ModelPlan } from '../../../planner/plan';
import { formatBytes, formatCount, formatShape } from '../../../shared/format';
import { plannedConstants, plannedKind } from '../../../store/planned-constants';
import { SHOWN_CHARS } from '../../../shared/short-name';
import { quantizationHint } from '../../quantization';
import { plannedSizeOf, plannedSizeShort } from '../../planned-size';
import type { LayoutGraph, LayoutLink } from '../../../worker/layout/protocol';
import { aliasMarks, type AliasMark, type GraphCluster } from '../groups/clusters';
import { foldTargets, graphGroups, type GraphGroups } from '../groups/groups';
import { kvBoxTitle, kvCacheNames, kvLayerOf } from '../../kv-cache-names';
import { commonDepth, ioPlaces, kvBoxId, type IoPlaces } from './kv-boxes';
import { BOX_HEIGHT, BYTES_SLOT, OP_TYPE, addBodies, boxWidth, graphLabel, structureKey, type MutableBox } from './boxes';

export { graphLabel } from './boxes';

import type { GraphItem } from '../graph-item';

export type { GraphItem, GraphItemKind } from '../graph-item';

/** The subtitle of a state tensor's box (a TFLite variable tensor), in place of 'input'. */
export const IO_STATE = 'state';
const STATE_HINT = 'state: a variable tensor the model keeps across runs (read as an input, live for the whole run; TensorFlow Lite Micro keeps it in its arena\'s tail)';

/** A drawn edge: the tensors it carries, labelled. */
export interface GraphEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly values: readonly string[]; // tensor names
  readonly text: string; // '1×32×80×80 · 800 KiB', or 'N tensors · bytes'
  readonly hint?: string; // the quantization of its TensorFlow Lite tensors, shown on hover
}

/** What the user has opened or closed. */
export interface GraphToggles {
  readonly collapsed: ReadonlySet<string>; // cluster ids
  readonly bodies: ReadonlySet<string>; // ids of ops whose bodies are shown
  readonly constants?: boolean; // draw constant nodes as boxes
}

/** The layout worker's input and the drawing's lookups. */
export interface GraphLayoutInput {
  readonly graph: LayoutGraph;
  readonly items: ReadonlyMap<string, GraphItem>;
  readonly edges: ReadonlyMap<string, GraphEdge>;
  readonly boxOfNode: readonly (string | undefined)[]; // by model node index: the box that shows it (a folded constant: its consumer's)
  readonly ioBoxes: ReadonlyMap<string, string>; // 'in:<tensor>' / 'out:<tensor>' -> the box that shows that graph input or output
  readonly clusters: readonly GraphCluster[]; // every group: scopes, functions, fusion units
  readonly overlays: readonly GraphCluster[]; // functions and fusion units drawn as frames around their members
  readonly key: string; // the structure laid out (boxes, sizes, edges), without labels
}

const LABEL_CHAR = 5.9; // px per character of the 10px edge labels
const CLUSTER_TITLE = 30;
/**
 * A group frame's width past its title's characters: glyph, margins and room
 * to spare. The title is sized with BYTES_SLOT, one character longer than
 * most figures ('12.0 KiB'); the padding gives that character back, so a
 * frame is as wide as when it was sized to its own figure, and Fit's first
 * screen of a decoder (decoder-view.spec.ts) stays clear of the minimap.
 */
const FRAME_PAD = 70 - 6.6;
const HEAVY_SHARE = 0.08;
/** Past this many edges carrying the same tensors from one box, only the first is labelled. */
const MAX_FAN_LABELS = 3;

/** The text of an edge carrying `values`; one tensor `plan` stores at another size says so ("→ 363 KiB as int8 on npu"). */
export function edgeText(values: readonly InferredValue[], plan?: ModelPlan): string {
  if (values.length === 1) {
    const planned = plannedSizeOf(plan, values[0]!);
    return `${formatShape(values[0]!.shape)} · ${formatBytes(values[0]!.bytes)}${planned === undefined ? '' : ` → ${plannedSizeShort(planned)}`}`;
  }
  const known = values.every((v) => v.bytes !== undefined);
  const total = values.reduce((sum, v) => sum + (v.bytes ?? 0), 0);
  return `${values.length} tensors · ${known ? formatBytes(total) : '?'}`;
}

/** Builds the layout input of `model` with `plan`'s groups and marks; see the module header. */
export function graphLayoutInput(model: InferredModel, plan: ModelPlan | undefined, toggles: GraphToggles, groups = graphGroups(model, plan, toggles.constants === true)): GraphLayoutInput {
  return new InputBuilder(model, plan, toggles, groups).build();
}

class InputBuilder {
  private readonly items = new Map<string, GraphItem>();
  private readonly boxes = new Map<string, MutableBox>();
  private readonly roots: MutableBox[] = [];
  private readonly links = new Map<string, { source: string; target: string; values: InferredValue[] }>();
  private readonly places: IoPlaces;
  private readonly scopeChain: readonly (readonly GraphCluster[])[]; // by node: enclosing scopes, outermost first
  private readonly fnOf = new Map<number, GraphCluster>();
  private readonly fuOf = new Map<number, GraphCluster>();
  private readonly fuDepth = new Map<string, number>(); // fusion unit id -> scopes shared by all its nodes
  private readonly ioBox = new Map<string, string>();
  private readonly kv: ReadonlySet<string>;
  private readonly kvBoxes = new Map<string, { readonly box: MutableBox; readonly role: 'input' | 'output'; readonly layer: number | undefined; readonly values: InferredValue[] }>();
  private readonly marks: ReadonlyMap<string, AliasMark>;
  private readonly total: number;

  constructor(
    private readonly model: InferredModel,
    private readonly plan: ModelPlan | undefined,
    private readonly toggles: GraphToggles,
    private readonly groups: GraphGroups,
  ) {
    this.marks = aliasMarks(plan);
    this.kv = kvCacheNames(model);
    this.places = ioPlaces(model, groups);
    this.scopeChain = this.places.chains;
    for (const c of groups.plan) for (const i of c.nodes) (c.kind === 'function' ? this.fnOf : this.fuOf).set(i, c);
    for (const c of groups.plan) if (c.kind !== 'function') this.fuDepth.set(c.id, commonDepth(c.nodes.map((i) => this.scopeChain[i]!)));
    const planned = plannedConstants(model, plan);
    this.total = model.values.reduce((s, v) => s + (plannedKind(v, planned) === 'activation' ? (v.bytes ?? 0) : 0), 0);
  }

  build(): GraphLayoutInput {
    const { model, groups } = this;
    const values = new Map(model.values.map((v) => [v.name, v]));
    for (const name of model.inputs) if (values.get(name)?.kind === 'input') this.addIo(values.get(name)!, 'input');
    const shownBox = model.nodes.map((_, i) => (groups.folded[i] ? undefined : this.addNode(i, values)));
    for (const name of model.outputs) if (values.has(name)) this.addIo(values.get(name)!, 'output');
    this.finishKvBoxes();
    for (const v of model.values) this.linkValue(v, shownBox);
    const targets = foldTargets(model, groups.folded);
    const boxOfNode = shownBox.map((b, i) => b ?? (targets[i] === undefined ? undefined : shownBox[targets[i]!]));
    const edges = new Map<string, GraphEdge>();
    const links: LayoutLink[] = [];
    // Tensors fanned out to many boxes (a mask, rotary tables) are labelled once: the same label on
    // every edge would only widen the layout.
    const fans = new Map<string, number>();
    const fanOf = (l: { source: string; values: readonly InferredValue[] }): string => `${l.source}>${l.values.map((v) => v.name).join('\n')}`;
    for (const l of this.links.values()) fans.set(fanOf(l), (fans.get(fanOf(l)) ?? 0) + 1);
    const labelled = new Set<string>();
    for (const [id, l] of this.links) {
      const text = edgeText(l.values, this.plan);
      const values = l.values.map((v) => v.name);
      const hint = quantizationHint(model, values);
      edges.set(id, { id, source: l.source, target: l.target, values, text, ...(hint !== undefined && { hint }) });
      const fan = fanOf(l);
      const label = labelled.has(fan) ? undefined : { text, width: Math.round(text.length * LABEL_CHAR + 6), height: 14 };
      if (fans.get(fan)! > MAX_FAN_LABELS) labelled.add(fan);
      links.push({ id, source: l.source, target: l.target, ...(label !== undefined && { label }) });
    }
    const clusters = [...groups.scopes, ...groups.plan];
    const overlays = groups.plan.filter((c) => !this.toggles.collapsed.has(c.id));
    for (const c of overlays) {
      const detail = `${c.detail} · ${formatCount(c.nodes.length)} node${c.nodes.length === 1 ? '' : 's'}`;
      this.items.set(c.id, { id: c.id, kind: 'cluster', title: graphLabel(c.label, CLUSTER_TITLE), subtitle: detail, node: undefined, cluster: c, members: c.nodes, alias: undefined, bodies: 0, expanded: true });
    }
    sortByOrder(this.roots, this.rank());
    const graph = { boxes: this.roots, links };
    return { graph, items: this.items, edges, boxOfNode, ioBoxes: this.ioBox, clusters, overlays, key: structureKey(graph) };
  }

  /** Each box's place in the model's order: its first node (a group's first member), inputs first and outputs last. */
  private rank(): ReadonlyMap<string, number> {
    const rank = new Map<string, number>();
    for (const [id, item] of this.items) {
      if (item.kind === 'io') rank.set(id, item.subtitle.startsWith('input') || item.subtitle === IO_STATE ? -1 : Infinity);
      else if (item.node !== undefined) rank.set(id, item.node);
      else if (item.members.length > 0) rank.set(id, Math.min(...item.members));
    }
    return rank;
  }

  /** The container of a box under `chain` (scopes, outermost first), or the id of the collapsed group hiding it. */
  private place(chain: readonly GraphCluster[]): MutableBox[] | string {
    let container = this.roots;
    for (const c of chain) {
      const collapsed = this.toggles.collapsed.has(c.id);
      const box = this.clusterBox(c, container, collapsed);
      if (collapsed) return c.id;
      container = box.children!;
    }
    return container;
  }

  /** Adds node `i` (or the collapsed group hiding it); returns the id of the box that shows it. */
  private addNode(i: number, values: ReadonlyMap<string, InferredValue>): string {
    const fn = this.fnOf.get(i);
    if (fn !== undefined && this.toggles.collapsed.has(fn.id)) return this.clusterBox(fn, this.roots, true).id;
    const fu = this.fuOf.get(i);
    const chain = this.scopeChain[i]!;
    const fuCollapsed = fu !== undefined && this.toggles.collapsed.has(fu.id);
    const where = this.place(fuCollapsed ? chain.slice(0, this.fuDepth.get(fu.id)) : chain);
    if (typeof where === 'string') return where;
    if (fuCollapsed) return this.clusterBox(fu, where, true).id;
    const node = this.model.nodes[i]!;
    const id = `n${i}`;
    const expanded = node.subgraphs.length > 0 && this.toggles.bodies.has(id);
    const constants = node.inputs.flatMap((name) => {
      const v = values.get(name);
      const foldedIn = v !== undefined && (v.kind === 'initializer' || (v.kind === 'constant' && (v.producer === undefined || this.groups.folded[v.producer] === true)));
      return foldedIn ? [`${graphLabel(name, SHOWN_CHARS)} ${formatShape(v.shape)} · ${formatBytes(v.bytes)}`] : [];
    });
    const opType = graphLabel(node.opType, OP_TYPE);
    this.items.set(id, { id, kind: 'op', title: opType, subtitle: node.name, node: i, cluster: undefined, members: [i], alias: this.marks.get(node.name), bodies: node.subgraphs.length, expanded, constants });
    const box: MutableBox = { id, width: boxWidth(opType, node.name, node.subgraphs.length > 0 ? 22 : 0), height: BOX_HEIGHT };
    if (expanded) box.children = addBodies(box, node.subgraphs, id, this.items, (s, t, v) => this.link(s, t, v), this.toggles.bodies);
    where.push(box);
    return id;
  }

  private clusterBox(c: GraphCluster, container: MutableBox[], collapsed: boolean): MutableBox {
    const existing = this.boxes.get(c.id);
    if (existing !== undefined) return existing;
    const weight = this.groups.weight.get(c.id) ?? 0;
    const count = `${formatCount(c.nodes.length)} node${c.nodes.length === 1 ? '' : 's'}`;
    const detailOf = (bytes: string): string => (c.kind === 'scope' ? `${count} · ${bytes}` : `${c.detail} · ${count}`);
    const detail = detailOf(formatBytes(weight));
    const sized = detailOf(BYTES_SLOT);
    const title = `${c.label} ${sized}`;
    const box: MutableBox = collapsed
      ? { id: c.id, width: boxWidth(graphLabel(c.label, CLUSTER_TITLE), sized, 18), height: BOX_HEIGHT + 4 }
      : { id: c.id, width: Math.round(Math.min(CLUSTER_TITLE + 24, title.length) * 6.6 + FRAME_PAD), height: BOX_HEIGHT, padTop: 30, children: [] };
    const heavy = c.kind === 'scope' && this.total > 0 && weight >= HEAVY_SHARE * this.total;
    this.items.set(c.id, { id: c.id, kind: collapsed ? 'collapsed' : 'cluster', title: graphLabel(c.label, CLUSTER_TITLE), subtitle: detail, node: undefined, cluster: c, members: c.nodes, alias: undefined, bodies: 0, expanded: !collapsed, heavy });
    this.boxes.set(c.id, box);
    container.push(box);
    return box;
  }

  /** A graph input or output, inside the deepest scope holding every node that uses it. */
  private addIo(v: InferredValue, role: 'input' | 'output'): void {
    const id = `${role === 'input' ? 'in' : 'out'}:${v.name}`;
    if (this.items.has(id)) return;
    const chain = this.places.chainOf(v, role);
    const where = this.place(chain);
    if (typeof where === 'string') {
      this.ioBox.set(id, where);
      return;
    }
    if (this.kv.has(v.name)) {
      this.ioBox.set(id, this.kvBox(v, role, chain, where));
      return;
    }
    this.ioBox.set(id, id);
    // a TFLite variable tensor (an SVDF's memory) is read like an input but is no graph input: the model keeps it across runs
    const state = role === 'input' && (this.model.persistent ?? []).includes(v.name);
    const subtitle = state ? IO_STATE : role;
    const quantized = quantizationHint(this.model, [v.name]);
    const hint = state ? [STATE_HINT, quantized].filter((h) => h !== undefined).join('\n') : quantized;
    this.items.set(id, { id, kind: 'io', title: graphLabel(v.name, 28), subtitle, node: undefined, cluster: undefined, members: [], alias: undefined, bodies: 0, expanded: false, ...(hint !== undefined && { hint }) });
    where.push({ id, width: boxWidth(graphLabel(v.name, 28), subtitle), height: 34 });
  }

  /** The box of the KV-cache inputs (or outputs) of one layer (kvBoxId), added to `where` on first use; returns its id. */
  private kvBox(v: InferredValue, role: 'input' | 'output', chain: readonly GraphCluster[], where: MutableBox[]): string {
    const layer = kvLayerOf(v.name);
    const id = kvBoxId(role, chain, v.name);
    const existing = this.kvBoxes.get(id);
    if (existing !== undefined) existing.values.push(v);
    else {
      const box: MutableBox = { id, width: 0, height: 34 };
      where.push(box);
      this.kvBoxes.set(id, { box, role, layer, values: [v] });
    }
    return id;
  }

  /** Titles and sizes the KV-cache boxes once every tensor they fold is known. */
  private finishKvBoxes(): void {
    for (const [id, { box, role, layer, values }] of this.kvBoxes) {
      const title = kvBoxTitle(role, layer);
      const known = values.every((v) => v.bytes !== undefined);
      const bytes = values.reduce((sum, v) => sum + (v.bytes ?? 0), 0);
      const subtitleOf = (sizes: string): string => `${role} · ${formatCount(values.length)} tensor${values.length === 1 ? '' : 's'} · ${sizes}`;
      const subtitle = subtitleOf(known ? formatBytes(bytes) : '?');
      const hint = values.map((v) => graphLabel(v.name, SHOWN_CHARS)).join('\n');
      this.items.set(id, { id, kind: 'io', title, subtitle, node: undefined, cluster: undefined, members: [], alias: undefined, bodies: 0, expanded: false, hint, tensors: values.map((v) => v.name) });
      box.width = boxWidth(title, subtitleOf(BYTES_SLOT));
    }
  }

  private linkValue(v: InferredValue, boxOfNode: readonly (string | undefined)[]): void {
    const source = v.producer !== undefined ? boxOfNode[v.producer] : v.kind === 'input' ? this.ioBox.get(`in:${v.name}`) : undefined;
    if (source === undefined) return;
    for (const c of new Set(v.consumers)) {
      const target = boxOfNode[c];
      if (target !== undefined) this.link(source, target, v);
    }
    const out = this.ioBox.get(`out:${v.name}`);
    if (out !== undefined) this.link(source, out, v);
  }

  private link(source: string, target: string, v: InferredValue): void {
    if (source === target) return;
    const id = `e:${source}>${target}`;
    const existing = this.links.get(id);
    if (existing === undefined) this.links.set(id, { source, target, values: [v] });
    else if (!existing.values.includes(v)) existing.values.push(v);
  }
}

/**
 * Orders every container's boxes by `rank` (stable): groups are created when
 * first reached, often by a graph input before any of their nodes, and the
 * layered layout reads a container's order as the model's.
 */
function sortByOrder(boxes: MutableBox[], rank: ReadonlyMap<string, number>): void {
  const at = (b: MutableBox): number => rank.get(b.id) ?? Infinity;
  boxes.sort((a, b) => at(a) - at(b));
  for (const b of boxes) if (b.children !== undefined && rank.has(b.id)) sortByOrder(b.children, rank);
}
