// The graph's minimap: every box drawn small on a canvas, the visible part as a
// frame; clicking or dragging in it moves the view there. A very tall or wide
// graph is stretched across so that its shape stays visible.

import { useCallback, useEffect, useImperativeHandle, useRef, type PointerEvent, type Ref } from 'react';
import type { ZoomTransform } from 'd3';
import type { GraphPlacement } from '../../../worker/layout/protocol';
import type { ElementSize } from '../../use-element-size';
import type { GraphLayoutInput } from '../layout/layout-input';

/** What the view tells the minimap. */
export interface MinimapHandle {
  show(t: ZoomTransform, view: ElementSize | undefined): void;
}

/** Props of GraphMinimap. */
export interface GraphMinimapProps {
  readonly placement: GraphPlacement;
  readonly input: GraphLayoutInput;
  readonly onNavigate: (x: number, y: number) => void; // graph coordinates to centre
  readonly ref: Ref<MinimapHandle>;
  readonly view: ElementSize | undefined; // the graph view's size: in a small view the minimap stays out of the way
}

const MAX_W = 168;
const MAX_H = 120;
/** Below this size of the view the minimap is not shown: it would cover much of the graph. */
const SMALL_VIEW = { width: 300, height: 240 } as const;
/** The corner of the view the minimap may cover (its largest size and its offset from the edges). */
export const MINIMAP_MARGIN = { width: MAX_W + 24, height: MAX_H + 24 } as const;
const MIN_SIDE = 36;
/** The minimap's offset from the view's right and bottom edges (graph.css) and its border, and the gap Fit leaves beside it. */
const INSET = 10 + 2 + 8;

/** The minimap's size in CSS pixels for a graph `width` × `height`: stretched across when very tall or wide, so its shape stays visible. */
export function minimapSize(width: number, height: number): { readonly width: number; readonly height: number } {
  const uniform = Math.min(MAX_W / Math.max(width, 1), MAX_H / Math.max(height, 1));
  const sx = Math.min(MAX_W / Math.max(width, 1), Math.max(uniform, MIN_SIDE / Math.max(width, 1)));
  const sy = Math.min(MAX_H / Math.max(height, 1), Math.max(uniform, MIN_SIDE / Math.max(height, 1)));
  return { width: Math.max(1, Math.round(width * sx)), height: Math.max(1, Math.round(height * sy)) };
}

/** The bottom-right corner of a `view` the minimap of a graph `width` × `height` covers, with a gap; none in a view too small to show it. */
export function minimapCorner(graph: { readonly width: number; readonly height: number }, view: ElementSize): { readonly width: number; readonly height: number } {
  if (view.width < SMALL_VIEW.width || view.height < SMALL_VIEW.height) return { width: 0, height: 0 };
  const size = minimapSize(graph.width, graph.height);
  return { width: size.width + INSET, height: size.height + INSET };
}

/** The minimap of a placement. */
export function GraphMinimap({ placement, input, onNavigate, ref, view }: GraphMinimapProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const { width: W, height: H } = placement;
  const { width, height } = minimapSize(W, H);
  const sx = width / Math.max(W, 1);
  const sy = height / Math.max(H, 1);

  const draw = useCallback(() => {
    const element = canvas.current;
    const ctx = element?.getContext('2d');
    if (element === null || element === undefined || ctx === null || ctx === undefined) return;
    const dpr = window.devicePixelRatio || 1;
    element.width = Math.round(width * dpr);
    element.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const style = getComputedStyle(element);
    ctx.clearRect(0, 0, width, height);
    for (const b of placement.boxes) {
      const kind = input.items.get(b.id)?.kind;
      const group = kind === 'cluster' || kind === 'body';
      ctx.fillStyle = style.getPropertyValue(group ? '--graph-mini-group' : kind === 'collapsed' ? '--graph-mini-collapsed' : '--graph-mini-node');
      ctx.fillRect(b.x * sx, b.y * sy, Math.max(1, b.width * sx), Math.max(1, b.height * sy));
    }
  }, [placement, input, sx, sy, width, height]);

  useEffect(draw, [draw]);
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    query.addEventListener('change', draw);
    return () => query.removeEventListener('change', draw);
  }, [draw]);

  useImperativeHandle(
    ref,
    () => ({
      show(t, view) {
        const f = frame.current;
        if (f === null || view === undefined) return;
        const [x0, y0] = t.invert([0, 0]);
        const [x1, y1] = t.invert([view.width, view.height]);
        const left = Math.max(0, x0 * sx);
        const top = Math.max(0, y0 * sy);
        f.style.left = `${left}px`;
        f.style.top = `${top}px`;
        f.style.width = `${Math.max(4, Math.min(width, x1 * sx) - left)}px`;
        f.style.height = `${Math.max(4, Math.min(height, y1 * sy) - top)}px`;
      },
    }),
    [sx, sy, width, height],
  );

  const onPointer = (event: PointerEvent<HTMLDivElement>): void => {
    if (event.type === 'pointermove' && event.buttons === 0) return;
    if (event.type === 'pointerdown') event.currentTarget.setPointerCapture(event.pointerId);
    const box = event.currentTarget.getBoundingClientRect();
    onNavigate((event.clientX - box.left) / sx, (event.clientY - box.top) / sy);
    event.stopPropagation();
  };

  if (view !== undefined && (view.width < SMALL_VIEW.width || view.height < SMALL_VIEW.height)) return null;
  return (
    <div className="graph-minimap" style={{ width, height }} onPointerDown={onPointer} onPointerMove={onPointer} data-testid="graph-minimap" aria-hidden="true">
      <canvas ref={canvas} style={{ width, height }} />
      <div ref={frame} className="graph-minimap-frame" />
    </div>
  );
}
