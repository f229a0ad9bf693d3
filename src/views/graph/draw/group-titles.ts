// Keeps a group's title readable when its frame starts left of the view (after
// Fit on a graph wider than the pane, or a pan): the title is drawn from the
// view's left edge, cut at its end to the part of the frame in view, whole in
// its hover title; the view's edge never cuts its start ("odes · 2.66 MiB").
// Pure placement math; draw-graph.ts applies it to the drawing.

/** Where a group's title goes: `shift` px right of its usual place, in `room` px (graph units), or undefined to stay as drawn. */
export interface TitleSpan {
  readonly shift: number;
  readonly room: number;
}

/**
 * The span of the title of a group at `x` of `width` in a view from `x0` to
 * `x1` (graph units): undefined while the frame's left edge is in view (or the
 * frame is out of it), else moved to the view's left edge with the frame's
 * part in view as its room, and never past the frame's right end.
 */
export function titleSpan(x: number, width: number, x0: number, x1: number): TitleSpan | undefined {
  const right = x + width;
  if (x >= x0 || right <= x0 || x >= x1) return undefined;
  return { shift: x0 - x, room: Math.max(0, Math.min(right, x1) - x0) };
}
