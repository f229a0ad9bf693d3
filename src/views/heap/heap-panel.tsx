// The heap pane: the diagram (or its accessible table) of the plan on screen,
// its legend, and the selection wiring: clicking a buffer or a step selects it
// in every view; the graph's selection emphasizes buffers here.

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
import './heap.css';

const dataCache = new WeakMap<ModelPlan, { data: HeapData; nodeSteps: ReadonlyMap<string, number> }>();

/** The view model of `plan`, built once per plan. */
export function cachedHeapData(plan: ModelPlan): { data: HeapData; nodeSteps: ReadonlyMap<string, number> } {
  let entry = dataCache.get(plan);
  if (entry === undefined) {
    const data = heapData(plan);
    entry = { data, nodeSteps: stepsByNode(data) };
    dataCache.set(plan, entry);
  }
  return entry;
}

const LEGEND: readonly { kind: string; label: string }[] = [
  { kind: 'activation', label: 'activation' },
  { kind: 'io', label: 'input / output' },
  { kind: 'scratch', label: 'scratch' },
  { kind: 'cache', label: 'cache' },
  { kind: 'copy', label: 'copy (unit boundary or Concat)' },
  { kind: 'shared', label: 'shares bytes' },
];

/** The heap pane; nothing without a plan. */
export function HeapPanel() {
  const plan = useAppStore(selectPlan);
  const model = useAppStore((s) => s.model?.inferred);
  const planError = useAppStore((s) => (s.model?.plan.status === 'failed' ? s.model.plan.error.message : undefined));
  const selection = useAppStore((s) => s.selection);
  const { select } = useActions();
  const [mode, setMode] = useState<'diagram' | 'table'>('diagram');
  const cached = plan === undefined ? undefined : cachedHeapData(plan);
  const emphasis = useMemo(() => (cached === undefined ? undefined : heapEmphasis(cached.data, selection, cached.nodeSteps)), [cached, selection]);
  const lookup = model === undefined ? undefined : modelLookup(model);
  const describe = useCallback((i: number) => bufferFacts(cached!.data, model, lookup, i), [cached, model, lookup]);
  const onSelectBuffer = useCallback(
    (i: number | undefined) => select(i === undefined || cached === undefined ? undefined : { kind: 'buffer', buffer: cached.data.plan.buffers[i]!.id }),
    [cached, select],
  );
  const onSelectStep = useCallback((step: number | undefined) => select(step === undefined ? undefined : { kind: 'step', step }), [select]);
  return (
    <section className="pane heap-pane" aria-labelledby="heap-title" data-testid="heap-pane">
      <div className="pane-toolbar">
        <h2 id="heap-title" className="pane-title">
          Heap
        </h2>
        {plan && <HeapNumbers plan={plan} />}
        <div className="segmented" role="group" aria-label="Heap view">
          <button type="button" aria-pressed={mode === 'diagram'} onClick={() => setMode('diagram')}>
            Diagram
          </button>
          <button type="button" aria-pressed={mode === 'table'} onClick={() => setMode('table')}>
            Table
          </button>
        </div>
      </div>
      {plan && <OverLimit plan={plan} />}
      {model && <AssumptionsBanner />}
      {cached === undefined || emphasis === undefined ? (
        <p className="pane-empty" data-testid="heap-empty">
          {planError ? `No plan: ${planError}` : 'Planning…'}
        </p>
      ) : mode === 'diagram' ? (
        <>
          <HeapView data={cached.data} highlight={emphasis.highlight} step={emphasis.step} describe={describe} onSelectBuffer={onSelectBuffer} onSelectStep={onSelectStep} />
          <ul className="heap-legend" aria-label="Legend">
            {LEGEND.map((item) => (
              <li key={item.kind}>
                <span className={`swatch swatch-${item.kind}`} aria-hidden="true" />
                {item.label}
              </li>
            ))}
            <li>
              <span className="swatch-line swatch-bound" aria-hidden="true" />
              lower bound
            </li>
            <li>
              <span className="swatch-line swatch-peak" aria-hidden="true" />
              peak
            </li>
          </ul>
        </>
      ) : (
        <HeapTable data={cached.data} highlight={emphasis.highlight} describe={describe} onSelectBuffer={onSelectBuffer} />
      )}
    </section>
  );
}
