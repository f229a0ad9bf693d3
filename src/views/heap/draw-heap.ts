// Draws the heap diagram on a 2D canvas: per lane, one rectangle per buffer
// (coloured by kind; buffers sharing another's bytes hatched and outlined over
// it; buffers that spilled from a faster region with a notch in the corner), the lower-bound line, the peak line and marker, the size limit (at
// the arena bytes the weights below it leave, with the part of the lane above it
// tinted when the plan overflows; its label is in the lane's title row,
// heap-axes.ts); under
// the lanes, the live bytes over time per lane; the selected step as a band.
// Culls buffers outside the view; returns how many rectangles it drew.

import { LABEL_MIN, MAX_LABELS, SPILL_MARK } from './buffer-marks';
import type { ZoomTransform } from 'd3';
import { shortName } from '../../shared/short-name';
import { KIND_CLASSES } from './buffer-classes';
import type { HeapData, HeapLane } from './heap-data';
import type { HeapLayout, HeapScales } from './heap-geometry';
import type { HeapPalette } from './heap-palette';
import { drawCurve, drawStepBand, type CurveKeyHit } from './draw-curve';
import { peakMarkerBox } from './lane-limit';

/** What to draw besides the buffers. */
export interface DrawOptions {
  readonly highlight: Uint8Array | undefined; // 1 for highlighted buffers; others are dimmed
  readonly step: number | undefined; // the selected step
  readonly dpr: number;
}

/** Smallest rectangle side drawn, in CSS pixels, so tiny buffers stay visible. */
const MIN_SIDE = 1;

/** Draws everything; returns the number of buffer rectangles drawn and where the curves' key went. */
export function drawHeap(
  ctx: CanvasRenderingContext2D,
  data: HeapData,
  layout: HeapLayout,
  scales: HeapScales,
  t: ZoomTransform,
  palette: HeapPalette,
  options: DrawOptions,
): { readonly drawn: number; readonly curveKey: CurveKeyHit | undefined } {
  const { dpr } = options;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, layout.width, layout.height);
  ctx.save();
  ctx.translate(layout.plot.left, layout.plot.top);
  ctx.beginPath();
  ctx.rect(0, 0, layout.plot.width, layout.plot.height);
  ctx.clip();
  let drawn = 0;
  data.lanes.forEach((_, lane) => {
    drawn += drawLane(ctx, data, layout, scales, t, palette, options, lane);
  });
  drawStepBand(ctx, scales, layout.plot.height, palette, options.step);
  ctx.restore();
  const curveKey = drawCurve(ctx, data, layout, scales, palette, options.step);
  return { drawn, curveKey };
}

function drawLane(
  ctx: CanvasRenderingContext2D,
  data: HeapData,
  layout: HeapLayout,
  scales: HeapScales,
  t: ZoomTransform,
  palette: HeapPalette,
  options: DrawOptions,
  lane: number,
): number {
  const box = layout.lanes[lane]!;
  const top = t.applyY(box.top);
  const bottom = t.applyY(box.top + box.height);
  const { x } = scales;
  const y = scales.y[lane]!;
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, top, layout.plot.width, bottom - top);
  ctx.clip();
  ctx.fillStyle = palette.laneBackground;
  ctx.fillRect(0, top, layout.plot.width, bottom - top);
  drawOverflow(ctx, data.lanes[lane]!, y, layout.plot.width, palette);
  const visible = visibleBuffers(data, lane, scales, top, bottom, layout.plot.width);
  const hatch = hatchPattern(ctx, palette.text);
  drawRects(ctx, data, visible, x, y, palette, options.highlight, hatch);
  drawSpillMarks(ctx, data, visible, x, y, palette);
  drawLabels(ctx, data, visible, x, y, palette);
  drawLaneLines(ctx, data, lane, x, y, layout.plot.width, palette);
  ctx.restore();
  return visible.length;
}

/** Buffers of `lane` whose rectangle meets the visible part of the lane, in drawing order. */
function visibleBuffers(data: HeapData, lane: number, scales: HeapScales, top: number, bottom: number, width: number): number[] {
  const [s0, s1] = [scales.x.invert(0), scales.x.invert(width)];
  const y = scales.y[lane]!;
  const [a0, a1] = [y.invert(bottom), y.invert(top)];
  const out: number[] = [];
  const { drawOrder, start, end, offset, size } = data;
  for (let k = 0; k < drawOrder.length; k += 1) {
    const i = drawOrder[k]!;
    if (data.lane[i] !== lane || end[i]! < s0 || start[i]! > s1) continue;
    if (offset[i]! + size[i]! < a0 || offset[i]! > a1) continue;
    out.push(i);
  }
  return out;
}

function drawRects(
  ctx: CanvasRenderingContext2D,
  data: HeapData,
  visible: readonly number[],
  x: HeapScales['x'],
  y: HeapScales['y'][number],
  palette: HeapPalette,
  highlight: Uint8Array | undefined,
  hatch: CanvasPattern | null,
): void {
  // One pass per (dimmed, kind) so the fill style changes a handful of times, not per rectangle.
  for (const dim of highlight === undefined ? [false] : [true, false]) {
    ctx.globalAlpha = dim ? 0.22 : 0.9;
    for (let kind = 0; kind < KIND_CLASSES.length; kind += 1) {
      ctx.fillStyle = palette.kinds[kind]!;
      for (const i of visible) {
        if (data.kindClass[i] !== kind || (highlight !== undefined && (highlight[i] === 0) !== dim)) continue;
        if (data.shared[i] === 1) continue;
        const r = rectOf(data, i, x, y);
        ctx.fillRect(r.x, r.y, r.w, r.h);
      }
    }
  }
  ctx.globalAlpha = 1;
  ctx.lineWidth = 1;
  for (const i of visible) {
    if (data.shared[i] === 0) continue;
    const r = rectOf(data, i, x, y);
    const dim = highlight !== undefined && highlight[i] === 0;
    ctx.globalAlpha = dim ? 0.3 : 1;
    if (hatch !== null) {
      ctx.fillStyle = hatch;
      ctx.fillRect(r.x, r.y, r.w, r.h);
    }
    ctx.strokeStyle = palette.kinds[data.kindClass[i]!]!;
    ctx.setLineDash([3, 2]);
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, Math.max(0, r.w - 1), Math.max(0, r.h - 1));
  }
  ctx.setLineDash([]);
  ctx.globalAlpha = 1;
  if (highlight === undefined) return;
  ctx.strokeStyle = palette.text;
  for (const i of visible) {
    if (highlight[i] === 0) continue;
    const r = rectOf(data, i, x, y);
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, Math.max(0, r.w - 1), Math.max(0, r.h - 1));
  }
}


/** A notch in the top-left corner of each buffer that spilled from a faster region, when its rectangle has room for one. */
function drawSpillMarks(ctx: CanvasRenderingContext2D, data: HeapData, visible: readonly number[], x: HeapScales['x'], y: HeapScales['y'][number], palette: HeapPalette): void {
  ctx.fillStyle = palette.limit;
  ctx.beginPath();
  for (const i of visible) {
    if (data.spilled[i] === 0) continue;
    const r = rectOf(data, i, x, y);
    const side = Math.min(SPILL_MARK, r.w, r.h);
    if (side < 3) continue;
    ctx.moveTo(r.x, r.y);
    ctx.lineTo(r.x + side, r.y);
    ctx.lineTo(r.x, r.y + side);
    ctx.closePath();
  }
  ctx.fill();
}

/** The CSS-pixel rectangle of buffer `i`, at least MIN_SIDE on each side. */
export function rectOf(data: HeapData, i: number, x: HeapScales['x'], y: HeapScales['y'][number]): { x: number; y: number; w: number; h: number } {
  const x0 = x(data.start[i]!);
  const x1 = x(data.end[i]!);
  const y0 = y(data.offset[i]! + data.size[i]!);
  const y1 = y(data.offset[i]!);
  return { x: x0, y: y0, w: Math.max(MIN_SIDE, x1 - x0), h: Math.max(MIN_SIDE, y1 - y0) };
}

function drawLabels(ctx: CanvasRenderingContext2D, data: HeapData, visible: readonly number[], x: HeapScales['x'], y: HeapScales['y'][number], palette: HeapPalette): void {
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = palette.text;
  let labels = 0;
  for (const i of visible) {
    if (labels >= MAX_LABELS) break;
    const r = rectOf(data, i, x, y);
    if (r.w < LABEL_MIN.width || r.h < LABEL_MIN.height || data.shared[i] === 1) continue;
    labels += 1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(r.x, r.y, r.w, r.h);
    ctx.clip();
    ctx.fillText(shortName(data.plan.buffers[i]!.name), Math.max(r.x, 0) + 4, r.y + r.h / 2);
    ctx.restore();
  }
}

function drawLaneLines(ctx: CanvasRenderingContext2D, data: HeapData, lane: number, x: HeapScales['x'], y: HeapScales['y'][number], width: number, palette: HeapPalette): void {
  const info = data.lanes[lane]!;
  const line = (bytes: number, colour: string, dash: number[]): void => {
    const py = Math.round(y(bytes)) + 0.5;
    ctx.strokeStyle = colour;
    ctx.setLineDash(dash);
    ctx.lineWidth = 1.25;
    ctx.beginPath();
    ctx.moveTo(0, py);
    ctx.lineTo(width, py);
    ctx.stroke();
  };
  const marker = info.peakStep === undefined ? undefined : peakMarkerBox(x(info.peakStep + 0.5), y(info.peak));
  if (info.limit !== undefined) {
    const over = info.limit.overBy > 0;
    line(info.limit.arena, over ? palette.peak : palette.limit, over ? [] : [2, 3]);
  }
  line(info.lowerBound, palette.lowerBound, [6, 4]);
  line(info.peak, palette.peak, []);
  ctx.setLineDash([]);
  if (marker !== undefined) {
    // The peak marker: a triangle on the peak line at the first step a buffer reaches it.
    ctx.fillStyle = palette.peak;
    ctx.beginPath();
    ctx.moveTo(marker.left, marker.top);
    ctx.lineTo(marker.right, marker.top);
    ctx.lineTo((marker.left + marker.right) / 2, marker.bottom);
    ctx.closePath();
    ctx.fill();
  }
  // The limit's label is in the lane's title row (heap-axes.ts), clear of every buffer.
}

/** Tints the addresses above a lane's size limit that its plan uses: the overflow. */
function drawOverflow(ctx: CanvasRenderingContext2D, info: HeapLane, y: HeapScales['y'][number], width: number, palette: HeapPalette): void {
  if (info.limit === undefined || info.limit.overBy <= 0) return;
  const top = y(info.peak);
  const bottom = y(info.limit.arena);
  ctx.save();
  ctx.globalAlpha = 0.1;
  ctx.fillStyle = palette.peak;
  ctx.fillRect(0, top, width, bottom - top);
  ctx.restore();
}

const patterns = new WeakMap<CanvasRenderingContext2D, { colour: string; pattern: CanvasPattern | null }>();

/** Diagonal hatching for buffers that share another buffer's bytes. */
function hatchPattern(ctx: CanvasRenderingContext2D, colour: string): CanvasPattern | null {
  const cached = patterns.get(ctx);
  if (cached?.colour === colour) return cached.pattern;
  const tile = document.createElement('canvas');
  tile.width = 6;
  tile.height = 6;
  const t = tile.getContext('2d');
  let pattern: CanvasPattern | null = null;
  if (t !== null) {
    t.strokeStyle = colour;
    t.globalAlpha = 0.45;
    t.beginPath();
    t.moveTo(0, 6);
    t.lineTo(6, 0);
    t.stroke();
    pattern = ctx.createPattern(tile, 'repeat');
  }
  patterns.set(ctx, { colour, pattern });
  return pattern;
}
