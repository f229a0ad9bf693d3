// The strategy comparison: the peak of every strategy of the registry for this
// model and target (planned in the worker), how far each is from the lower
// bound; each other strategy's name plans with it. Shows the worker's progress meanwhile.

import { useId } from 'react';
import type { ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { DataTable } from '../data-table';
import { peakText } from '../plan-words';
import { currentComparison } from '../../store/comparison';
import { useActions, useAppStore } from '../../store/context';
import type { StrategyPeak } from '../../worker/protocol';

/** Props of StrategyComparison. */
export interface StrategyComparisonProps {
  readonly plan: ModelPlan; // the plan on screen: its strategy is marked
}

type Planned = Extract<StrategyPeak, { status: 'planned' }>;

/** The comparison table, or its progress. */
export function StrategyComparison({ plan }: StrategyComparisonProps) {
  const comparison = useAppStore(currentComparison);
  const { setSettings } = useActions();
  const busy = useAppStore((s) => s.task !== undefined);
  const headingId = useId();
  return (
    <section className="explain-block" aria-labelledby={headingId} data-testid="strategy-comparison" data-status={comparison?.status ?? 'none'}>
      <h4 className="explain-heading" id={headingId}>
        Strategies for this model
      </h4>
      {comparison === undefined || comparison.status === 'running' ? (
        <div className="compare-progress">
          <progress max={1} value={comparison?.progress?.fraction ?? 0} aria-label="Comparison progress" />
          <span className="muted">{comparison?.progress?.label ?? 'Waiting for the plan'}…</span>
        </div>
      ) : comparison.status === 'failed' ? (
        <p className="muted">The comparison failed: {comparison.error?.message}</p>
      ) : (
        <ComparisonTable peaks={comparison.peaks} plan={plan} disabled={busy} onUse={(strategy) => void setSettings({ strategy })} />
      )}
    </section>
  );
}

interface TableProps {
  readonly peaks: readonly StrategyPeak[];
  readonly plan: ModelPlan;
  readonly disabled: boolean;
  readonly onUse: (strategy: string) => void;
}

function ComparisonTable({ peaks, plan, disabled, onUse }: TableProps) {
  const planned = peaks.filter((p): p is Planned => p.status === 'planned').sort((a, b) => a.peak - b.peak);
  const failed = peaks.filter((p) => p.status === 'failed');
  const worst = Math.max(1, ...planned.map((p) => p.peak));
  return (
    <>
      <DataTable
        className="compare-table"
        label="Peaks of every planner against the lower bound"
        columns={['Strategy', <span className="visually-hidden">Bound and excess</span>, 'Peak', 'Over bound']}
      >
        {planned.map((p) => {
          const current = p.strategy === plan.strategy;
          return (
            <tr key={p.strategy} data-testid="compare-row" data-strategy={p.strategy} data-peak={p.peak} data-lower-bound={p.lowerBound} aria-current={current || undefined}>
              <th scope="row">
                {current ? (
                  <span title="the plan on screen">{p.strategy}</span>
                ) : (
                  <button type="button" className="link-button" disabled={disabled} onClick={() => onUse(p.strategy)} aria-label={`Plan with ${p.strategy}`} title={`Plan with ${p.strategy}`}>
                    {p.strategy}
                  </button>
                )}
              </th>
              {/* The bar's figures in words, so the row's cells line up with its four headers for a screen reader. */}
              <td className="compare-bar-cell">
                <span className="visually-hidden">
                  bound {formatBytes(p.lowerBound)}, {p.peak === p.lowerBound ? 'no excess' : `excess ${formatBytes(p.peak - p.lowerBound)}`}
                </span>
                <span className="compare-bar" aria-hidden="true">
                  <span className="compare-bound" style={{ width: `${(100 * p.lowerBound) / worst}%` }} />
                  <span className="compare-over" style={{ width: `${(100 * (p.peak - p.lowerBound)) / worst}%` }} />
                </span>
              </td>
              <td title={`${p.peak.toLocaleString('en-US')} bytes, planned in ${Math.round(p.ms)} ms`}>{peakText(p.peak, plan.complete)}</td>
              <td>{p.peak === p.lowerBound ? 'at bound' : `+${formatBytes(p.peak - p.lowerBound)}`}</td>
            </tr>
          );
        })}
      </DataTable>
      <p className="muted compare-note">The strategy on screen is highlighted; pick another to plan with it.</p>
      {failed.map((p) => (
        <p key={p.strategy} className="muted" data-testid="compare-failed">
          {p.strategy} failed: {p.status === 'failed' ? p.error.message : ''}
        </p>
      ))}
    </>
  );
}
