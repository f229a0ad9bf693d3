// The growth chart as SVG markup: per region, the peak (solid, a dot per
// planned value; hollow where some size is unknown and the peak is a lower
// estimate) and the lower bound (dashed) against the swept value, the region's
// size limit as a line (or in words when it is far above the curve), and the
// value on screen as a vertical rule with its peak. The same markup is shown
// in the page (recoloured by class for dark mode), in embeds and in the
// export; presentation attributes only, as the page's Content Security Policy
// refuses inline styles.

import { formatBytes } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import { textWidth } from '../export/graph-header';
import { xmlChars } from '../export/xml-chars';
import { growthLegendItems, type GrowthLegendItem } from './growth-legend';
import { AXIS_LINE, GROWTH_MARGIN, growthLayout, regionFigures, type GrowthChartInput, type GrowthLayout, type GrowthPanel } from './growth-geometry';

/** Colours outside the page (the page's light palette). */
export const GROWTH_COLOURS = { peak: '#d33a44', bound: '#0f8a4a', limit: '#a45c00', current: '#4a74ee', text: '#1b2130', muted: '#627084', back: '#f1f3f6' } as const;

/** Options of growthSvg. */
export interface GrowthSvgOptions {
  readonly dim: string; // what the x axis is
  readonly standalone?: boolean; // a whole document (xmlns, white background, title); default: markup for the page
  readonly title?: string; // drawn over a standalone chart
  readonly titleHeight?: number; // pixels the title takes at the top of a standalone chart
  readonly x?: number; // where a nested chart goes in its parent document
  readonly y?: number;
}

/** The chart of `input` laid out as `layout`, in a `width` × `height` box. */
export function growthSvg(input: GrowthChartInput, layout: GrowthLayout, width: number, height: number, options: GrowthSvgOptions): string {
  const head = options.standalone === true ? ' xmlns="http://www.w3.org/2000/svg"' : '';
  const shift = options.standalone === true ? (options.titleHeight ?? 0) : 0;
  const total = height + shift;
  const place = options.x !== undefined || options.y !== undefined ? ` x="${options.x ?? 0}" y="${options.y ?? 0}"` : '';
  const parts = [
    `<svg${head}${place} class="growth-svg" width="${width}" height="${total}" viewBox="0 0 ${width} ${total}" font-family="system-ui, sans-serif" font-size="10.5" role="img" aria-label="${text(summaryLine(input, options.dim))}">`,
  ];
  if (options.standalone === true) {
    parts.push(`<rect width="${width}" height="${total}" fill="#ffffff"/>`);
    if (options.title !== undefined) parts.push(exportTitleSvg(options.title, layout.left, width - layout.left - GROWTH_MARGIN.right));
    parts.push(`<g transform="translate(0 ${shift})">`);
  }
  for (const panel of layout.panels) parts.push(panelSvg(input, layout, panel));
  parts.push(axisSvg(layout, input.current?.value));
  if (options.standalone === true || options.x !== undefined) parts.push(legendSvg(input, layout, height));
  if (options.standalone === true) parts.push('</g>');
  parts.push('</svg>');
  return parts.join('\n');
}

/** One region: back, limit, the bound and peak lines with their dots, the value on screen, byte ticks. */
function panelSvg(input: GrowthChartInput, layout: GrowthLayout, panel: GrowthPanel): string {
  const { left, right, x } = layout;
  const { y, top, height } = panel;
  const bottom = top + height;
  const out = [
    `<g class="gr-panel" data-region="${text(panel.name)}">`,
    ...backSvg(layout, top, height),
    titleSvg(panel, left, top - 5, right - left + GROWTH_MARGIN.right),
  ];
  for (const bytes of panel.ticks) {
    out.push(`<text class="gr-muted gr-byte-tick" x="${left - 6}" y="${(y(bytes) + 3.5).toFixed(1)}" text-anchor="end" fill="${GROWTH_COLOURS.muted}">${panel.tickLabel(bytes)}</text>`);
  }
  if (panel.limitShown) {
    const at = y(panel.sizeLimit!).toFixed(1);
    out.push(`<line class="gr-limit" x1="${left}" x2="${right}" y1="${at}" y2="${at}" stroke="${GROWTH_COLOURS.limit}" stroke-width="1.5" stroke-dasharray="5 3" data-limit="${panel.sizeLimit}"/>`);
  }
  const figures = input.points.map((p) => ({ p, f: regionFigures(p, panel.name) })).filter((e) => e.f.length === 2);
  // Across the axis break the lines would have no slope to read: 0 is a dot alone.
  const joined = layout.breakAt === undefined ? figures : figures.filter((e) => e.p.value > 0);
  const line = (k: 0 | 1): string => joined.map((e, i) => `${i === 0 ? 'M' : 'L'}${x(e.p.value).toFixed(1)},${y(e.f[k]!).toFixed(1)}`).join('');
  if (joined.length > 0) {
    out.push(`<path class="gr-bound" d="${line(1)}" fill="none" stroke="${GROWTH_COLOURS.bound}" stroke-width="1.5" stroke-dasharray="4 3"/>`);
    out.push(`<path class="gr-peak" d="${line(0)}" fill="none" stroke="${GROWTH_COLOURS.peak}" stroke-width="2"/>`);
  }
  for (const { p, f } of figures) {
    const fill = p.complete ? GROWTH_COLOURS.peak : '#ffffff';
    out.push(`<circle class="gr-dot${p.complete ? '' : ' gr-dot-open'}${p.fits ? '' : ' gr-dot-over'}" cx="${x(p.value).toFixed(1)}" cy="${y(f[0]!).toFixed(1)}" r="3.5" fill="${fill}" stroke="${GROWTH_COLOURS.peak}" stroke-width="1.5" data-value="${p.value}"/>`);
  }
  const current = input.current;
  const mine = current?.regions.find((r) => r.name === panel.name);
  if (current !== undefined) {
    const cx = x(current.value).toFixed(1);
    out.push(`<line class="gr-current" x1="${cx}" x2="${cx}" y1="${top.toFixed(1)}" y2="${bottom.toFixed(1)}" stroke="${GROWTH_COLOURS.current}" stroke-width="1.5" stroke-dasharray="2 2"/>`);
    if (mine !== undefined) {
      const cy = y(mine.peak);
      out.push(`<path class="gr-current-mark" d="M${cx},${(cy - 6).toFixed(1)}l6,6l-6,6l-6,-6z" fill="${GROWTH_COLOURS.current}" stroke="#ffffff" stroke-width="1"/>`);
    }
  }
  out.push('</g>');
  return out.join('\n');
}

/** Half the gap the axis break leaves in a panel's back, in pixels. */
const BREAK_HALF = 3;

/** A panel's back: one rectangle, or two either side of the axis break with a break mark (two slants) over its foot. */
function backSvg(layout: GrowthLayout, top: number, height: number): string[] {
  const { left, right, breakAt } = layout;
  const rect = (from: number, to: number): string => `<rect class="gr-back" x="${from.toFixed(1)}" y="${top.toFixed(1)}" width="${(to - from).toFixed(1)}" height="${height.toFixed(1)}" fill="${GROWTH_COLOURS.back}"/>`;
  if (breakAt === undefined) return [rect(left, right)];
  const foot = top + height;
  const slant = (dx: number): string => `M${(breakAt + dx - 3).toFixed(1)},${(foot + 4).toFixed(1)}l6,-12`;
  return [
    rect(left, breakAt - BREAK_HALF),
    rect(breakAt + BREAK_HALF, right),
    `<path class="gr-break" d="${slant(-BREAK_HALF)}${slant(BREAK_HALF)}" fill="none" stroke="${GROWTH_COLOURS.muted}" stroke-width="1.2" data-break="${breakAt.toFixed(1)}"/>`,
  ];
}

/** Pixels a character of a panel's title (10.5 px, semibold) takes at most, on average. */
const TITLE_CHAR = 6.4;

/**
 * A panel's title: its region's name and size limit in the longest wording
 * that fits `room` pixels, longest first: "sram · limit 512 KiB (above the
 * chart)", "sram · limit 512 KiB ↑", "sram ≤ 512 KiB ↑", "sram", then the name
 * cut with an ellipsis. The whole wording is its tooltip.
 */
export function panelTitle(name: string, sizeLimit: number | undefined, limitShown: boolean, room: number): { readonly shown: string; readonly full: string } {
  const limit = sizeLimit === undefined ? undefined : formatBytes(sizeLimit);
  const above = limitShown ? '' : ' ↑';
  const wordings =
    limit === undefined ? [name] : [`${name} · limit ${limit}${limitShown ? '' : ' (above the chart)'}`, `${name} · limit ${limit}${above}`, `${name} ≤ ${limit}${above}`, name];
  const fits = (s: string): boolean => [...s].length * TITLE_CHAR <= room;
  const full = wordings[0]!;
  const shown = wordings.find(fits) ?? `${[...name].slice(0, Math.max(1, Math.floor(room / TITLE_CHAR) - 1)).join('')}…`;
  return { shown, full };
}

function titleSvg(panel: GrowthPanel, x: number, y: number, room: number): string {
  const { shown, full } = panelTitle(panel.name, panel.sizeLimit, panel.limitShown, room);
  return `<text class="gr-text gr-title" x="${x}" y="${y.toFixed(1)}" font-weight="600" fill="${GROWTH_COLOURS.text}"><title>${text(full)}</title>${text(shown)}</text>`;
}

/** The values under the plot and the dim's name, in as many lines as the layout gave it. */
function axisSvg(layout: GrowthLayout, current: number | undefined): string {
  const y = layout.bottom + 13;
  const out = [`<g class="gr-axis">`];
  for (const v of layout.xTicks) {
    // The value on screen is labelled in the colour of its rule and diamond, so the diamond reads as that value's peak.
    const mark = v === current ? ['gr-current-tick', GROWTH_COLOURS.current, ' font-weight="600"'] : ['gr-muted', GROWTH_COLOURS.muted, ''];
    const place = layout.xTickPlace(v);
    out.push(`<text class="${mark[0]}" x="${place.x.toFixed(1)}" y="${y}" text-anchor="${place.anchor}" fill="${mark[1]}"${mark[2]}>${v}</text>`);
  }
  layout.axisTitle.forEach((line, i) => {
    out.push(`<text class="gr-muted gr-axis-title" x="${layout.right}" y="${y + 13 + i * AXIS_LINE}" text-anchor="end" fill="${GROWTH_COLOURS.muted}">${text(line)}</text>`);
  });
  out.push('</g>');
  return out.join('\n');
}

/** The mark of each entry of the legend, drawn left of its label. */
const LEGEND_MARKS: Readonly<Record<GrowthLegendItem['key'], string>> = {
  peak: `<path d="M0 -4h16" stroke="${GROWTH_COLOURS.peak}" stroke-width="2"/>`,
  bound: `<path d="M0 -4h16" stroke="${GROWTH_COLOURS.bound}" stroke-width="1.5" stroke-dasharray="4 3"/>`,
  limit: `<path d="M0 -4h16" stroke="${GROWTH_COLOURS.limit}" stroke-width="1.5" stroke-dasharray="5 3"/>`,
  current: `<path d="M8 -10v12" stroke="${GROWTH_COLOURS.current}" stroke-width="1.5" stroke-dasharray="2 2"/>`,
  estimate: `<circle cx="8" cy="-4" r="3.5" fill="#ffffff" stroke="${GROWTH_COLOURS.peak}" stroke-width="1.5"/>`,
};

/** What the marks mean, in one row under the axis (the page has its own legend under the chart). */
function legendSvg(input: GrowthChartInput, layout: GrowthLayout, height: number): string {
  const y = height - 4;
  const out = [`<g class="gr-legend">`];
  let at = layout.left;
  for (const { key, label } of growthLegendItems(input, layout.panels.some((p) => p.limitShown))) {
    out.push(`<g transform="translate(${at} ${y})" data-key="${key}">${LEGEND_MARKS[key]}<text x="20" y="0" fill="${GROWTH_COLOURS.muted}">${text(label)}</text></g>`);
    at += 30 + label.length * 6;
  }
  out.push('</g>');
  return out.join('');
}

/** Height of the legend row a standalone or nested chart adds under its axis. */
export const GROWTH_LEGEND_HEIGHT = 18;

/** The chart in one sentence, for screen readers. */
function summaryLine(input: GrowthChartInput, dim: string): string {
  const first = input.points[0];
  const last = input.points[input.points.length - 1];
  if (first === undefined || last === undefined) return `Peak against ${dim}: no point planned yet`;
  return `Peak against ${dim}: ${formatBytes(first.peak)} at ${first.value} to ${formatBytes(last.peak)} at ${last.value}, ${input.points.length} values planned`;
}

function text(s: string): string {
  return xmlChars(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Pixels of an exported chart's title: its first line, and each line under it. */
const TITLE_HEIGHT = 30;
const TITLE_LINE = 17;

/**
 * An exported chart's title in at most two lines that each fit `room` pixels:
 * one when the whole does; else broken after a " · " (or a space) where the
 * first line is fullest, the second line shortened in its middle with an
 * ellipsis when it is still too long.
 */
export function titleLines(title: string, room: number): string[] {
  const most = Math.max(8, Math.floor(room / textWidth('x', true)));
  if ([...title].length <= most) return [title];
  const breaks = [...title.matchAll(/ · | /g)].map((m) => ({ end: m.index, next: m.index + m[0].length }));
  const fits = breaks.filter((b) => [...title.slice(0, b.end)].length <= most);
  const dotted = fits.filter((b) => title.slice(b.end, b.next) === ' · ');
  const at = dotted.at(-1) ?? fits.at(-1);
  if (at === undefined) return [shortName(title, most - 1, 'middle')];
  const rest = title.slice(at.next);
  return [title.slice(0, at.end), [...rest].length <= most ? rest : shortName(rest, most - 1, 'middle')];
}

/** The title of an exported chart, its whole text in a <title> when a line of it is cut. */
function exportTitleSvg(title: string, x: number, room: number): string {
  const lines = titleLines(title, room);
  const whole = lines.length > 1 || lines[0] !== title ? `<title>${text(title)}</title>` : '';
  const spans = lines.map((line, i) => `<tspan x="${x}" y="${18 + i * TITLE_LINE}">${text(line)}</tspan>`).join('');
  return `<text class="gr-export-title" x="${x}" y="18" font-size="13" font-weight="600" fill="${GROWTH_COLOURS.text}">${whole}${spans}</text>`;
}

/** Height of each region's panel in an exported chart, in pixels. */
const EXPORT_PANEL = 170;

/** The chart for an export, `width` wide: its height and its markup at (x, y) in a parent document, or as a document of its own. */
export function growthExport(input: GrowthChartInput, dim: string, width: number): { readonly height: number; readonly markup: (x: number, y: number) => string; readonly document: (title: string) => string } {
  const { panels, axisTitle } = growthLayout(input, width, 1000, dim);
  const height = panels.length * (EXPORT_PANEL + GROWTH_MARGIN.title + GROWTH_MARGIN.gap) + GROWTH_MARGIN.top + GROWTH_MARGIN.bottom + (axisTitle.length - 1) * AXIS_LINE + GROWTH_LEGEND_HEIGHT;
  const layout = growthLayout(input, width, height - GROWTH_LEGEND_HEIGHT, dim);
  return {
    height,
    markup: (x, y) => growthSvg(input, layout, width, height, { dim, x, y }),
    document: (title) => growthSvg(input, layout, width, height, { dim, standalone: true, title, titleHeight: TITLE_HEIGHT + (titleLines(title, width - layout.left - GROWTH_MARGIN.right).length - 1) * TITLE_LINE }),
  };
}
