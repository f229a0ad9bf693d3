// The chrome-less view of embed=1 and of <heapscope-view>: the graph beside the
// heap, sized to its frame, under one line naming the model and its peak. No
// header, side bar or tensor table.

import { formatBytes } from '../shared/format';
import { useAppStore } from '../store/context';
import { planComplete, planFits, selectPlan } from '../store/selectors';
import { overLimitText, peakText, regionsOver } from '../views/plan-words';
import { GraphPanel } from '../views/graph/graph-panel';
import { HeapPanel } from '../views/heap/heap-panel';
import { ErrorBoundary } from '../app/error-boundary';
import { SplitPane } from '../app/split-pane';
import './embed.css';

/** Props of EmbedWorkspace. */
export interface EmbedWorkspaceProps {
  readonly fullViewUrl?: string; // where "Open in heapscope" leads; no link when undefined
}

/** Graph and heap of the model on screen, filling the frame. */
export function EmbedWorkspace({ fullViewUrl }: EmbedWorkspaceProps) {
  const model = useAppStore((s) => s.model);
  const plan = useAppStore(selectPlan);
  const loading = useAppStore((s) => s.task !== undefined);
  // Without a model, the progress line or the error banner above says why.
  if (model === undefined) return loading ? <p className="embed-empty">Loading the model…</p> : null;
  return (
    <ErrorBoundary area="model view" resetKey={model}>
      <main className="embed-workspace" data-testid="embed-workspace">
        <p className="embed-caption">
          <strong data-testid="embed-model">{model.name}</strong>
          {plan && (
            <span data-testid="embed-peak" data-peak={plan.peak}>
              peak {peakText(plan.peak, planComplete(plan, model.inferred))}
              {!planComplete(plan, model.inferred) && ' (lower estimate)'} · lower bound {formatBytes(plan.lowerBound)} · {plan.strategy} on {plan.target}
              {!planFits(plan) && <strong className="embed-over"> · {regionsOver(plan).map(overLimitText).join('; ')}</strong>}
            </span>
          )}
          {fullViewUrl && (
            <a className="embed-open" href={fullViewUrl} target="_blank" rel="noopener">
              Open in heapscope
            </a>
          )}
        </p>
        <SplitPane direction="row" initial={[0.4, 0.6]} labels={['Resize the graph and the heap']} minFraction={0.15} className="embed-views">
          <ErrorBoundary area="graph" resetKey={model}>
            <GraphPanel />
          </ErrorBoundary>
          <ErrorBoundary area="heap" resetKey={model}>
            <HeapPanel />
          </ErrorBoundary>
        </SplitPane>
      </main>
    </ErrorBoundary>
  );
}
