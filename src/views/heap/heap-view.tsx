// The heap diagram: a canvas of buffers (x = step, y = address, one lane per
// region) under an SVG overlay of axes, with d3-zoom for semantic zoom and pan,
// a hover tooltip fed by the spatial index, click to select a buffer, the step
// axis (click) and the keys of heap-keys.ts to select a step or a buffer live
// at it, and "Zoom to buffer" (or `z`) to stretch the step axis over the
// selected buffer's lifetime, so a short-lived buffer of a long plan is not a
// one-pixel line. Drawing happens in requestAnimationFrame, outside React;
// React owns only the elements. A region that holds nothing gets a line saying
// so under the lanes, and a plan with no byte anywhere that line alone.

import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import { drawHeap } from './draw-heap';
import { readPalette, type HeapPalette } from './heap-palette';
import { updateAxes, updateHover, type AxisGroups } from './heap-axes';
import type { HeapData } from './heap-data';
import { baseScales, bufferWindow, heapLayout, plotTransform, zoomedScales, type HeapLayout, type HeapScales, type StepWindow } from './heap-geometry';
import { bufferAt } from './hit-test';
import { cursorStep, heapKeyTarget, markedStep, type HeapWalk } from './heap-keys';
import { bufferWords, stepWords } from './heap-words';
import { axisClip } from './lane-title';
import { HeapTooltip, type HoverState } from './heap-tooltip';
import { useElementSize } from '../use-element-size';
import { useZoom } from '../use-zoom';
import { shortName } from '../../shared/short-name';
import { formatBytes } from '../../shared/format';

/** Props of HeapView. */
export interface HeapViewProps {
  readonly data: HeapData;
  readonly highlight: Uint8Array | undefined; // buffers to emphasize; the rest dim
  readonly step: number | undefined; // the selected step
  readonly selected?: number; // the selected buffer's index, which "Zoom to buffer" brings into view
  readonly describe: (i: number) => HoverState['facts'];
  readonly onSelectBuffer: (i: number | undefined) => void;
  readonly onSelectStep: (step: number | undefined) => void;
}

/** What one frame needs; kept in a ref so zoom events redraw without React. */
interface Frame {
  data: HeapData; // the data the layout was made for: a frame may be drawn after the props moved on
  layout: HeapLayout;
  base: HeapScales;
  scales: HeapScales;
  t: ZoomTransform;
  window: StepWindow | undefined; // the steps the base scales span, when zoomed to a buffer
  palette: HeapPalette | undefined;
}

/** The heap diagram of a plan, and the line naming its regions that hold nothing. */
export function HeapView(props: HeapViewProps) {
  const empty = props.data.emptyRegions;
  if (props.data.lanes.length === 0) {
    return (
      <p className="pane-empty heap-nothing" data-testid="heap-empty-regions">
        {empty}
      </p>
    );
  }
  return (
    <>
      <HeapDiagram {...props} />
      {empty !== undefined && (
        <p className="empty-regions-line" data-testid="heap-empty-regions">
          {empty}
        </p>
      )}
    </>
  );
}

/** The diagram of a plan with a lane at least. */
function HeapDiagram({ data, highlight, step, selected, describe, onSelectBuffer, onSelectStep }: HeapViewProps) {
  const [host, size] = useElementSize<HTMLDivElement>();
  // Unique per diagram: the comparison shows several on one page.
  const clipId = `heap-axis-clip-${useId().replace(/:/g, '')}`;
  const canvas = useRef<HTMLCanvasElement>(null);
  const lanesGroup = useRef<SVGGElement>(null);
  const stepsGroup = useRef<SVGGElement>(null);
  const hoverRect = useRef<SVGRectElement>(null);
  const frame = useRef<Frame | undefined>(undefined);
  const pending = useRef(0);
  const hovered = useRef<number | undefined>(undefined);
  // The step ↑ or ↓ last reached a buffer at, so → walks on from there and the step stays marked (heap-keys.ts).
  const [walked, setWalked] = useState<{ data: HeapData; walk: HeapWalk } | undefined>(undefined);
  const walk = walked?.data === data ? walked.walk : undefined;
  const marked = markedStep(step, selected, walk);
  const [hover, setHover] = useState<HoverState | undefined>(undefined);
  const [window_, setWindow] = useState<{ data: HeapData; steps: StepWindow } | undefined>(undefined);
  const stepWindow = window_?.data === data ? window_.steps : undefined;
  // What the next draw lights, for the frame callback; updated at commit, before the effects below schedule a draw.
  const drawState = useRef({ highlight, step: marked });
  useLayoutEffect(() => {
    drawState.current = { highlight, step: marked };
  }, [highlight, marked]);

  const layout = useMemo(() => (size === undefined ? undefined : heapLayout(data, size.width, size.height)), [data, size]);

  const draw = useCallback(() => {
    pending.current = 0;
    const f = frame.current;
    const element = canvas.current;
    const ctx = element?.getContext('2d');
    if (f === undefined || element === null || element === undefined || ctx === null || ctx === undefined) return;
    f.palette ??= readPalette(element);
    const dpr = window.devicePixelRatio || 1;
    const { drawn: count, curveKey } = drawHeap(ctx, f.data, f.layout, f.scales, f.t, f.palette, { ...drawState.current, dpr });
    element.dataset.bufferCount = String(count);
    // Where the curves' key went and how high the curves under it reach (canvas pixels), for tests and tools reading the page.
    if (curveKey === undefined) delete element.dataset.curveKey;
    else element.dataset.curveKey = [curveKey.left, curveKey.top, curveKey.right, curveKey.bottom, curveKey.curveTop].map((v) => v.toFixed(1)).join(',');
    // The step drawn as marked, for tests and tools reading the page.
    if (drawState.current.step === undefined) delete element.dataset.step;
    else element.dataset.step = String(drawState.current.step);
    // How many buffers the selection lights, for tests and tools reading the page.
    const lit = drawState.current.highlight;
    if (lit === undefined) delete element.dataset.highlighted;
    else element.dataset.highlighted = String(lit.reduce((sum, on) => sum + on, 0));
    const groups = axisGroups(lanesGroup.current, stepsGroup.current, hoverRect.current);
    if (groups !== undefined) {
      updateAxes(groups, f.data, f.layout, f.scales, f.t);
      updateHover(groups, f.data, f.layout, f.scales, hovered.current);
    }
  }, []);

  const schedule = useCallback(() => {
    if (pending.current === 0) pending.current = requestAnimationFrame(draw);
  }, [draw]);

  // d3-zoom on the canvas (use-zoom.ts): wheel and drag zoom and pan steps and addresses together.
  const configureZoom = useMemo(
    () =>
      layout === undefined
        ? undefined
        : (behavior: ZoomBehavior<HTMLCanvasElement, unknown>) =>
            behavior
              .scaleExtent([1, Math.max(64, data.steps * 4)])
              .extent([[layout.plot.left, layout.plot.top], [layout.plot.left + layout.plot.width, layout.plot.top + layout.plot.height]])
              .translateExtent([[layout.plot.left, layout.plot.top], [layout.plot.left + layout.plot.width, layout.plot.top + layout.plot.height]]),
    [data, layout],
  );
  const onZoom = useCallback(
    (t: ZoomTransform) => {
      const f = frame.current;
      if (f === undefined) return;
      f.t = plotTransform(t, f.layout.plot);
      f.scales = zoomedScales(f.base, f.t);
      // the buffer under the pointer is another one now: its card goes until the pointer moves again
      hovered.current = undefined;
      setHover(undefined);
      schedule();
    },
    [schedule],
  );
  const zoomView = useZoom(canvas, configureZoom, onZoom);
  const setZoom = zoomView.set;

  // Size the canvas for the device pixel ratio and set the base scales when the size or the plan changes.
  useEffect(() => {
    const element = canvas.current;
    if (layout === undefined || element === null) return;
    const dpr = window.devicePixelRatio || 1;
    element.width = Math.round(layout.width * dpr);
    element.height = Math.round(layout.height * dpr);
    const base = baseScales(data, layout, stepWindow);
    const windowChanged = frame.current !== undefined && frame.current.window !== stepWindow;
    const t = windowChanged ? zoomIdentity : (frame.current?.t ?? zoomIdentity);
    frame.current = { data, layout, base, scales: zoomedScales(base, t), t, window: stepWindow, palette: frame.current?.palette };
    // A new window starts unzoomed: the transform d3-zoom keeps is reset with it.
    if (windowChanged) setZoom(zoomIdentity);
    element.dataset.steps = stepWindow === undefined ? `0-${data.steps}` : `${stepWindow[0]}-${stepWindow[1]}`;
    schedule();
  }, [data, layout, stepWindow, schedule, setZoom]);

  // A new plan starts from the whole view, with nothing hovered.
  useEffect(() => {
    hovered.current = undefined;
    setZoom(zoomIdentity);
  }, [data, setZoom]);

  useEffect(schedule, [highlight, marked, schedule]);

  // A zoomed view follows a selection made out of its sight (the table, the graph, a key): to the buffer's
  // lifetime as "Zoom to buffer" frames it, or to the step at the same span; one in sight leaves the view as it is.
  useEffect(() => {
    const f = frame.current;
    if (f === undefined || f.data !== data) return;
    const zoomed = f.window !== undefined || f.t.k !== 1 || f.t.x !== 0 || f.t.y !== 0;
    if (!zoomed) return;
    const [from, to] = f.scales.x.domain() as [number, number];
    if (selected !== undefined) {
      // a buffer of no bytes in a region without a lane is in sight at its steps
      const [low, high] = (f.scales.y[data.lane[selected]!]?.domain() ?? [-Infinity, Infinity]) as [number, number];
      const inSight = data.end[selected]! > from && data.start[selected]! < to && data.offset[selected]! + data.size[selected]! > low && data.offset[selected]! < high;
      if (!inSight) setWindow({ data, steps: bufferWindow(data, selected) });
    } else if (marked !== undefined && (marked < from || marked + 1 > to)) {
      const span = Math.min(data.steps, to - from);
      const start = Math.max(0, Math.min(data.steps - span, marked + 0.5 - span / 2));
      setWindow({ data, steps: [start, start + span] });
    }
  }, [data, selected, marked]);

  // Colours follow the system's light or dark scheme.
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = (): void => {
      if (frame.current !== undefined) frame.current.palette = undefined;
      schedule();
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [schedule]);


  const pointIn = (event: MouseEvent<HTMLCanvasElement>): { px: number; py: number } | undefined => {
    const f = frame.current;
    if (f === undefined) return undefined;
    const box = event.currentTarget.getBoundingClientRect();
    return { px: event.clientX - box.left - f.layout.plot.left, py: event.clientY - box.top - f.layout.plot.top };
  };

  const onMouseMove = (event: MouseEvent<HTMLCanvasElement>): void => {
    const f = frame.current;
    const p = pointIn(event);
    if (f === undefined || p === undefined) return;
    const i = event.buttons === 0 && f.data === data ? bufferAt(data, f.layout, f.scales, f.t, p.px, p.py) : undefined;
    if (i !== hovered.current) {
      hovered.current = i;
      schedule();
    }
    const box = event.currentTarget.getBoundingClientRect();
    setHover(i === undefined ? undefined : { facts: describe(i), x: event.clientX - box.left, y: event.clientY - box.top });
  };

  const onMouseLeave = (): void => {
    hovered.current = undefined;
    setHover(undefined);
    schedule();
  };

  const onClick = (event: MouseEvent<HTMLCanvasElement>): void => {
    const f = frame.current;
    const p = pointIn(event);
    if (f === undefined || p === undefined) return;
    if (f.data === data) onSelectBuffer(bufferAt(data, f.layout, f.scales, f.t, p.px, p.py));
  };

  const onAxisClick = (event: MouseEvent<SVGSVGElement>): void => {
    const f = frame.current;
    if (f === undefined) return;
    const box = event.currentTarget.getBoundingClientRect();
    const s = Math.floor(f.scales.x.invert(event.clientX - box.left));
    onSelectStep(Math.min(data.steps - 1, Math.max(0, s)));
  };

  // What the arrow keys reached, read out by a screen reader (heap-words.ts).
  const [said, setSaid] = useState('');
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const move = heapKeyTarget(data, event.key, { step: cursorStep(data, step, selected, walk?.buffer === selected ? walk?.step : undefined), buffer: selected });
    if (move?.kind === 'step') {
      onSelectStep(move.step);
      setSaid(stepWords(data, move.step));
    } else if (move !== undefined) {
      setWalked({ data, walk: { buffer: move.buffer, step: move.step } });
      if (move.buffer !== selected) onSelectBuffer(move.buffer);
      setSaid(bufferWords(data, move.buffer));
    } else if (event.key === 'Escape') onSelectStep(undefined);
    else if (event.key === '+' || event.key === '=' || event.key === '-') {
      zoomView.scaleBy(event.key === '-' ? 1 / 1.5 : 1.5);
    } else if (event.key === '0') fit();
    else if (event.key === 'z' && selected !== undefined) zoomToSelected();
    else return;
    event.preventDefault();
  };

  const fit = (): void => {
    setWindow(undefined);
    setZoom(zoomIdentity);
  };

  const zoomToSelected = (): void => {
    if (selected !== undefined) setWindow({ data, steps: bufferWindow(data, selected) });
  };

  return (
    <div
      ref={host}
      className="heap-view"
      tabIndex={0}
      role="group"
      aria-label="Heap diagram: left and right arrows walk through the steps (from a selected buffer's first step), Home and End go to the first and last step, up and down arrows move between the buffers live at the step, + and - zoom, z zooms to the selected buffer, 0 fits, Escape clears the selection"
      onKeyDown={onKeyDown}
      data-testid="heap-view"
    >
      <canvas
        ref={canvas}
        className="heap-canvas"
        data-testid="heap-canvas"
        role="img"
        aria-label={`${data.count} buffers in ${data.lanes.length} region(s) over ${data.steps} steps`}
        data-lanes={data.lanes.length}
        data-lane-height={layout === undefined ? undefined : Math.round(Math.min(...layout.lanes.map((l) => l.height)))}
        onMouseMove={onMouseMove}
        onMouseLeave={onMouseLeave}
        onClick={onClick}
      />
      <svg className="heap-overlay" aria-hidden="true" width={size?.width ?? 0} height={size?.height ?? 0}>
        <defs>
          <clipPath id={clipId}>
            {layout !== undefined && <rect {...axisClip(layout)} data-testid="heap-axis-clip" />}
          </clipPath>
        </defs>
        <g ref={lanesGroup} clipPath={`url(#${clipId})`} />
        <g ref={stepsGroup} className="heap-axis" />
        <rect ref={hoverRect} className="heap-hover" visibility="hidden" />
      </svg>
      {layout && (
        <svg
          className="heap-step-target"
          style={{ left: layout.plot.left, top: layout.axisTop, width: layout.plot.width, height: layout.height - layout.axisTop }}
          onClick={onAxisClick}
          data-testid="heap-step-axis"
          aria-hidden="true"
        >
          <rect width="100%" height="100%" fill="transparent" />
        </svg>
      )}
      {selected !== undefined && (
        <button type="button" className="button button-small heap-zoom-buffer" onClick={zoomToSelected} aria-label="Zoom to buffer" title="Zoom to buffer: stretch the step axis over the selected buffer's lifetime (z)" data-testid="heap-zoom-buffer">
          Zoom
        </button>
      )}
      <button type="button" className="button button-small heap-fit" onClick={fit} title="Fit the whole plan (0)" data-testid="heap-fit">
        Fit
      </button>
      {hover && <HeapTooltip hover={hover} />}
      <p className="visually-hidden" aria-live="polite" data-testid="heap-said">
        {said}
      </p>
      <ul className="visually-hidden" aria-label="Memory regions drawn" data-testid="heap-lanes">
        {data.lanes.map((lane) => (
          <li key={lane.name} data-testid="heap-lane" data-region={lane.name} data-buffers={lane.buffers} data-peak={lane.peak}>
            {shortName(lane.name)}: {lane.buffers} buffers, peak {data.plan.complete ? '' : 'at least '}
            {formatBytes(lane.peak)}, lower bound {formatBytes(lane.lowerBound)}
          </li>
        ))}
      </ul>
    </div>
  );
}

function axisGroups(lanes: SVGGElement | null, steps: SVGGElement | null, hover: SVGRectElement | null): AxisGroups | undefined {
  return lanes !== null && steps !== null && hover !== null ? { lanes, steps, hover } : undefined;
}
