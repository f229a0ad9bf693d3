// Where things go on the heap diagram: the plot area with one lane per region
// stacked top to bottom, the live-bytes curve under it and the step axis at
// the bottom; base D3 scales from steps and bytes to CSS pixels, over every
// step or over the window of steps around one buffer's lifetime ("zoom to
// buffer"), and the same scales under a d3-zoom transform (which zooms steps
// and addresses together).

import { scaleLinear, ZoomTransform, type ScaleLinear } from 'd3';
import type { HeapData } from './heap-data';

/** CSS pixels. */
export type Px = number;

/** Fixed parts of the layout, in CSS pixels. */
export const MARGIN = { left: 68, right: 14, top: 8, laneGap: 22, laneLabel: 16, curve: 64, curveGap: 10, axis: 26 } as const;

/** The layout of one lane. */
export interface LaneBox {
  readonly top: Px; // of the lane's plot box, in the plot's coordinates
  readonly height: Px;
}

/** The diagram's layout for one size. */
export interface HeapLayout {
  readonly width: Px; // of the whole element
  readonly height: Px;
  readonly plot: { readonly left: Px; readonly top: Px; readonly width: Px; readonly height: Px }; // lanes
  readonly curve: { readonly top: Px; readonly height: Px }; // same left and width as the plot
  readonly axisTop: Px;
  readonly lanes: readonly LaneBox[];
}

/** Height of the live-bytes curve in a diagram `height` pixels tall: lower in a short one (an embed), so the lanes keep their room. */
export function curveHeight(height: Px): Px {
  return height < 300 ? 32 : MARGIN.curve;
}

/** Lays the diagram out in a `width` × `height` element. */
export function heapLayout(data: HeapData, width: Px, height: Px): HeapLayout {
  const curve = curveHeight(height);
  const plotWidth = Math.max(40, width - MARGIN.left - MARGIN.right);
  const plotHeight = Math.max(60, height - MARGIN.top - curve - MARGIN.curveGap - MARGIN.axis);
  const n = Math.max(1, data.lanes.length);
  const laneHeight = Math.max(20, (plotHeight - (n - 1) * MARGIN.laneGap - n * MARGIN.laneLabel) / n);
  const lanes = data.lanes.map((_, i) => ({ top: i * (laneHeight + MARGIN.laneGap + MARGIN.laneLabel) + MARGIN.laneLabel, height: laneHeight }));
  const curveTop = MARGIN.top + plotHeight + MARGIN.curveGap;
  return {
    width,
    height,
    plot: { left: MARGIN.left, top: MARGIN.top, width: plotWidth, height: plotHeight },
    curve: { top: curveTop, height: curve },
    axisTop: curveTop + curve,
    lanes,
  };
}

/** The scales of the diagram: steps to x and, per lane, bytes to y (plot coordinates). */
export interface HeapScales {
  readonly x: ScaleLinear<number, number>;
  readonly y: readonly ScaleLinear<number, number>[];
}

/** Headroom above each lane's extent, so its peak line is not on the edge. */
const HEADROOM = 1.06;

/** A range of steps, half-open [from, to). */
export type StepWindow = readonly [number, number];

/** A buffer's lifetime takes this share of the width once zoomed to. */
const FOCUS_SHARE = 0.6;

/**
 * The steps to show to zoom the time axis to buffer `i`: its lifetime in the
 * middle, taking FOCUS_SHARE of the width (with a step either side at the
 * least, so a short lifetime takes a third of the width or more), clamped to
 * the plan's steps.
 */
export function bufferWindow(data: HeapData, i: number): StepWindow {
  const start = data.start[i]!;
  const end = data.end[i]!;
  const span = Math.min(data.steps, Math.max(end - start + 2, (end - start) / FOCUS_SHARE));
  const from = Math.max(0, Math.min(data.steps - span, (start + end) / 2 - span / 2));
  return [from, from + span];
}

/** Base scales, before any zoom: the steps of `window` (default all) and every lane's whole extent. */
export function baseScales(data: HeapData, layout: HeapLayout, window: StepWindow = [0, data.steps]): HeapScales {
  const x = scaleLinear().domain(window).range([0, layout.plot.width]);
  const y = data.lanes.map((lane, i) => {
    const box = layout.lanes[i]!;
    return scaleLinear().domain([0, lane.extent * HEADROOM]).range([box.top + box.height, box.top]);
  });
  return { x, y };
}

/**
 * d3-zoom's transform, made in the canvas's coordinates (where the pointer
 * is), as a transform of the plot's (where the scales and lanes are): the
 * point under the pointer stays under it as the wheel zooms. Applied as it
 * was to plot coordinates, the plot's left and top margins moved the view
 * by a share of themselves at each zoom.
 */
export function plotTransform(t: ZoomTransform, plot: HeapLayout['plot']): ZoomTransform {
  return new ZoomTransform(t.k, t.x + (t.k - 1) * plot.left, t.y + (t.k - 1) * plot.top);
}

/** The base scales under a zoom transform. */
export function zoomedScales(base: HeapScales, t: ZoomTransform): HeapScales {
  return { x: t.rescaleX(base.x), y: base.y.map((s) => t.rescaleY(s)) };
}

/** The lane under plot coordinate `y`, if any. */
export function laneAt(layout: HeapLayout, y: Px, t: ZoomTransform): number | undefined {
  for (let i = 0; i < layout.lanes.length; i += 1) {
    const box = layout.lanes[i]!;
    const top = t.applyY(box.top);
    const bottom = t.applyY(box.top + box.height);
    if (y >= top && y < bottom) return i;
  }
  return undefined;
}
