// The graph view as an exported drawing: the whole graph (serializeSvg) under
// a header with its full title, a legend of the box and frame kinds the
// drawing holds, each called by its kind and coloured as the page draws it
// (graph-header.ts), and the scale of the file. A PNG of a large graph is
// capped at MAX_GRAPH_PNG_SIDE pixels, and its header says at what fraction of
// full size it is drawn; the SVG keeps every detail.

import { escapeXml } from './xml-chars';
import { GRAPH_LEGEND, graphHeaderLayout } from './graph-header';
import { serializeSvg } from './save-file';

/** Longest side of a graph PNG, in device pixels: larger ones took seconds to encode and were unwieldy. */
export const MAX_GRAPH_PNG_SIDE = 8192;
/** Device pixels per drawing unit of a PNG that fits. */
const PNG_SCALE = 2;

/** A graph drawing ready to save. */
export interface GraphExport {
  readonly svg: string;
  readonly scale: number; // device pixels per drawing unit for a PNG; PNG_SCALE unless capped
}

/** The graph drawing `element` with a header titled `title`, for an SVG (`png` false) or a PNG file. */
export function graphExport(element: SVGSVGElement, title: string, png: boolean): GraphExport {
  const inner = serializeSvg(element);
  const open = inner.slice(0, inner.indexOf('>'));
  const width = Number(/\swidth="([\d.]+)"/.exec(open)?.[1] ?? 800);
  const height = Number(/\sheight="([\d.]+)"/.exec(open)?.[1] ?? 600);
  const swatches = GRAPH_LEGEND.flatMap((kind) => {
    const sample = element.querySelector(kind.selector);
    return sample === null ? [] : [{ label: kind.label, style: getComputedStyle(sample) }];
  });
  // The note's width depends on the scale, the scale on the header's size: lay out with the longest note first.
  const longNote = 'Scale: drawn at 100% of full size (99999 × 99999 px); the SVG export has every detail';
  const header = graphHeaderLayout(title, longNote, swatches.map((s) => s.label), width);
  const total = { width: header.width, height: height + header.height };
  const scale = png ? Math.min(PNG_SCALE, MAX_GRAPH_PNG_SIDE / Math.max(total.width, total.height)) : 1;
  const note = png
    ? scale < PNG_SCALE
      ? `drawn at ${Math.round((scale / PNG_SCALE) * 100)}% of full size (${Math.round(total.width * scale)} × ${Math.round(total.height * scale)} px); the SVG export has every detail`
      : `${Math.round(total.width * scale)} × ${Math.round(total.height * scale)} px`
    : `full size, ${Math.round(width)} × ${Math.round(height)} units`;
  const legend = ['<g class="legend" data-legend="true">'];
  header.items.forEach((item, k) => {
    const style = swatches[k]!.style;
    const fill = style.fill === 'none' ? '#ffffff' : style.fill;
    legend.push(
      `<rect x="${item.x}" y="${item.y}" width="14" height="10" rx="2" fill="${escapeXml(fill)}" stroke="${escapeXml(style.stroke)}" stroke-width="1.2"/>`,
      `<text x="${item.x + 19}" y="${item.y + 9}" fill="#1b2130">${escapeXml(item.label)}</text>`,
    );
  });
  legend.push('</g>');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total.width}" height="${total.height}" viewBox="0 0 ${total.width} ${total.height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="${total.width}" height="${total.height}" fill="#ffffff"/>`,
    `<text x="12" y="18" font-size="13" font-weight="600" fill="#1b2130" data-title="true">${escapeXml(title)}</text>`,
    `<text x="12" y="33" fill="#627084" data-scale="${scale.toFixed(4)}">Scale: ${escapeXml(note)}</text>`,
    legend.join('\n'),
    inner.replace('<svg', `<svg x="0" y="${header.height}"`),
    '</svg>',
  ];
  return { svg: parts.join('\n'), scale };
}
