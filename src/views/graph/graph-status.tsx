// The graph pane's status line: progress while a layout runs (with the preview
// or previous placement on screen), then the engine, its time and, for a
// fallback, why; and the legend. Also reports the drawing's progress to the
// store for summary().graph.

import { useEffect } from 'react';
import type { InferredModel } from '../../model/inferred';
import { formatCount } from '../../shared/format';
import { useActions, useAppStore } from '../../store/context';
import type { GraphPlacement } from '../../worker/layout/protocol';
import type { GraphLayoutState } from './layout/use-graph-layout';

const ENGINE: Readonly<Record<GraphPlacement['engine'], string>> = { elk: 'ELK layered', layered: 'layered', simple: 'simple layout' };

/** Shows where the layout is; see the module header. */
export function LayoutStatus({ layout, nodes }: { readonly layout: GraphLayoutState; readonly nodes: number }) {
  if (layout.status === 'failed') return <p className="pane-empty" role="alert">The graph could not be laid out: {layout.message}</p>;
  const boxes = layout.input.graph.boxes.length;
  const counted = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;
  if (layout.status === 'busy')
    return (
      <div className="graph-status" data-testid="graph-status" data-status="busy">
        <div className="progress-track progress-indeterminate graph-progress" role="progressbar" aria-label="Laying out the graph">
          <div className="progress-fill" />
        </div>
        <span className="graph-status-text">
          {layout.shown?.input === layout.input ? `Preview shown; refining the layout of ${counted(nodes, 'node', 'nodes')}…` : `Laying out ${counted(nodes, 'node', 'nodes')} (${counted(boxes, 'top-level box', 'top-level boxes')})…`}
        </span>
      </div>
    );
  const p = layout.shown.placement;
  const line = `${counted(nodes, 'node', 'nodes')} · ${ENGINE[p.engine]} · ${p.ms < 1000 ? `${Math.round(p.ms)} ms` : `${(p.ms / 1000).toFixed(1)} s`}`;
  return (
    <div className="graph-status" data-testid="graph-status" data-status="ready" data-engine={p.engine}>
      <span className="graph-status-text" data-testid="graph-status-text" title={p.note === undefined ? line : `${line} · ${p.note}`}>
        {line}
        {p.note !== undefined && <span className="graph-note" data-testid="graph-note"> · {p.note}</span>}
      </span>
      <span className="graph-legend" aria-label="Legend">
        <span className="graph-key" title="Removable or in-place op: its output lives in its input's bytes">
          alias
        </span>
        <span className="graph-key graph-key-merge" title="Concat whose inputs are written into its output's bytes">
          merge
        </span>
      </span>
    </div>
  );
}

/** Reports pending while `layout` runs for the plan on screen; the view reports drawn. */
export function useReportPending(model: InferredModel, layout: GraphLayoutState): void {
  const { setGraphDraw } = useActions();
  const plan = useAppStore((s) => s.model?.plan);
  const ready = layout.status === 'ready';
  useEffect(() => {
    if (!ready) setGraphDraw({ model, plan, status: layout.status === 'failed' ? 'none' : 'pending', boxes: 0, ms: null });
  }, [model, plan, ready, layout.status, setGraphDraw]);
}
