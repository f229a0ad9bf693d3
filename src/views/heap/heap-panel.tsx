// The heap pane: the diagram (or its accessible table) of the plan on screen,
// its legend, the peak chart beside it, a region switcher when the pane is too
// short for every region's lane to be readable, and the selection wiring:
// clicking a buffer or a step selects it in every view; the graph's selection
// emphasizes buffers here.

import { useCallback, useMemo, useState } from 'react';
import { useActions, useAppStore } from '../../store/context';
import { selectPlan } from '../../store/selectors';
import { heapEmphasis, stepsByNode } from '../selection';
import { bufferFacts, heapData, modelLookup, type HeapData } from './heap-data';
import { AssumptionsBanner } from './assumptions-banner';
import { HeapNumbers, OverLimit } from './heap-header';
import { HeapTable } from './heap-table';
import { HeapView } from './heap-view';
import type { ModelPlan } from '../../planner/plan';
import type { InferredGraph } from '../../model/inferred';
import { kvCacheNames } from '../kv-cache-names';
import { PaneToolbar } from '../pane-toolbar';
import { HeapLegend } from './heap-legend';
import { useElementSize } from '../use-element-size';
import { RegionSwitcher, useShownRegion } from './region-switcher';
import { PeakChart } from './peak-chart';
import { regionsNotShownText } from './empty-regions';
import './heap.css';

const dataCache = new WeakMap<ModelPlan, { data: HeapData; nodeSteps: ReadonlyMap<string, number> }>();

/** The view model of `plan` over `model` (whose KV cache is coloured apart), built once per plan. */
export function cachedHeapData(plan: ModelPlan, model: InferredGraph | undefined): { data: HeapData; nodeSteps: ReadonlyMap<string, number> } {
  let entry = dataCache.get(plan);
  if (entry === undefined) {
    const data = heapData(plan, kvCacheNames(model));
    entry = { data, nodeSteps: stepsByNode(data) };
    dataCache.set(plan, entry);
  }
  return entry;
}


/** Props of HeapPanel. */
export interface HeapPanelProps {
  readonly chart?: boolean; // the peak chart beside the diagram (default true); an embed may show it as a pane of its own
  readonly figures?: boolean; // the peak, bounds, strategy and arena to declare in the toolbar (default true); an embed's caption gives them once
}

/** A heap pane shorter than this (an embed) shows the assumptions as one line, so the diagram keeps its room. */
const COMPACT_BANNER_BELOW = 420;

/**
 * A heap pane at most this wide shows the assumptions as one line too: wrapped
 * to a narrow pane they took half its height. The width under which the peak
 * chart moves below the diagram (heap.css).
 */
const COMPACT_BANNER_NARROWER = 440;

/** Height of the legend under the diagram, in CSS pixels. */
const LEGEND_HEIGHT = 26;
/** Height of the line under the lanes naming the regions that hold nothing (heap.css), in CSS pixels. */
const EMPTY_REGIONS_HEIGHT = 19;

/** The heap pane; nothing without a plan. */
export function HeapPanel({ chart = true, figures = true }: HeapPanelProps) {
  const fullPlan = useAppStore(selectPlan);
  const model = useAppStore((s) => s.model?.inferred);
  const planError = useAppStore((s) => (s.model?.plan.status === 'failed' ? s.model.plan.error.message : undefined));
  const selection = useAppStore((s) => s.selection);
  const { select } = useActions();
  const [mode, setMode] = useState<'diagram' | 'table'>('diagram');
  const [showChart, setShowChart] = useState(chart);
  const [main, mainSize] = useElementSize<HTMLDivElement>();
  const [pane, paneSize] = useElementSize<HTMLElement>();
  // The table lists every region's buffers (it has no region switcher), however short the pane.
  const emptyLine = fullPlan !== undefined && cachedHeapData(fullPlan, model).data.emptyRegions !== undefined ? EMPTY_REGIONS_HEIGHT : 0;
  const shown = useShownRegion(fullPlan, mainSize === undefined ? undefined : mainSize.height - LEGEND_HEIGHT - emptyLine, { all: mode === 'table' });
  const plan = shown.plan;
  const cached = plan === undefined ? undefined : cachedHeapData(plan, model);
  const emphasis = useMemo(() => (cached === undefined ? undefined : heapEmphasis(cached.data, selection, cached.nodeSteps)), [cached, selection]);
  const lookup = model === undefined ? undefined : modelLookup(model);
  const describe = useCallback((i: number) => bufferFacts(cached!.data, model, lookup, i), [cached, model, lookup]);
  const onSelectBuffer = useCallback(
    (i: number | undefined) => select(i === undefined || cached === undefined ? undefined : { kind: 'buffer', buffer: cached.data.plan.buffers[i]!.id }),
    [cached, select],
  );
  const onSelectStep = useCallback((step: number | undefined) => select(step === undefined ? undefined : { kind: 'step', step }), [select]);
  return (
    <section ref={pane} id="heap-pane" className="pane heap-pane" aria-labelledby="heap-title" data-testid="heap-pane">
      <PaneToolbar titleId="heap-title" title="Heap">
        {figures && fullPlan && <HeapNumbers plan={fullPlan} />}
        <div className="heap-tools">
          {mode === 'diagram' && <RegionSwitcher shown={shown} />}
          {chart && (
            <button type="button" className="button button-small" aria-pressed={showChart} onClick={() => setShowChart(!showChart)} data-testid="heap-chart-toggle" title={mode === 'table' ? 'Live bytes per kind below the table' : 'Live bytes per kind beside the diagram'}>
              Chart
            </button>
          )}
          <div className="segmented" role="group" aria-label="Heap view">
            <button type="button" aria-pressed={mode === 'diagram'} onClick={() => setMode('diagram')}>
              Diagram
            </button>
            <button type="button" aria-pressed={mode === 'table'} onClick={() => setMode('table')}>
              Table
            </button>
          </div>
        </div>
      </PaneToolbar>
      {fullPlan && <OverLimit plan={fullPlan} />}
      {model && <AssumptionsBanner compact={paneSize !== undefined && (paneSize.height < COMPACT_BANNER_BELOW || paneSize.width <= COMPACT_BANNER_NARROWER)} />}
      {cached === undefined || emphasis === undefined ? (
        <p className="pane-empty" data-testid="heap-empty">
          {planError ? `No plan: ${planError}` : 'Planning…'}
        </p>
      ) : (
        <div className="heap-body" data-chart={showChart && plan !== undefined} data-mode={mode}>
          <div className="heap-main" ref={main}>
            {mode === 'diagram' ? (
              <>
                <HeapView data={cached.data} highlight={emphasis.highlight} step={emphasis.step} selected={selection?.kind === 'buffer' ? cached.data.indexOfId.get(selection.buffer) : undefined} describe={describe} onSelectBuffer={onSelectBuffer} onSelectStep={onSelectStep} />
                {cached.data.lanes.length > 0 && <HeapLegend data={[cached.data]} />}
              </>
            ) : (
              <HeapTable data={cached.data} highlight={emphasis.highlight} describe={describe} onSelectBuffer={onSelectBuffer} />
            )}
          </div>
          {/* The regions the diagram shows: one region's chart has room to be read beside it, and it names the others. */}
          {showChart && plan && <PeakChart plan={plan} model={model} className="heap-chart" notShown={regionsNotShownText(shown.regions, shown.region, shown.auto)} />}
        </div>
      )}
    </section>
  );
}
