// The side bar's "Share and export" panel: copy a link to this view, and
// download the plan as a plan file (re-openable), MiniMalloc CSV (problem and
// solution, one file per region), a C header, the per-step ASCII chart, the heap and
// graph views as SVG and PNG (the heap's with the growth curve under it, when the
// Growth view planned one; the curve alone too), and for a .tflite model planned for TensorFlow
// Lite Micro the model with the plan written in (built by the worker). The
// builders are pure (this folder); this component only gathers the plan on
// screen and saves files.

import { useState } from 'react';
import { asciiChart } from '../../planner/export/ascii-chart';
import { planCHeader } from '../../planner/export/c-header';
import type { ModelPlan, Suggestion } from '../../planner/plan';
import { writePlanFile, type PlanFile } from '../../planner/assembly/plan-file';
import { toErrorData } from '../../shared/errors';
import { useAppStore, useAppStoreApi } from '../../store/context';
import { currentGrowth } from '../../store/growth';
import { settledSuggestions, suggestionsMissing } from '../../store/suggestions';
import { plannedTfliteBlocker } from '../../store/planned-tflite';
import { selectPlan } from '../../store/selectors';
import type { AppState } from '../../store/state';
import { Panel } from '../panels/panel';
import { exportStem, exportTitle, plannedTfliteName } from './export-names';
import { graphExport } from './graph-export';
import { heapSvg, type HeapSvgAppendix } from './heap-svg';
import { assumedDimText, growthChartOf } from '../growth/growth-input';
import { growthExport } from '../growth/growth-svg';
import { kvCacheNames } from '../kv-cache-names';
import { planCsv } from './plan-csv';
import { planFileOf } from '../../settings/plan-file';
import { saveBlob, saveText, svgToPng } from './save-file';
import { plannedTfliteContents } from '../details/runtime-plan-words';
import '../compare/compare.css';
import './export.css';

/** Runs an export; the panel says it is done (in the task's own words when it returns some), or why it failed. */
type Runner = (done: string, failed: string, task: () => void | string | Promise<void | string>) => () => Promise<void>;

/** The panel; nothing without a model. */
export function ExportPanel() {
  const model = useAppStore((s) => s.model);
  const plan = useAppStore(selectPlan);
  const dims = useAppStore((s) => s.dims);
  const [note, setNote] = useState<{ text: string; error: boolean } | undefined>(undefined);
  if (model === undefined) return null;
  const run: Runner = (done, failed, task) => async () => {
    try {
      const said = await task();
      setNote({ text: typeof said === 'string' ? said : done, error: false });
    } catch (error) {
      // A plain Error carries the panel's own sentence; anything else says what it is.
      const why = error instanceof Error && error.name === 'Error' ? error.message : toErrorData(error).message;
      setNote({ text: `${failed}: ${why}`, error: true });
    }
  };
  const copyLink = run('Link copied', 'The link could not be copied', () => navigator.clipboard.writeText(window.location.href));
  return (
    <Panel title="Share and export" testId="export-panel">
      <div className="tool-actions">
        <button type="button" className="button button-small" onClick={copyLink} data-testid="copy-link">
          Copy link
        </button>
      </div>
      {model.origin === 'file' && <p className="muted tool-note">The link carries the settings; a local file cannot travel in it.</p>}
      {plan === undefined ? (
        <p className="muted tool-note">No plan to export.</p>
      ) : (
        <PlanDownloads plan={plan} title={exportTitle(model.name, plan)} stem={exportStem(model.name, dims, plan)} tflite={plannedTfliteName(model.name, dims, plan)} run={run} />
      )}
      {note && (
        <p className={note.error ? 'tool-error' : 'muted tool-note'} role="status" data-testid="export-note">
          {note.text}
        </p>
      )}
    </Panel>
  );
}

interface PlanDownloadsProps {
  readonly plan: ModelPlan;
  readonly title: string; // of the drawings: model, peak and bound in human units, strategy and target
  readonly stem: string; // start of every file name
  readonly tflite: string; // the name of the model with the plan written in
  readonly run: Runner;
}

/** One row of buttons per kind of file. */
function PlanDownloads({ plan, title, stem, tflite, run }: PlanDownloadsProps) {
  const api = useAppStoreApi();
  const regions = plan.regions.filter((r) => plan.buffers.some((b) => b.region === r.name && b.size > 0)).map((r) => r.name);
  // Built when a button is pressed, from the plan on screen then.
  const fileNow = (): PlanFile => {
    const file = shownPlanFile(api.getState());
    if (file === undefined) throw new Error('there is no plan on screen');
    return file;
  };
  // The plan file carries the suggestions, as `plan --save` writes them: it waits for the worker to evaluate them.
  const savePlanFile = run('Plan file saved', 'Plan file could not be saved', async () => {
    const suggestions = await settledSuggestions(api);
    const file = shownPlanFile(api.getState(), suggestions);
    if (file === undefined) throw new Error('there is no plan on screen');
    saveText(writePlanFile(file), `${stem}.plan.json`, 'application/json');
    if (suggestions !== undefined) return undefined;
    // the file leaves the key out rather than claim there are none
    return `Plan file saved without suggestions: ${suggestionsMissing(api.getState())}`;
  });
  // One file per region, as the command-line tool's --csv writes them: the format has no regions.
  const saveCsvs = (what: string, kind: 'problem' | 'solution') =>
    run(regions.length > 1 ? `${what} CSVs of ${regions.length} regions saved` : `${what} CSV saved`, `${what} CSV could not be saved`, () => {
      const csvs = planCsv(fileNow());
      if (csvs.length === 0) throw new Error('no region has buffers');
      for (const csv of csvs) saveText(csv[kind], `${stem}.${csv.region}.${kind}.csv`, 'text/csv');
    });
  const growth = useAppStore(currentGrowth);
  const inferred = useAppStore((s) => s.model?.inferred);
  const chart = growth === undefined || growth.points.length === 0 || inferred === undefined ? undefined : growthChartOf(growth, plan, inferred);
  // The curve as the export draws it: 960 wide, as the heap.
  const curve = chart === undefined ? undefined : growthExport(chart.input, chart.label, 960);
  const curveTitle =
    chart === undefined || growth === undefined
      ? ''
      : `Peak against ${chart.label}${chart.assumed === undefined ? '' : ` at ${assumedDimText(chart.assumed)}`}${growth.status === 'done' ? '' : ` (${growth.points.length} of ${growth.values.length} values planned)`}`;
  const appendix: HeapSvgAppendix | undefined = curve === undefined ? undefined : { title: curveTitle, height: curve.height, markup: curve.markup };
  // The KV cache in its own colour, as the heap on screen draws it.
  const heap = (): string => heapSvg(plan, { title, kv: kvCacheNames(inferred), ...(appendix !== undefined && { appendix }) });
  const graph = (png: boolean) => () => graphExport(graphElement(), `${title} · graph`, png);
  const save = (what: string, build: () => string, suffix: string, type: string) => run(`${what} saved`, `${what} could not be saved`, () => saveText(build(), `${stem}.${suffix}`, type));
  const savePng = (what: string, build: () => { svg: string; scale: number }, suffix: string) =>
    run(`${what} saved`, `${what} could not be saved`, async () => {
      const { svg, scale } = build();
      saveBlob(await svgToPng(svg, scale), `${stem}.${suffix}`);
    });
  return (
    <div className="export-rows" role="group" aria-label="Downloads">
      <span className="export-label">Plan</span>
      <span className="export-buttons">
        <Download label="Plan file" testId="export-plan" onClick={savePlanFile} />
        <Download label="C header" testId="export-c-header" onClick={save('C header', () => planCHeader(fileNow()), 'plan.h', 'text/x-c')} />
        <Download label="ASCII chart" testId="export-ascii" onClick={save('ASCII chart', () => asciiChart(plan) + '\n', 'plan.txt', 'text/plain')} />
      </span>
      <span className="export-label">MiniMalloc CSV</span>
      <span className="export-buttons">
        {regions.length > 0 && (
          <>
            <Download label="Problem" testId="export-csv-problem" onClick={saveCsvs('Problem', 'problem')} title={csvTitle('problem', regions)} />
            <Download label="Solution" testId="export-csv-solution" onClick={saveCsvs('Solution', 'solution')} title={csvTitle('solution', regions)} />
          </>
        )}
      </span>
      <span className="export-label">Heap</span>
      <span className="export-buttons">
        <Download label="SVG" testId="export-heap-svg" onClick={save('Heap SVG', heap, 'heap.svg', 'image/svg+xml')} />
        <Download label="PNG" testId="export-heap-png" onClick={savePng('Heap PNG', () => ({ svg: heap(), scale: 2 }), 'heap.png')} />
      </span>
      {curve !== undefined && (
        <>
          <span className="export-label">Growth</span>
          <span className="export-buttons">
            <Download label="SVG" testId="export-growth-svg" onClick={save('Growth SVG', () => curve.document(`${title} · ${curveTitle}`), 'growth.svg', 'image/svg+xml')} />
            <Download label="PNG" testId="export-growth-png" onClick={savePng('Growth PNG', () => ({ svg: curve.document(`${title} · ${curveTitle}`), scale: 2 }), 'growth.png')} />
          </span>
        </>
      )}
      <span className="export-label">Graph</span>
      <span className="export-buttons">
        <Download label="SVG" testId="export-graph-svg" onClick={save('Graph SVG', () => graph(false)().svg, 'graph.svg', 'image/svg+xml')} />
        <Download label="PNG" testId="export-graph-png" onClick={savePng('Graph PNG', graph(true), 'graph.png')} />
      </span>
      <PlannedTfliteDownload name={tflite} contents={plan.runtimePlan === undefined ? undefined : plannedTfliteContents(plan.runtimePlan)} run={run} />
    </div>
  );
}

/** The model with the plan on screen written in as TensorFlow Lite Micro's offline plan; disabled, saying why, without a runtime plan. */
function PlannedTfliteDownload({ name, contents, run }: { readonly name: string; readonly contents: string | undefined; readonly run: Runner }) {
  const blocker = useAppStore(plannedTfliteBlocker);
  const api = useAppStoreApi();
  const save = run('Planned .tflite saved', 'The planned .tflite could not be saved', async () => {
    const bytes = await api.getState().actions.plannedTflite();
    saveBlob(new Blob([bytes], { type: 'application/octet-stream' }), name);
  });
  return (
    <>
      <span className="export-label">TFLite Micro</span>
      <span className="export-buttons">
        <button
          type="button"
          className="button button-small"
          onClick={save}
          disabled={blocker !== undefined}
          title={blocker === undefined ? `${name}: the model with ${contents ?? 'this plan'} as its offline memory plan (OfflineMemoryAllocation)` : `Not available: ${blocker}`}
          data-testid="export-planned-tflite"
        >
          Planned .tflite
        </button>
      </span>
    </>
  );
}

/** "one file per region: sram, ext-ram" for the CSV buttons' tooltip. */
function csvTitle(kind: string, regions: readonly string[]): string {
  return regions.length > 1 ? `The ${kind} as MiniMalloc CSV, one file per region: ${regions.join(', ')}` : `The ${kind} of region ${regions[0]} as MiniMalloc CSV`;
}

/** One download button. */
function Download({ label, testId, onClick, title }: { readonly label: string; readonly testId: string; readonly onClick: () => void; readonly title?: string }) {
  return (
    <button type="button" className="button button-small" onClick={onClick} data-testid={testId} title={title}>
      {label}
    </button>
  );
}

/** The plan file of the plan on screen (with its evaluated suggestions, when known), or undefined without one. */
function shownPlanFile(state: AppState, suggestions?: readonly Suggestion[]): PlanFile | undefined {
  const model = state.model;
  if (model === undefined || model.plan.status !== 'planned') return undefined;
  return planFileOf({ name: model.name, inferred: model.inferred, plan: model.plan.plan, settings: model.plan.settings, dims: state.dims, ...(suggestions !== undefined && { suggestions }) });
}

/** The graph drawing of the page. */
function graphElement(): SVGSVGElement {
  const svg = document.querySelector<SVGSVGElement>('.graph-pane svg.graph-svg');
  if (svg === null) throw new Error('the graph view has no drawing to save');
  return svg;
}
