// d3-zoom on an element, as the graph and the heap both use it: wheel and
// drag zoom and pan, double-click left to the view, the behaviour made by the
// caller's `configure` (scale and translate extents) and every transform
// handed to `onZoom`; detached on unmount or when either changes. The handle
// moves the view from code: to a transform (animated or not; `data-moving`
// marks an animated move until it ends or the user interrupts it, not when a
// later move from code takes over, so tests and benchmarks can wait for it to
// settle and a held jump knows its camera is still on the way),
// by a scale factor, or by a translation. With the system's reduced motion
// asked for, every move from code jumps without animation.

import { useCallback, useEffect, useMemo, useRef, type RefObject } from 'react';
import { select, zoom, type ZoomBehavior, type ZoomTransform } from 'd3';

/** How to move the view of a zoomed element from code. */
export interface ZoomHandle {
  /** Sets the transform, animated over ANIMATE_MS when `animate` (and reduced motion is not asked for). */
  readonly set: (t: ZoomTransform, animate?: boolean) => void;
  readonly scaleBy: (factor: number) => void;
  readonly translateBy: (dx: number, dy: number) => void;
}

const ANIMATE_MS = 350;

/** True when the user asked the system for reduced motion (prefers-reduced-motion: reduce). */
function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Attaches d3-zoom to `element`. `configure` sets the behaviour's extents
 * (undefined: not attached yet, e.g. before a layout exists); `onZoom`
 * receives every transform with the element. Both should keep their
 * identity between renders (useCallback), since a change attaches the
 * behaviour again.
 */
export function useZoom<E extends Element>(
  element: RefObject<E | null>,
  configure: ((behavior: ZoomBehavior<E, unknown>) => ZoomBehavior<E, unknown>) | undefined,
  onZoom: (t: ZoomTransform, element: E) => void,
): ZoomHandle {
  const attached = useRef<{ target: E; b: ZoomBehavior<E, unknown> } | undefined>(undefined);

  useEffect(() => {
    const target = element.current;
    if (target === null || configure === undefined) return;
    const b = configure(zoom<E, unknown>()).on('zoom', (event: { transform: ZoomTransform }) => onZoom(event.transform, target));
    attached.current = { target, b };
    select(target).call(b).on('dblclick.zoom', null);
    return () => {
      select(target).on('.zoom', null);
      attached.current = undefined;
    };
  }, [element, configure, onZoom]);

  // Each move from code; a move interrupted by a later one is not the end of moving.
  const moves = useRef(0);
  const set = useCallback((t: ZoomTransform, animate = false) => {
    const found = attached.current;
    if (found === undefined) return;
    const { target, b } = found;
    const move = ++moves.current;
    if (!animate || reducedMotion()) {
      select(target).call(b.transform, t);
      target.removeAttribute('data-moving');
      return;
    }
    target.setAttribute('data-moving', 'true');
    select(target)
      .transition()
      .duration(ANIMATE_MS)
      .call(b.transform, t)
      .on('end interrupt', () => {
        if (moves.current === move) target.removeAttribute('data-moving');
      });
  }, []);
  const scaleBy = useCallback((factor: number) => {
    const found = attached.current;
    if (found !== undefined) select(found.target).call(found.b.scaleBy, factor);
  }, []);
  const translateBy = useCallback((dx: number, dy: number) => {
    const found = attached.current;
    if (found !== undefined) select(found.target).call(found.b.translateBy, dx, dy);
  }, []);
  return useMemo(() => ({ set, scaleBy, translateBy }), [set, scaleBy, translateBy]);
}
