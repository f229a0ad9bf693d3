// The peak chart as SVG markup: small multiples of live bytes over steps, one
// column per memory region and one row per kind (total first), each cell on
// its region's bytes scale with the region's peak (solid) and lower bound
// (dashed) marked and the peak step drawn as a vertical rule; the total cell
// also draws the headroom, the largest free block at each step (the smallest
// in each pixel column), as a dotted line in a colour of its own, apart from
// the bound's green dashes (the page names it in the chart's key). A block too
// short for every row keeps a decoder's KV cache, the total and the kinds
// holding most bytes at the peak (rowsKept) and names the rows left out. The same markup
// is shown in the page (whose CSS recolours it by class for dark mode), in
// the heap export and in embeds. Presentation attributes only: the page's
// Content Security Policy refuses inline styles.

import { formatBytes } from '../../shared/format';
import { peakText } from '../plan-words';
import { xmlChars } from '../export/xml-chars';
import { bucketMax, type ChartKind, type PeakChartData } from './peak-chart-data';
import { CLASS_COLOURS } from './buffer-classes';

/** Colours of the chart outside the page (the page's light palette). */
export const CHART_COLOURS: Readonly<Record<ChartKind | 'total' | 'peak' | 'bound' | 'free' | 'text' | 'muted' | 'cell', string>> = {
  total: '#627084',
  activation: CLASS_COLOURS.activation,
  io: CLASS_COLOURS.io,
  kv: CLASS_COLOURS.kv,
  scratch: CLASS_COLOURS.scratch,
  cache: CLASS_COLOURS.cache,
  copy: CLASS_COLOURS.copy,
  subgraph: CLASS_COLOURS.subgraph,
  peak: '#d33a44',
  bound: '#0f8a4a',
  free: '#34405a',
  text: '#1b2130',
  muted: '#627084',
  cell: '#f1f3f6',
};

/** Each row's label. */
const ROW_WORDS: Readonly<Record<ChartKind | 'total', string>> = { total: 'total', activation: 'activation', io: 'I/O', kv: 'KV cache', scratch: 'scratch', cache: 'cache', copy: 'copy', subgraph: 'subgraph body' };

/** Options of peakChartSvg. */
export interface PeakChartSvgOptions {
  readonly width: number; // CSS pixels
  readonly height: number;
  readonly standalone?: boolean; // a whole document (xmlns, white background); default: markup for the page
  readonly x?: number; // where a nested chart goes in its parent document
  readonly y?: number;
}

const GAP = 6;
const HEADER = 28; // column header: region name, peak and bound
const HEADER_LINE = 12; // one more line of figures in a narrow column's header
const LABEL = 13; // row label over each cell
const MIN_CELL = 14;

/** Narrowest region block, in CSS pixels: narrower boxes stack the regions. */
const MIN_BLOCK = 150;

/** Where the chart of `data` puts its blocks and which rows they keep, in a box of `width` × `height`. */
function chartLayout(data: PeakChartData, width: number, height: number) {
  const rows: readonly (ChartKind | 'total')[] = ['total', ...data.kinds];
  // Region blocks side by side while each is at least MIN_BLOCK wide, else in rows of blocks.
  const perRow = Math.max(1, Math.min(data.regions.length, Math.floor((width - GAP) / (MIN_BLOCK + GAP))));
  const blockRows = Math.max(1, Math.ceil(data.regions.length / perRow));
  const cellWidth = Math.max(20, (width - GAP * (perRow + 1)) / perRow);
  const blockHeight = height / blockRows;
  const chars = cellWidth / 6;
  const figures = data.regions.map((region) => rowFigures(region, rows, data.complete));
  const headers = data.regions.map((region, k) => {
    const h = regionHeader(region.name, peakText(region.peak, data.complete), formatBytes(region.lowerBound), chars);
    const heading = rowsHeading(figures[k]!, chars);
    return heading === undefined ? h : { ...h, figures: [...h.figures, heading] };
  });
  const header = headerHeight(Math.max(1, ...headers.map((h) => h.figures.length)));
  const { shown, cellHeight } = rowsThatFit(rows.length, blockHeight - header);
  const kept = data.regions.map((region) => rowsKept(rows, shown, (row) => bytesAtPeak(region, row), (row) => mostBytes(region, row)));
  return { rows, perRow, cellWidth, blockHeight, chars, figures, headers, header, shown, cellHeight, kept };
}

/** The most bytes of `row` live at any step of `region`. */
function mostBytes(region: PeakChartData['regions'][number], row: ChartKind | 'total'): number {
  const values = row === 'total' ? region.total : region.byKind[row];
  return values.reduce((most, v) => Math.max(most, v), 0);
}

/** Bytes of `row` live at `region`'s peak step (0 for a region that holds nothing). */
function bytesAtPeak(region: PeakChartData['regions'][number], row: ChartKind | 'total'): number {
  const values = row === 'total' ? region.total : region.byKind[row];
  return region.peakStep === undefined ? 0 : (values[region.peakStep] ?? 0);
}

/** A line of the chart's key: the dashed lower bound, or the dotted largest free block. */
export type ChartKeyLine = 'bound' | 'free';

/**
 * The lines the chart of `data` draws in a box of `options`' size, for its key: the lower bound in every cell it
 * draws, the largest free block only in a total row, so a block too short to keep its total draws none.
 */
export function chartKeyLines(data: PeakChartData, options: Pick<PeakChartSvgOptions, 'width' | 'height'>): readonly ChartKeyLine[] {
  const { kept } = chartLayout(data, options.width, options.height);
  if (kept.every((rows) => rows.length === 0)) return [];
  return kept.some((rows) => rows.includes('total')) ? ['bound', 'free'] : ['bound'];
}

/** The chart of `data` as an `<svg>` element's markup; see the module header. */
export function peakChartSvg(data: PeakChartData, options: PeakChartSvgOptions): string {
  const { width, height } = options;
  const { rows, perRow, cellWidth, blockHeight, chars, figures, headers, header, shown, cellHeight, kept } = chartLayout(data, width, height);
  const place = options.x !== undefined || options.y !== undefined ? ` x="${options.x ?? 0}" y="${options.y ?? 0}"` : '';
  const head = options.standalone === true ? ` xmlns="http://www.w3.org/2000/svg"` : '';
  const parts = [
    `<svg${head}${place} class="peak-chart-svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="10.5" role="img" aria-label="${escapeText(summaryLine(data))}">`,
  ];
  if (options.standalone === true) parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  data.regions.forEach((region, k) => {
    const left = GAP + (k % perRow) * (cellWidth + GAP);
    const blockTop = Math.floor(k / perRow) * blockHeight;
    const max = Math.max(1, region.peak, region.lowerBound, ...region.total) * 1.08;
    parts.push(
      `<g class="pc-region" data-region="${escapeText(region.name)}" data-rows="${rows.length}" data-shown="${shown}">`,
      ...headerSvg(headers[k]!, left, blockTop),
    );
    const labels = rowLabels(figures[k]!, chars);
    kept[k]!.forEach((row, r) => {
      const top = blockTop + header + r * (cellHeight + LABEL + GAP) + LABEL;
      const values = row === 'total' ? region.total : region.byKind[row];
      const cell = { left, top, width: cellWidth, height: cellHeight, max, steps: data.steps };
      parts.push(
        `<text class="pc-muted" x="${left}" y="${top - 3}" fill="${CHART_COLOURS.muted}">${escapeText(labels[rows.indexOf(row)]!)}</text>`,
        cellSvg(cell, values, row, region.peak, region.lowerBound, region.peakStep, row === 'total' ? region.largestFree : undefined),
      );
    });
    if (shown < rows.length) {
      const top = blockTop + header + shown * (cellHeight + LABEL + GAP) + LABEL;
      const dropped = rows.filter((row) => !kept[k]!.includes(row));
      parts.push(`<text class="pc-muted pc-left-out" x="${left}" y="${top - 3}" fill="${CHART_COLOURS.muted}">${escapeText(leftOutText(dropped, chars))}<title>${escapeText(leftOutText(dropped, Infinity))} (too short to draw them)</title></text>`);
    }
    parts.push('</g>');
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/**
 * The order rows are kept in when a block must leave some out, among rows of equal bytes at the peak: a decoder's KV
 * cache, which no other view draws over time, then the total (the heap's own curve draws it too, the block's header
 * gives its peak), then the kinds most particular to the model (scratch, a cache) before the graph's I/O and the plain
 * activations every model has.
 */
const KEEP_FIRST: readonly (ChartKind | 'total')[] = ['kv', 'total', 'scratch', 'cache', 'copy', 'subgraph', 'io', 'activation'];

/**
 * The `shown` of `rows` a block draws, in the rows' order: a KV cache holding bytes at the peak and the total first,
 * then the kinds by their bytes at the peak (`atPeak`), most first, and rows with none at the peak last (of those, the
 * ones holding most at any step, `most`, first), so the rows that make up the peak are drawn before "copy · 0 B at
 * peak" (ultraface on mcu kept copy and left out activation's 3.52 MiB; GPT-2's sram, mostly I/O, kept "KV cache · 0 B
 * at peak").
 */
export function rowsKept(
  rows: readonly (ChartKind | 'total')[],
  shown: number,
  atPeak: (row: ChartKind | 'total') => number,
  most: (row: ChartKind | 'total') => number = () => 0,
): readonly (ChartKind | 'total')[] {
  if (shown >= rows.length) return rows;
  const rank = (row: ChartKind | 'total'): number => (row === 'total' ? 0 : atPeak(row) <= 0 ? 2 : row === 'kv' ? 0 : 1);
  const bytes = (row: ChartKind | 'total'): number => (rank(row) === 1 ? atPeak(row) : rank(row) === 2 ? most(row) : 0);
  const order = [...rows].sort((a, b) => rank(a) - rank(b) || bytes(b) - bytes(a) || KEEP_FIRST.indexOf(a) - KEEP_FIRST.indexOf(b));
  const chosen = new Set(order.slice(0, Math.max(0, shown)));
  return rows.filter((row) => chosen.has(row));
}

/**
 * How many of `count` rows a block keeps in `room` pixels under its header,
 * and their cells' height: every row while each cell is at least MIN_CELL
 * tall, else the first rows that are, above a line naming the rest, so a
 * block never runs into the one below it (GPT-2's sram scratch row lay over
 * ext-ram's header at 1024×640).
 */
export function rowsThatFit(count: number, room: number): { readonly shown: number; readonly cellHeight: number } {
  const whole = (room - count * (LABEL + GAP)) / count;
  if (whole >= MIN_CELL) return { shown: count, cellHeight: whole };
  const shown = Math.max(0, Math.min(count - 1, Math.floor((room - LABEL) / (MIN_CELL + LABEL + GAP))));
  return { shown, cellHeight: shown === 0 ? 0 : (room - LABEL - shown * (LABEL + GAP)) / shown };
}

/** The line under a block's last row naming the rows it leaves out: "2 rows left out, no room: I/O, scratch". */
function leftOutText(rows: readonly (ChartKind | 'total')[], chars: number): string {
  const words = rows.map((r) => ROW_WORDS[r]).join(', ');
  const full = `${rows.length === 1 ? '1 row' : `${rows.length} rows`} left out, no room: ${words}`;
  return full.length <= chars ? full : clip(`${rows.length} left out: ${words}`, chars);
}

/** The lines over a region's column: its name, then its figures on one line or, in a narrow column, two. */
export interface RegionHeader {
  readonly name: string;
  readonly figures: readonly string[]; // ["peak 456 KiB · bound 456 KiB"] or ["peak 4.85 MiB", "bound 4.85 MiB"]
}

/**
 * The header of a region `chars` characters wide: a label and its value are
 * never cut apart. Both figures on one line when they fit, else one line
 * each; only a column too narrow for one figure is cut.
 */
export function regionHeader(name: string, peak: string, bound: string, chars: number): RegionHeader {
  const both = `peak ${peak} · bound ${bound}`;
  const figures = both.length <= chars ? [both] : [`peak ${peak}`, `bound ${bound}`].map((line) => clip(line, chars));
  return { name: clip(name, chars), figures };
}

/** What a row's label tells: its kind, its bytes at the peak step, and for the total row the largest free block then. */
export interface RowFigures {
  readonly word: string; // "activation", "I/O", "total"
  readonly atPeak: string; // "2.93 MiB"
  readonly largestFree?: string; // the total row's headroom at the peak step
}

/** The wordings of a row, longest first; every row of a chart takes the same one. */
const ROW_WORDINGS: readonly ((r: RowFigures) => string)[] = [(r) => `${r.word} · ${r.atPeak} at peak`, (r) => `${r.word} ${r.atPeak} at peak`, (r) => `${r.word} ${r.atPeak} @peak`];

/** A row's wording under the column's heading (rowsHeading), in a column too narrow for any of ROW_WORDINGS. */
const HEADED_WORDING = (r: RowFigures): string => `${r.word} ${r.atPeak}`;

/** The line over the rows of a column too narrow for "activation 54.0 KiB @peak": it says what their figures are. */
export const ROWS_HEADING = 'rows at peak:';

/** The longest of ROW_WORDINGS that fits every row whole in `chars` characters, if any does. */
function rowWording(rows: readonly RowFigures[], chars: number): ((r: RowFigures) => string) | undefined {
  return ROW_WORDINGS.find((wording) => rows.every((r) => wording(r).length <= chars));
}

/** ROWS_HEADING when the rows' labels in `chars` characters are too narrow to say "at peak" each, else undefined. */
export function rowsHeading(rows: readonly RowFigures[], chars: number): string | undefined {
  return rowWording(rows, chars) === undefined ? clip(ROWS_HEADING, chars) : undefined;
}

/**
 * The rows' labels in `chars` characters: one wording for every row, the
 * longest that fits each whole, so "activation 2.93 MiB @peak" never sits
 * beside "I/O · 0 B at peak" and a figure never loses its unit. Every label
 * says its figure is the bytes at the peak step, or, too narrow for that, the
 * column says it once over them (rowsHeading): a bare "I/O 0 B" beside a bar
 * that is not zero at step 0 would read as false. The total row adds its
 * largest free block when the longest wording fits and so does that.
 */
export function rowLabels(rows: readonly RowFigures[], chars: number): string[] {
  const wording = rowWording(rows, chars) ?? HEADED_WORDING;
  return rows.map((r) => {
    const label = wording(r);
    const withFree = r.largestFree === undefined ? undefined : `${label} · largest free ${r.largestFree}`;
    return withFree !== undefined && wording === ROW_WORDINGS[0] && withFree.length <= chars ? withFree : clip(label, chars);
  });
}

/** The figures of each row of `region`'s block: its bytes at the region's peak step. */
function rowFigures(region: PeakChartData['regions'][number], rows: readonly (ChartKind | 'total')[], complete: boolean): RowFigures[] {
  return rows.map((row) => {
    const values = row === 'total' ? region.total : region.byKind[row];
    const atPeak = peakText(region.peakStep === undefined ? 0 : values[region.peakStep] ?? 0, complete);
    if (row !== 'total') return { word: ROW_WORDS[row], atPeak };
    const free = region.peakStep === undefined ? region.capacity : region.largestFree[region.peakStep] ?? region.capacity;
    return { word: ROW_WORDS[row], atPeak, largestFree: formatBytes(free) };
  });
}

/** Height of a region's header of `lines` lines of figures. */
function headerHeight(lines: number): number {
  return HEADER + (lines - 1) * HEADER_LINE;
}

function headerSvg(h: RegionHeader, left: number, top: number): string[] {
  return [
    `<text class="pc-text" x="${left}" y="${top + 11}" font-weight="600" fill="${CHART_COLOURS.text}">${escapeText(h.name)}</text>`,
    ...h.figures.map((line, i) => `<text class="pc-muted" x="${left}" y="${top + 23 + i * HEADER_LINE}" fill="${CHART_COLOURS.muted}">${escapeText(line)}</text>`),
  ];
}

interface Cell {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  readonly max: number; // bytes at the cell's top
  readonly steps: number;
}

/** One small multiple: the area of `values`, the peak and bound lines and the peak-step rule. */
function cellSvg(cell: Cell, values: Float64Array, kind: ChartKind | 'total', peak: number, bound: number, peakStep: number | undefined, free?: Float64Array): string {
  const x = (step: number): number => cell.left + (step / cell.steps) * cell.width;
  const y = (bytes: number): number => cell.top + cell.height - (bytes / cell.max) * cell.height;
  const points = bucketMax(values, cell.width);
  const size = points.length > 1 ? points[1]!.step - points[0]!.step : cell.steps;
  let d = `M${x(0).toFixed(1)},${y(0).toFixed(1)}`;
  for (const p of points) d += `V${y(p.bytes).toFixed(1)}H${x(Math.min(cell.steps, p.step + size)).toFixed(1)}`;
  d += `V${y(0).toFixed(1)}Z`;
  const colour = CHART_COLOURS[kind];
  const line = (bytes: number, cls: string, stroke: string, dash: string): string =>
    `<line class="${cls}" x1="${cell.left}" x2="${(cell.left + cell.width).toFixed(1)}" y1="${y(bytes).toFixed(1)}" y2="${y(bytes).toFixed(1)}" stroke="${stroke}" stroke-width="1"${dash}/>`;
  const out = [
    `<g class="pc-cell" data-kind="${kind}">`,
    `<rect class="pc-back" x="${cell.left}" y="${cell.top}" width="${cell.width.toFixed(1)}" height="${cell.height.toFixed(1)}" fill="${CHART_COLOURS.cell}"/>`,
    `<path class="pc-area pc-${kind}" d="${d}" fill="${colour}" fill-opacity="0.75" stroke="${colour}" stroke-width="0.8"/>`,
    line(bound, 'pc-bound', CHART_COLOURS.bound, ' stroke-dasharray="4 3"'),
    line(peak, 'pc-peak', CHART_COLOURS.peak, ''),
  ];
  if (free !== undefined) {
    const lows = bucketMax(free, cell.width, true);
    const step = lows.length > 1 ? lows[1]!.step - lows[0]!.step : cell.steps;
    let f = '';
    for (const p of lows) f += `${f === '' ? 'M' : 'L'}${x(p.step).toFixed(1)},${y(Math.min(cell.max, p.bytes)).toFixed(1)}H${x(Math.min(cell.steps, p.step + step)).toFixed(1)}`;
    out.push(`<path class="pc-free" d="${f}" fill="none" stroke="${CHART_COLOURS.free}" stroke-width="1.5" stroke-dasharray="1 2" stroke-linecap="round"><title>largest free block at each step</title></path>`);
  }
  if (peakStep !== undefined) {
    const px = x(peakStep + 0.5).toFixed(1);
    out.push(`<line class="pc-peak-step" x1="${px}" x2="${px}" y1="${cell.top}" y2="${(cell.top + cell.height).toFixed(1)}" stroke="${CHART_COLOURS.peak}" stroke-width="1" stroke-opacity="0.6" stroke-dasharray="2 2"/>`);
  }
  out.push('</g>');
  return out.join('\n');
}

/** The chart in one sentence, for screen readers. */
function summaryLine(data: PeakChartData): string {
  const regions = data.regions.map(
    (r) =>
      `${r.name}: peak ${peakText(r.peak, data.complete)}, lower bound ${formatBytes(r.lowerBound)}${r.peakStep === undefined ? '' : ` at step ${r.peakStep}, largest free block there ${formatBytes(r.largestFree[r.peakStep] ?? r.capacity)} of ${formatBytes(r.capacity)}`}`,
  );
  return `Live bytes over ${data.steps} steps per kind (${data.kinds.map((k) => ROW_WORDS[k]).join(', ')})${data.complete ? '' : ', sizes known only'}. ${regions.join('; ')}`;
}

/** The height the chart wants for `data` at `cellHeight` pixels per small multiple, its regions side by side. */
export function peakChartHeight(data: PeakChartData, cellHeight: number): number {
  return HEADER + (data.kinds.length + 1) * (cellHeight + LABEL + GAP);
}

function clip(text: string, chars: number): string {
  const n = Math.max(4, Math.floor(chars));
  return text.length <= n ? text : `${text.slice(0, n - 1)}…`;
}

function escapeText(text: string): string {
  return xmlChars(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
