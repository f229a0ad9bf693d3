// The graph view as an exported drawing: the whole graph (serializeSvg) under
// a header with a title, a legend of the box and frame kinds the drawing
// holds (coloured as the page draws them) and the scale of the file. A PNG of
// a large graph is capped at MAX_GRAPH_PNG_SIDE pixels, and its header says at
// what fraction of full size it is drawn; the SVG keeps every detail.

import { escapeXml } from './heap-svg';
import { serializeSvg } from './save-file';

/** Longest side of a graph PNG, in device pixels: larger ones took seconds to encode and were unwieldy. */
export const MAX_GRAPH_PNG_SIDE = 8192;
/** Device pixels per drawing unit of a PNG that fits. */
const PNG_SCALE = 2;
const HEADER = 54;

/** Kinds of box and frame the legend can name: a selector in the drawing, and the part that carries the colour. */
const LEGEND: readonly { readonly label: string; readonly selector: string }[] = [
  { label: 'operator', selector: '.gbox:not(.g-io):not(.g-alias) .g-box' },
  { label: 'graph input / output', selector: '.g-io .g-box' },
  { label: 'shares bytes', selector: '.g-alias .g-box' },
  { label: 'fusion unit', selector: '.g-group-tfu > .g-group-frame' },
  { label: 'depthwise + pointwise unit', selector: '.g-group-dw-pw > .g-group-frame' },
  { label: 'compute-unit partition', selector: '.g-group-function > .g-group-frame' },
];

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
  const total = { width: Math.max(width, 520), height: height + HEADER };
  const scale = png ? Math.min(PNG_SCALE, MAX_GRAPH_PNG_SIDE / Math.max(total.width, total.height)) : 1;
  const note = png
    ? scale < PNG_SCALE
      ? `drawn at ${Math.round((scale / PNG_SCALE) * 100)}% of full size (${Math.round(total.width * scale)} × ${Math.round(total.height * scale)} px); the SVG export has every detail`
      : `${Math.round(total.width * scale)} × ${Math.round(total.height * scale)} px`
    : `full size, ${Math.round(width)} × ${Math.round(height)} units`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total.width}" height="${total.height}" viewBox="0 0 ${total.width} ${total.height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="${total.width}" height="${total.height}" fill="#ffffff"/>`,
    `<text x="12" y="18" font-size="13" font-weight="600" fill="#1b2130">${escapeXml(title)}</text>`,
    `<text x="12" y="33" fill="#627084" data-scale="${scale.toFixed(4)}">Scale: ${escapeXml(note)}</text>`,
    legendSvg(element),
    inner.replace('<svg', `<svg x="0" y="${HEADER}"`),
    '</svg>',
  ];
  return { svg: parts.join('\n'), scale };
}

/** One swatch per kind present in the drawing, coloured from the page's own drawing. */
function legendSvg(element: SVGSVGElement): string {
  const out = ['<g class="legend" data-legend="true">'];
  let x = 12;
  for (const item of LEGEND) {
    const sample = element.querySelector(item.selector);
    if (sample === null) continue;
    const style = getComputedStyle(sample);
    const fill = style.fill === 'none' ? '#ffffff' : style.fill;
    out.push(
      `<rect x="${x}" y="39" width="14" height="10" rx="2" fill="${escapeXml(fill)}" stroke="${escapeXml(style.stroke)}" stroke-width="1.2"/>`,
      `<text x="${x + 19}" y="48" fill="#1b2130">${escapeXml(item.label)}</text>`,
    );
    x += 34 + item.label.length * 6;
  }
  out.push('</g>');
  return out.join('\n');
}
