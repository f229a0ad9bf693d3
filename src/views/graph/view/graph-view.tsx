// The graph drawing: an SVG whose content D3 draws from the placement (and the
// frames of functions and fusion units around it; of a graph of thousands of
// boxes only the part around the view, dense far out), with d3-zoom for pan and
// zoom (labels thin out when zoomed far out; a group's title whose frame starts
// left of the view is drawn from the view's edge, group-titles.ts), fit to view on load, centring on
// a box (search, selection) clear of the minimap and again on the next
// placement of the same layout while the user has not moved (jump.ts), keyboard pan and zoom, one
// tab stop for all the boxes with arrow keys between them (keys.ts), and
// the minimap. A new input on the same placement (a re-plan) redraws in place.
// React owns the elements; drawing happens in effects, outside React.

import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, type FocusEvent, type KeyboardEvent, type Ref, type UIEvent } from 'react';
import { zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import type { GraphPlacement } from '../../../worker/layout/protocol';
import { useElementSize } from '../../use-element-size';
import { useZoom } from '../../use-zoom';
import { covers, drawnRegion, fitViewCamera, MAX_SCALE, MIN_SCALE, refitsView, revealCamera, sameView, startCamera, visibleRegion, type Camera } from './camera';
import { drawGraph, markGraph, placeGroupTitles, type GraphHandlers, type GraphMarks, type NodeFacts, type GraphRegion } from '../draw/draw-graph';
import type { GraphLayoutInput } from '../layout/layout-input';
import { GraphMinimap, MINIMAP_MARGIN, minimapCorner, type MinimapHandle } from './minimap';
import { navBoxes, nextBox, type ArrowKey } from './keys';
import { jumpCamera, jumpHolds, type Jump } from './jump';
import { overlayBoxes } from './overlays';
import '../draw/drawing.css';
import { keepFocus } from './keep-focus';

/** What the panel can ask of the view. */
export interface GraphViewHandle {
  fit(): void;
  /**
   * Brings box `id` into view (`always`: centres it even when it is visible), now or once a placement
   * shows it, and again on the next placements of the same layout until the user moves the view.
   */
  reveal(id: string, always: boolean): void;
}

/** Props of GraphView. */
export interface GraphViewProps {
  readonly input: GraphLayoutInput;
  readonly placement: GraphPlacement;
  readonly final: boolean; // the placement is the layout's last word, not a preview or an older one
  readonly onDrawn: (boxes: number) => void; // called after a final placement is drawn
  readonly facts: NodeFacts;
  readonly marks: GraphMarks;
  readonly handlers: GraphHandlers;
  readonly anchor: string | undefined; // a box to keep in view after a re-layout (the toggled cluster)
  readonly handle: Ref<GraphViewHandle>;
}

/** From this many boxes only the part on screen (and a screen around it) is drawn, redrawn as the view leaves it. */
const VIRTUAL_FROM = 1000;
/** A camera as d3-zoom's transform. */
function toTransform(camera: Camera | undefined): ZoomTransform | undefined {
  return camera === undefined ? undefined : zoomIdentity.translate(camera.x, camera.y).scale(camera.k);
}

/** The functions and fusion units an input draws as frames: when they change (another target), the old view may show none of the graph. */
function groupsKey(input: GraphLayoutInput): string {
  return input.overlays.map((c) => c.id).join('\n');
}

/** Below this scale a large graph is drawn as a few dense paths, without text. */
const DENSE_SCALE = 0.22;

/** The graph drawing of a placement. */
export function GraphView({ input, placement, final, onDrawn, facts, marks, handlers, anchor, handle }: GraphViewProps) {
  const [host, size] = useElementSize<HTMLDivElement>();
  const svg = useRef<SVGSVGElement>(null);
  const root = useRef<SVGGElement>(null);
  const minimap = useRef<MinimapHandle>(null);
  const transform = useRef<ZoomTransform>(zoomIdentity);
  const frames = useMemo(() => overlayBoxes(input, placement.boxes), [input, placement]);
  const all = useMemo(() => ({ ...placement, boxes: [...placement.boxes, ...frames] }), [placement, frames]);
  // The latest props for D3's callbacks and the handle. Updated at commit, before any effect or
  // event of this render can read them: layout effects run before passive ones and the parent's.
  const sizeRef = useRef(size);
  const placed = useRef(all);
  const scene = useRef({ input, placement, frames, facts, handlers });
  const marksRef = useRef(marks);
  useLayoutEffect(() => {
    sizeRef.current = size;
    placed.current = all;
    scene.current = { input, placement, frames, facts, handlers };
    marksRef.current = marks;
  });
  const extent = useRef<{ region: GraphRegion; dense: boolean } | undefined>(undefined);
  const pending = useRef(0);
  const tabStop = useRef<string | undefined>(undefined); // the box Tab enters the graph at: the last one focused
  const focusing = useRef(0);

  /** Leaves one tab stop among the drawn boxes: the last one focused when drawn, else the topmost; the pane itself when none is drawn. */
  const setTabStop = useCallback(() => {
    const g = root.current;
    if (g === null) return;
    const focusable = [...g.querySelectorAll<SVGElement>('[data-focusable]')];
    const where = new Map(placed.current.boxes.map((b) => [b.id, b]));
    const top = (e: SVGElement): [number, number] => {
      const b = where.get(e.dataset.focusable!);
      return b === undefined ? [Infinity, Infinity] : [b.y, b.x];
    };
    const topmost = (): SVGElement | undefined =>
      focusable.reduce<SVGElement | undefined>((best, e) => {
        if (best === undefined) return e;
        const [y, x] = top(e);
        const [by, bx] = top(best);
        return y < by || (y === by && x < bx) ? e : best;
      }, undefined);
    const stop = focusable.find((e) => e.dataset.focusable === tabStop.current) ?? topmost();
    for (const e of focusable) e.setAttribute('tabindex', e === stop ? '0' : '-1');
    svg.current?.parentElement?.setAttribute('tabindex', stop === undefined ? '0' : '-1');
  }, []);

  /** Fits the group titles to the view: a frame starting left of it has its title drawn from the view's edge (group-titles.ts). */
  const placeTitles = useCallback(() => {
    const g = root.current;
    const s = sizeRef.current;
    if (g === null || s === undefined) return;
    const view = visibleRegion(transform.current, s);
    placeGroupTitles(g, view.x0, view.x1);
  }, []);
  const titlesPending = useRef(0);

  /** Draws the scene: all of a small graph; of a large one the region around the view, unless that is drawn already (`force`: draw anyway). */
  const drawVisible = useCallback((force: boolean) => {
    const g = root.current;
    const s = sizeRef.current;
    if (g === null || s === undefined) return;
    const { input, placement, frames, facts, handlers } = scene.current;
    if (placement.boxes.length < VIRTUAL_FROM) {
      if (!force) return;
      keepFocus(g, () => drawGraph(g, input, placement, frames, facts, handlers));
      markGraph(g, marksRef.current);
      setTabStop();
      placeTitles();
      return;
    }
    const t = transform.current;
    const view = visibleRegion(t, s);
    const dense = t.k < DENSE_SCALE;
    const last = extent.current;
    if (last !== undefined && last.dense === dense && covers(last.region, view) && !force) return;
    const region = drawnRegion(view);
    extent.current = { region, dense };
    keepFocus(g, () => drawGraph(g, input, placement, frames, facts, handlers, { region, dense }));
    markGraph(g, marksRef.current);
    setTabStop();
    placeTitles();
  }, [setTabStop, placeTitles]);

  // d3-zoom on the SVG (use-zoom.ts); the transform goes to the root group and the minimap's viewport.
  const configureZoom = useCallback((b: ZoomBehavior<SVGSVGElement, unknown>) => b.scaleExtent([MIN_SCALE, MAX_SCALE]), []);
  const onZoom = useCallback(
    (t: ZoomTransform, element: SVGSVGElement) => {
      transform.current = t;
      root.current?.setAttribute('transform', t.toString());
      element.classList.toggle('g-far', t.k < 0.55);
      element.classList.toggle('g-very-far', t.k < DENSE_SCALE);
      element.dataset.scale = t.k.toFixed(3);
      minimap.current?.show(t, sizeRef.current);
      if (titlesPending.current === 0) {
        titlesPending.current = requestAnimationFrame(() => {
          titlesPending.current = 0;
          placeTitles();
        });
      }
      if (scene.current.placement.boxes.length >= VIRTUAL_FROM && pending.current === 0) {
        pending.current = requestAnimationFrame(() => {
          pending.current = 0;
          drawVisible(false);
        });
      }
    },
    [drawVisible, placeTitles],
  );
  const { set: apply, scaleBy, translateBy } = useZoom(svg, configureZoom, onZoom);
  useEffect(
    () => () => {
      cancelAnimationFrame(pending.current);
      pending.current = 0;
      cancelAnimationFrame(titlesPending.current);
      titlesPending.current = 0;
    },
    [],
  );

  const fitTransform = useCallback((): ZoomTransform | undefined => {
    const s = sizeRef.current;
    // Fit keeps the fitted graph out from under the minimap.
    return s === undefined ? undefined : toTransform(fitViewCamera(s, placed.current, minimapCorner(placed.current, s)));
  }, []);

  /** The first view (camera.ts's startCamera); when it is Fit's view, clear of the minimap as Fit is. */
  const startTransform = useCallback((): ZoomTransform | undefined => {
    const s = sizeRef.current;
    return s === undefined ? undefined : toTransform(startCamera(s, placed.current, minimapCorner(placed.current, s)));
  }, []);

  // The last box the pane asked to show (jump.ts); any other move of the camera by the pane drops it.
  const jump = useRef<Jump | undefined>(undefined);
  const reveal = useCallback(
    (id: string, always: boolean) => {
      jump.current = undefined;
      const box = placed.current.boxes.find((b) => b.id === id);
      const s = sizeRef.current;
      if (box === undefined || s === undefined) return;
      // Under the minimap (bottom right) counts as hidden: the minimap never covers the box shown.
      const moved = toTransform(revealCamera(box, s, transform.current, always, MINIMAP_MARGIN));
      if (moved !== undefined) apply(moved, true);
    },
    [apply],
  );

  /** Shows `jump`'s box from the placement drawn (animated or not); false when the view cannot show it yet. */
  const showJump = useCallback(
    (request: Jump, animate: boolean): boolean => {
      const s = sizeRef.current;
      const camera = s === undefined ? undefined : jumpCamera(request, placed.current.boxes.find((b) => b.id === request.box), s, transform.current, MINIMAP_MARGIN);
      if (camera === undefined) return false;
      jump.current = { ...request, camera };
      if (!sameView(transform.current, camera)) apply(toTransform(camera)!, animate);
      return true;
    },
    [apply],
  );
  const jumpTo = useCallback(
    (id: string, always: boolean) => {
      const request: Jump = { box: id, key: scene.current.input.key, always, camera: undefined };
      jump.current = request;
      showJump(request, true);
    },
    [showJump],
  );

  // The view the pane set last (the first view, Fit's): a view that still equals it was not moved by the user.
  const setView = useRef<ZoomTransform | undefined>(undefined);
  const setViewOf = useRef<() => ZoomTransform | undefined>(startTransform); // how the pane made that view, to make it again for another size
  const fit = useCallback(() => {
    jump.current = undefined;
    const t = fitTransform() ?? zoomIdentity;
    setView.current = t;
    setViewOf.current = fitTransform;
    apply(t, true);
  }, [apply, fitTransform]);
  useImperativeHandle(handle, () => ({ fit, reveal: jumpTo }), [fit, jumpTo]);

  // Draw each placement (and each new input on it: labels and frames of a re-plan or a re-inference).
  // The first placement of a model is fitted; a re-layout keeps its anchor in view; a re-plan keeps the view.
  const drawn = useRef<{ placement: GraphPlacement; input: GraphLayoutInput; final: boolean } | undefined>(undefined);
  const settled = useRef(false); // a final placement was drawn: the camera is the user's from then on, unless the groups change
  const refitted = useRef(false); // the last placement was re-fitted for new groups: its final layout is too
  useEffect(() => {
    const g = root.current;
    if (g === null || size === undefined) return;
    const last = drawn.current;
    if (last?.placement === placement && last.input === input) return;
    drawn.current = { placement, input, final };
    svg.current!.dataset.boxes = String(placement.boxes.length);
    svg.current!.dataset.ioBoxes = String(placement.boxes.filter((b) => input.items.get(b.id)?.kind === 'io').length);
    svg.current!.dataset.final = String(final);
    // The final layout replacing a preview of the first view is fitted again (before drawing, so a large graph draws what the fitted view shows);
    // a preview after a final placement (a re-inference that changed box sizes) is not the first view.
    const groupsChanged = last !== undefined && groupsKey(last.input) !== groupsKey(input);
    // A box the pane showed on request, the user's last move of the view, is shown again rather than the first view.
    const held = jumpHolds(jump.current, { key: input.key, current: transform.current, moving: svg.current!.dataset.moving === 'true' }) ? jump.current : undefined;
    if (held === undefined) jump.current = undefined;
    const refit = held?.camera === undefined && refitsView({
      first: last === undefined,
      finalOfPreview: last !== undefined && !last.final && !settled.current && last.input.key === input.key && anchor === undefined,
      groupsChanged,
      finalOfRefit: last !== undefined && !last.final && refitted.current,
      userMoved: setView.current === undefined || !sameView(transform.current, setView.current),
    });
    refitted.current = refit && !final && (groupsChanged || refitted.current);
    if (final) settled.current = true;
    if (refit) {
      setView.current = startTransform() ?? zoomIdentity;
      setViewOf.current = startTransform;
      apply(setView.current, false);
    }
    drawVisible(true);
    if (held !== undefined && (held.camera === undefined || last?.placement !== placement)) showJump(held, false);
    else if (held === undefined && !refit && last !== undefined && last.placement !== placement && anchor !== undefined) reveal(anchor, true);
    if (final) onDrawn(placement.boxes.length);
    // marks are applied by their own effect; redrawing is for a new placement or input only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [placement, input, size]);

  useEffect(() => {
    if (root.current !== null && drawn.current !== undefined) markGraph(root.current, marks);
  }, [marks]);

  // A new size of the pane (another pane shown or hidden, the window resized) makes the view the pane set again for it,
  // the first view or Fit, as long as the user has not moved from it: at the old size it would cut boxes at the edge.
  const viewSize = useRef(size);
  useEffect(() => {
    const before = viewSize.current;
    viewSize.current = size;
    const resized = before !== undefined && size !== undefined && (before.width !== size.width || before.height !== size.height);
    if (resized && drawn.current !== undefined && jump.current === undefined && setView.current !== undefined && sameView(transform.current, setView.current)) {
      const t = setViewOf.current();
      if (t !== undefined) {
        setView.current = t;
        apply(t, false);
      }
    }
    minimap.current?.show(transform.current, size);
    drawVisible(false);
  }, [size, drawVisible, apply]);

  // Focusing a box off screen makes the browser scroll this clipped element; the view pans instead (see reveal).
  const onScroll = (event: UIEvent<HTMLDivElement>): void => {
    event.currentTarget.scrollTop = 0;
    event.currentTarget.scrollLeft = 0;
  };

  /** Focuses box `id` once it is drawn (a large graph draws it after the move that brings it into view). */
  const focusBox = (id: string, tries = 40): void => {
    cancelAnimationFrame(focusing.current);
    const target = root.current?.querySelector<SVGElement>(`[data-focusable="${CSS.escape(id)}"]`);
    if (target !== null && target !== undefined) target.focus({ preventScroll: true });
    else if (tries > 0) focusing.current = requestAnimationFrame(() => focusBox(id, tries - 1));
  };

  const onFocus = (event: FocusEvent<HTMLDivElement>): void => {
    const id = (event.target as Element).getAttribute('data-focusable');
    if (id === null || (event.target as Element).getAttribute('tabindex') === '0') return;
    tabStop.current = id;
    setTabStop();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (svg.current === null) return;
    const from = (event.target as Element).getAttribute('data-focusable');
    if (from !== null && event.key.startsWith('Arrow')) {
      const next = nextBox(navBoxes(input, placement), input, from, event.key as ArrowKey);
      event.preventDefault();
      if (next === undefined) return;
      tabStop.current = next;
      reveal(next, false);
      focusBox(next);
      return;
    }
    const pan: Readonly<Record<string, [number, number]>> = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
    if (event.key in pan || ['+', '=', '-', '0'].includes(event.key)) jump.current = undefined;
    if (event.key in pan) translateBy(pan[event.key]![0] / transform.current.k, pan[event.key]![1] / transform.current.k);
    else if (event.key === '+' || event.key === '=') scaleBy(1.4);
    else if (event.key === '-') scaleBy(1 / 1.4);
    else if (event.key === '0') apply(fitTransform() ?? zoomIdentity, true);
    else if (event.key === 'Escape') handlers.clear();
    else return;
    event.preventDefault();
  };

  const navigate = useCallback(
    (x: number, y: number) => {
      const s = sizeRef.current;
      if (s === undefined) return;
      const k = transform.current.k;
      jump.current = undefined;
      apply(zoomIdentity.translate(s.width / 2 - x * k, s.height / 2 - y * k).scale(k), false);
    },
    [apply],
  );

  return (
    <div
      ref={host}
      className="graph-view"
      tabIndex={0}
      role="group"
      aria-label="Model graph: Tab enters at one node and arrow keys move between nodes along the edges, Enter selects; drag pans, wheel or + and - zoom, 0 fits, Escape clears the selection"
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onScroll={onScroll}
      data-testid="graph-view"
    >
      <svg ref={svg} className="graph-svg" width={size?.width ?? 0} height={size?.height ?? 0} data-testid="graph-svg" data-engine={placement.engine} data-layout-ms={Math.round(placement.ms)}>
        <defs>
          <marker id="g-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,1 L9,5 L0,9 z" className="g-arrow" />
          </marker>
        </defs>
        <g ref={root} />
      </svg>
      <GraphMinimap ref={minimap} placement={placement} input={input} onNavigate={navigate} view={size} />
    </div>
  );
}
