// The heap diagram as a standalone SVG document: one lane per memory region,
// x = step, y = address, one rectangle per buffer coloured by its class as on
// screen (buffer-classes.ts: a decoder's KV cache apart from the other graph
// inputs and outputs; buffers sharing another's bytes outlined), the peak and
// lower-bound lines, each region's size limit (at the arena bytes the weights
// below it leave, with the overflow tinted and "over by" when the plan does
// not fit, and the verdict under the title), buffer names and spill notches as
// the heap on screen draws them, byte and step ticks (a region that holds
// nothing gets a line saying so, not a lane), the screen's legend
// (legend-keys.ts) with the size-limit line, under it the memory map (the side bar's bars,
// memory-map-svg.ts) and the peak chart (live bytes per kind and region).
// Plain strings, no DOM: exports and tests
// build it anywhere.

import { formatBytes } from '../../shared/format';
import { fitVerdict } from '../../store/fit-words';
import { peakText, withRegionsPeak } from '../plan-words';
import { shortName } from '../../shared/short-name';
import { escapeXml } from './xml-chars';
import { wrapTitle } from './graph-header';
import { offsetText } from '../buffer-words';
import { peakChartData } from '../heap/peak-chart-data';
import { chartKeyLines, peakChartHeight, peakChartSvg } from '../heap/peak-chart-svg';
import { laneLimit, laneLimitText, type LaneLimit } from '../heap/lane-limit';
import { emptyRegionsText, laneRegions } from '../heap/empty-regions';
import { byteTicks } from '../byte-ticks';
import { memoryMapData } from '../panels/memory-map-data';
import { memoryMapSvg, memoryMapSvgHeight, type MapColours } from './memory-map-svg';
import type { ModelPlan, PlannedBuffer } from '../../planner/plan';
import { bufferClass, CLASS_COLOURS } from '../heap/buffer-classes';
import { planLegendKeys, type LegendKeys } from '../heap/legend-keys';
import { LABEL_MIN, MAX_LABELS, SPILL_MARK } from '../heap/buffer-marks';

/** Options of heapSvg. */
export interface HeapSvgOptions {
  readonly width?: number; // CSS pixels; 960 by default
  readonly laneHeight?: number; // per region; 240 by default
  readonly title?: string; // drawn at the top
  readonly extents?: ReadonlyMap<string, number>; // bytes each region's axis spans (one scale for two plans)
  readonly highlight?: ReadonlySet<number>; // buffer ids drawn outlined; the others dim
  readonly kv?: ReadonlySet<string>; // names of the KV-cache inputs and outputs (kv-cache-names.ts), coloured as KV cache
  readonly legend?: boolean; // what the colours and lines mean, under the step axis; default true
  readonly memoryMap?: boolean; // the memory map's bars under the legend; default true
  readonly chart?: boolean; // the peak chart under the memory map; default true
  readonly appendix?: HeapSvgAppendix; // a drawing of its own under everything else (the growth curve)
}

/** A titled drawing added under the heap's: an `<svg>` element's markup, placed by the `x` and `y` attributes it is given here. */
export interface HeapSvgAppendix {
  readonly title: string;
  readonly height: number; // of the drawing, in pixels
  readonly markup: (x: number, y: number) => string;
}

/** Pixels between the drawings above and an appendix's title, and between its title and its drawing. */
const APPENDIX_GAP = 16;
const APPENDIX_TITLE = 14;

const MARGIN = { left: 78, right: 16, top: 50, bottom: 30, laneGap: 34 } as const;
const LEGEND_HEIGHT = 28;
const VERDICT_HEIGHT = 16;
/** The line naming the regions without a lane. */
const EMPTY_ROW = 20;
/** Pixels between the lines of a wrapped title (13 px). */
const TITLE_LINE = 17;
const CHART_CELL = 44;
const PEAK = '#d33a44';
const BOUND = '#0f8a4a';
const LIMIT = '#a45c00';
const TEXT = '#1b2130';
const MUTED = '#627084';
const LANE = '#f1f3f6';
/** A text's width per character, pixels (11 px system-ui, a little wide so a label's box holds it). */
const CHAR_WIDTH = 6.4;
/** A buffer name's width per character at 9 px, and the least rectangle height that takes one. */
const NAME_CHAR_WIDTH = 5.3;
const NAME_HEIGHT = 9;
/** Pixels between the legend and the memory map. */
const MAP_GAP = 10;
const MAP_COLOURS: MapColours = {
  parts: { weights: CLASS_COLOURS.subgraph, io: CLASS_COLOURS.io, kv: CLASS_COLOURS.kv, activations: CLASS_COLOURS.activation, scratch: CLASS_COLOURS.scratch, rest: '#c9ced6', tail: '#9aa3ae' },
  limit: LIMIT,
  over: PEAK,
  text: TEXT,
  muted: MUTED,
  background: LANE,
};

/** The SVG document of `plan`'s heap; see the module header. */
export function heapSvg(plan: ModelPlan, options: HeapSvgOptions = {}): string {
  const width = options.width ?? 960;
  const laneHeight = options.laneHeight ?? 240;
  const regions = lanesOf(plan);
  const steps = Math.max(1, plan.steps.length, ...plan.buffers.map((b) => b.end));
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const verdict = fitVerdict(plan);
  const title = wrapTitle(options.title ?? `${withRegionsPeak(`peak ${plan.complete ? '' : 'at least '}${formatBytes(plan.peak)}${plan.complete ? '' : ' (lower estimate)'}`, plan, plan.complete)} · lower bound ${formatBytes(plan.lowerBound)} · ${plan.strategy} on ${plan.target}`, plotWidth);
  // A title wrapped to more lines moves everything under it down; the verdict takes a line of its own under the title.
  const titleShift = (title.length - 1) * TITLE_LINE;
  const lanesTop = MARGIN.top + titleShift + (verdict !== undefined ? VERDICT_HEIGHT : 0);
  // Regions of no planned byte get no lane (nor an axis of no bytes) but a line saying so, under the lanes or in their place.
  const empty = emptyRegionsText(plan, regions.map((r) => r.name));
  const drawn = regions.length > 0;
  const lanesEnd = drawn ? lanesTop + regions.length * (laneHeight + MARGIN.laneGap) + MARGIN.bottom - MARGIN.laneGap : lanesTop - EMPTY_ROW;
  const lanesBottom = lanesEnd + (empty === undefined ? 0 : EMPTY_ROW);
  const kv = options.kv ?? new Set<string>();
  const chartData = options.chart === false ? undefined : peakChartData(plan, kv);
  const chart = chartData !== undefined && chartData.regions.length > 0 ? chartData : undefined;
  const chartHeight = chart === undefined ? 0 : peakChartHeight(chart, CHART_CELL);
  const legendHeight = options.legend === false || !drawn ? 0 : LEGEND_HEIGHT;
  const map = options.memoryMap === false ? undefined : memoryMapData(plan, kv);
  const mapHeight = map === undefined ? 0 : memoryMapSvgHeight(map, plotWidth) + MAP_GAP;
  const above = lanesBottom + legendHeight + mapHeight + (chart === undefined ? 0 : chartHeight + 24);
  const appendix = options.appendix;
  const height = above + (appendix === undefined ? 0 : APPENDIX_GAP + APPENDIX_TITLE + appendix.height);
  const x = (step: number): number => MARGIN.left + (step / steps) * plotWidth;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...title.map((line, k) => `<text x="${MARGIN.left}" y="${22 + k * TITLE_LINE}" font-size="13" font-weight="600" fill="${TEXT}" data-title="true">${escapeXml(line)}</text>`),
  ];
  if (verdict !== undefined) {
    parts.push(`<text x="${MARGIN.left}" y="${40 + titleShift}" font-weight="600" fill="${PEAK}" data-verdict="over">${escapeXml(verdict)}</text>`);
  }
  regions.forEach((region, k) => {
    const top = lanesTop + k * (laneHeight + MARGIN.laneGap);
    const extent = Math.max(1, options.extents?.get(region.name) ?? 0, region.peak, ...region.buffers.map((b) => b.offset + b.size)) * 1.06;
    const y = (bytes: number): number => top + laneHeight - (bytes / extent) * laneHeight;
    parts.push(laneSvg({ region, top, laneHeight, plotWidth, x, y, highlight: options.highlight, kv, complete: plan.complete }));
  });
  const axisY = lanesEnd - MARGIN.bottom + 4;
  for (const step of drawn ? ticks(steps, 10) : []) {
    parts.push(`<text x="${x(step + 0.5).toFixed(1)}" y="${axisY + 12}" text-anchor="middle" fill="${MUTED}">${step}</text>`);
  }
  if (drawn) parts.push(`<text x="${MARGIN.left + plotWidth}" y="${axisY + 24}" text-anchor="end" fill="${MUTED}">step</text>`);
  if (empty !== undefined) parts.push(`<text x="${MARGIN.left}" y="${lanesEnd + 14}" fill="${MUTED}" data-empty-regions="true">${escapeXml(empty)}</text>`);
  if (legendHeight > 0) parts.push(legendSvg(MARGIN.left, lanesBottom + 18, regions.some((r) => r.limit !== undefined), planLegendKeys(plan, kv)));
  if (map !== undefined) parts.push(memoryMapSvg(map, { x: MARGIN.left, y: lanesBottom + legendHeight + MAP_GAP, width: plotWidth }, MAP_COLOURS));
  if (chart !== undefined) {
    const top = lanesBottom + legendHeight + mapHeight + 10;
    const box = { width: plotWidth + 12, height: chartHeight };
    // The chart's own key: its dotted line is the largest free block, not the legend's dashed lower bound; named only when a total row draws it.
    const free = chartKeyLines(chart, box).includes('free') ? `<tspan font-weight="400" fill="${MUTED}" data-key="free"> · dotted: largest free block</tspan>` : '';
    parts.push(`<text x="${MARGIN.left}" y="${top + 8}" font-weight="600" fill="${TEXT}">Live bytes per kind and region${free}</text>`);
    parts.push(peakChartSvg(chart, { ...box, x: MARGIN.left - 6, y: top + 14 }));
  }
  if (appendix !== undefined) {
    parts.push(`<text x="${MARGIN.left}" y="${above + APPENDIX_GAP + 8}" font-weight="600" fill="${TEXT}">${escapeXml(appendix.title)}</text>`);
    parts.push(appendix.markup(0, above + APPENDIX_GAP + APPENDIX_TITLE));
  }
  parts.push('</svg>');
  return parts.join('\n');
}

interface LaneRegion {
  readonly name: string;
  readonly peak: number;
  readonly lowerBound: number;
  readonly limit: LaneLimit | undefined; // the size limit on the lane's arena addresses; undefined without one
  readonly buffers: readonly PlannedBuffer[];
}

/** The regions with a lane (empty-regions.ts: as on screen), in order, with buffers in regions the plan does not list added after. */
function lanesOf(plan: ModelPlan): LaneRegion[] {
  return laneRegions(plan).map((name) => {
    const region = plan.regions.find((r) => r.name === name);
    return { name, peak: region?.peak ?? 0, lowerBound: region?.lowerBound ?? 0, limit: laneLimit(region), buffers: plan.buffers.filter((b) => b.region === name && b.size > 0) };
  });
}

interface LaneInput {
  readonly region: LaneRegion;
  readonly top: number;
  readonly laneHeight: number;
  readonly plotWidth: number;
  readonly x: (step: number) => number;
  readonly y: (bytes: number) => number;
  readonly highlight: ReadonlySet<number> | undefined;
  readonly kv: ReadonlySet<string>;
  readonly complete: boolean; // false: some tensor's size is unknown, the peak is a lower estimate
}

function laneSvg({ region, top, laneHeight, plotWidth, x, y, highlight, kv, complete }: LaneInput): string {
  const out = [
    `<g data-region="${escapeXml(region.name)}">`,
    `<rect x="${MARGIN.left}" y="${top}" width="${plotWidth}" height="${laneHeight}" fill="${LANE}"/>`,
    `<text x="${MARGIN.left}" y="${top - 6}" font-weight="600" fill="${TEXT}">${escapeXml(region.name)} · peak ${escapeXml(peakText(region.peak, complete))} · lower bound ${formatBytes(region.lowerBound)}</text>`,
  ];
  const limit = region.limit;
  if (limit !== undefined && limit.overBy > 0) {
    // The addresses above the limit that the plan uses: the overflow.
    out.push(`<rect x="${MARGIN.left}" y="${y(region.peak).toFixed(2)}" width="${plotWidth}" height="${(y(limit.arena) - y(region.peak)).toFixed(2)}" fill="${PEAK}" opacity="0.1" data-overflow="true"/>`);
  }
  // Owners first, then the buffers sharing their bytes on top.
  const ordered = [...region.buffers].sort((a, b) => Number(a.alias !== undefined) - Number(b.alias !== undefined) || a.id - b.id);
  const boxes = ordered.map((b) => {
    const x0 = x(b.start);
    const y1 = y(b.offset + b.size);
    return { x: x0, y: y1, w: Math.max(1, x(Math.max(b.end, b.start + 1)) - x0), h: Math.max(1, y(b.offset) - y1) };
  });
  ordered.forEach((b, k) => {
    const { x: x0, y: y1, w, h } = boxes[k]!;
    const dim = highlight !== undefined && !highlight.has(b.id);
    const shared = b.alias !== undefined;
    const cls = bufferClass(b, kv);
    const fill = shared ? 'none' : CLASS_COLOURS[cls];
    const stroke = highlight?.has(b.id) ? ` stroke="${TEXT}" stroke-width="2"` : shared ? ` stroke="${CLASS_COLOURS[cls]}" stroke-dasharray="3 2"` : ` stroke="#ffffff" stroke-width="0.5"`;
    out.push(
      `<rect x="${x0.toFixed(2)}" y="${y1.toFixed(2)}" width="${w.toFixed(2)}" height="${h.toFixed(2)}" fill="${fill}"${stroke}${dim ? ' opacity="0.25"' : ''} data-buffer="${b.id}" data-class="${cls}"><title>${escapeXml(`${shortName(b.name)}: ${formatBytes(b.size)} at ${offsetText(b.offset)}, steps ${b.start}–${b.end}`)}</title></rect>`,
    );
    if (b.wanted !== undefined) out.push(spillMark(x0, y1, w, h));
  });
  out.push(hLine(y(region.lowerBound), plotWidth, BOUND, '4 3'), hLine(y(region.peak), plotWidth, PEAK, undefined));
  out.push(...bufferLabels(ordered, boxes));
  if (limit !== undefined) out.push(limitLine(limit, y(limit.arena) >= top ? y(limit.arena) : undefined, top, plotWidth, titleChars(region, complete)));
  const byteAxis = byteTicks(0, region.peak, 4);
  for (const bytes of byteAxis.values) {
    out.push(`<text x="${MARGIN.left - 6}" y="${(y(bytes) + 4).toFixed(1)}" text-anchor="end" fill="${MUTED}">${byteAxis.label(bytes)}</text>`);
  }
  out.push('</g>');
  return out.join('\n');
}

/** The characters of a lane's title. */
function titleChars(region: LaneRegion, complete: boolean): number {
  return `${region.name} · peak ${peakText(region.peak, complete)} · lower bound ${formatBytes(region.lowerBound)}`.length;
}

/**
 * The size-limit line at `at` (the arena bytes the weights leave; none when
 * the limit is above the lane), solid red when the plan is over it, dashed
 * otherwise; and its label at the right end of the lane's title row, as on
 * screen: in the lane, under the line's end, it sat on buffers. The label is
 * the short one when the whole would run into the title.
 */
function limitLine(limit: LaneLimit, at: number | undefined, top: number, plotWidth: number, titleLength: number): string {
  const over = limit.overBy > 0;
  const colour = over ? PEAK : LIMIT;
  const whole = laneLimitText(limit);
  const text = (titleLength + whole.length) * CHAR_WIDTH + 24 <= plotWidth ? whole : laneLimitText(limit, true);
  return [
    `<g data-limit="${limit.sizeLimit}" data-arena-limit="${limit.arena}"${over ? ` data-over-by="${limit.overBy}"` : ''}>`,
    at === undefined ? '' : `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${at.toFixed(2)}" y2="${at.toFixed(2)}" stroke="${colour}" stroke-width="1.5"${over ? '' : ' stroke-dasharray="2 3"'}/>`,
    `<text x="${MARGIN.left + plotWidth}" y="${top - 6}" text-anchor="end" font-weight="600" fill="${colour}" data-limit-label="true">${escapeXml(`${at === undefined ? '↑ ' : ''}${text}`)}</text>`,
    '</g>',
  ].join('');
}

/**
 * Each buffer's name in its rectangle, as the heap on screen writes it: only
 * in a rectangle wide enough (LABEL_MIN) and tall enough for the export's
 * 9 px names (its lanes are shorter than the screen's, where a KV cache's
 * rows are 13 px and more), not on one that shares another's bytes, cut to the
 * characters that fit (the limit's label is in the title row, over none). Names come from the
 * file: cut by shortName and escaped like every text here.
 */
function bufferLabels(buffers: readonly PlannedBuffer[], boxes: readonly { x: number; y: number; w: number; h: number }[]): string[] {
  const out: string[] = [];
  buffers.forEach((b, k) => {
    const r = boxes[k]!;
    if (out.length >= MAX_LABELS || b.alias !== undefined || r.w < LABEL_MIN.width || r.h < NAME_HEIGHT) return;
    const chars = Math.floor((r.w - 8) / NAME_CHAR_WIDTH);
    const text = shortName(shortName(b.name), Math.max(1, chars - 1));
    out.push(`<text x="${(r.x + 4).toFixed(2)}" y="${(r.y + r.h / 2 + 3).toFixed(2)}" font-size="9" fill="${TEXT}" data-label="${b.id}">${escapeXml(text)}</text>`);
  });
  return out;
}

/** The notch the heap on screen puts in the top-left corner of a buffer that spilled from a faster region, when its rectangle has room. */
function spillMark(x: number, y: number, w: number, h: number): string {
  const side = Math.min(SPILL_MARK, w, h);
  if (side < 3) return '';
  return `<path d="M${x.toFixed(2)} ${y.toFixed(2)}h${side.toFixed(2)}L${x.toFixed(2)} ${(y + side).toFixed(2)}Z" fill="${LIMIT}" data-spilled="true"/>`;
}

/**
 * The heap legend on screen (legend-keys.ts: the classes the buffers have,
 * shares bytes and spilled when some buffer is), its lower-bound and peak
 * lines, and the size-limit line when a region has one, in one row from (x, y).
 */
function legendSvg(x: number, y: number, limits: boolean, keys: LegendKeys): string {
  const items: { label: string; mark: (x: number) => string }[] = [
    ...keys.classes.map(({ kind, label }) => ({ label, mark: (at: number) => `<rect x="${at}" y="${y - 9}" width="11" height="11" rx="2" fill="${CLASS_COLOURS[kind]}" data-class="${kind}"/>` })),
    ...(keys.shared ? [{ label: 'shares bytes', mark: (at: number) => `<rect x="${at}" y="${y - 9}" width="11" height="11" fill="none" stroke="${MUTED}" stroke-dasharray="3 2"/>` }] : []),
    { label: 'lower bound', mark: (at: number) => `<path d="M${at} ${y - 3}h16" stroke="${BOUND}" stroke-width="1.5" stroke-dasharray="4 3"/>` },
    { label: 'peak', mark: (at: number) => `<rect x="${at}" y="${y - 4}" width="16" height="1.5" fill="${PEAK}"/>` },
    ...(keys.spilled ? [{ label: 'spilled', mark: (at: number) => `<path d="M${at} ${y - 9}h8L${at} ${y - 1}Z" fill="${LIMIT}"/>` }] : []),
    ...(limits ? [{ label: 'size limit', mark: (at: number) => `<path d="M${at} ${y - 3}h16" stroke="${LIMIT}" stroke-width="1.5" stroke-dasharray="2 3"/>` }] : []),
  ];
  const out = ['<g class="legend" data-legend="true">'];
  let at = x;
  for (const item of items) {
    out.push(item.mark(at), `<text x="${at + 20}" y="${y}" fill="${TEXT}">${escapeXml(item.label)}</text>`);
    at += 28 + item.label.length * 6;
  }
  out.push('</g>');
  return out.join('\n');
}

function hLine(y: number, plotWidth: number, colour: string, dash: string | undefined): string {
  return `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y.toFixed(2)}" y2="${y.toFixed(2)}" stroke="${colour}" stroke-width="1.5"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;
}

/** About `count` round tick values of the steps 0 to `max` - 1 (no step `max` exists), whole steps: a run of 3 steps ticks 0, 1, 2, not 0, 0, 1, 1, 1. */
function ticks(max: number, count: number): number[] {
  if (max <= 0) return [0];
  const raw = Math.max(1, max / count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = 0; v < max; v += step) out.push(Math.round(v));
  return out;
}
