// Room for the graph's edge labels: the layout places each label beside its
// edge, but the layered layout (and ELK beside long skip edges) can put two
// labels on one spot, where they read as one string ("64.0 KiB1×128×32").
// A label that would overlap one already placed moves a line down or up
// (at most two lines); one with no free spot there is left out, and its
// text goes to its edge's hover title. Straight edges' labels are placed
// first, so the main column keeps its labels where they were. Pure.

/** An edge label where the layout put it: its text starts at x + 3, its baseline at y + 10.5 (draw-graph.ts). */
export interface EdgeLabelSpot {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  readonly bends: number; // points of the edge's line past its two ends: 0 for a straight edge
}

/** Width of a character of the 10 px monospace labels. */
const CHAR = 6.02;
/** A label's line: its box's height and the step it moves by. */
const LINE = 12;
/** The moves tried, in order, for a label that overlaps. */
const MOVES = [LINE, -LINE, 2 * LINE, -2 * LINE];

/** Cells of the grid the placed labels are filed in, in px. */
const CELL_W = 64;
const CELL_H = LINE;

/** Per label (in the order given): its y after the moves, or undefined when it is left out. Linear in the labels (a grid of cells). */
export function labelRoom(labels: readonly EdgeLabelSpot[]): (number | undefined)[] {
  const order = labels.map((_, i) => i).sort((a, b) => labels[a]!.bends - labels[b]!.bends || labels[a]!.y - labels[b]!.y || labels[a]!.x - labels[b]!.x || a - b);
  const boxes: Box[] = [];
  const grid = new Map<string, number[]>(); // cell -> boxes meeting it
  const cells = (b: Box, visit: (key: string) => boolean): boolean => {
    for (let cx = Math.floor(b.left / CELL_W); cx <= Math.floor((b.right - 1e-6) / CELL_W); cx++) {
      for (let cy = Math.floor(b.top / CELL_H); cy <= Math.floor((b.bottom - 1e-6) / CELL_H); cy++) if (!visit(`${cx},${cy}`)) return false;
    }
    return true;
  };
  const clear = (b: Box): boolean => cells(b, (key) => (grid.get(key) ?? []).every((k) => apart(b, boxes[k]!)));
  const out = new Array<number | undefined>(labels.length).fill(undefined);
  for (const i of order) {
    const label = labels[i]!;
    const left = label.x + 3;
    const right = left + Math.max(1, label.text.length) * CHAR;
    for (const dy of [0, ...MOVES]) {
      const box = { left, right, top: label.y + 1 + dy, bottom: label.y + 1 + dy + LINE };
      if (!clear(box)) continue;
      const k = boxes.push(box) - 1;
      cells(box, (key) => {
        const list = grid.get(key);
        if (list === undefined) grid.set(key, [k]);
        else list.push(k);
        return true;
      });
      out[i] = label.y + dy;
      break;
    }
  }
  return out;
}

interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

function apart(a: Box, b: Box): boolean {
  return a.right <= b.left || a.left >= b.right || a.bottom <= b.top || a.top >= b.bottom;
}
