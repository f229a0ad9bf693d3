// Runs a graph layout: ELK's layered algorithm (in this thread, through elkjs'
// bundled, worker-less build) for small graphs, the bounded layered layout
// (layered.ts) for graphs up to LAYERED_BOX_LIMIT boxes, and the simple
// layout beyond (or when another fails). For graphs ELK lays out, the layered
// layout is delivered first as a preview, so the client can keep it when ELK
// passes its time budget. Used by the layout worker and the benchmark.
// No DOM, no UI libraries.

import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkEdgeSection, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { layeredLayout } from './layered';
import type { GraphPlacement, LayoutBox, LayoutEngine, LayoutGraph, PlacedBox, PlacedLink } from './protocol';
import { simpleLayout } from './simple';

/** Up to this many boxes (and ELK_LINK_LIMIT edges), 'auto' asks ELK, after a layered preview. */
export const ELK_BOX_LIMIT = 300;
const ELK_LINK_LIMIT = 900;
/** Up to this many boxes, 'auto' uses the layered layout; beyond, the simple one (and says so). */
export const LAYERED_BOX_LIMIT = 10_000;
/** Above this many boxes ELK layers by longest path: its network-simplex layering recurses once per node of a chain and overflows a worker's stack. */
const DEEP_GRAPH = 1000;

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

/** The engine 'auto' picks for `graph`. */
export function autoEngine(graph: LayoutGraph): Exclude<LayoutEngine, 'auto'> {
  const boxes = boxCount(graph.boxes);
  if (boxes <= ELK_BOX_LIMIT && graph.links.length <= ELK_LINK_LIMIT) return 'elk';
  return boxes <= LAYERED_BOX_LIMIT ? 'layered' : 'simple';
}

/**
 * Lays out `graph` with `engine` and passes each placement to `deliver`: with
 * 'auto', a graph ELK lays out gets the layered layout first (final: false).
 */
export async function runLayoutSteps(graph: LayoutGraph, engine: LayoutEngine, deliver: (placement: GraphPlacement, final: boolean) => void): Promise<void> {
  if (engine === 'auto' && autoEngine(graph) === 'elk' && boxCount(graph.boxes) > 1) deliver(await runLayout(graph, 'layered'), false);
  deliver(await runLayout(graph, engine), true);
}

/** Lays out `graph` with `engine` ('auto': see autoEngine); 'auto' falls back to the simple layout when an engine fails. */
export async function runLayout(graph: LayoutGraph, engine: LayoutEngine): Promise<GraphPlacement> {
  const started = performance.now();
  const chosen = engine === 'auto' ? autoEngine(graph) : engine;
  const ms = (): number => performance.now() - started;
  if (chosen === 'simple') {
    const note = engine === 'auto' ? `more than ${LAYERED_BOX_LIMIT.toLocaleString('en-US')} boxes: simple layout shown; collapse groups for the full one` : undefined;
    return { ...simpleLayout(graph), engine: 'simple', ms: ms(), ...(note !== undefined && { note }) };
  }
  try {
    if (chosen === 'layered') {
      const { stats: _stats, ...placed } = layeredLayout(graph);
      return { ...placed, engine: 'layered', ms: ms() };
    }
    return { ...(await elkLayout(graph)), engine: 'elk', ms: ms() };
  } catch (error) {
    // 'auto' must show a graph: ELK can run out of stack on very deep graphs.
    if (engine !== 'auto') throw error;
    const note = `${chosen === 'elk' ? 'ELK' : 'the layered layout'} failed (${error instanceof Error ? error.message : String(error)}); simple layout shown`;
    return { ...simpleLayout(graph), engine: 'simple', ms: ms(), note };
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
