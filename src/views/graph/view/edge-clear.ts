// Where the first view of a graph wider than its pane starts: a horizontal
// offset at which no box of the first screen is cut by the pane's left or
// right edge, so the first thing a reader sees is whole boxes. Pure; no DOM.

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
