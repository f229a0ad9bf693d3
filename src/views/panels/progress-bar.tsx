// The load progress line under the header: what is being opened, how far the
// read/decode/inference has come (from the worker's progress messages), Cancel;
// while best searches within a budget, the time spent, the best peak so far and
// the proven bound, and a Cancel that stops the search and keeps its best plan.

import { formatBytes } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import { useActions, useAppStore } from '../../store/context';
import type { LoadProgress } from '../../store/state';
import type { SearchProgress } from '../../worker/protocol';
import { budgetText } from './search-budget';
import './status.css';

/** Shows the task in flight; renders nothing when the page is idle. */
export function LoadProgressBar() {
  const task = useAppStore((s) => s.task);
  const progress = useAppStore((s) => s.progress);
  const { cancel } = useActions();
  if (task === undefined) return null;
  const fraction = progress?.fraction;
  const percent = fraction === undefined ? undefined : Math.round(fraction * 100);
  const verb = task.kind === 'open' ? 'Opening' : task.kind === 'replan' ? 'Planning' : 'Re-inferring';
  const search = progress?.search;
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
          {percent !== undefined && search === undefined && <span className="progress-percent"> · {percent}%</span>}
        </span>
        {search === undefined ? (
          <button type="button" className="button button-small button-quiet" onClick={cancel}>
            Cancel
          </button>
        ) : (
          <SearchStatus search={search} progress={progress!} />
        )}
      </div>
    </div>
  );
}

/** The search's time, best peak and bound, and the Cancel that keeps its best plan (or drops the task when it cannot). */
function SearchStatus({ search, progress }: { readonly search: SearchProgress; readonly progress: LoadProgress }) {
  const { stopSearch } = useActions();
  const { peak, bound } = search;
  const gap = peak !== undefined && bound !== undefined && bound > 0 ? ` (${(100 * (peak / bound - 1)).toFixed(1)} % above)` : '';
  return (
    <>
      <span className="progress-search" data-testid="search-progress" data-elapsed-ms={Math.round(search.elapsedMs)} data-peak={peak} data-bound={bound}>
        {(search.elapsedMs / 1000).toFixed(1)} s of {budgetText(search.budgetMs)}
        {peak !== undefined && (
          <>
            {' · best '}
            <strong>{formatBytes(peak)}</strong>
            {bound !== undefined && ` · proven bound ${formatBytes(bound)}${gap}`}
          </>
        )}
      </span>
      <button
        type="button"
        className="button button-small button-quiet"
        onClick={stopSearch}
        disabled={progress.stopping === true}
        title={search.stoppable ? 'Stop the search and keep the best plan found so far' : 'Drop this plan and keep the one on screen'}
        data-testid="search-cancel"
      >
        {progress.stopping === true ? 'Stopping…' : 'Cancel'}
      </button>
    </>
  );
}
