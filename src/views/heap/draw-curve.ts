// The live-bytes curve under the heap diagram (bytes live at each step, per
// lane, with the lower bound) and the selected-step band both parts share.

import type { HeapData } from './heap-data';
import type { HeapLayout, HeapScales } from './heap-geometry';
import type { HeapPalette } from './heap-palette';
import { curveY, KEY, placeCurveKey, type CurveKeyPlace } from './curve-key';

/** A band over the selected step, `height` tall from the current origin. */
export function drawStepBand(ctx: CanvasRenderingContext2D, scales: HeapScales, height: number, palette: HeapPalette, step: number | undefined): void {
  if (step === undefined) return;
  const x0 = scales.x(step);
  const w = Math.max(2, scales.x(step + 1) - x0);
  ctx.fillStyle = palette.selection;
  ctx.globalAlpha = 0.18;
  ctx.fillRect(x0, 0, w, height);
  ctx.globalAlpha = 1;
  ctx.strokeStyle = palette.selection;
  ctx.strokeRect(x0 + 0.5, 0.5, w - 1, height - 1);
}

/** Where the curves' key was drawn and the highest any curve or lower bound reaches under it, canvas CSS pixels. */
export interface CurveKeyHit {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly curveTop: number;
}

/** Live bytes over time, one step line per lane, on a shared bytes scale, with each lane's lower bound; returns where the key of several lanes went. */
export function drawCurve(ctx: CanvasRenderingContext2D, data: HeapData, layout: HeapLayout, scales: HeapScales, palette: HeapPalette, step: number | undefined): CurveKeyHit | undefined {
  const { left, width } = layout.plot;
  const { top, height } = layout.curve;
  ctx.save();
  ctx.translate(left, top);
  ctx.fillStyle = palette.laneBackground;
  ctx.fillRect(0, 0, width, height);
  ctx.beginPath();
  ctx.rect(0, 0, width, height);
  ctx.clip();
  const max = Math.max(1, ...data.lanes.map((l) => Math.max(l.peak, l.lowerBound)));
  const key = data.lanes.length > 1 ? curveKeyPlace(ctx, data, scales, width, height, max) : undefined;
  const yOf = (bytes: number): number => curveY(bytes / max, height, key?.reserve ?? 0);
  const [first, last] = [Math.max(0, Math.floor(scales.x.invert(0))), Math.min(data.steps, Math.ceil(scales.x.invert(width)))];
  data.lanes.forEach((lane, i) => {
    ctx.strokeStyle = curveColour(palette, i);
    ctx.fillStyle = ctx.strokeStyle;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(scales.x(first), yOf(0));
    for (let s = first; s < last; s += 1) {
      const v = yOf(lane.live[s]!);
      ctx.lineTo(scales.x(s), v);
      ctx.lineTo(scales.x(s + 1), v);
    }
    ctx.lineTo(scales.x(last), yOf(0));
    ctx.globalAlpha = 0.16;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.stroke();
    ctx.strokeStyle = palette.lowerBound;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(0, yOf(lane.lowerBound) + 0.5);
    ctx.lineTo(width, yOf(lane.lowerBound) + 0.5);
    ctx.stroke();
    ctx.setLineDash([]);
  });
  if (key !== undefined) drawCurveKey(ctx, data, palette, key);
  drawStepBand(ctx, scales, height, palette, step);
  ctx.restore();
  if (key === undefined) return undefined;
  const [from, to] = [Math.max(0, Math.floor(scales.x.invert(key.x))), Math.min(data.steps, Math.ceil(scales.x.invert(key.x + key.width)))];
  let under = Math.max(...data.lanes.map((lane) => lane.lowerBound));
  for (const lane of data.lanes) for (let s = from; s < to; s += 1) under = Math.max(under, lane.live[s]!);
  return { left: left + key.x, top: top + key.y, right: left + key.x + key.width, bottom: top + key.y + key.height, curveTop: top + yOf(under) };
}

/** The colour of lane `i`'s curve. */
function curveColour(palette: HeapPalette, i: number): string {
  return i === 0 ? palette.kinds[0]! : palette.kinds[(i + 2) % palette.kinds.length]!;
}

/** Where the key naming the lanes' curves goes (placeCurveKey), clear of their lines and lower bounds; sets the key's font. */
function curveKeyPlace(ctx: CanvasRenderingContext2D, data: HeapData, scales: HeapScales, width: number, height: number, max: number): CurveKeyPlace {
  ctx.font = KEY_FONT;
  const bound = Math.max(...data.lanes.map((lane) => lane.lowerBound));
  const shareIn = (x0: number, x1: number): number => {
    const from = Math.max(0, Math.floor(scales.x.invert(x0)));
    const to = Math.min(data.steps, Math.ceil(scales.x.invert(x1)));
    let most = bound;
    for (const lane of data.lanes) for (let s = from; s < to; s += 1) most = Math.max(most, lane.live[s]!);
    return most / max;
  };
  return placeCurveKey(data.lanes.map((lane) => ctx.measureText(lane.name).width), width, height, shareIn);
}

const KEY_FONT = '600 10.5px system-ui, sans-serif';

/**
 * Names the curves of several lanes, each after a swatch of its colour, in
 * the text colour on a box of the curve's background: the names of a region's
 * own colour over a line of that colour were barely readable.
 */
function drawCurveKey(ctx: CanvasRenderingContext2D, data: HeapData, palette: HeapPalette, place: CurveKeyPlace): void {
  ctx.font = KEY_FONT;
  ctx.textBaseline = 'middle';
  const names = data.lanes.map((lane) => lane.name);
  ctx.globalAlpha = 0.88;
  ctx.fillStyle = palette.laneBackground;
  ctx.fillRect(place.x, place.y, place.width, place.height);
  ctx.globalAlpha = 1;
  const middle = place.y + place.height / 2;
  names.forEach((name, i) => {
    const x = place.items[i]!;
    ctx.strokeStyle = curveColour(palette, i);
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, middle);
    ctx.lineTo(x + KEY.swatch, middle);
    ctx.stroke();
    ctx.fillStyle = palette.text;
    ctx.fillText(name, x + KEY.swatch + KEY.swatchGap, middle);
  });
}
