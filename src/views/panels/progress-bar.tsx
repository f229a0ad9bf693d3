// The load progress line under the header: what is being opened, how far the
// read/decode/inference has come (from the worker's progress messages), Cancel.

import { shortName } from '../../shared/short-name';
import { useActions, useAppStore } from '../../store/context';
import './status.css';

/** Shows the task in flight; renders nothing when the page is idle. */
export function LoadProgressBar() {
  const task = useAppStore((s) => s.task);
  const progress = useAppStore((s) => s.progress);
  const { cancel } = useActions();
  if (task === undefined) return null;
  const fraction = progress?.fraction;
  const percent = fraction === undefined ? undefined : Math.round(fraction * 100);
  const verb = task.kind === 'open' ? 'Opening' : 'Re-inferring';
  return (
    <div className="progress" data-testid="progress">
      <div
        className={`progress-track${percent === undefined ? ' progress-indeterminate' : ''}`}
        role="progressbar"
        aria-label={`${verb} ${shortName(task.name)}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={progress?.label}
      >
        <div className="progress-fill" style={{ width: percent === undefined ? undefined : `${percent}%` }} />
      </div>
      <div className="progress-text">
        <span className="progress-task">
          {verb} <strong>{shortName(task.name)}</strong>
        </span>
        <span className="progress-label">
          {progress?.label}
          {percent !== undefined && <span className="progress-percent"> · {percent}%</span>}
        </span>
        <button type="button" className="button button-small button-quiet" onClick={cancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
