// Runs a graph layout: ELK's layered algorithm (in this thread, through elkjs'
// bundled, worker-less build) or the simple layered fallback for graphs too
// large for ELK to stay quick; for mid-sized graphs the fallback is delivered
// first, as a preview, while ELK works. Used by the layout worker and the
// benchmark. No DOM, no UI libraries.

import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkEdgeSection, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { GraphPlacement, LayoutBox, LayoutEngine, LayoutGraph, PlacedBox, PlacedLink } from './layout-protocol';
import { simpleLayout } from './layout-simple';

/**
 * Above this many boxes, 'auto' uses the simple layout: ELK's time grows
 * faster than linearly. (Should ELK fail below it, e.g. out of stack on a very
 * deep graph, 'auto' falls back to the simple layout too.)
 */
export const ELK_BOX_LIMIT = 6000;
/** Above this many boxes ELK layers by longest path: its network-simplex layering recurses once per node of a chain and overflows a worker's stack. */
const DEEP_GRAPH = 1000;
/** Above this many boxes, 'auto' delivers the simple layout as a preview before ELK's. */
export const PREVIEW_ABOVE = 400;

/** ELK options: top-down layered layout over clusters, coordinates relative to the root. */
const ELK_OPTIONS: Readonly<Record<string, string>> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.json.shapeCoords': 'ROOT',
  'elk.json.edgeCoords': 'ROOT',
  'elk.spacing.nodeNode': '24',
  'elk.layered.spacing.nodeNodeBetweenLayers': '28',
  'elk.spacing.edgeLabel': '2',
  'elk.edgeLabels.placement': 'CENTER',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.padding': '[top=16,left=16,bottom=16,right=16]',
};

let elk: InstanceType<typeof ELK> | undefined;

/**
 * Creates the ELK instance now. Its first construction loads ELK's worker
 * code, which (inside a worker) installs itself as the global message handler;
 * a worker entry calls this before installing its own.
 */
export function prepareElk(): InstanceType<typeof ELK> {
  elk ??= new ELK();
  return elk;
}

/** The number of boxes of `graph`, clusters included. */
export function boxCount(boxes: readonly LayoutBox[]): number {
  return boxes.reduce((n, b) => n + 1 + boxCount(b.children ?? []), 0);
}

/**
 * Lays out `graph` with `engine` and passes each placement to `deliver`: with
 * 'auto', a graph of more than PREVIEW_ABOVE boxes (up to ELK_BOX_LIMIT) gets
 * the simple layout first (final: false), then ELK's (final: true).
 */
export async function runLayoutSteps(graph: LayoutGraph, engine: LayoutEngine, deliver: (placement: GraphPlacement, final: boolean) => void): Promise<void> {
  const boxes = boxCount(graph.boxes);
  if (engine === 'auto' && boxes > PREVIEW_ABOVE && boxes <= ELK_BOX_LIMIT) deliver(await runLayout(graph, 'simple'), false);
  deliver(await runLayout(graph, engine), true);
}

/** Lays out `graph` with `engine` ('auto': ELK up to ELK_BOX_LIMIT boxes). */
export async function runLayout(graph: LayoutGraph, engine: LayoutEngine): Promise<GraphPlacement> {
  const started = performance.now();
  const useElk = engine === 'elk' || (engine === 'auto' && boxCount(graph.boxes) <= ELK_BOX_LIMIT);
  if (!useElk) return { ...simpleLayout(graph), engine: 'simple', ms: performance.now() - started };
  try {
    return { ...(await elkLayout(graph)), engine: 'elk', ms: performance.now() - started };
  } catch (error) {
    // 'auto' must show a graph: ELK can run out of stack on very deep graphs.
    if (engine !== 'auto') throw error;
    const note = `ELK failed (${error instanceof Error ? error.message : String(error)}); simple layout shown`;
    return { ...simpleLayout(graph), engine: 'simple', ms: performance.now() - started, note };
  }
}

async function elkLayout(graph: LayoutGraph): Promise<Omit<GraphPlacement, 'engine' | 'ms'>> {
  const engine = prepareElk();
  const count = boxCount(graph.boxes);
  const root: ElkNode = {
    id: '__root',
    layoutOptions: {
      ...ELK_OPTIONS,
      // Edges may cross cluster borders. (The recursive, per-level layout also overflows a worker's stack on long chains.)
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      // Crossing minimization dominates the time of large graphs: fewer sweeps there.
      'elk.layered.thoroughness': count > DEEP_GRAPH ? '1' : count > 300 ? '3' : '7',
      'elk.layered.layering.strategy': count > DEEP_GRAPH ? 'LONGEST_PATH_SOURCE' : 'NETWORK_SIMPLEX',
    },
    children: graph.boxes.map(elkNode),
    edges: graph.links.map(
      (l): ElkExtendedEdge => ({
        id: l.id,
        sources: [l.source],
        targets: [l.target],
        ...(l.label !== undefined && { labels: [{ id: `${l.id}:label`, text: l.label.text, width: l.label.width, height: l.label.height }] }),
      }),
    ),
  };
  const result = await engine.layout(root);
  const boxes: PlacedBox[] = [];
  collectBoxes(result.children ?? [], boxes);
  const links = (result.edges ?? []).map(placedLink);
  return { boxes, links, width: result.width ?? 0, height: result.height ?? 0 };
}

function elkNode(box: LayoutBox): ElkNode {
  if (box.children === undefined || box.children.length === 0) return { id: box.id, width: box.width, height: box.height };
  const top = box.padTop ?? 28;
  return {
    id: box.id,
    layoutOptions: { 'elk.padding': `[top=${top},left=12,bottom=12,right=12]`, 'elk.nodeSize.minimum': `(${box.width},${box.height})`, 'elk.nodeSize.constraints': 'MINIMUM_SIZE' },
    children: box.children.map(elkNode),
  };
}

function collectBoxes(nodes: readonly ElkNode[], out: PlacedBox[]): void {
  for (const n of nodes) {
    out.push({ id: n.id, x: n.x ?? 0, y: n.y ?? 0, width: n.width ?? 0, height: n.height ?? 0 });
    if (n.children !== undefined) collectBoxes(n.children, out);
  }
}

function placedLink(edge: ElkExtendedEdge): PlacedLink {
  const points: number[] = [];
  for (const s of (edge.sections ?? []) as ElkEdgeSection[]) {
    points.push(s.startPoint.x, s.startPoint.y);
    for (const p of s.bendPoints ?? []) points.push(p.x, p.y);
    points.push(s.endPoint.x, s.endPoint.y);
  }
  const label = edge.labels?.[0];
  return { id: edge.id, points, labelX: label?.x, labelY: label?.y };
}
