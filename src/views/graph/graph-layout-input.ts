// Turns a model and its plan into the graph the layout worker places: one box
// per node (or per collapsed cluster), nested boxes for expanded clusters and
// If/Loop bodies, boxes for the graph's inputs and outputs, and one edge per
// producer-consumer pair labelled with shape and size. Also returns what the
// drawing needs to know about every box and edge. Pure; no DOM, no React.

import type { InferredGraph, InferredModel, InferredValue } from '../../model/inferred';
import type { ModelPlan } from '../../planner/plan';
import { formatBytes, formatShape } from '../../shared/format';
import type { LayoutGraph, LayoutLink } from '../../worker/layout-protocol';
import { aliasMarks, graphClusters, type AliasMark, type GraphCluster } from './graph-clusters';

/** What a drawn box is. */
export type GraphItemKind = 'op' | 'io' | 'cluster' | 'collapsed' | 'body' | 'body-op';

/** A drawn box: its text and what it stands for. */
export interface GraphItem {
  readonly id: string;
  readonly kind: GraphItemKind;
  readonly title: string; // op type, cluster name, tensor name
  readonly subtitle: string; // node name, node count, 'input'
  readonly node: number | undefined; // model node index (op, and an op whose body is shown)
  readonly cluster: GraphCluster | undefined; // for 'cluster' and 'collapsed'
  readonly members: readonly number[]; // model node indices it stands for
  readonly alias: AliasMark | undefined;
  readonly bodies: number; // If/Loop/Scan bodies of the node (0 for others)
  readonly expanded: boolean; // a cluster, or an op whose bodies are shown
}

/** A drawn edge: the tensors it carries, labelled. */
export interface GraphEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly values: readonly string[]; // tensor names
  readonly text: string; // '1×32×80×80 · 800 KiB', or 'N tensors · bytes'
}

/** What the user has opened or closed. */
export interface GraphToggles {
  readonly collapsed: ReadonlySet<string>; // cluster ids
  readonly bodies: ReadonlySet<string>; // ids of ops whose bodies are shown
}

/** The layout worker's input and the drawing's lookups. */
export interface GraphLayoutInput {
  readonly graph: LayoutGraph;
  readonly items: ReadonlyMap<string, GraphItem>;
  readonly edges: ReadonlyMap<string, GraphEdge>;
  readonly boxOfNode: readonly string[]; // by model node index: the box that shows it
  readonly clusters: readonly GraphCluster[];
}

const CHAR = 6.6; // px per character of the 11px labels
const TITLE_CHAR = 7.4;
const LABEL_CHAR = 5.9; // px per character of the 10px edge labels
const BOX_HEIGHT = 40;
const MAX_NAME = 32;
const CLUSTER_TITLE = 30;

/** Shortens a long name from the middle. */
export function shortName(name: string, max = MAX_NAME): string {
  return name.length <= max ? name : `${name.slice(0, Math.ceil(max / 2) - 1)}…${name.slice(name.length - Math.floor(max / 2))}`;
}

function boxWidth(title: string, subtitle: string, extra = 0): number {
  return Math.round(Math.max(80, title.length * TITLE_CHAR, shortName(subtitle).length * CHAR) + 24 + extra);
}

/** The text of an edge carrying `values`. */
export function edgeText(values: readonly InferredValue[]): string {
  if (values.length === 1) return `${formatShape(values[0]!.shape)} · ${formatBytes(values[0]!.bytes)}`;
  const known = values.every((v) => v.bytes !== undefined);
  const total = values.reduce((sum, v) => sum + (v.bytes ?? 0), 0);
  return `${values.length} tensors · ${known ? formatBytes(total) : '?'}`;
}

/** Builds the layout input of `model` with `plan`'s clusters and marks; see the module header. */
export function graphLayoutInput(model: InferredModel, plan: ModelPlan | undefined, toggles: GraphToggles, clusters = graphClusters(model, plan)): GraphLayoutInput {
  return new InputBuilder(model, plan, toggles, clusters).build();
}

interface MutableBox {
  id: string;
  width: number;
  height: number;
  padTop?: number;
  children?: MutableBox[];
}

class InputBuilder {
  private readonly items = new Map<string, GraphItem>();
  private readonly boxes = new Map<string, MutableBox>();
  private readonly roots: MutableBox[] = [];
  private readonly links = new Map<string, { source: string; target: string; values: InferredValue[] }>();
  private readonly byId: ReadonlyMap<string, GraphCluster>;
  private readonly chain: (readonly GraphCluster[])[]; // by node: enclosing clusters, outermost first
  private readonly marks: ReadonlyMap<string, AliasMark>;

  constructor(
    private readonly model: InferredModel,
    plan: ModelPlan | undefined,
    private readonly toggles: GraphToggles,
    private readonly clusters: readonly GraphCluster[],
  ) {
    this.byId = new Map(clusters.map((c) => [c.id, c]));
    this.marks = aliasMarks(plan);
    const inner = new Map<number, GraphCluster>();
    for (const c of clusters) for (const i of c.nodes) if (!inner.has(i) || c.parent !== undefined) inner.set(i, c);
    this.chain = model.nodes.map((_, i) => {
      const out: GraphCluster[] = [];
      for (let c = inner.get(i); c !== undefined; c = c.parent === undefined ? undefined : this.byId.get(c.parent)) out.unshift(c);
      return out;
    });
  }

  build(): GraphLayoutInput {
    const { model } = this;
    const values = new Map(model.values.map((v) => [v.name, v]));
    for (const name of model.inputs) if (values.get(name)?.kind === 'input') this.addIo(name, 'input');
    const boxOfNode = model.nodes.map((_, i) => this.addNode(i));
    for (const name of model.outputs) this.addIo(name, 'output');
    for (const v of model.values) this.linkValue(v, boxOfNode);
    const edges = new Map<string, GraphEdge>();
    const links: LayoutLink[] = [];
    for (const [id, l] of this.links) {
      const text = edgeText(l.values);
      edges.set(id, { id, source: l.source, target: l.target, values: l.values.map((v) => v.name), text });
      links.push({ id, source: l.source, target: l.target, label: { text, width: Math.round(text.length * LABEL_CHAR + 6), height: 14 } });
    }
    return { graph: { boxes: this.roots, links }, items: this.items, edges, boxOfNode, clusters: this.clusters };
  }

  private addIo(name: string, role: 'input' | 'output'): void {
    const id = `${role === 'input' ? 'in' : 'out'}:${name}`;
    if (this.items.has(id)) return;
    this.items.set(id, { id, kind: 'io', title: shortName(name, 28), subtitle: role, node: undefined, cluster: undefined, members: [], alias: undefined, bodies: 0, expanded: false });
    this.roots.push({ id, width: boxWidth(shortName(name, 28), role), height: 34 });
  }

  /** Adds node `i` (or the collapsed cluster hiding it); returns the id of the box that shows it. */
  private addNode(i: number): string {
    let container = this.roots;
    for (const c of this.chain[i]!) {
      const collapsed = this.toggles.collapsed.has(c.id);
      const box = this.clusterBox(c, container, collapsed);
      if (collapsed) return c.id;
      container = box.children!;
    }
    const node = this.model.nodes[i]!;
    const id = `n${i}`;
    const expanded = node.subgraphs.length > 0 && this.toggles.bodies.has(id);
    const alias = this.marks.get(node.name);
    this.items.set(id, { id, kind: 'op', title: node.opType, subtitle: node.name, node: i, cluster: undefined, members: [i], alias, bodies: node.subgraphs.length, expanded });
    const box: MutableBox = { id, width: boxWidth(node.opType, node.name, alias !== undefined ? 48 : node.subgraphs.length > 0 ? 22 : 0), height: BOX_HEIGHT };
    if (expanded) this.addBodies(box, node.subgraphs, id);
    container.push(box);
    return id;
  }

  private clusterBox(c: GraphCluster, container: MutableBox[], collapsed: boolean): MutableBox {
    const existing = this.boxes.get(c.id);
    if (existing !== undefined) return existing;
    const title = `${c.label} ${c.detail}`;
    const count = `${c.nodes.length} node${c.nodes.length === 1 ? '' : 's'}`;
    const box: MutableBox = collapsed
      ? { id: c.id, width: boxWidth(shortName(c.label, CLUSTER_TITLE), `${c.detail} · ${count}`, 18), height: BOX_HEIGHT + 4 }
      : { id: c.id, width: Math.round(Math.min(CLUSTER_TITLE, title.length) * CHAR + 70), height: BOX_HEIGHT, padTop: 30, children: [] };
    this.items.set(c.id, { id: c.id, kind: collapsed ? 'collapsed' : 'cluster', title: shortName(c.label, CLUSTER_TITLE), subtitle: `${c.detail} · ${count}`, node: undefined, cluster: c, members: c.nodes, alias: undefined, bodies: 0, expanded: !collapsed });
    this.boxes.set(c.id, box);
    container.push(box);
    return box;
  }

  /** Shows the bodies of op `owner` inside its box, one nested box per body. */
  private addBodies(box: MutableBox, bodies: readonly InferredGraph[], owner: string): void {
    box.padTop = 30;
    box.children = bodies.map((body, k) => {
      const id = `${owner}/g${k}`;
      this.items.set(id, { id, kind: 'body', title: shortName(body.name || `body ${k}`, CLUSTER_TITLE), subtitle: `${body.nodes.length} nodes`, node: undefined, cluster: undefined, members: [], alias: undefined, bodies: 0, expanded: true });
      const children = body.nodes.map((n, j): MutableBox => {
        const nid = `${id}/${j}`;
        const expanded = n.subgraphs.length > 0 && this.toggles.bodies.has(nid);
        this.items.set(nid, { id: nid, kind: 'body-op', title: n.opType, subtitle: n.name, node: undefined, cluster: undefined, members: [], alias: undefined, bodies: n.subgraphs.length, expanded });
        const inner: MutableBox = { id: nid, width: boxWidth(n.opType, n.name, n.subgraphs.length > 0 ? 22 : 0), height: BOX_HEIGHT };
        if (expanded) this.addBodies(inner, n.subgraphs, nid);
        return inner;
      });
      for (const v of body.values) {
        if (v.producer === undefined) continue;
        for (const c of new Set(v.consumers)) this.link(`${id}/${v.producer}`, `${id}/${c}`, v);
      }
      return { id, width: 120, height: BOX_HEIGHT, padTop: 28, children: children.length > 0 ? children : undefined };
    });
  }

  private linkValue(v: InferredValue, boxOfNode: readonly string[]): void {
    const source = v.producer !== undefined ? boxOfNode[v.producer] : v.kind === 'input' && this.items.has(`in:${v.name}`) ? `in:${v.name}` : undefined;
    if (source === undefined) return;
    for (const c of new Set(v.consumers)) this.link(source, boxOfNode[c]!, v);
    if (this.items.has(`out:${v.name}`)) this.link(source, `out:${v.name}`, v);
  }

  private link(source: string, target: string, v: InferredValue): void {
    if (source === target) return;
    const id = `e:${source}>${target}`;
    const existing = this.links.get(id);
    if (existing === undefined) this.links.set(id, { source, target, values: [v] });
    else if (!existing.values.includes(v)) existing.values.push(v);
  }
}
