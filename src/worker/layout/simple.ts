// The fallback layout for graphs too large for ELK: longest-path layering of
// the leaf boxes, one barycentre pass down the layers to reduce crossings,
// straight edges, clusters as the bounding boxes of their members. Linear-ish
// in the size of the graph. No DOM, no UI libraries.

import type { GraphPlacement, LayoutBox, LayoutGraph, PlacedBox, PlacedLink } from './protocol';

const GAP_X = 24;
const GAP_Y = 44;
const MARGIN = 16;
const CLUSTER_PAD = 12;

interface Leaf {
  readonly box: LayoutBox;
  readonly clusters: readonly LayoutBox[]; // enclosing clusters, outermost first
  layer: number;
  order: number;
  x: number;
  y: number;
}

/** Lays out `graph` without ELK; see the module header. */
export function simpleLayout(graph: LayoutGraph): Omit<GraphPlacement, 'engine' | 'ms'> {
  const leaves: Leaf[] = [];
  const leafOf = new Map<string, Leaf>(); // any box id -> a leaf standing for it
  const visit = (box: LayoutBox, clusters: readonly LayoutBox[]): Leaf | undefined => {
    if (box.children === undefined || box.children.length === 0) {
      const leaf: Leaf = { box, clusters, layer: 0, order: 0, x: 0, y: 0 };
      leaves.push(leaf);
      leafOf.set(box.id, leaf);
      return leaf;
    }
    let first: Leaf | undefined;
    for (const child of box.children) {
      const leaf = visit(child, [...clusters, box]);
      first ??= leaf;
    }
    if (first !== undefined) leafOf.set(box.id, first);
    return first;
  };
  for (const box of graph.boxes) visit(box, []);
  const edges = graph.links.flatMap((l) => {
    const s = leafOf.get(l.source);
    const t = leafOf.get(l.target);
    return s === undefined || t === undefined || s === t ? [] : [{ link: l, s, t }];
  });
  assignLayers(leaves, edges);
  const layers = orderLayers(leaves, edges);
  placeLeaves(layers);
  const boxes: PlacedBox[] = leaves.map((l) => ({ id: l.box.id, x: l.x, y: l.y, width: l.box.width, height: l.box.height }));
  boxes.push(...clusterBoxes(leaves));
  const links: PlacedLink[] = edges.map(({ link, s, t }) => {
    const x0 = s.x + s.box.width / 2;
    const y0 = s.y + s.box.height;
    const x1 = t.x + t.box.width / 2;
    const y1 = t.y;
    const mx = (x0 + x1) / 2;
    const my = (y0 + y1) / 2;
    return { id: link.id, points: [x0, y0, x1, y1], labelX: link.label && mx - link.label.width / 2, labelY: link.label && my - link.label.height / 2 };
  });
  const width = Math.max(0, ...boxes.map((b) => b.x + b.width)) + MARGIN;
  const height = Math.max(0, ...boxes.map((b) => b.y + b.height)) + MARGIN;
  return { boxes, links, width, height };
}

type Edge = { readonly s: Leaf; readonly t: Leaf };

/** Longest path from the sources, in the leaves' order (topological for a model); edges pointing back are ignored. */
function assignLayers(leaves: readonly Leaf[], edges: readonly Edge[]): void {
  const index = new Map(leaves.map((l, i) => [l, i]));
  const incoming = new Map<Leaf, Leaf[]>();
  for (const e of edges) if (index.get(e.s)! < index.get(e.t)!) pushTo(incoming, e.t, e.s);
  for (const leaf of leaves) for (const s of incoming.get(leaf) ?? []) leaf.layer = Math.max(leaf.layer, s.layer + 1);
}

/** Groups leaves by layer; orders each layer by the mean position of its parents. */
function orderLayers(leaves: readonly Leaf[], edges: readonly Edge[]): Leaf[][] {
  const layers: Leaf[][] = [];
  for (const leaf of leaves) (layers[leaf.layer] ??= []).push(leaf);
  const parents = new Map<Leaf, Leaf[]>();
  for (const e of edges) pushTo(parents, e.t, e.s);
  const filled = layers.filter((l) => l !== undefined);
  for (const layer of filled) {
    const key = (l: Leaf): number => {
      const ps = parents.get(l) ?? [];
      return ps.length === 0 ? l.order : ps.reduce((a, p) => a + p.order, 0) / ps.length;
    };
    const keys = new Map(layer.map((l) => [l, key(l)]));
    layer.sort((a, b) => keys.get(a)! - keys.get(b)!);
    layer.forEach((l, i) => (l.order = i));
  }
  return filled;
}

/** Rows top to bottom, each centred on the widest row. */
function placeLeaves(layers: readonly Leaf[][]): void {
  const widths = layers.map((layer) => layer.reduce((w, l) => w + l.box.width + GAP_X, -GAP_X));
  const widest = Math.max(0, ...widths);
  let y = MARGIN + CLUSTER_PAD * 3;
  layers.forEach((layer, i) => {
    let x = MARGIN + (widest - widths[i]!) / 2;
    const rowHeight = Math.max(...layer.map((l) => l.box.height));
    for (const leaf of layer) {
      leaf.x = x;
      leaf.y = y;
      x += leaf.box.width + GAP_X;
    }
    y += rowHeight + GAP_Y;
  });
}

/** Each cluster as the bounding box of its members, padded by its depth. */
function clusterBoxes(leaves: readonly Leaf[]): PlacedBox[] {
  const bounds = new Map<LayoutBox, { x0: number; y0: number; x1: number; y1: number; depth: number }>();
  for (const leaf of leaves) {
    leaf.clusters.forEach((c, depth) => {
      const pad = CLUSTER_PAD * (leaf.clusters.length - depth);
      const b = bounds.get(c) ?? { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, depth };
      b.x0 = Math.min(b.x0, leaf.x - pad);
      b.y0 = Math.min(b.y0, leaf.y - pad - (c.padTop ?? 28) + CLUSTER_PAD);
      b.x1 = Math.max(b.x1, leaf.x + leaf.box.width + pad);
      b.y1 = Math.max(b.y1, leaf.y + leaf.box.height + pad);
      bounds.set(c, b);
    });
  }
  return [...bounds].map(([c, b]) => ({ id: c.id, x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0 }));
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
