// Box sizes and helpers of the graph's layout input: text widths, the nested
// boxes of If/Loop bodies, and the structure key that names a layout (boxes,
// sizes and edges, not labels). Pure; no DOM, no React.

import type { InferredGraph, InferredValue } from '../../../model/inferred';
import { shortName } from '../../../shared/short-name';
import type { LayoutBox, LayoutGraph } from '../../../worker/layout/protocol';
import type { GraphItem } from '../graph-item';

/** A box being built. */
export interface MutableBox {
  id: string;
  width: number;
  height: number;
  padTop?: number;
  children?: MutableBox[];
}

/** px per character of the 11px labels, and of the bolder titles. */
export const CHAR = 6.6;
export const TITLE_CHAR = 7.4;
const MAX_NAME = 32;
const CLUSTER_TITLE = 30;
/** Characters of an op type in a box title. */
export const OP_TYPE = 40;
/** Height of an op box. */
export const BOX_HEIGHT = 40;
/**
 * Stands for a byte figure when a box is sized: as long as formatBytes gets
 * ('100.0 KiB', '10.00 MiB'), so sizes (which follow the dims) never change a
 * box's width, the structure key, or the layout.
 */
export const BYTES_SLOT = '000.0 KiB';

/** A name as a graph label: at most `max` characters, whole leading scopes dropped, so it keeps its last parts and never shows a number cut short. */
export function graphLabel(name: string, max = MAX_NAME): string {
  return shortName(name, max, 'scope');
}

/** The width of a box showing `title` over `subtitle`, plus `extra` pixels. */
export function boxWidth(title: string, subtitle: string, extra = 0): number {
  return Math.round(Math.max(80, title.length * TITLE_CHAR, graphLabel(subtitle).length * CHAR) + 24 + extra);
}

/** The nested boxes showing the bodies of op `owner` (one per body); registers their items and links. */
export function addBodies(
  box: MutableBox,
  bodies: readonly InferredGraph[],
  owner: string,
  items: Map<string, GraphItem>,
  link: (source: string, target: string, v: InferredValue) => void,
  open: ReadonlySet<string>,
): MutableBox[] {
  box.padTop = 30;
  return bodies.map((body, k) => {
    const id = `${owner}/g${k}`;
    items.set(id, { id, kind: 'body', title: graphLabel(body.name || `body ${k}`, CLUSTER_TITLE), subtitle: `${body.nodes.length} nodes`, node: undefined, cluster: undefined, members: [], alias: undefined, bodies: 0, expanded: true });
    const children = body.nodes.map((n, j): MutableBox => {
      const nid = `${id}/${j}`;
      const expanded = n.subgraphs.length > 0 && open.has(nid);
      const opType = graphLabel(n.opType, OP_TYPE);
      items.set(nid, { id: nid, kind: 'body-op', title: opType, subtitle: n.name, node: undefined, cluster: undefined, members: [], alias: undefined, bodies: n.subgraphs.length, expanded });
      const inner: MutableBox = { id: nid, width: boxWidth(opType, n.name, n.subgraphs.length > 0 ? 22 : 0), height: BOX_HEIGHT };
      if (expanded) inner.children = addBodies(inner, n.subgraphs, nid, items, link, open);
      return inner;
    });
    for (const v of body.values) {
      if (v.producer === undefined) continue;
      for (const c of new Set(v.consumers)) link(`${id}/${v.producer}`, `${id}/${c}`, v);
    }
    return { id, width: 120, height: BOX_HEIGHT, padTop: 28, children: children.length > 0 ? children : undefined };
  });
}

/** A short hash of the structure of `graph`: its boxes (ids, sizes, nesting) and its edges, not their labels. */
export function structureKey(graph: LayoutGraph): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  let length = 0;
  const feed = (s: string): void => {
    for (let i = 0; i < s.length; i += 1) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    length += s.length;
  };
  const walk = (boxes: readonly LayoutBox[]): void => {
    for (const b of boxes) {
      feed(`${b.id}:${b.width}x${b.height}:${b.padTop ?? ''}(`);
      if (b.children !== undefined) walk(b.children);
      feed(')');
    }
  };
  walk(graph.boxes);
  for (const l of graph.links) feed(`${l.source}>${l.target};`);
  return `${(h1 >>> 0).toString(36)}${(h2 >>> 0).toString(36)}-${length.toString(36)}`;
}
