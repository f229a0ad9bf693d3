// The parts of the graph drawing that keep large graphs cheap: which edges meet
// the region on screen, and the dense drawing used far out (one path per kind
// of box, one for the edges, no text). No React; draw-graph.ts calls these.

import type { Selection } from 'd3';
import type { GraphPlacement, PlacedBox } from '../../../worker/layout/protocol';
import type { GraphLayoutInput } from '../layout/layout-input';

/** A rectangle in the graph's coordinates: the part of the graph a view shows (view/camera.ts) and the part drawn. */
export interface GraphRegion {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** What part of the graph to draw, and how: `region` (all when undefined); `dense`: boxes and edges as a few paths, without text. */
export interface DrawExtent {
  readonly region?: GraphRegion;
  readonly dense?: boolean;
}

/** Whether the bounding box of a polyline meets `r`. */
export function crosses(points: readonly number[], r: GraphRegion): boolean {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i + 1 < points.length; i += 2) {
    x0 = Math.min(x0, points[i]!);
    x1 = Math.max(x1, points[i]!);
    y0 = Math.min(y0, points[i + 1]!);
    y1 = Math.max(y1, points[i + 1]!);
  }
  return x0 <= r.x1 && x1 >= r.x0 && y0 <= r.y1 && y1 >= r.y0;
}

/** Far out, thousands of boxes as one path per kind and the edges as one path: a few elements however large the graph. */
export function drawDense(g: Selection<SVGGElement, unknown, null, undefined>, leaves: readonly PlacedBox[], links: GraphPlacement['links'], input: GraphLayoutInput): void {
  g.append('path').attr('class', 'g-dense-edges').attr('d', links.map((l) => (l.points.length < 4 ? '' : polyline(l.points))).join(''));
  const byKind = new Map<string, string[]>();
  for (const b of leaves) {
    const item = input.items.get(b.id)!;
    const kind = `g-dense-${item.kind === 'collapsed' || item.kind === 'io' ? item.kind : 'op'}${item.heavy === true ? ' g-heavy' : ''}`;
    const parts = byKind.get(kind) ?? [];
    parts.push(`M${b.x},${b.y}h${b.width}v${b.height}h${-b.width}z`);
    byKind.set(kind, parts);
  }
  for (const [kind, parts] of byKind) g.append('path').attr('class', `g-dense-boxes ${kind}`).attr('d', parts.join(''));
}

/** An SVG path through the points (x0, y0, x1, y1, ...). */
export function polyline(points: readonly number[]): string {
  let d = `M${points[0]},${points[1]}`;
  for (let i = 2; i < points.length; i += 2) d += `L${points[i]},${points[i + 1]}`;
  return d;
}

