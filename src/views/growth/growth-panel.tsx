// The Growth view: how the plan on screen grows along one axis (a symbolic
// dim, or a fixed input's batch or image size), planned in the worker after the
// plan is shown, with progress and Cancel. The axis and its range are chosen
// here; hovering (or the arrow keys) shows a point's figures, a click (Enter)
// plans that value, a shift-click (Shift+Enter) opens it as the comparison's
// side B. Geometry and markup are
// growth-geometry.ts and growth-svg.ts; this component wires them up.

import { useEffect, useMemo, useState, type ChangeEvent, type FocusEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { useActions, useAppStore, useAppStoreApi } from '../../store/context';
import { currentGrowth } from '../../store/growth';
import { selectPlan } from '../../store/selectors';
import type { GrowthState } from '../../store/state';
import { defaultGrowthChoice, defaultGrowthRange, growthAxisName, growthChoices, type GrowthChoice } from '../../worker/growth-axes';
import { checkGrowthRange } from './growth-range';
import type { GrowthAxis, GrowthPoint } from '../../worker/protocol';
import { sweepValues } from '../../planner/sweep/dim-sweep';
import { decodeStepDim } from '../../planner/sweep/decode-step';
import { useCompareActions } from '../compare/use-compare';
import { ownValue } from '../../shared/own';
import { PaneToolbar } from '../pane-toolbar';
import { useElementSize } from '../use-element-size';
import { cardCovers, cardPlace, growthLayout, growthMinHeight, pointAt, regionFigures, type GrowthLayout } from './growth-geometry';
import { movesPoint, nextPoint } from './growth-keys';
import { growthChartOf } from './growth-input';
import { growthLegendItems, type GrowthLegendItem } from './growth-legend';
import { growthSvg } from './growth-svg';
import { GrowthStatus } from './growth-status';
import { GrowthAssumed, GrowthAssumptions } from './growth-assumed';
import { GROWTH_CARD_WIDTH, GrowthTooltip, pointSentence, type PlacedCard } from './growth-tooltip';
import './growth.css';

/** Props of GrowthPanel. */
export interface GrowthPanelProps {
  readonly active?: boolean; // shown: only a shown view asks the worker for its curve (default true)
  readonly compare?: boolean; // shift-click opens a comparison (the full page; default true)
}

/** What the user typed for the range, per axis; undefined: the range of the curve already asked for, or the default. */
type RangeText = Readonly<Record<string, { readonly from: string; readonly to: string }>>;

/** The Growth pane; nothing without a model. */
export function GrowthPanel({ active = true, compare = true }: GrowthPanelProps) {
  const inferred = useAppStore((s) => s.model?.inferred);
  const plan = useAppStore(selectPlan);
  const asked = useAppStore((s) => s.growth);
  const growth = useAppStore(currentGrowth);
  const { sweepGrowth, setGrowthRangeError, setGrowthRefused } = useActions();
  // a plan with TensorFlow Lite Micro's runtime plan is of the file's own shapes: no dim changes it
  const fixedShapes = plan?.runtimePlan !== undefined;
  const offer = useMemo(() => (inferred === undefined ? undefined : growthChoices(inferred, fixedShapes)), [inferred, fixedShapes]);
  const [axisKey, setAxisKey] = useState<string | undefined>(undefined);
  const [typed, setTyped] = useState<RangeText>({}); // applied (Enter, or leaving both fields)
  const [draft, setDraft] = useState<RangeText>({}); // being typed
  const choice = offer?.choices.find((c) => c.key === axisKey) ?? (offer === undefined ? undefined : defaultGrowthChoice(offer.choices));
  const range = choice === undefined ? undefined : chosenRange(choice, ownValue(typed, choice.key), asked);
  const values = range?.values;
  const valuesKey = values?.join(',');
  // summary().growth says so while the pane shows a refused range instead of the curve
  const rangeError = active ? range?.error : undefined;
  useEffect(() => {
    setGrowthRangeError(rangeError);
    return () => setGrowthRangeError(undefined);
  }, [rangeError, setGrowthRangeError]);
  // and its refusal while it offers nothing to vary (a .tflite on tflm: the file's own shapes)
  const refused = active && offer !== undefined && choice === undefined ? offer.notes.join(' ') : undefined;
  useEffect(() => {
    setGrowthRefused(refused);
    return () => setGrowthRefused(undefined);
  }, [refused, setGrowthRefused]);
  useEffect(() => {
    if (active && plan !== undefined && choice !== undefined && values !== undefined) sweepGrowth(choice.axis, values);
    // The curve depends on the plan, the axis and the values; sweepGrowth keeps a curve that still holds.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, plan, choice?.key, valuesKey, sweepGrowth]);
  if (inferred === undefined || offer === undefined) return null;
  const shownRange = (key: string) => ownValue(draft, key) ?? ownValue(typed, key) ?? { from: String(range?.from ?? ''), to: String(range?.to ?? '') };
  const edit = (key: string, field: 'from' | 'to', text: string): void => setDraft({ ...draft, [key]: { ...shownRange(key), [field]: text } });
  // A range is planned when it is applied, not at every keystroke, nor when Tab
  // goes from one end to the other: half an edit would plan a range nobody asked for.
  const apply = (key: string): void => {
    const next = ownValue(draft, key);
    if (next === undefined) return;
    setTyped({ ...typed, [key]: next });
    const { [key]: _applied, ...rest } = draft;
    setDraft(rest);
  };
  const field = (key: string, which: 'from' | 'to') => ({
    className: 'input growth-number',
    inputMode: 'numeric' as const,
    value: shownRange(key)[which],
    onChange: (e: ChangeEvent<HTMLInputElement>) => edit(key, which, e.target.value),
    onBlur: (e: FocusEvent<HTMLInputElement>) => {
      if (!(e.relatedTarget instanceof HTMLInputElement && e.relatedTarget.classList.contains('growth-number'))) apply(key);
    },
    onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => {
      if (e.key === 'Enter') apply(key);
    },
    'data-testid': `growth-${which}`,
  });
  return (
    <section className="pane growth-pane" aria-labelledby="growth-title" data-testid="growth-pane" data-status={growth?.status ?? 'none'}>
      <PaneToolbar titleId="growth-title" title="Growth" className="growth-toolbar">
        {choice !== undefined && (
          <div className="growth-tools">
            <select className="input select" value={choice.key} onChange={(e) => setAxisKey(e.target.value)} aria-label="Vary" title={choice.label} data-testid="growth-axis">
              {offer.choices.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.label}
                </option>
              ))}
            </select>
            <label className="growth-range">
              from
              <input {...field(choice.key, 'from')} />
            </label>
            <label className="growth-range">
              to
              <input {...field(choice.key, 'to')} />
            </label>
          </div>
        )}
      </PaneToolbar>
      {choice === undefined ? (
        <p className="pane-empty" data-testid="growth-none">
          {offer.notes.join(' ')}
        </p>
      ) : (
        <div className="growth-body">
          {range?.error !== undefined ? (
            // The curve of the previous range would read as the answer to the range in the fields.
            <p className="tool-error growth-error" role="alert" data-testid="growth-range-error">
              {range.error}
            </p>
          ) : (
            <>
              <GrowthStatus growth={growth} axis={choice.axis} values={values ?? []} limited={plan?.regions.some((r) => r.sizeLimit !== undefined) ?? false} />
              <GrowthAssumed assumed={choice.axis.kind === 'dim' ? decodeStepDim(inferred, choice.axis.name) : undefined} />
              {plan === undefined ? <p className="pane-empty">No plan to grow.</p> : <GrowthChart choice={choice} growth={growth} compare={compare} />}
              {/* under the chart, which keeps its height: the pane scrolls to them */}
              {growth !== undefined && <GrowthAssumptions points={growth.points} dim={growthAxisName(choice.axis)} />}
            </>
          )}
          {offer.notes.length > 0 && <p className="muted growth-note">{offer.notes.join(' ')}</p>}
        </div>
      )}
    </section>
  );
}

/** The range of an axis: what the user typed (checked), else the values of the curve already asked for, else the default around the value on screen. */
function chosenRange(
  choice: GrowthChoice,
  text: { readonly from: string; readonly to: string } | undefined,
  asked: GrowthState | undefined,
): { from: number; to: number; values: readonly number[] | undefined; error?: string } {
  if (text !== undefined) {
    const { from, to, error } = checkGrowthRange(text);
    if (error !== undefined) return { from, to, values: undefined, error };
    return { from, to, values: sweepValues(from, to) };
  }
  if (asked !== undefined && growthAxisName(asked.axis) === choice.key) {
    return { from: asked.values[0]!, to: asked.values[asked.values.length - 1]!, values: asked.values };
  }
  const { from, to } = defaultGrowthRange(choice.axis, choice.current, choice.cache);
  return { from, to, values: sweepValues(from, to) };
}

/** The chart, its hover card, the click and shift-click on a point, and the same by keyboard. */
function GrowthChart({ choice, growth, compare }: { readonly choice: GrowthChoice; readonly growth: GrowthState | undefined; readonly compare: boolean }) {
  const plan = useAppStore(selectPlan)!;
  const api = useAppStoreApi();
  const { setDim, setShape } = useActions();
  const { compareShownWith, compareShownAs } = useCompareActions();
  const [host, size] = useElementSize<HTMLDivElement>();
  const [hover, setHover] = useState<number | undefined>(undefined);
  const [chosen, setChosen] = useState<number | undefined>(undefined); // by the arrow keys
  const inferred = useAppStore((st) => st.model?.inferred);
  const chart = useMemo(() => (inferred === undefined ? undefined : growthChartOf(growth, plan, inferred, choice.axis)), [growth, plan, inferred, choice.axis]);
  const input = chart!.input;
  const points = input.points;
  const layout = useMemo(() => (size === undefined ? undefined : growthLayout(input, size.width, size.height, choice.label)), [input, size, choice.label]);
  const dim = growthAxisName(choice.axis);
  const shown = hover ?? chosen;
  const shownPoint: GrowthPoint | undefined = shown === undefined ? undefined : points[shown];
  const markup = useMemo(
    () => (layout === undefined || size === undefined ? '' : growthSvg(input, layout, size.width, size.height, { dim: choice.label })),
    [input, layout, size, choice.label],
  );
  const locate = (event: MouseEvent<HTMLDivElement>): number | undefined => {
    if (layout === undefined) return undefined;
    const box = event.currentTarget.getBoundingClientRect();
    return pointAt(layout, points, event.clientX - box.left, event.clientY - box.top);
  };
  const choose = (k: number | undefined, shift: boolean): void => {
    const value = k === undefined ? undefined : points[k]?.value;
    if (value === undefined) return;
    if (shift && compare) openAsB(choice.axis, value);
    else planAt(choice.axis, value);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (movesPoint(event.key)) {
      event.preventDefault();
      setHover(undefined);
      setChosen(nextPoint(points, shownPoint === undefined ? undefined : shown, choice.current, event.key));
    } else if (event.key === 'Enter' && shownPoint !== undefined) {
      event.preventDefault();
      choose(shown, event.shiftKey);
    }
  };
  // A point is planned, or compared, as the curve planned it: with the dim it assumes (a decode step's sequence length) bound too.
  const assumedDims = chart?.assumed === undefined ? {} : { [chart.assumed.name]: chart.assumed.value };
  const planAt = (axis: GrowthAxis, value: number): void => {
    if (axis.kind === 'shape') void setShape(axis.input, axis.shape.map((d, i) => (axis.axes.includes(i) ? value : d)));
    // Each setDim reads the bindings the one before it set, so the last re-inference has them all.
    else for (const [name, v] of Object.entries({ ...assumedDims, [axis.name]: value })) void setDim(name, v);
  };
  const openAsB = (axis: GrowthAxis, value: number): void => {
    if (axis.kind === 'dim') {
      void compareShownWith({ dims: { ...assumedDims, [axis.name]: value } });
      return;
    }
    const page = api.getState();
    const shape = axis.shape.map((d, i) => (axis.axes.includes(i) ? value : d));
    void compareShownAs({ dims: page.dims, shapes: { ...page.shapes, [axis.input]: shape }, inputValues: page.inputValues, settings: page.settings });
  };
  return (
    <div className="growth-chart" data-testid="growth-chart" data-dim={dim} data-points={points.length} data-current={choice.current}>
      <div
        ref={host}
        className="growth-plot"
        style={{ minHeight: growthMinHeight(input) }}
        onPointerMove={(e) => setHover(locate(e))}
        onPointerLeave={() => setHover(undefined)}
        onClick={(e) => choose(locate(e), e.shiftKey)}
        onKeyDown={onKeyDown}
        onBlur={() => setChosen(undefined)}
        tabIndex={0}
        role="group"
        aria-label={`Peak against ${choice.label}: arrow keys choose a value, Enter plans it${compare ? ', Shift+Enter compares with it' : ''}`}
        data-hover={shownPoint?.value}
        // The markup is built from numbers and escaped names (growth-svg.ts).
        dangerouslySetInnerHTML={{ __html: markup }}
      />
      {shownPoint !== undefined && layout !== undefined && size !== undefined && <GrowthRing x={layout.x(shownPoint.value)} ys={dotsOf(layout, shownPoint)} width={size.width} height={size.height} />}
      <GrowthLegend items={growthLegendItems(input, plan.regions.some((r) => r.sizeLimit !== undefined))} />
      <p className="visually-hidden" aria-live="polite" data-testid="growth-announce">
        {chosen === undefined || shownPoint === undefined ? '' : pointSentence(shownPoint, choice.label)}
      </p>
      {shownPoint !== undefined && layout !== undefined && (
        <GrowthTooltip point={shownPoint} dim={choice.label} place={(height, paneTop) => placeCard(layout, shownPoint, height, size?.width ?? 0, paneTop)} compare={compare} keys={hover === undefined} />
      )}
    </div>
  );
}

/**
 * The ring around the dots under the pointer or chosen by keyboard, in a layer
 * of its own over the plot: hovering never replaces the chart's markup, so a
 * click pressed on a dot is released on the same dot.
 */
function GrowthRing({ x, ys, width, height }: { readonly x: number; readonly ys: readonly number[]; readonly width: number; readonly height: number }) {
  return (
    <svg className="growth-ring-layer" width={width} height={height} aria-hidden="true">
      {ys.map((y, i) => (
        <circle key={i} className="gr-ring" cx={x.toFixed(1)} cy={y.toFixed(1)} r="7" fill="none" strokeWidth="2" />
      ))}
    </svg>
  );
}

/** Where the card of `point` goes for a card `height` tall, and whether there it hides one of the point's dots. */
function placeCard(layout: GrowthLayout, point: GrowthPoint, height: number, boxWidth: number, boxTop: number): PlacedCard {
  const [x, ys] = [layout.x(point.value), dotsOf(layout, point)];
  const place = cardPlace(layout, x, ys, { width: GROWTH_CARD_WIDTH, height }, boxWidth, boxTop);
  return { ...place, covers: cardCovers(place, height, x, ys) };
}

/** The y of each of `point`'s dots in `layout`, one per region panel. */
function dotsOf(layout: GrowthLayout, point: GrowthPoint): number[] {
  return layout.panels.flatMap((panel) => regionFigures(point, panel.name).slice(0, 1).map(panel.y));
}

/** What the lines and marks of the chart mean, as growthLegendItems says. */
function GrowthLegend({ items }: { readonly items: readonly GrowthLegendItem[] }) {
  return (
    <ul className="growth-legend" aria-label="Legend">
      {items.map((item) => (
        <li key={item.key} title={item.title} data-key={item.key}>
          <span className={LEGEND_MARKS[item.key]} aria-hidden="true" />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** The mark drawn before each entry of the legend. */
const LEGEND_MARKS: Readonly<Record<GrowthLegendItem['key'], string>> = {
  peak: 'gl-mark gl-peak',
  bound: 'gl-mark gl-bound',
  limit: 'gl-mark gl-limit',
  current: 'gl-mark gl-current',
  estimate: 'gl-dot',
};
