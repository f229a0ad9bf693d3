// Where the first view of a graph wider than its pane starts: a horizontal
// offset at which no box of the first screen is cut by the pane's left or
// right edge, so the first thing a reader sees is whole boxes; and, across
// the whole width of the graph's top, the offset that shows the most of them
// with a graph input among them. Pure; no DOM.

import type { PlacedBox } from '../../../worker/layout/protocol';

/** Pixels kept free between a whole box and the pane's edge. */
export const EDGE_MARGIN = 8;

/** The pane and the view of it: scale `k`, vertical offset `y`, in CSS pixels. */
export interface PaneView {
  readonly width: number;
  readonly height: number;
  readonly k: number;
  readonly y: number;
}

/**
 * A horizontal offset (at most one pane width from `x`) at which every box of
 * the first screen that can fit in the pane is either wholly inside it or
 * wholly outside it: of those, the one showing the most boxes, then the
 * nearest; `x` when it already cuts nothing, or when no such offset exists.
 * Offsets tried put a box `EDGE_MARGIN` from an edge, or just past it. Boxes
 * wider than the pane (group frames) cannot help crossing an edge and are not
 * counted.
 */
export function clearOfEdges(boxes: readonly PlacedBox[], x: number, view: PaneView): number {
  const { width, height, k, y } = view;
  const near = boxes.filter((b) => {
    const top = b.y * k + y;
    const left = b.x * k + x;
    const w = b.width * k;
    return top < height && top + b.height * k > 0 && w <= width - 2 * EDGE_MARGIN && left < 2 * width && left + w > -width;
  });
  // How many boxes are wholly in view at `tx`; -1 when some box is cut by an edge.
  const shown = (tx: number): number => {
    let count = 0;
    for (const b of near) {
      const left = b.x * k + tx;
      const right = left + b.width * k;
      if (left >= 0 && right <= width) count += 1;
      else if (right > 0 && left < width) return -1;
    }
    return count;
  };
  if (shown(x) >= 0) return x;
  let best = { tx: x, count: 0 };
  // Each box wholly in at the left or right margin, or just out past either edge.
  for (const b of near) {
    for (const tx of [EDGE_MARGIN - b.x * k, width - EDGE_MARGIN - (b.x + b.width) * k, -(b.x + b.width) * k, width - b.x * k]) {
      if (Math.abs(tx - x) > width) continue;
      const count = shown(tx);
      const nearer = Math.abs(tx - x) < Math.abs(best.tx - x);
      if (count > best.count || (count === best.count && count > 0 && nearer)) best = { tx, count };
    }
  }
  return best.tx;
}

/**
 * The offset, anywhere across the graph, whose first screen shows the most
 * graph inputs whole (boxes whose ids start with "in:": where the graph
 * starts), then the most boxes whole less those cut at the pane's left or
 * right edge, then the fewest cut, then the nearest to `x`;
 * `clearOfEdges(x)` when none shows a box whole. Centring the first input
 * alone showed a decoder's attention mask, laid out far from the main column
 * that starts at its token ids, alone in an empty pane; and in a narrow pane
 * a zigzag column leaves no offset that cuts nothing but that lone box: a
 * view of the column's top whole, a lower box cut at an edge, reads better.
 */
export function busiestOffset(boxes: readonly PlacedBox[], x: number, view: PaneView): number {
  const { width, height, k, y } = view;
  const top = boxes.filter((b) => b.y * k + y < height && (b.y + b.height) * k + y > 0 && b.width * k <= width - 2 * EDGE_MARGIN);
  // Boxes wholly in view at `tx` (inside the pane on every side), those an edge cuts, and the inputs among the whole.
  const shown = (tx: number): FirstScreen => {
    let whole = 0;
    let cut = 0;
    let inputs = 0;
    for (const b of top) {
      const left = b.x * k + tx;
      const right = left + b.width * k;
      if (left >= 0 && right <= width) {
        if ((b.y + b.height) * k + y > height) continue; // cut by the bottom, as every long graph's first screen is
        whole += 1;
        if (b.id.startsWith('in:')) inputs += 1;
      } else if (right > 0 && left < width) cut += 1;
    }
    return { tx, whole, cut, inputs };
  };
  let best: FirstScreen | undefined;
  const consider = (tx: number): void => {
    const seen = shown(tx);
    if (seen.whole === 0) return;
    if (best === undefined || better(seen, best, x)) best = seen;
  };
  consider(x);
  // Each box at the left or right margin: a window with the most boxes has one at an edge, moved until it touches the margin.
  for (const b of top) {
    consider(EDGE_MARGIN - b.x * k);
    consider(width - EDGE_MARGIN - (b.x + b.width) * k);
  }
  return best === undefined ? clearOfEdges(boxes, x, view) : best.tx;
}

/** A first screen at offset `tx`: boxes whole, boxes cut at the pane's sides, graph inputs whole. */
interface FirstScreen {
  readonly tx: number;
  readonly whole: number;
  readonly cut: number;
  readonly inputs: number;
}

/** Whether first screen `a` reads better than `b` (busiestOffset's order), `x` the offset nearest which ties go. */
function better(a: FirstScreen, b: FirstScreen, x: number): boolean {
  if (a.inputs !== b.inputs) return a.inputs > b.inputs;
  if (a.whole - a.cut !== b.whole - b.cut) return a.whole - a.cut > b.whole - b.cut;
  if (a.cut !== b.cut) return a.cut < b.cut;
  return Math.abs(a.tx - x) < Math.abs(b.tx - x);
}
