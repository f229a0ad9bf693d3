// Arrow-key moves between the graph's boxes, for its single tab stop (roving
// focus): Down and Up follow the edges to a consumer or a producer (the one
// nearest on screen), or, without one, go to the nearest box below or above;
// Left and Right go to the nearest box beside, on the same row when there is
// one. Pure; no DOM, no React.

import type { GraphPlacement, PlacedBox } from '../../../worker/layout/protocol';
import type { GraphLayoutInput } from '../layout/layout-input';

/** The arrow keys that move between boxes. */
export type ArrowKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

/** Height of a group's header: the part of an expanded group that takes focus. */
const HEADER = 26;

/** The boxes focus moves between: every drawn box, an expanded group by its header. */
export function navBoxes(input: GraphLayoutInput, placement: GraphPlacement): readonly PlacedBox[] {
  return placement.boxes.flatMap((b) => {
    const item = input.items.get(b.id);
    if (item === undefined || item.kind === 'body') return [];
    const group = item.kind === 'cluster' || ((item.kind === 'op' || item.kind === 'body-op') && item.expanded);
    return [group ? { ...b, height: HEADER } : b];
  });
}

/** The box an arrow `key` moves to from box `from`; undefined when there is none that way. */
export function nextBox(boxes: readonly PlacedBox[], input: Pick<GraphLayoutInput, 'edges'>, from: string, key: ArrowKey): string | undefined {
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const at = byId.get(from);
  if (at === undefined) return undefined;
  const [cx, cy] = centre(at);
  const vertical = key === 'ArrowUp' || key === 'ArrowDown';
  if (vertical) {
    const down = key === 'ArrowDown';
    const linked = new Set<string>();
    for (const e of input.edges.values()) {
      if (down && e.source === from && byId.has(e.target)) linked.add(e.target);
      if (!down && e.target === from && byId.has(e.source)) linked.add(e.source);
    }
    const along = nearest([...linked].map((id) => byId.get(id)!), cx, cy, 1);
    if (along !== undefined) return along;
    const side = boxes.filter((b) => b.id !== from && (down ? centre(b)[1] > cy + at.height / 2 : centre(b)[1] < cy - at.height / 2));
    return nearest(side, cx, cy, 2, 'x');
  }
  const right = key === 'ArrowRight';
  const beside = boxes.filter((b) => b.id !== from && (right ? centre(b)[0] > cx : centre(b)[0] < cx));
  const row = beside.filter((b) => b.y < at.y + at.height && b.y + b.height > at.y);
  return nearest(row.length > 0 ? row : beside, cx, cy, 2, 'y');
}

function centre(b: PlacedBox): [number, number] {
  return [b.x + b.width / 2, b.y + b.height / 2];
}

/** The box of `boxes` nearest (cx, cy), the distance across `penalised` counted `weight` times; ties to the first. */
function nearest(boxes: readonly PlacedBox[], cx: number, cy: number, weight: number, penalised: 'x' | 'y' = 'x'): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const b of boxes) {
    const [x, y] = centre(b);
    const dx = Math.abs(x - cx) * (penalised === 'x' ? weight : 1);
    const dy = Math.abs(y - cy) * (penalised === 'y' ? weight : 1);
    const score = dx + dy;
    if (score < bestScore) {
      best = b.id;
      bestScore = score;
    }
  }
  return best;
}
