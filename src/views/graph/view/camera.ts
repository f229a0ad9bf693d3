// The graph pane's camera as plain numbers: a view is a translation (x, y)
// in pane pixels and a scale k, so a graph point p shows at p * k + (x, y),
// as d3-zoom's transform has it. The fit of the whole graph, the first view,
// the move that centres a box and the part of the graph a view shows are
// computed here, pure, and tested to the pixel (graph-camera.test.ts);
// graph-view.tsx hands them to d3-zoom.

import type { PlacedBox } from '../../../worker/layout/protocol';
import { clearOfEdges } from './edge-clear';

/** A view: graph point p shows at pane pixel p * k + (x, y). */
export interface Camera {
  readonly x: number;
  readonly y: number;
  readonly k: number;
}

/** The pane, in CSS pixels. */
export interface PaneSize {
  readonly width: number;
  readonly height: number;
}

/** The laid-out graph: its extent and boxes. */
export interface GraphExtent {
  readonly width: number;
  readonly height: number;
  readonly boxes: readonly PlacedBox[];
}

/** A rectangle of graph coordinates. */
export interface GraphRegion {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export const MAX_SCALE = 3;
export const MIN_SCALE = 0.01;
/** The scale a centred box is shown at, at least. */
export const READABLE = 0.75;
/** Below this the first view shows the top of the graph at a scale its labels read at, its whole width when that fits. */
export const READABLE_FIT = 0.6;
/** In a pane this small on both sides (an embed), the first view's labels need a larger scale: 12 px titles at 0.85 are 10 px. */
export const SMALL_PANE = 420;
export const READABLE_FIT_SMALL = 0.85;
/** The share of the pane a fitted graph fills. */
const FIT_FILL = 0.96;
/** The first view's margin from the pane's top and sides, in pixels. */
const FIRST_MARGIN = 8;

/** The whole graph centred in the pane, at most at scale 1; undefined for an empty graph. */
export function fitCamera(size: PaneSize, graph: Pick<GraphExtent, 'width' | 'height'>): Camera | undefined {
  if (graph.width === 0 || graph.height === 0) return undefined;
  const k = Math.max(MIN_SCALE, Math.min(1, (FIT_FILL * size.width) / graph.width, (FIT_FILL * size.height) / graph.height));
  return { x: (size.width - graph.width * k) / 2, y: (size.height - graph.height * k) / 2, k };
}

/**
 * The first view: the whole graph; when that is too small to read, the top
 * of the graph across its whole width, or at READABLE_FIT (READABLE_FIT_SMALL
 * in a small pane) centred on its first input when even the width is too
 * wide (the minimap shows the rest), moved so that no box of that first
 * screen is cut by the pane's edge.
 */
export function startCamera(size: PaneSize, graph: GraphExtent): Camera | undefined {
  const fit = fitCamera(size, graph);
  const readable = Math.max(size.width, size.height) < SMALL_PANE ? READABLE_FIT_SMALL : READABLE_FIT;
  if (fit === undefined || fit.k >= readable) return fit;
  const k = Math.min(1, Math.max(readable, (FIT_FILL * size.width) / graph.width));
  const first = graph.boxes.find((b) => b.id.startsWith('in:')) ?? graph.boxes[0];
  const centred = (size.width - graph.width * k) / 2;
  if (centred >= 0) return { x: centred, y: FIRST_MARGIN, k };
  const onFirst = first === undefined ? centred : size.width / 2 - (first.x + first.width / 2) * k;
  const x = Math.min(FIRST_MARGIN, Math.max(size.width - graph.width * k - FIRST_MARGIN, onFirst));
  return { x: clearOfEdges(graph.boxes, x, { width: size.width, height: size.height, k, y: FIRST_MARGIN }), y: FIRST_MARGIN, k };
}

/**
 * The view that centres `box`, at least READABLE (or the scale at which the
 * box fills 1/1.4 of the pane's width, when that is smaller) and never
 * zoomed out; undefined when the box is already in view at a usable scale
 * and `always` is false. `hidden` is the pane's bottom-right corner the
 * minimap covers: a box under it counts as out of view.
 */
export function revealCamera(box: PlacedBox, size: PaneSize, current: Camera, always: boolean, hidden: PaneSize): Camera | undefined {
  const [x0, y0] = [box.x * current.k + current.x, box.y * current.k + current.y];
  const [x1, y1] = [(box.x + box.width) * current.k + current.x, (box.y + box.height) * current.k + current.y];
  const underMinimap = x1 > size.width - hidden.width && y1 > size.height - hidden.height;
  const visible = x0 >= 0 && y0 >= 0 && x1 <= size.width && y1 <= size.height && !underMinimap;
  if (visible && !always && current.k >= 0.3) return undefined;
  const k = Math.max(current.k, Math.min(READABLE, size.width / (box.width * 1.4)));
  return { x: size.width / 2 - (box.x + box.width / 2) * k, y: size.height / 2 - (box.y + box.height / 2) * k, k };
}

/** The part of the graph the pane shows under `camera`. */
export function visibleRegion(camera: Camera, size: PaneSize): GraphRegion {
  return { x0: -camera.x / camera.k, y0: -camera.y / camera.k, x1: (size.width - camera.x) / camera.k, y1: (size.height - camera.y) / camera.k };
}

/** What a large graph draws around a view: the view and one view's width and height on every side, so small pans draw nothing new. */
export function drawnRegion(view: GraphRegion): GraphRegion {
  const w = view.x1 - view.x0;
  const h = view.y1 - view.y0;
  return { x0: view.x0 - w, y0: view.y0 - h, x1: view.x1 + w, y1: view.y1 + h };
}

/** True when `view` lies inside `region`. */
export function covers(region: GraphRegion, view: GraphRegion): boolean {
  return view.x0 >= region.x0 && view.y0 >= region.y0 && view.x1 <= region.x1 && view.y1 <= region.y1;
}
