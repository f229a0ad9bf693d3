// The memory map as the heap's export draws it: the side bar's bars (one per
// region, its used bytes against its limit, split into weights, graph I/O,
// KV cache, activations, scratch and the rest of the peak, the limit as a tick) with
// their figures as text, what spilled to each region and the bytes moved there
// over one inference, and where the weights
// and graph I/O are. The bars and words come from memory-map-data.ts, as the
// side bar's do. Plain strings, no DOM.

import { barMovedText, barPartsText, barScale, barSpeedText, barSpilledText, barUsedText, ioText, MAP_PARTS, shownParts, weightsText, type MapBar, type MapPart, type MemoryMap } from '../panels/memory-map-data';
import { formatBytes } from '../../shared/format';
import { escapeXml } from './xml-chars';

/** The colours the heap export draws with. */
export interface MapColours {
  readonly parts: Readonly<Record<MapPart, string>>;
  readonly limit: string;
  readonly over: string;
  readonly text: string;
  readonly muted: string;
  readonly background: string;
}

/** Where the memory map goes in the document. */
export interface MapBox {
  readonly x: number;
  readonly y: number; // top of the section's title
  readonly width: number;
}

/** Pixels of one region: its name and figures, the bar, the words under it (a line each); then a gap. */
const ROW = { label: 14, bar: 12, legend: 16, gap: 8 } as const;
const TITLE = 18;
const NOTE = 15;
/** Pixels a character of the export's 11 px sans-serif takes at most on average: a line of words longer than the map's width is wrapped (SVG text does not wrap, and the file cuts it at its edge). */
const CHAR_WIDTH = 6.2;

/** Height in pixels of the memory map of `map` drawn `width` pixels wide. */
export function memoryMapSvgHeight(map: MemoryMap, width: number): number {
  const bars = map.bars.reduce((sum, bar) => sum + ROW.label + ROW.bar + ROW.legend * legendLines(bar, width).length + ROW.gap, 0);
  return TITLE + bars + NOTE * (wrapWords(weightsText(map), width).length + wrapWords(ioText(map), width).length);
}

/** The memory map's markup, from (box.x, box.y) down, `memoryMapSvgHeight` pixels tall. */
export function memoryMapSvg(map: MemoryMap, box: MapBox, colours: MapColours): string {
  const out = [`<g class="memory-map" data-memory-map="true">`, `<text x="${box.x}" y="${box.y + 10}" font-weight="600" fill="${colours.text}">Memory map</text>`, keySvg(box, colours, map.bars.some((b) => b.sizeLimit !== undefined), map)];
  let top = box.y + TITLE;
  for (const bar of map.bars) {
    out.push(barSvg(bar, barSpeedText(bar, map), { ...box, y: top }, colours));
    top += ROW.label + ROW.bar + ROW.legend * legendLines(bar, box.width).length + ROW.gap;
  }
  for (const line of wrapWords(weightsText(map), box.width)) {
    out.push(`<text x="${box.x}" y="${top + 10}" fill="${colours.muted}" data-memory-map-weights="${map.weights.in}">${escapeXml(line)}</text>`);
    top += NOTE;
  }
  for (const line of wrapWords(ioText(map), box.width)) {
    out.push(`<text x="${box.x}" y="${top + 10}" fill="${colours.muted}" data-memory-map-io="${map.io.owner}">${escapeXml(line)}</text>`);
    top += NOTE;
  }
  out.push('</g>');
  return out.join('\n');
}

/** `text` in lines that fit `width` pixels, broken between words (one line when it fits; a word longer than a line keeps a line of its own). */
export function wrapWords(text: string, width: number): string[] {
  const most = Math.max(16, Math.floor(width / CHAR_WIDTH));
  if (text.length <= most) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= most) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The words under a region's bar: its parts, then what spilled there (marked), in lines that fit `width`. */
function legendLines(bar: MapBar, width: number): { readonly text: string; readonly spilled: string | undefined }[] {
  const parts = barPartsText(bar);
  const spilled = barSpilledText(bar);
  if (spilled === undefined) return wrapWords(parts, width).map((text) => ({ text, spilled: undefined }));
  const whole = `${parts} · ${spilled}`;
  if (wrapWords(whole, width).length === 1) return [{ text: parts, spilled }];
  return [...wrapWords(parts, width).map((text) => ({ text, spilled: undefined })), { text: '', spilled }];
}

/** The colours of the parts (the KV cache's for a model with one, the limit tick when a region has one), in one row right of the title. */
function keySvg(box: MapBox, c: MapColours, limits: boolean, map: MemoryMap): string {
  const items = [...shownParts(map).map((p) => ({ label: p.label, colour: c.parts[p.key], wide: 10 })), ...(limits ? [{ label: 'size limit', colour: c.limit, wide: 2 }] : [])];
  const out: string[] = [];
  let at = box.x + 90;
  for (const item of items) {
    out.push(`<rect x="${at}" y="${box.y + 1}" width="${item.wide}" height="10" fill="${item.colour}"/>`, `<text x="${at + item.wide + 4}" y="${box.y + 10}" fill="${c.muted}">${escapeXml(item.label)}</text>`);
    at += item.wide + 14 + item.label.length * 6;
  }
  return out.join('');
}

/** One region: "sram fast" and "506 KiB / 512 KiB" over the bar, its parts and what spilled under it. */
function barSvg(bar: MapBar, speed: string, box: MapBox, c: MapColours): string {
  const scale = barScale(bar);
  const len = (bytes: number) => (bytes / scale) * box.width;
  const barTop = box.y + ROW.label;
  const over = bar.overBy > 0;
  const moved = barMovedText(bar);
  const attrs = `data-region="${escapeXml(bar.name)}" data-used="${bar.used}" data-size-limit="${bar.sizeLimit ?? ''}" data-over-by="${bar.overBy}" data-weights="${bar.weights}" data-io="${bar.io}" data-kv="${bar.kv}" data-activations="${bar.activations}" data-scratch="${bar.scratch}" data-spilled="${bar.spilled ?? ''}" data-moved="${bar.moved === undefined ? '' : bar.moved.written + bar.moved.read}"`;
  const out = [
    `<g class="memory-map-region" ${attrs}>`,
    `<text x="${box.x}" y="${box.y + 10}" fill="${c.text}"><tspan font-weight="600">${escapeXml(bar.name)}</tspan><tspan fill="${c.muted}">${[speed, moved === undefined ? '' : escapeXml(moved)].filter((t) => t !== '').map((t, k) => (k === 0 ? ` ${t}` : ` · ${t}`)).join('')}</tspan></text>`,
    `<text x="${box.x + box.width}" y="${box.y + 10}" text-anchor="end" fill="${over ? c.over : c.text}"${over ? ' font-weight="600"' : ''} data-used-text="true">${escapeXml(barUsedText(bar))}</text>`,
    `<rect x="${box.x}" y="${barTop}" width="${box.width}" height="${ROW.bar}" rx="3" fill="${c.background}"/>`,
  ];
  let at = box.x;
  for (const part of MAP_PARTS) {
    const bytes = bar[part.key];
    if (bytes <= 0) continue;
    out.push(`<rect x="${at.toFixed(2)}" y="${barTop}" width="${len(bytes).toFixed(2)}" height="${ROW.bar}" fill="${c.parts[part.key]}" data-part="${part.key}" data-bytes="${bytes}"><title>${escapeXml(`${part.label} ${formatBytes(bytes)}`)}</title></rect>`);
    at += len(bytes);
  }
  if (bar.sizeLimit !== undefined) {
    const x = Math.min(box.x + box.width - 1, box.x + len(bar.sizeLimit));
    out.push(`<rect x="${(x - 1).toFixed(2)}" y="${barTop - 2}" width="2" height="${ROW.bar + 4}" fill="${c.limit}" data-limit-tick="${bar.sizeLimit}"/>`);
  }
  let legendY = barTop + ROW.bar + 12;
  for (const { text, spilled } of legendLines(bar, box.width)) {
    const mark = spilled === undefined ? '' : `${text === '' ? '' : ' · '}<tspan fill="${c.limit}" data-spilled-text="true">${escapeXml(spilled)}</tspan>`;
    out.push(`<text x="${box.x}" y="${legendY}" fill="${c.muted}">${escapeXml(text)}${mark}</text>`);
    legendY += ROW.legend;
  }
  out.push('</g>');
  return out.join('\n');
}
