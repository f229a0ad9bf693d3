// The layered layout the page uses for graphs too large for ELK to be quick (up
// to LAYERED_BOX_LIMIT boxes): each cluster is laid out on its own, innermost
// first, as one level of boxes (level.ts), and then placed as one box in
// its parent's level; an edge between clusters is routed at the level of the
// clusters that hold its ends. Work and memory are bounded (LayeredLimits).
// No DOM, no UI libraries.

import { layoutLevel, type LayeredLimits, type LayeredStats, type LevelPlacement } from './level';
import type { GraphPlacement, LayoutBox, LayoutGraph, LayoutLink, PlacedBox, PlacedLink } from './protocol';

/** The default bounds: a few hundred thousand slots at most, whatever the input. */
export const LAYERED_LIMITS: LayeredLimits = { maxDummies: 40_000, sweepWork: 2_000_000, maxSweeps: 6 };
/** Points of an edge's route at most (a longer route is thinned). */
const MAX_ROUTE = 120;
const PAD = 12;
const MARGIN = 16;

interface Frame {
  readonly box: LayoutBox | undefined; // undefined for the root
  readonly children: readonly LayoutBox[];
  readonly edges: [number, number][]; // between children, by index
  readonly edgeIndex: Map<string, number>; // 'a>b' -> index into edges
  placed?: LevelPlacement;
  width: number;
  height: number;
}

/** The placement of `graph` and what its bounds cost. See the module header. */
export function layeredLayout(graph: LayoutGraph, limits: LayeredLimits = LAYERED_LIMITS): Omit<GraphPlacement, 'engine' | 'ms'> & { readonly stats: LayeredStats } {
  const frames = new Map<LayoutBox | undefined, Frame>();
  const path = new Map<string, LayoutBox[]>(); // box id -> its chain of boxes from the top, itself last
  const visit = (box: LayoutBox | undefined, children: readonly LayoutBox[], chain: LayoutBox[]): void => {
    frames.set(box, { box, children, edges: [], edgeIndex: new Map(), width: 0, height: 0 });
    for (const c of children) {
      const own = [...chain, c];
      path.set(c.id, own);
      if (c.children !== undefined && c.children.length > 0) visit(c, c.children, own);
    }
  };
  visit(undefined, graph.boxes, []);
  const routed = graph.links.map((l) => routeOf(l, path, frames));
  const stats: LayeredStats = { dummies: 0, straight: 0, sweeps: 0 };
  // Innermost first: a frame's size is known before its parent lays it out as a box.
  const order = [...frames.values()].sort((a, b) => depth(b, path) - depth(a, path));
  for (const f of order) {
    const nodes = f.children.map((c) => (frames.has(c) ? { width: Math.max(c.width, frames.get(c)!.width), height: frames.get(c)!.height } : c));
    f.placed = layoutLevel(nodes, f.edges, limits, stats);
    const pad = f.box === undefined ? MARGIN : PAD;
    f.width = f.placed.width + 2 * pad;
    f.height = f.placed.height + pad + (f.box === undefined ? MARGIN : (f.box.padTop ?? 28));
  }
  const boxes: PlacedBox[] = [];
  const at = new Map<string, PlacedBox>();
  const offset = new Map<LayoutBox | undefined, [number, number]>([[undefined, [0, 0]]]);
  const place = (f: Frame, ox: number, oy: number): void => {
    const pad = f.box === undefined ? MARGIN : PAD;
    const top = f.box === undefined ? MARGIN : (f.box.padTop ?? 28);
    const extra = f.box === undefined ? 0 : Math.max(0, (f.box.width - f.width) / 2);
    offset.set(f.box, [ox + pad + extra, oy + top]);
    f.children.forEach((c, i) => {
      const inner = frames.get(c);
      const x = ox + pad + extra + f.placed!.x[i]!;
      const y = oy + top + f.placed!.y[i]!;
      const b: PlacedBox = { id: c.id, x, y, width: inner === undefined ? c.width : Math.max(c.width, inner.width), height: inner === undefined ? c.height : inner.height };
      boxes.push(b);
      at.set(c.id, b);
      if (inner !== undefined) place(inner, x, y);
    });
  };
  const root = frames.get(undefined)!;
  place(root, 0, 0);
  const links = graph.links.map((l, i) => placedLink(l, routed[i], at, offset));
  return { boxes, links, width: root.width, height: root.height, stats };
}

type Route = { readonly frame: Frame; readonly edge: number } | undefined;

/** Registers link `l` as an edge between the children of the frame holding both its ends. */
function routeOf(l: LayoutLink, path: ReadonlyMap<string, LayoutBox[]>, frames: ReadonlyMap<LayoutBox | undefined, Frame>): Route {
  const a = path.get(l.source);
  const b = path.get(l.target);
  if (a === undefined || b === undefined) return undefined;
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k += 1;
  if (k >= a.length || k >= b.length) return undefined; // one end encloses the other
  const frame = frames.get(k === 0 ? undefined : a[k - 1])!;
  const s = frame.children.indexOf(a[k]!);
  const t = frame.children.indexOf(b[k]!);
  const key = `${s}>${t}`;
  let edge = frame.edgeIndex.get(key);
  if (edge === undefined) {
    edge = frame.edges.length;
    frame.edges.push([s, t]);
    frame.edgeIndex.set(key, edge);
  }
  return { frame, edge };
}

function depth(f: Frame, path: ReadonlyMap<string, LayoutBox[]>): number {
  return f.box === undefined ? 0 : path.get(f.box.id)!.length;
}

/** From the bottom of the source through the route's dummies to the top of the target, label at the middle. */
function placedLink(l: LayoutLink, route: Route, at: ReadonlyMap<string, PlacedBox>, offset: ReadonlyMap<LayoutBox | undefined, [number, number]>): PlacedLink {
  const s = at.get(l.source);
  const t = at.get(l.target);
  if (s === undefined || t === undefined) return { id: l.id, points: [], labelX: undefined, labelY: undefined };
  const points = [s.x + s.width / 2, s.y + s.height];
  if (route !== undefined) {
    const [ox, oy] = offset.get(route.frame.box)!;
    const inner = route.frame.placed!.routes[route.edge]!;
    const step = Math.max(1, Math.ceil(inner.length / 2 / MAX_ROUTE));
    for (let i = 0; i < inner.length; i += 2 * step) points.push(inner[i]! + ox, inner[i + 1]! + oy);
  }
  points.push(t.x + t.width / 2, t.y);
  const m = Math.floor((points.length / 2 - 1) / 2) * 2;
  const mx = (points[m]! + points[m + 2]!) / 2;
  const my = (points[m + 1]! + points[m + 3]!) / 2;
  return { id: l.id, points, labelX: l.label && mx - l.label.width / 2, labelY: l.label && my - l.label.height / 2 };
}
