// The graph pane's camera as plain numbers: a view is a translation (x, y)
// in pane pixels and a scale k, so a graph point p shows at p * k + (x, y),
// as d3-zoom's transform has it. The fit of the whole graph, the first view,
// Fit's view (the whole graph, or its top at a legible scale when the whole
// would be a strip of sub-pixel boxes, either clear of the minimap), the move that centres a box and the part of the graph a view shows are
// computed here, pure, and tested to the pixel (graph-camera.test.ts);
// graph-view.tsx hands them to d3-zoom.

import type { PlacedBox } from '../../../worker/layout/protocol';
import type { GraphRegion } from '../draw/draw-dense';
import { busiestOffset } from './edge-clear';

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

export const MAX_SCALE = 3;
export const MIN_SCALE = 0.01;
/** The scale a centred box is shown at, at least. */
export const READABLE = 0.75;
/** Below this the first view shows the top of the graph at a scale its labels read at, its whole width when that fits. */
export const READABLE_FIT = 0.6;
/** In a pane this small on both sides (an embed), the first view's labels need a larger scale: 12 px titles at 0.85 are 10 px. */
export const SMALL_PANE = 420;
export const READABLE_FIT_SMALL = 0.85;
/**
 * Below this scale a fitted graph's 40 px boxes are under 2 px tall: a strip
 * in which no box can be told apart (the 80-layer decoder expanded fits at
 * 0.002), so Fit shows such a graph from its top instead. The sample's 67
 * boxes fit at 0.1 and are still shown whole, as an outline of the graph.
 */
export const WHOLE_FIT_FROM = 0.05;
/** The scale Fit frames the top of such a graph at: 12 px titles at 0.75 are 9 px. */
export const LEGIBLE_FIT = READABLE;
/** The share of the pane a fitted graph fills. */
const FIT_FILL = 0.96;
/** A first view at a readable scale shows at least this many boxes whole (or every box that fits the pane)... */
export const FIRST_VIEW_BOXES = 4;
/**
 * ...or boxes whole filling this share of the pane, else it is Fit's view. The
 * sample's top fills 7 % of a 338 × 581 pane with 8 boxes, three fill 11 % of
 * a 640 × 400 embed's graph pane; tiny-llama's lone token ids filled 0.6 %.
 */
export const FIRST_VIEW_FILL = 0.05;
/**
 * The smallest scale the first view takes to show the top rows of a graph
 * wider than its pane whole, from their left: GPT-2's top (inputs, the
 * attention mask, the past KV cache beside the column) is 633 px wide, 0.4
 * in the 267 px pane of a 1024 × 640 window; at READABLE_FIT the KV cache
 * or the column was cut at an edge. Tops wider still keep READABLE_FIT.
 */
export const TOP_ROWS_MIN = 0.35;
/** The first view's margin from the pane's top and sides, in pixels. */
const FIRST_MARGIN = 8;
/** No minimap corner to keep clear of. */
const NO_CORNER: PaneSize = { width: 0, height: 0 };

/** The whole graph centred in the pane, at most at scale 1; undefined for an empty graph. */
export function fitCamera(size: PaneSize, graph: Pick<GraphExtent, 'width' | 'height'>): Camera | undefined {
  if (graph.width === 0 || graph.height === 0) return undefined;
  const k = Math.max(MIN_SCALE, Math.min(1, (FIT_FILL * size.width) / graph.width, (FIT_FILL * size.height) / graph.height));
  return { x: (size.width - graph.width * k) / 2, y: (size.height - graph.height * k) / 2, k };
}

/**
 * The first view: the whole graph; when that is too small to read, the top
 * of the graph across its whole width, or at READABLE_FIT (READABLE_FIT_SMALL
 * in a small pane) when even the width is too wide (the minimap shows the
 * rest): at the offset whose first screen shows the most graph inputs whole,
 * then the most boxes whole less those cut at the pane's sides, the nearest
 * to the first input among equals (edge-clear.ts's busiestOffset); but top
 * rows that fit the pane whole down to TOP_ROWS_MIN are shown so, from their
 * left (topRowsCamera), as no offset at READABLE_FIT can, and a top that
 * reads but whose rows are wider still, from their left at TOP_ROWS_MIN when
 * that shows boxes enough (narrowTopRowsCamera). A top
 * that is mostly empty, fewer than FIRST_VIEW_BOXES boxes whole (of those
 * the pane can hold) filling under FIRST_VIEW_FILL of it, opens on Fit's
 * view instead (`corner`: the minimap's, as fitViewCamera takes it):
 * tiny-llama's token ids sit alone at the top, read only far down, and its
 * first view was that one box over an empty pane. In a small pane (an embed)
 * three boxes fill it, and its top stays.
 */
export function startCamera(size: PaneSize, graph: GraphExtent, corner: PaneSize = NO_CORNER): Camera | undefined {
  const fit = fitCamera(size, graph);
  const readable = Math.max(size.width, size.height) < SMALL_PANE ? READABLE_FIT_SMALL : READABLE_FIT;
  if (fit === undefined || fit.k >= readable) return fit;
  const top = topCamera(size, graph, readable);
  const room = graph.boxes.filter((b) => b.width * top.k <= size.width && b.height * top.k <= size.height).length;
  const whole = wholeBoxes(graph.boxes, top, size);
  const filled = whole.reduce((area, b) => area + b.width * b.height * top.k * top.k, 0);
  if (whole.length >= Math.min(FIRST_VIEW_BOXES, room) || filled >= FIRST_VIEW_FILL * size.width * size.height) return (top.k === readable ? narrowTopRowsCamera(size, graph.boxes, top.k) : undefined) ?? top;
  return fitViewCamera(size, graph, corner);
}

/** The `boxes` that show whole in the pane under `camera`. */
export function wholeBoxes(boxes: readonly PlacedBox[], camera: Camera, size: PaneSize): readonly PlacedBox[] {
  const { x, y, k } = camera;
  return boxes.filter((b) => b.x * k + x >= 0 && b.y * k + y >= 0 && (b.x + b.width) * k + x <= size.width && (b.y + b.height) * k + y <= size.height);
}

/**
 * Fit's view: the whole graph while its boxes can be told apart at that
 * scale (WHOLE_FIT_FROM); a graph that only fits smaller (an expanded decoder of thousands of boxes, a
 * strip whose labels would be under a pixel) is framed from its top at
 * LEGIBLE_FIT (READABLE_FIT_SMALL in a small pane, when larger), on the
 * pane's width of that top that holds the most whole boxes and cuts none at
 * its sides, and the user pans or follows the minimap from there. `corner`
 * is the pane's bottom-right corner the minimap covers: the whole graph is
 * fitted beside or above it when it would reach under it, and the top of a
 * long graph, which reaches the pane's bottom, is framed left of it.
 */
export function fitViewCamera(size: PaneSize, graph: GraphExtent, corner: PaneSize = NO_CORNER): Camera | undefined {
  const fit = fitCamera(size, graph);
  if (fit === undefined) return undefined;
  if (fit.k >= WHOLE_FIT_FROM) return clearOfCorner(size, graph, fit, corner);
  const legible = Math.max(size.width, size.height) < SMALL_PANE ? Math.max(LEGIBLE_FIT, READABLE_FIT_SMALL) : LEGIBLE_FIT;
  return topCamera(size, graph, legible, 'busiest', corner);
}

/** `fit`, or when the fitted graph reaches under `corner`, the larger of the fits in the pane left of the corner and above it. */
function clearOfCorner(size: PaneSize, graph: GraphExtent, fit: Camera, corner: PaneSize): Camera {
  const right = fit.x + graph.width * fit.k;
  const bottom = fit.y + graph.height * fit.k;
  if (corner.width <= 0 || corner.height <= 0 || right <= size.width - corner.width || bottom <= size.height - corner.height) return fit;
  const beside = fitCamera({ width: size.width - corner.width, height: size.height }, graph);
  const above = fitCamera({ width: size.width, height: size.height - corner.height }, graph);
  if (beside === undefined || above === undefined) return fit;
  // Each is centred in its part of the pane; the other axis stays centred in the whole pane.
  const left = { ...beside, y: (size.height - graph.height * beside.k) / 2 };
  const top = { ...above, x: (size.width - graph.width * above.k) / 2 };
  return left.k >= top.k ? left : top;
}

/**
 * The top of `graph` at scale `readable`, or across its whole width when
 * that is larger (at most 1). When wider than the pane:
 * - `first` (the first view): where the most inputs, then boxes, show whole
 *   less those cut at the pane's sides, nearest its first input
 *   (edge-clear.ts's busiestOffset);
 * - `busiest` (Fit): on the pane's width less the minimap's `corner`, the
 *   window of the top that holds the most whole boxes and cuts none at its
 *   sides (busiestWindow), else the centre of the most whole boxes
 *   (busiestCentre), nearest the first input among equals.
 */
function topCamera(size: PaneSize, graph: GraphExtent, readable: number, on: 'first' | 'busiest' = 'first', corner: PaneSize = NO_CORNER): Camera {
  const k = Math.min(1, Math.max(readable, (FIT_FILL * size.width) / graph.width));
  const first = graph.boxes.find((b) => b.id.startsWith('in:')) ?? graph.boxes[0];
  const centred = (size.width - graph.width * k) / 2;
  if (centred >= 0) return { x: centred, y: FIRST_MARGIN, k };
  const rows = on === 'first' ? topRowsCamera(size, graph.boxes, k) : undefined;
  if (rows !== undefined) return rows;
  const near = first === undefined ? undefined : first.x + first.width / 2;
  if (on === 'busiest') {
    const span = (size.width - 2 * FIRST_MARGIN - corner.width) / k;
    const window = busiestWindow(graph.boxes, span, (size.height - FIRST_MARGIN) / k, near ?? graph.width / 2);
    if (window !== undefined) return { x: FIRST_MARGIN - window * k, y: FIRST_MARGIN, k };
  }
  const busiest = on === 'busiest' ? busiestCentre(graph.boxes, (size.width - 2 * FIRST_MARGIN) / k, (size.height - FIRST_MARGIN) / k, near ?? graph.width / 2) : undefined;
  const centre = busiest ?? near;
  const onFirst = centre === undefined ? centred : size.width / 2 - centre * k;
  const x = Math.min(FIRST_MARGIN, Math.max(size.width - graph.width * k - FIRST_MARGIN, onFirst));
  // The busiest window holds whole boxes already; moving it clear of every frame's edge could leave one box.
  if (busiest !== undefined) return { x, y: FIRST_MARGIN, k };
  return { x: busiestOffset(graph.boxes, x, { width: size.width, height: size.height, k, y: FIRST_MARGIN }), y: FIRST_MARGIN, k };
}

/**
 * For a first view at scale `k` whose top rows (the boxes that start on its
 * first screen, less frames wider than the pane) are wider than the pane:
 * the scale, down to TOP_ROWS_MIN, at which they fit it whole, from their
 * left edge, recounted as the smaller scale brings more rows on screen; when
 * a recount brings rows that would fit only below TOP_ROWS_MIN, the last
 * scale whose rows fit (a taller pane reaches deeper: GPT-2's at 1280 × 720
 * reached a wider row, and the first view fell back to READABLE_FIT, cutting
 * the past KV cache at the left edge). Undefined when they fit at `k` (any
 * offset can show them whole) or only below TOP_ROWS_MIN.
 */
function topRowsCamera(size: PaneSize, boxes: readonly PlacedBox[], k: number): Camera | undefined {
  const room = size.width - 2 * FIRST_MARGIN;
  let scale = k;
  let fitting: Camera | undefined;
  for (let pass = 0; pass < 4; pass += 1) {
    const rows = boxes.filter((b) => b.y * scale + FIRST_MARGIN < size.height && b.width * scale <= room);
    if (rows.length === 0) return fitting;
    const left = Math.min(...rows.map((b) => b.x));
    const span = Math.max(...rows.map((b) => b.x + b.width)) - left;
    if (span * scale <= room) return scale === k ? undefined : { x: FIRST_MARGIN - left * scale, y: FIRST_MARGIN, k: scale };
    if (room / span < TOP_ROWS_MIN) return fitting;
    scale = room / span;
    fitting = { x: FIRST_MARGIN - left * scale, y: FIRST_MARGIN, k: scale };
  }
  return fitting;
}

/**
 * For a first view at scale `k` whose top rows are wider than the pane even at
 * TOP_ROWS_MIN (topRowsCamera found no scale): the rows at TOP_ROWS_MIN from
 * their left edge, so every box of the first screen starts inside the pane and
 * only its right edge cuts, when that shows at least FIRST_VIEW_BOXES boxes
 * whole, a graph input among them; undefined when the rows fit at `k`, or otherwise (a lone box far left of the rest, as a decoder's
 * attention mask can be, keeps the readable offset). GPT-2's 633 px top in the
 * 193 px graph pane beside Growth at 1280 × 800 needs 0.28; at READABLE_FIT on
 * the offset with the most inputs whole, its "past KV cache · layer 0" box was
 * cut at the pane's left edge.
 */
function narrowTopRowsCamera(size: PaneSize, boxes: readonly PlacedBox[], k: number): Camera | undefined {
  const room = size.width - 2 * FIRST_MARGIN;
  const scale = TOP_ROWS_MIN;
  const top = boxes.filter((b) => b.y * k + FIRST_MARGIN < size.height && b.width * k <= room);
  if (scale >= k || top.length === 0 || (Math.max(...top.map((b) => b.x + b.width)) - Math.min(...top.map((b) => b.x))) * k <= room) return undefined;
  const rows = boxes.filter((b) => b.y * scale + FIRST_MARGIN < size.height && b.width * scale <= room);
  if (rows.length === 0) return undefined;
  const left = Math.min(...rows.map((b) => b.x));
  const camera = { x: FIRST_MARGIN - left * scale, y: FIRST_MARGIN, k: scale };
  const whole = wholeBoxes(boxes, camera, size);
  return whole.length >= FIRST_VIEW_BOXES && whole.some((b) => b.id.startsWith('in:')) ? camera : undefined;
}

/**
 * The left edge (graph x) of a `span`-wide window over the graph's top
 * `depth` that holds the most boxes of that top whole less those it cuts at
 * either side (boxes narrower than the window; a box reaching below the top
 * is cut by the bottom edge anyway and does not count), the nearest to
 * `near` among equals; moved to centre the boxes it holds when that scores
 * as well. Undefined when no window holds a box. Windows tried put a box at
 * the window's left or right edge, so the first box shown is whole.
 */
export function busiestWindow(boxes: readonly PlacedBox[], span: number, depth: number, near: number): number | undefined {
  const top = boxes.reduce((y, b) => Math.min(y, b.y), Infinity);
  const counted = boxes.filter((b) => b.y + b.height <= top + depth && b.width <= span);
  const inside = (left: number): readonly PlacedBox[] => counted.filter((b) => b.x >= left && b.x + b.width <= left + span);
  const score = (left: number): number => {
    let cut = 0;
    for (const b of counted) if (b.x < left + span && b.x + b.width > left && (b.x < left || b.x + b.width > left + span)) cut += 1;
    return inside(left).length - cut;
  };
  let best: { left: number; score: number } | undefined;
  for (const b of counted) {
    for (const left of [b.x, b.x + b.width - span]) {
      const value = score(left);
      const nearer = best !== undefined && Math.abs(left + span / 2 - near) < Math.abs(best.left + span / 2 - near);
      if (best === undefined || value > best.score || (value === best.score && nearer)) best = { left, score: value };
    }
  }
  if (best === undefined) return undefined;
  const held = inside(best.left);
  if (held.length === 0) return best.left;
  const centred = (Math.min(...held.map((b) => b.x)) + Math.max(...held.map((b) => b.x + b.width))) / 2 - span / 2;
  return score(centred) >= best.score ? centred : best.left;
}

/**
 * The centre (graph x) of the `span`-wide window over the graph's top `depth`
 * that holds the most whole boxes, the window nearest `near` among equals;
 * undefined when no box of the top fits a window. Each window starts at a
 * box's left edge; the boxes sorted by x make those inside a run.
 */
export function busiestCentre(boxes: readonly PlacedBox[], span: number, depth: number, near: number): number | undefined {
  const top = boxes.reduce((y, b) => Math.min(y, b.y), Infinity);
  const shown = boxes.filter((b) => b.y + b.height <= top + depth && b.width <= span).sort((a, b) => a.x - b.x);
  let best: { count: number; centre: number } | undefined;
  for (let i = 0; i < shown.length; i += 1) {
    const right = shown[i]!.x + span;
    let count = 0;
    let hi = -Infinity;
    for (let j = i; j < shown.length && shown[j]!.x <= right; j += 1) {
      const end = shown[j]!.x + shown[j]!.width;
      if (end > right) continue;
      count += 1;
      hi = Math.max(hi, end);
    }
    const centre = (shown[i]!.x + hi) / 2;
    if (best === undefined || count > best.count || (count === best.count && Math.abs(centre - near) < Math.abs(best.centre - near))) best = { count, centre };
  }
  return best?.centre;
}

/**
 * The view that centres `box`, at least READABLE (or the scale at which the
 * box fills 1/1.4 of the pane's width, when that is smaller) and never
 * zoomed out; undefined when the box is already in view at a usable scale
 * and `always` is false; a box larger than the pane at that scale (a
 * group's frame) is shown from its top-left corner. `hidden` is the pane's
 * bottom-right corner the minimap covers: a box under it counts as out of
 * view.
 */
export function revealCamera(box: PlacedBox, size: PaneSize, current: Camera, always: boolean, hidden: PaneSize): Camera | undefined {
  const [x0, y0] = [box.x * current.k + current.x, box.y * current.k + current.y];
  const [x1, y1] = [(box.x + box.width) * current.k + current.x, (box.y + box.height) * current.k + current.y];
  const underMinimap = x1 > size.width - hidden.width && y1 > size.height - hidden.height;
  const visible = x0 >= 0 && y0 >= 0 && x1 <= size.width && y1 <= size.height && !underMinimap;
  if (visible && !always && current.k >= 0.3) return undefined;
  const k = Math.max(current.k, Math.min(READABLE, size.width / (box.width * 1.4)));
  // A group wider or taller than the pane at k shows from its top-left corner, where its title is, not cut on both sides.
  const x = box.width * k > size.width ? FIRST_MARGIN - box.x * k : size.width / 2 - (box.x + box.width / 2) * k;
  const y = box.height * k > size.height ? FIRST_MARGIN - box.y * k : size.height / 2 - (box.y + box.height / 2) * k;
  return { x, y, k };
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

/** True when two views differ by under half a pixel and a thousandth of scale: the user has not moved from the one the pane set. */
export function sameView(a: Camera, b: Camera): boolean {
  return Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && Math.abs(a.k - b.k) < 0.001;
}

/** What decides whether a new placement gets the first view again. */
export interface RelayoutChange {
  readonly first: boolean; // the model's first placement
  readonly finalOfPreview: boolean; // the final layout replacing a preview of the first view, of the same structure
  readonly groupsChanged: boolean; // functions or fusion units differ from the placement drawn (another target, switches)
  readonly finalOfRefit: boolean; // the final layout after a preview that was re-fitted for new groups
  readonly userMoved: boolean; // the view is not the one the pane set last (a pan, a zoom, a box revealed)
}

/**
 * Whether a new placement is shown at the first view (startCamera): the first
 * placement, and its final layout after a preview; a layout whose groups
 * changed (the old view may show only frames, or nothing), and its final
 * layout after that preview, unless the user has moved the view since the
 * pane set it. Any other re-layout keeps the view.
 */
export function refitsView(change: RelayoutChange): boolean {
  if (change.first || change.finalOfPreview) return true;
  return !change.userMoved && (change.groupsChanged || change.finalOfRefit);
}
