// Frames of the functions and fusion units that are not collapsed: drawn
// around their members' placed boxes rather than laid out, so the positions
// stay when a re-plan changes them. A frame is drawn only when every member is
// on screen as its own box. Pure; no DOM, no React.

import type { PlacedBox } from '../../../worker/layout/protocol';
import type { GraphLayoutInput } from '../layout/layout-input';

const PAD = { function: 16, other: 7 };
const TITLE = { function: 30, other: 24 };

/** The frame of every overlay of `input` over `boxes`, functions first (so fusion units draw on top). */
export function overlayBoxes(input: GraphLayoutInput, boxes: readonly PlacedBox[]): readonly PlacedBox[] {
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const out: PlacedBox[] = [];
  const ordered = [...input.overlays].sort((a, b) => Number(b.kind === 'function') - Number(a.kind === 'function'));
  for (const c of ordered) {
    const members = c.nodes.map((i) => (input.boxOfNode[i] === `n${i}` ? byId.get(`n${i}`) : undefined));
    if (members.length === 0 || members.some((m) => m === undefined)) continue;
    const kind = c.kind === 'function' ? 'function' : 'other';
    const pad = PAD[kind];
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const m of members as PlacedBox[]) {
      x0 = Math.min(x0, m.x);
      y0 = Math.min(y0, m.y);
      x1 = Math.max(x1, m.x + m.width);
      y1 = Math.max(y1, m.y + m.height);
    }
    out.push({ id: c.id, x: x0 - pad, y: y0 - TITLE[kind], width: x1 - x0 + 2 * pad, height: y1 - y0 + TITLE[kind] + pad });
  }
  return out;
}
