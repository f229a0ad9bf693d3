// The chrome-less view of embed=1 and of <heapscope-view>: the panes the
// embed asks for (graph, heap, chart, explain, growth; graph and heap by default),
// sized to its frame, under one line naming the model and its peak. No
// header, side bar or tensor table. A narrow frame shows one pane at a time
// with a tab bar, so each stays readable down to 480×320.

import { useState, type ReactNode } from 'react';
import { formatBytes } from '../shared/format';
import { useActions, useAppStore } from '../store/context';
import { overLimitList, planFits } from '../store/fit-words';
import { selectPlan, selectReport } from '../store/selectors';
import { peakText, regionsPeakText } from '../views/plan-words';
import { RegionsPeakNote } from '../views/regions-peak-note';
import { ownBoundTitle, shownOwn } from '../views/bound-words';
import { declaredArenaFigure } from '../views/details/runtime-plan-words';
import { GraphPanel } from '../views/graph/graph-panel';
import { HeapPanel } from '../views/heap/heap-panel';
import { PeakChart } from '../views/heap/peak-chart';
import { Explanation } from '../views/details/explanation';
import { GrowthPanel } from '../views/growth/growth-panel';
import { ErrorBoundary } from '../views/error-boundary';
import { SplitPane } from '../views/split-pane';
import { useElementSize } from '../views/use-element-size';
import { DEFAULT_EMBED_PANES, type EmbedPane } from './embed-panes';
import '../views/details/details.css';
import './embed.css';

/** Props of EmbedWorkspace. */
export interface EmbedWorkspaceProps {
  readonly fullViewUrl?: string; // where "Open in heapscope" leads; no link when undefined
  readonly panes?: readonly EmbedPane[]; // DEFAULT_EMBED_PANES when undefined
  readonly leftOut?: readonly string[]; // <heapscope-view>: its attributes' values left out, told in place of the link's
}

/** Below this frame width (CSS pixels) one pane takes the frame's width alone (the live-bytes chart beside a single heap). */
const TABS_BELOW = 640;
/** The least width (CSS pixels) a pane side by side with others keeps: below it, per pane, the panes become tabs (two: below 640 px, four: below 1280 px). */
const PANE_WIDTH = 320;

const TITLES: Readonly<Record<EmbedPane, string>> = { graph: 'Graph', heap: 'Heap', chart: 'Chart', explain: 'Why this peak', growth: 'Growth' };

/** The chosen panes of the model on screen, filling the frame. */
export function EmbedWorkspace({ fullViewUrl, panes = DEFAULT_EMBED_PANES, leftOut }: EmbedWorkspaceProps) {
  const model = useAppStore((s) => s.model);
  const plan = useAppStore(selectPlan);
  const loading = useAppStore((s) => s.task !== undefined);
  const [frame, size] = useElementSize<HTMLElement>();
  const [tab, setTab] = useState<EmbedPane | undefined>(undefined);
  // Without a model, the progress line or the error banner above says why.
  if (model === undefined) return loading ? <p className="embed-empty">Loading the model…</p> : null;
  const complete = plan === undefined || plan.complete;
  // The Details name "own" in the header when it is shown: the caption is the embed's header.
  const own = plan === undefined ? undefined : shownOwn(plan);
  const sum = plan === undefined ? undefined : regionsPeakText(plan, complete);
  // TensorFlow Lite Micro's arena to declare, as the heap's header says it: on tflm the peak is only the arena's head.
  const arena = plan === undefined ? undefined : declaredArenaFigure(plan);
  const caption = plan === undefined ? model.name : `${model.name}: peak ${peakText(plan.peak, complete)}${complete ? '' : ' (lower estimate)'}${sum === undefined ? '' : `, ${sum}`}${arena === undefined ? '' : `, arena to declare ${arena.shown}`}, lower bound ${formatBytes(plan.lowerBound)}${own === undefined ? '' : `, ${plan.strategy}'s own bound ${formatBytes(own)}`}, ${plan.strategy} on ${plan.target}${planFits(plan) ? '' : `; ${overLimitList(plan)}`}`;
  const tabs = panes.length > 1 && size !== undefined && size.width < PANE_WIDTH * panes.length;
  const current = tab !== undefined && panes.includes(tab) ? tab : panes[0]!;
  const wide = size !== undefined && size.width >= TABS_BELOW;
  const pane = (name: EmbedPane): ReactNode => <EmbedPaneView key={name} name={name} chartBeside={wide && panes.length === 1} shown={!tabs || name === current} />;
  return (
    <ErrorBoundary area="model view" resetKey={model}>
      <main ref={frame} className="embed-workspace" data-testid="embed-workspace" data-panes={panes.join(',')} data-tabs={tabs}>
        <p className="embed-caption" title={caption}>
          <strong data-testid="embed-model">{model.name}</strong>
          {plan && (
            <span data-testid="embed-peak" data-peak={plan.peak}>
              peak {peakText(plan.peak, complete)}
              <RegionsPeakNote plan={plan} complete={complete} />
              {!complete && ' (lower estimate)'}
              {arena !== undefined && (
                <>
                  {' '}
                  <span data-testid="embed-arena" data-bytes={arena.bytes} title={`The tensor arena to declare to TensorFlow Lite Micro: ${arena.text}`}>
                    · arena to declare <strong>{arena.shown}</strong>
                  </span>
                </>
              )}{' '}
              · bound {formatBytes(plan.lowerBound)}
              {own !== undefined && (
                <>
                  {' '}
                  · <span title={ownBoundTitle(plan)}>own {formatBytes(own)}</span>
                </>
              )}{' '}
              · {plan.strategy} on {plan.target}
              {!planFits(plan) && <strong className="embed-over"> · {overLimitList(plan)}</strong>}
            </span>
          )}
          {fullViewUrl && (
            <a className="embed-open" href={fullViewUrl} target="_blank" rel="noopener">
              Open in heapscope
            </a>
          )}
        </p>
        <EmbedLeftOut attributes={leftOut} />
        {tabs && (
          <div className="segmented embed-tabs" role="tablist" aria-label="Panes">
            {panes.map((name) => (
              <button key={name} type="button" role="tab" aria-selected={name === current} aria-pressed={name === current} onClick={() => setTab(name)} data-pane={name}>
                {TITLES[name]}
              </button>
            ))}
          </div>
        )}
        {tabs || panes.length === 1 ? (
          <div className="embed-views embed-single">{pane(current)}</div>
        ) : (
          <SplitPane direction="row" initial={panes.map(() => 1 / panes.length)} labels={panes.slice(1).map((p, i) => `Resize the ${panes[i]} and the ${p}`)} minFraction={0.15} className="embed-views">
            {panes.map(pane)}
          </SplitPane>
        )}
      </main>
    </ErrorBoundary>
  );
}

/**
 * The embed's link notice, in one line under the caption: each parameter of the link left out (a comparison,
 * which an embed does not open, or a value that does not apply), as the console warns it; whole on hover.
 * For <heapscope-view>, the values of its attributes left out (`attributes`), in the same place.
 */
function EmbedLeftOut({ attributes }: { readonly attributes: readonly string[] | undefined }) {
  const link = useAppStore((s) => s.linkLeftOut);
  const leftOut = attributes ?? link;
  if (leftOut.length === 0) return null;
  const text = `Left out of the ${attributes === undefined ? 'link' : 'attributes'}: ${leftOut.join('; ')}`;
  return (
    <p className="embed-left-out" role="note" title={text} data-testid="embed-left-out">
      {text}
    </p>
  );
}

/** One pane of the embed; `shown` is false for a pane behind another tab. */
function EmbedPaneView({ name, chartBeside, shown }: { readonly name: EmbedPane; readonly chartBeside: boolean; readonly shown: boolean }) {
  const model = useAppStore((s) => s.model);
  if (name === 'graph') {
    return (
      <ErrorBoundary area="graph" resetKey={model}>
        <GraphPanel />
      </ErrorBoundary>
    );
  }
  if (name === 'heap') {
    return (
      <ErrorBoundary area="heap" resetKey={model}>
        {/* the caption gives the peak, bounds and arena to declare: the heap's toolbar keeps to its controls, so each figure is said once */}
        <HeapPanel chart={chartBeside} figures={false} />
      </ErrorBoundary>
    );
  }
  if (name === 'growth') {
    // No comparison dialog in an embed: a shift-click plans the point like a click.
    return (
      <ErrorBoundary area="growth" resetKey={model}>
        <GrowthPanel active={shown} compare={false} />
      </ErrorBoundary>
    );
  }
  return name === 'chart' ? <ChartPane /> : <ExplainPane />;
}

/** The peak chart alone. */
function ChartPane() {
  const plan = useAppStore(selectPlan);
  const model = useAppStore((s) => s.model?.inferred);
  return (
    <section className="pane embed-chart-pane" aria-label="Live bytes per kind" data-testid="embed-chart">
      {plan ? <PeakChart plan={plan} model={model} /> : <p className="pane-empty">Planning…</p>}
    </section>
  );
}

/** The explanation of the plan: why the peak is what it is. */
function ExplainPane() {
  const plan = useAppStore(selectPlan);
  const model = useAppStore((s) => s.model?.inferred);
  const report = useAppStore(selectReport);
  const { select } = useActions();
  return (
    <section className="pane details-pane" aria-label="Why this peak" data-testid="embed-explain">
      <div className="details-body">{plan && model ? <Explanation plan={plan} model={model} report={report} onSelect={select} /> : <p className="pane-empty">Planning…</p>}</div>
    </section>
  );
}
