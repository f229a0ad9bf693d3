// Keyboard focus across a redraw of the graph: the drawing is replaced
// whole, so the box that had focus is found again by its id after it. No
// React; reads and focuses DOM elements only.

/**
 * Runs `draw`, which replaces the drawing in `g`, and gives keyboard focus back to the box that had it
 * (by its id: a group's header becomes its collapsed box and back), or else to the pane, never to the page's body.
 */
export function keepFocus(g: SVGGElement, draw: () => void): void {
  const had = document.activeElement;
  if (had === null || !g.contains(had)) {
    draw();
    return;
  }
  const id = had.getAttribute('data-focusable');
  const bodyToggle = had.getAttribute('aria-label');
  draw();
  const same =
    id !== null
      ? g.querySelector<SVGElement>(`[data-focusable="${CSS.escape(id)}"]`)
      : bodyToggle !== null
        ? [...g.querySelectorAll<SVGElement>('[role="button"][aria-label]')].find((e) => e.getAttribute('aria-label') === bodyToggle)
        : undefined;
  const target = same ?? (g.closest<HTMLElement>('[data-testid="graph-view"]') ?? undefined);
  target?.focus({ preventScroll: true });
}
