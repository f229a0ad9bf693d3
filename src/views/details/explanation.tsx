// Why the plan is as large as it is: per region, peak against lower bound and
// the gap; the waste split into holes, alignment padding and scratch growth;
// the peak step and the largest buffers live there (each selects its buffer).

import type { ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import type { Selection } from '../../store/state';

/** Props of Explanation. */
export interface ExplanationProps {
  readonly plan: ModelPlan;
  readonly onSelect: (selection: Selection) => void;
}

/** How many buffers live at the peak are listed. */
const LIVE_LISTED = 8;

/** The explanation of a plan. */
export function Explanation({ plan, onSelect }: ExplanationProps) {
  const { waste } = plan;
  return (
    <div className="explanation" data-testid="explanation">
      <table className="regions-table">
        <thead>
          <tr>
            <th scope="col">Region</th>
            <th scope="col">Peak</th>
            <th scope="col">Bound</th>
            <th scope="col">Gap</th>
          </tr>
        </thead>
        <tbody>
          {plan.regions.map((r) => (
            <tr key={r.name} data-testid="region-row" data-region={r.name} data-peak={r.peak} data-lower-bound={r.lowerBound}>
              <th scope="row">{r.name}</th>
              <td>{formatBytes(r.peak)}</td>
              <td>{formatBytes(r.lowerBound)}</td>
              <td>{r.lowerBound > 0 ? `${((r.peak / r.lowerBound - 1) * 100).toFixed(1)} %` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="explanation-line">
        {plan.optimal ? (
          <>Every region is at its lower bound: no plan can be smaller.</>
        ) : (
          <>
            {formatBytes(waste.total)} above the bound on data bytes: {formatBytes(waste.holes)} holes, {formatBytes(waste.alignmentPadding)} alignment padding,{' '}
            {formatBytes(waste.scratchGrowth)} scratch growth.
          </>
        )}
      </p>
      {plan.peakStep !== undefined && (
        <>
          <p className="explanation-line">
            The bound is reached at{' '}
            <button type="button" className="link-button" onClick={() => onSelect({ kind: 'step', step: plan.peakStep! })} data-testid="peak-step">
              step {plan.peakStep}
            </button>{' '}
            ({plan.steps[plan.peakStep]?.opType} <span className="mono">{plan.steps[plan.peakStep]?.node}</span>) in {plan.peakRegion}; live there:
          </p>
          <ol className="live-list">
            {plan.liveAtPeak.slice(0, LIVE_LISTED).map((b) => (
              <li key={b.id}>
                <button type="button" className="link-button mono truncate" onClick={() => onSelect({ kind: 'buffer', buffer: b.id })} title={b.name}>
                  {b.name}
                </button>
                <span className="muted">{formatBytes(b.size)}</span>
              </li>
            ))}
          </ol>
          {plan.liveAtPeak.length > LIVE_LISTED && <p className="muted">and {plan.liveAtPeak.length - LIVE_LISTED} smaller</p>}
        </>
      )}
      {plan.diagnostics.length > 0 && (
        <ul className="plan-diagnostics">
          {plan.diagnostics.map((d, i) => (
            <li key={i}>
              <span className="tag tag-muted">{d.code}</span> {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
