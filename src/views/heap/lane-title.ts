// The title over a heap lane (region name, peak, lower bound) in the longest
// wording that fits the width it has, the byte ticks whose labels stay clear
// of it and of each other, and where the lanes' byte axes are clipped, so the label of a tick on
// a lane's bottom edge ("0 B") shows whole.
// Pure: text is measured by the caller.

import { shortName } from '../../shared/short-name';
import { MARGIN, type HeapLayout, type Px } from './heap-geometry';

/** Characters of a region name in a lane title before it is cut. */
const NAME_CHARS = 40;
/** Where a lane title starts: near the diagram's left edge, over the byte axis, so it has the plot's width and the axis's. */
export const TITLE_LEFT: Px = 6;
/** How far a tick label reaches past its tick: half of a 10.5 px line, and a pixel. */
export const TICK_OVERHANG: Px = 7;
/** How far a lane title's baseline sits above its lane's top edge. */
export const TITLE_LIFT: Px = 4;
/** How far a lane title's letters reach below its baseline (descenders of a 10.5 px line). */
const TITLE_DESCENT: Px = 3;

/**
 * The tick values whose labels stay below the lane's title: the title runs
 * over the byte axis, so a label reaching above `laneTop + TITLE_DESCENT -
 * TITLE_LIFT + TICK_OVERHANG` (the top tick of a lane whose scale has
 * headroom over its peak) would be drawn under it, and is left out.
 * `position` gives a value's pixel in the same coordinates as `laneTop`.
 */
export function ticksClearOfTitle(values: readonly number[], position: (value: number) => Px, laneTop: Px): number[] {
  const titleBottom = laneTop - TITLE_LIFT + TITLE_DESCENT;
  return values.filter((v) => position(v) - TICK_OVERHANG >= titleBottom);
}

/**
 * The tick values whose labels stay clear of each other: from the lowest
 * (the lane's bottom edge) up, a value whose label would reach the last one
 * kept (closer than a label's height, 2 × TICK_OVERHANG) is left out, so a
 * short lane shows "0 B" and the next round value that has room, never one
 * printed over the other. `values` ascending; `position` as above.
 */
export function ticksApart(values: readonly number[], position: (value: number) => Px): number[] {
  const kept: number[] = [];
  for (const v of values) {
    const last = kept.at(-1);
    if (last === undefined || Math.abs(position(last) - position(v)) >= 2 * TICK_OVERHANG) kept.push(v);
  }
  return kept;
}

/**
 * The wordings of a lane's title, longest first: all facts, then shorter words, then fewer facts, then the name alone.
 * `placement`: the runtime runs another plan than the one drawn (TensorFlow Lite Micro keeping the file's own), so
 * the title says the drawing is heapscope's placement while it has room.
 */
export function laneTitles(name: string, peak: string, bound: string, placement = false): readonly string[] {
  const n = shortName(name, NAME_CHARS);
  const plain = [`${n} · peak ${peak} · lower bound ${bound}`, `${n} · peak ${peak} · bound ${bound}`, `${n} · peak ${peak}`, n];
  if (!placement) return plain;
  const drawn = `${n} · heapscope's placement`;
  return [`${drawn} · peak ${peak} · lower bound ${bound}`, `${drawn} · peak ${peak} · bound ${bound}`, `${drawn} · peak ${peak}`, drawn, ...plain.slice(2)];
}

/**
 * The longest wording of the title that `measure` finds no wider than
 * `width`; when even the name alone is wider, the name cut with an ellipsis
 * to fit (at least one character and the ellipsis).
 */
export function fitLaneTitle(name: string, peak: string, bound: string, width: Px, measure: (text: string) => Px, placement = false): string {
  const titles = laneTitles(name, peak, bound, placement);
  const fitting = titles.find((t) => measure(t) <= width);
  if (fitting !== undefined) return fitting;
  let [lo, hi] = [1, Math.min(name.length, NAME_CHARS)];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(shortName(name, mid)) <= width) lo = mid;
    else hi = mid - 1;
  }
  return shortName(name, lo);
}

/** The width a lane title may take in a diagram laid out as `layout`. */
export function laneTitleWidth(layout: HeapLayout): Px {
  return Math.max(0, layout.width - TITLE_LEFT - MARGIN.right);
}

/** The rectangle the lanes' axes and titles are clipped to: the plot, and below it room for the label of a tick on its bottom edge. */
export function axisClip(layout: HeapLayout): { readonly x: Px; readonly y: Px; readonly width: Px; readonly height: Px } {
  return { x: 0, y: layout.plot.top, width: layout.width, height: layout.plot.height + Math.min(TICK_OVERHANG, MARGIN.curveGap) };
}
