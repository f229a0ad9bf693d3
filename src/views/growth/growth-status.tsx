// The line over the growth chart: the worker's progress with Cancel while the
// curve is planned, then what the curve says (where the plan stops fitting,
// whether it only grows, values whose sizes are not all known), or why it failed.

import { useActions } from '../../store/context';
import type { GrowthState } from '../../store/state';
import { growthVerdict } from './growth-verdict';
import { growthAxisName } from '../../worker/growth-axes';
import type { GrowthAxis } from '../../worker/protocol';

/** Props of GrowthStatus. */
export interface GrowthStatusProps {
  readonly growth: GrowthState | undefined; // the curve of the plan on screen, if asked for
  readonly axis: GrowthAxis;
  readonly values: readonly number[];
  readonly limited: boolean; // some region has a size limit
}

/** Progress and Cancel, or the curve's verdict. */
export function GrowthStatus({ growth, axis, values, limited }: GrowthStatusProps) {
  const { cancelGrowth, sweepGrowth } = useActions();
  const dim = growthAxisName(axis);
  if (growth === undefined) return <p className="muted growth-status">Waiting for the plan…</p>;
  if (growth.status === 'running') {
    const percent = Math.round((growth.points.length / Math.max(1, growth.values.length)) * 100);
    return (
      <div className="growth-status growth-running" data-testid="growth-progress">
        <div className="progress-track growth-track" aria-hidden="true">
          <div className="progress-fill" style={{ width: `${percent}%` }} />
        </div>
        {/* before the label, which changes with every value planned: Cancel stays where the pointer is */}
        <button type="button" className="button button-small button-quiet" onClick={cancelGrowth} data-testid="growth-cancel">
          Cancel
        </button>
        <span className="muted">{growth.progress?.label ?? 'Planning'}</span>
      </div>
    );
  }
  if (growth.status === 'failed') return <p className="tool-error growth-status">The curve could not be planned: {growth.error?.message}</p>;
  if (growth.status === 'cancelled') {
    return (
      <div className="growth-status" data-testid="growth-cancelled">
        <span className="muted">
          Cancelled after {growth.points.length} of {growth.values.length} values.
        </span>
        <button type="button" className="button button-small" onClick={() => sweepGrowth(axis, values, true)} data-testid="growth-resume">
          Plan again
        </button>
      </div>
    );
  }
  return <p className="muted growth-status" data-testid="growth-verdict">{growthVerdict(growth, dim, limited).join(' ')}</p>;
}
