// Browser side of the exports: saving a Blob as a download, drawing an SVG
// document into a PNG (canvas.toBlob), and serializing an SVG element of the
// page with its computed colours so it looks the same outside the page.

import { xmlChars } from './xml-chars';

/** Saves `blob` as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started once click() returns; the URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Saves text as a download. */
export function saveText(text: string, fileName: string, type: string): void {
  saveBlob(new Blob([text], { type }), fileName);
}

/** Longest side of a PNG, in pixels: browsers refuse larger canvases. */
const MAX_PNG_SIDE = 16_384;

/**
 * Draws an SVG document on a canvas at `scale` device pixels per pixel (less
 * when the drawing would exceed MAX_PNG_SIDE) and encodes it as PNG.
 */
export async function svgToPng(svg: string, requestedScale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const scale = Math.min(requestedScale, MAX_PNG_SIDE / Math.max(1, image.naturalWidth, image.naturalHeight));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(image.naturalWidth * scale);
    canvas.height = Math.round(image.naturalHeight * scale);
    const ctx = canvas.getContext('2d');
    if (ctx === null) throw new Error('this browser cannot draw on a canvas');
    ctx.scale(scale, scale);
    ctx.drawImage(image, 0, 0);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas could not be encoded as PNG'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Style properties copied onto every element of a serialized SVG. */
const COPIED_STYLES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'stroke-linejoin',
  'paint-order',
  'opacity',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
];
/** Blank space around a whole drawing, in its own units. */
const DRAWING_MARGIN = 16;

/**
 * A standalone SVG document of `element` (an SVG of the page): the page's CSS
 * does not travel with it, so each element gets its computed presentation
 * styles as presentation attributes, and a background rectangle of the page's colour goes first.
 * The whole drawing is saved, not the part panned into view: the pan and zoom
 * of its top group are dropped and the view box fits the group's content.
 */
export function serializeSvg(element: SVGSVGElement): string {
  const clone = element.cloneNode(true) as SVGSVGElement;
  const sources = [element, ...element.querySelectorAll('*')];
  const targets = [clone, ...clone.querySelectorAll('*')];
  sources.forEach((source, i) => {
    const target = targets[i];
    if (!(target instanceof Element)) return;
    const style = getComputedStyle(source);
    // Presentation attributes, not a style attribute: the page's Content
    // Security Policy (style-src 'self') refuses every inline style it is given.
    for (const property of COPIED_STYLES) {
      const value = style.getPropertyValue(property);
      if (value !== '') target.setAttribute(property, value);
    }
  });
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const [x, y, w, h] = fitWholeDrawing(element, clone);
  const background = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('x', String(x));
  background.setAttribute('y', String(y));
  background.setAttribute('width', String(w));
  background.setAttribute('height', String(h));
  background.setAttribute('fill', getComputedStyle(element.closest('.pane') ?? element).backgroundColor || '#ffffff');
  clone.insertBefore(background, clone.firstChild);
  // The serializer escapes markup but keeps control characters, which XML 1.0 forbids.
  return xmlChars(new XMLSerializer().serializeToString(clone));
}

/** Sets the clone's size and view box to the whole content of the top group (or the element's box); returns the view box. */
function fitWholeDrawing(element: SVGSVGElement, clone: SVGSVGElement): [number, number, number, number] {
  const group = element.querySelector<SVGGElement>(':scope > g');
  const box = group?.getBBox();
  if (group === null || box === undefined || box.width === 0 || box.height === 0) {
    const rect = element.getBoundingClientRect();
    clone.setAttribute('width', String(Math.round(rect.width)));
    clone.setAttribute('height', String(Math.round(rect.height)));
    return [0, 0, rect.width, rect.height];
  }
  clone.querySelector(':scope > g')?.removeAttribute('transform');
  const [x, y] = [box.x - DRAWING_MARGIN, box.y - DRAWING_MARGIN];
  const [w, h] = [box.width + 2 * DRAWING_MARGIN, box.height + 2 * DRAWING_MARGIN];
  clone.setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
  clone.setAttribute('width', String(Math.ceil(w)));
  clone.setAttribute('height', String(Math.ceil(h)));
  return [x, y, w, h];
}
