// The geometry of the growth chart: one panel per memory region stacked in the
// box, x the swept value (a log scale when the values span a wide range, with
// 0, which no log scale holds, drawn apart at the left edge past a break in
// the axis; else linear), y the region's bytes
// from 0; where each point, the value on screen and each size limit sit, which
// ticks fit, which point a pointer is over and where its card goes. Pure (D3
// scales only), tested to the pixel; the SVG and the pane only draw what it says.

import { scaleLinear, scaleLog } from 'd3';
import type { GrowthPoint } from '../../worker/protocol';
import { byteTicks } from '../byte-ticks';

/** What the chart draws: the curve's points and the plan on screen. */
export interface GrowthChartInput {
  readonly points: readonly GrowthPoint[]; // by value
  readonly regions: readonly { readonly name: string; readonly sizeLimit: number | undefined }[]; // the plan's memory map, in order
  readonly current: { readonly value: number; readonly regions: readonly { readonly name: string; readonly peak: number }[] } | undefined; // the plan on screen
}

/** One region's panel. */
export interface GrowthPanel {
  readonly name: string;
  readonly top: number; // of the plot, in pixels
  readonly height: number;
  readonly maxBytes: number; // bytes at the plot's top
  readonly highest: number; // the highest figure drawn (peak, bound, limit), labelled on the byte axis
  readonly sizeLimit: number | undefined;
  readonly limitShown: boolean; // the limit is within the plot (else it is far above every point, and said in words)
  readonly y: (bytes: number) => number;
  readonly ticks: readonly number[]; // bytes labelled on the axis, from 0, round in the unit of their labels
  readonly tickLabel: (bytes: number) => string; // "0 B", "50 MiB"
}

/** The laid-out chart. */
export interface GrowthLayout {
  readonly left: number; // plot's left edge
  readonly right: number; // plot's right edge
  readonly bottom: number; // the x axis's line
  readonly x: (value: number) => number;
  readonly scale: 'log' | 'linear';
  readonly breakAt: number | undefined; // x of the axis break on a log scale whose values include 0: 0 is drawn left of it, the log scale starts right of it
  readonly panels: readonly GrowthPanel[];
  readonly xTicks: readonly number[]; // values labelled under the plot, the value on screen among them
  readonly xTickPlace: (value: number) => XTickPlace; // where a value's label goes, inside the box
  readonly axisTitle: readonly string[]; // the lines naming the x axis under its values, right-aligned to the plot's right edge
}

/** Where a value's label under the plot is drawn: its x and the SVG text-anchor that x is. */
export interface XTickPlace {
  readonly x: number;
  readonly anchor: 'start' | 'middle' | 'end';
}

/** Space around the plots, in pixels. */
export const GROWTH_MARGIN = { left: 66, right: 14, top: 6, bottom: 30, title: 18, gap: 10 } as const;

/** A size limit more than this times the largest figure is not drawn to scale: the curve would be a flat line at the bottom. */
const LIMIT_REACH = 1.5;
/** Headroom above the highest figure. */
const HEADROOM = 1.08;
/** Pixels a tick label needs per character, and between labels. */
const TICK_CHAR = 6.5;
const TICK_GAP = 10;
/** Pixels of plot height per byte tick asked for, and the least between two byte ticks (a label is 10.5 px tall). */
const BYTE_TICK_SPACING = 40;
const BYTE_TICK_MIN_GAP = 14;
/** Pixels a character of the axis's name needs (10.5 px type, on the wide side), and each line of it under the first. */
const AXIS_CHAR = 5.8;
export const AXIS_LINE = 12;

/** Pixels of plot height each region's panel needs at least: a byte tick above 0, and its title clear of them. */
export const GROWTH_PANEL_MIN = 72;

/**
 * The least height of the chart's box for `input`: each drawn region's panel
 * GROWTH_PANEL_MIN tall under its title, and room under the plot for the
 * values and two lines of the axis's name. A pane shorter than that scrolls.
 */
export function growthMinHeight(input: GrowthChartInput): number {
  const count = drawnRegions(input).length;
  return GROWTH_MARGIN.top + GROWTH_MARGIN.bottom + AXIS_LINE + count * (GROWTH_MARGIN.title + GROWTH_PANEL_MIN) + (count - 1) * GROWTH_MARGIN.gap;
}

/** The chart of `input` in a box of `width` × `height` pixels, its x axis named `dim`. */
export function growthLayout(input: GrowthChartInput, width: number, height: number, dim = ''): GrowthLayout {
  const values = [...input.points.map((p) => p.value), ...(input.current === undefined ? [] : [input.current.value])];
  const lo = values.length === 0 ? 0 : Math.min(...values);
  const hi = values.length === 0 ? 1 : Math.max(...values);
  const left = GROWTH_MARGIN.left;
  const right = Math.max(left + 1, width - GROWTH_MARGIN.right);
  const positive = values.filter((v) => v > 0);
  const { x, scale, breakAt } = xScale(lo, positive.length === 0 ? hi : Math.min(...positive), hi, left, right);
  const regions = drawnRegions(input);
  const axisNote = scale === 'linear' ? '' : breakAt === undefined ? '(log scale)' : '(log scale; 0 set apart)';
  const title = axisTitle(dim, axisNote, right);
  const bottom = Math.max(GROWTH_MARGIN.top + 1, height - GROWTH_MARGIN.bottom - (title.length - 1) * AXIS_LINE);
  const each = (bottom - GROWTH_MARGIN.top - (regions.length - 1) * GROWTH_MARGIN.gap) / Math.max(1, regions.length);
  const panels = regions.map((r, k): GrowthPanel => {
    const top = GROWTH_MARGIN.top + k * (each + GROWTH_MARGIN.gap) + GROWTH_MARGIN.title;
    const plotHeight = Math.max(1, each - GROWTH_MARGIN.title);
    const highest = Math.max(1, ...input.points.flatMap((p) => regionFigures(p, r.name)), ...(input.current?.regions.filter((c) => c.name === r.name).map((c) => c.peak) ?? []));
    const limitShown = r.sizeLimit !== undefined && r.sizeLimit <= highest * LIMIT_REACH;
    const drawnTop = Math.max(highest, limitShown ? r.sizeLimit! : 0);
    const maxBytes = drawnTop * HEADROOM;
    const y = scaleLinear().domain([0, maxBytes]).range([top + plotHeight, top]);
    const { ticks, tickLabel } = panelTicks(drawnTop, maxBytes, plotHeight);
    return { name: r.name, top, height: plotHeight, maxBytes, highest: drawnTop, sizeLimit: r.sizeLimit, limitShown, y: (bytes) => y(bytes), ticks, tickLabel };
  });
  const place = (v: number): XTickPlace => xTickPlace(x(v), tickWidth(v), right + GROWTH_MARGIN.right);
  return { left, right, bottom, x, scale, breakAt, panels, xTicks: xTicks(input.points.map((p) => p.value), place, input.current?.value), xTickPlace: place, axisTitle: title };
}

/** Pixels a value's label under the plot takes at most. */
function tickWidth(v: number): number {
  return String(v).length * TICK_CHAR;
}

/**
 * A label `width` wide for the value at `at`, in a box `edge` wide: centred
 * under its value, else ended at the box's right edge or started at its left
 * when centred it would run past it (1..100000's last label, centred on the
 * plot's right end, ran past the pane's edge and read "10000").
 */
export function xTickPlace(at: number, width: number, edge: number): XTickPlace {
  if (at + width / 2 > edge) return { x: edge, anchor: 'end' };
  if (at - width / 2 < 0) return { x: 0, anchor: 'start' };
  return { x: at, anchor: 'middle' };
}

/** The pixels a label placed so covers, left to right. */
function tickSpan(place: XTickPlace, width: number): readonly [number, number] {
  const from = place.anchor === 'start' ? place.x : place.anchor === 'end' ? place.x - width : place.x - width / 2;
  return [from, from + width];
}

/**
 * The x axis's name and its scale's note in lines that each fit the `room`
 * pixels left of the plot's right edge: one line when the whole does; else
 * the name, then the note, each wrapped after a space or an underscore (a
 * name longer than a line with neither is cut where it must be).
 */
export function axisTitle(dim: string, note: string, room: number): string[] {
  const whole = [dim, note].filter((s) => s !== '').join(' ');
  const most = Math.max(1, Math.floor(room / AXIS_CHAR));
  if ([...whole].length <= most) return [whole];
  return [dim, note].filter((s) => s !== '').flatMap((s) => wrapWords(s, most));
}

/** `s` in lines of at most `most` characters, broken after a space or an underscore. */
function wrapWords(s: string, most: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(/(?<=[ _])/)) {
    if (line !== '' && [...line.trimEnd()].length + [...word.trimEnd()].length > most) {
      lines.push(line.trimEnd());
      line = '';
    }
    line += word;
    while ([...line].length > most + (line.endsWith(' ') ? 1 : 0)) {
      lines.push([...line].slice(0, most).join(''));
      line = [...line].slice(most).join('');
    }
  }
  if (line.trim() !== '') lines.push(line.trimEnd());
  return lines;
}

/**
 * The byte ticks of a panel whose axis runs from 0 to `maxBytes` over
 * `plotHeight` pixels: round in the unit of their labels (byte-ticks.ts), one
 * per 40 px or fewer so labels stay 14 px apart; only 0 on a plot too short
 * for that, and for a region that holds nothing at any value (its axis is
 * drawn to 1 byte, which no tick should name).
 */
function panelTicks(highest: number, maxBytes: number, plotHeight: number): Pick<GrowthPanel, 'ticks' | 'tickLabel'> {
  if (highest <= 1) return { ticks: [0], tickLabel: () => '0 B' };
  let count = Math.max(2, Math.floor(plotHeight / BYTE_TICK_SPACING));
  for (;;) {
    const axis = byteTicks(0, maxBytes, count);
    const gap = axis.values.length < 2 ? Infinity : ((axis.values[1]! - axis.values[0]!) / maxBytes) * plotHeight;
    if (gap >= BYTE_TICK_MIN_GAP) return { ticks: axis.values, tickLabel: axis.label };
    // A plot too short for two labels names 0 alone.
    if (count === 1) return { ticks: [0], tickLabel: axis.label };
    count -= 1;
  }
}

/** Pixels from 0, set apart at the plot's left edge, to the log scale's first value; the break is drawn halfway. */
const ZERO_APART = 30;

/**
 * Log base 2 when the positive values (the least `low`) span 4× or more, with
 * 0, when among the values, at the left edge and the log scale starting
 * ZERO_APART pixels right of it; linear otherwise.
 */
function xScale(lo: number, low: number, hi: number, left: number, right: number): Pick<GrowthLayout, 'x' | 'scale' | 'breakAt'> {
  if (hi === lo) {
    const middle = (left + right) / 2;
    return { x: () => middle, scale: 'linear', breakAt: undefined };
  }
  if (low >= 1 && hi / low >= 4 && (lo > 0 || right - left > 4 * ZERO_APART)) {
    const start = lo === 0 ? left + ZERO_APART : left;
    const s = scaleLog().base(2).domain([low, hi]).range([start, right]);
    return { x: (v) => (v <= 0 ? left : s(v)), scale: 'log', breakAt: lo === 0 ? left + ZERO_APART / 2 : undefined };
  }
  const s = scaleLinear().domain([lo, hi]).range([left, right]);
  return { x: (v) => s(v), scale: 'linear', breakAt: undefined };
}

/** The regions of the plan that hold bytes at some point, or have a limit; all of them when none does. */
function drawnRegions(input: GrowthChartInput): GrowthChartInput['regions'] {
  const used = input.regions.filter((r) => r.sizeLimit !== undefined || input.points.some((p) => regionFigures(p, r.name).some((b) => b > 0)));
  return used.length > 0 ? used : input.regions.slice(0, 1);
}

/** The peak and lower bound of region `name` at point `p` ([] when the point has no such region). */
export function regionFigures(p: GrowthPoint, name: string): number[] {
  const r = p.regions.find((g) => g.name === name);
  return r === undefined ? [] : [r.peak, r.lowerBound];
}

/**
 * The values to label, left to right, each far enough from the last for its
 * text; the last value always, and the value on screen always: outside the
 * swept range the axis stretches to it, and without its label the end of the
 * axis would read as the last swept value.
 */
function xTicks(values: readonly number[], place: (v: number) => XTickPlace, current: number | undefined): number[] {
  const span = (v: number): readonly [number, number] => tickSpan(place(v), tickWidth(v));
  const clear = (a: number, b: number): boolean => {
    const [[a0, a1], [b0, b1]] = [span(a), span(b)];
    return a1 + TICK_GAP <= b0 || b1 + TICK_GAP <= a0;
  };
  const ticks: number[] = [];
  let lastEnd = -Infinity;
  values.forEach((v, i) => {
    const [from, to] = span(v);
    if (from < lastEnd + TICK_GAP && i !== values.length - 1) return;
    // The last value is always labelled: the labels before it that it would touch give way.
    while (ticks.length > 0 && from < span(ticks[ticks.length - 1]!)[1] + TICK_GAP) ticks.pop();
    ticks.push(v);
    lastEnd = to;
  });
  if (current === undefined || ticks.includes(current)) return ticks;
  return [...ticks.filter((v) => clear(v, current)), current].sort((a, b) => a - b);
}

/**
 * The index of the point nearest the pointer's x, when the pointer is within
 * the plot's columns (half a gap beyond the first and last point); undefined elsewhere.
 */
export function pointAt(layout: GrowthLayout, points: readonly GrowthPoint[], px: number, py: number): number | undefined {
  if (points.length === 0 || py < GROWTH_MARGIN.top || py > layout.bottom) return undefined;
  let best: number | undefined;
  let bestDistance = Infinity;
  points.forEach((p, i) => {
    const d = Math.abs(layout.x(p.value) - px);
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  const reach = Math.max(12, (layout.right - layout.left) / (2 * points.length));
  return bestDistance <= reach ? best : undefined;
}

/** Where the hover card goes in the chart's box, in pixels. */
export interface CardPlace {
  readonly left: number;
  readonly top: number;
  readonly width: number; // at most the card's own width, less where the plot is narrower
  readonly maxHeight: number; // the card is cut here rather than run over the values under the plot
}

/** Pixels between the card and the point, the plot's edges and the box's. */
const CARD_GAP = 12;
const CARD_INSET = 4;

/** Pixels around a dot's centre that a card must keep clear of: the ring drawn round the chosen dot. */
const DOT_CLEAR = 7;

/**
 * Whether a card `height` tall (cut at its maxHeight) at `place` covers one
 * of the point's dots (at `x`, `ys`), ring included: the one rule by which
 * cardPlace chooses where the card goes and the card, wherever it went,
 * keeps only its figures.
 */
export function cardCovers(place: CardPlace, height: number, x: number, ys: readonly number[]): boolean {
  const bottom = place.top + Math.min(height, place.maxHeight);
  const across = x + DOT_CLEAR > place.left && x - DOT_CLEAR < place.left + place.width;
  return across && ys.some((y) => y + DOT_CLEAR > place.top && y - DOT_CLEAR < bottom);
}

/**
 * The card of the point at `x`, whose dots are at `ys`, for a card
 * `card.width` wide at most and `card.height` tall: right of the point, else
 * flipped to its left, else clamped over it; at the top of the plot, or at its
 * bottom when at the top it would hide one of the point's dots, or, when both
 * would, just above the point's dots (rising over what is above the plot),
 * so the point chosen stays in sight. Always right
 * of the byte labels (left of the plot's left edge) and starting above the
 * values under the plot, in a card narrowed to the room there is. A card
 * taller than the plot's room is moved up over what is above the plot, as
 * high as `boxTop` (the pane's top, above the chart's 0), so it ends above
 * the values and shows its last lines rather than lose them. A card that
 * would still hide a dot goes beside its point, at the plot's top (risen so), narrowed
 * to the room on the wider side, when there is room enough.
 */
export function cardPlace(layout: GrowthLayout, x: number, ys: readonly number[], card: { readonly width: number; readonly height: number }, boxWidth: number, boxTop: number = GROWTH_MARGIN.top): CardPlace {
  const minLeft = layout.left + CARD_INSET;
  const maxRight = Math.max(minLeft + 1, boxWidth - CARD_INSET);
  const width = Math.min(card.width, maxRight - minLeft);
  const right = x + CARD_GAP;
  const flipped = x - CARD_GAP - width;
  const left = right + width <= maxRight ? right : flipped >= minLeft ? flipped : Math.max(minLeft, Math.min(maxRight - width, right));
  const hides = (top: number): boolean => cardCovers({ left, top, width, maxHeight: Math.max(0, layout.bottom - top) }, card.height, x, ys);
  const high = GROWTH_MARGIN.top + CARD_INSET;
  const low = Math.max(high, layout.bottom - CARD_INSET - card.height);
  const whole = layout.bottom - CARD_INSET - card.height; // the lowest top at which the whole card ends above the values
  const clear = clearOfDots(ys, card.height, boxTop + CARD_INSET, whole);
  const placed = !hides(high) ? high : !hides(low) ? low : (clear ?? high);
  const risen = (at: number): number => (at > whole ? Math.min(at, Math.max(boxTop + CARD_INSET, whole)) : at);
  const top = risen(placed);
  const beside = hides(top) ? besidePoint(x, minLeft, maxRight) : undefined;
  if (beside !== undefined) return { ...beside, top: risen(high), maxHeight: Math.max(0, layout.bottom - risen(high)) };
  return { left, top, width, maxHeight: Math.max(0, layout.bottom - top) };
}

/** The narrowest card worth drawing beside its point rather than over it, in pixels. */
const CARD_MIN_WIDTH = 96;

/**
 * A card over its point that hides a dot wherever it goes up or down: narrowed
 * to the wider side of the point, when that side has room for CARD_MIN_WIDTH,
 * where it hides none; undefined when neither side has.
 */
function besidePoint(x: number, minLeft: number, maxRight: number): { readonly left: number; readonly width: number } | undefined {
  const leftRoom = x - CARD_GAP - minLeft;
  const rightRoom = maxRight - (x + CARD_GAP);
  if (Math.max(leftRoom, rightRoom) < CARD_MIN_WIDTH) return undefined;
  return leftRoom >= rightRoom ? { left: minLeft, width: leftRoom } : { left: x + CARD_GAP, width: rightRoom };
}

/**
 * A top for a card over its point that neither the plot's top nor its bottom
 * leaves clear of the point's dots (a card as tall as the plot, in a narrow
 * pane): ending just above the highest dot, over what is above the plot as
 * high as `highest`; undefined when there is not the room. (Just below the
 * lowest dot is never clear where the plot's bottom is not.)
 */
function clearOfDots(ys: readonly number[], height: number, highest: number, lowest: number): number | undefined {
  if (ys.length === 0) return undefined;
  const above = Math.min(...ys) - CARD_GAP - height;
  return above >= highest ? Math.min(above, lowest) : undefined;
}
