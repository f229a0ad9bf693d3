// The header of an exported graph drawing, as plain data: which kinds of box
// and frame the legend names (a selector in the drawing for each), and where
// the title, the scale note and the legend swatches go so that none is cut:
// the header is as wide as its longest line, and the legend wraps to more rows
// rather than running off the drawing. Pure; graph-export.ts draws it.

/** A kind of box or frame of the graph drawing, with the part of it that carries the colour. */
export interface LegendKind {
  readonly label: string;
  readonly selector: string;
}

/**
 * The kinds the legend can name, each by what it is: an operator, a graph
 * input or output, and each kind of group, drawn open (a frame) or collapsed
 * (one box standing for its members).
 */
export const GRAPH_LEGEND: readonly LegendKind[] = [
  { label: 'operator', selector: '.gbox.g-op:not(.g-alias) .g-box' },
  { label: 'graph input / output', selector: '.g-io .g-box' },
  { label: 'shares bytes', selector: '.g-alias .g-box' },
  { label: 'name scope', selector: '.g-group-scope > .g-group-frame' },
  { label: 'name scope (collapsed)', selector: '.g-collapsed.g-kind-scope .g-box' },
  { label: 'fusion unit', selector: '.g-group-tfu > .g-group-frame' },
  { label: 'fusion unit (collapsed)', selector: '.g-collapsed.g-kind-tfu .g-box' },
  { label: 'depthwise + pointwise unit', selector: '.g-group-dw-pw > .g-group-frame' },
  { label: 'depthwise + pointwise unit (collapsed)', selector: '.g-collapsed.g-kind-dw-pw .g-box' },
  { label: 'compute-unit partition', selector: '.g-group-function > .g-group-frame' },
  { label: 'compute-unit partition (collapsed)', selector: '.g-collapsed.g-kind-function .g-box' },
  { label: 'subgraph', selector: '.g-group-body > .g-group-frame' },
];

/** Widths of text in the header, in drawing units: a generous average per character of system-ui. */
const TITLE_CHAR = 7.8; // 13 px, semibold
const TEXT_CHAR = 6.4; // 11 px
const PAD = 12;
const SWATCH = 19; // swatch and the gap before its label
const ITEM_GAP = 15;
const ROW = 16;
const LEGEND_TOP = 39;
/** Narrowest header: a tiny graph still gets a readable one. */
const MIN_WIDTH = 520;

/** Where the header's parts go. */
export interface GraphHeaderLayout {
  readonly width: number; // of the whole file: the graph's or the header's longest line, whichever is wider
  readonly height: number; // of the header, above the graph
  readonly items: readonly { readonly label: string; readonly x: number; readonly y: number }[]; // legend swatches' top-left
}

/** Estimated width of `text` at the header's body size (or the title's). */
export function textWidth(text: string, title = false): number {
  return [...text].length * (title ? TITLE_CHAR : TEXT_CHAR);
}

/** The header of a drawing `graphWidth` wide: see the module header. */
export function graphHeaderLayout(title: string, note: string, labels: readonly string[], graphWidth: number): GraphHeaderLayout {
  const width = Math.ceil(Math.max(graphWidth, MIN_WIDTH, textWidth(title, true) + 2 * PAD, textWidth(note) + 2 * PAD));
  const items: { label: string; x: number; y: number }[] = [];
  let x = PAD;
  let y = LEGEND_TOP;
  for (const label of labels) {
    const w = SWATCH + textWidth(label);
    if (x > PAD && x + w > width - PAD) {
      x = PAD;
      y += ROW;
    }
    items.push({ label, x, y });
    x += w + ITEM_GAP;
  }
  return { width, height: (labels.length === 0 ? LEGEND_TOP : y + ROW) + 6, items };
}

/** Most lines a drawing's title wraps to; the last is cut with "…" beyond them. */
const MAX_TITLE_LINES = 4;

/**
 * `title` in lines no wider than `width` at the title's size, broken at its
 * " · " separators (a part wider than a line at a space, or where it must), so a long title
 * wraps inside a drawing of fixed width rather than running off it.
 */
export function wrapTitle(title: string, width: number): string[] {
  const max = Math.max(8, Math.floor(width / TITLE_CHAR));
  const lines: string[] = [];
  let line: string[] = [];
  for (const part of title.split(' · ')) {
    const joined = line.length === 0 ? [...part] : [...line, ...' · ', ...part];
    if (joined.length <= max) {
      line = joined;
      continue;
    }
    if (line.length > 0) lines.push(line.join(''));
    line = [...part];
    while (line.length > max) {
      // A part wider than a line breaks after its last space that fits ("assumes a=1, b=2, …"), else mid-word.
      const space = line.lastIndexOf(' ', max);
      const cut = space > 0 ? space + 1 : max;
      lines.push(line.slice(0, cut).join('').trimEnd());
      line = line.slice(cut);
    }
  }
  if (line.length > 0) lines.push(line.join(''));
  if (lines.length <= MAX_TITLE_LINES) return lines;
  const last = [...lines[MAX_TITLE_LINES - 1]!].slice(0, max - 1).join('');
  return [...lines.slice(0, MAX_TITLE_LINES - 1), `${last}…`];
}
