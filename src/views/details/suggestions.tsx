// What to change to lower the peak: the suggestions the worker evaluates after
// the plan is on screen (progress meanwhile), each with its saving and the CLI
// arguments that apply it; one click plans the shown model with the change as
// side B of a comparison.

import { MESSAGE_CHARS, shortName } from '../../shared/short-name';
import type { Suggestion } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { useAppStore } from '../../store/context';
import type { SuggestionsState } from '../../store/state';
import { currentSuggestions } from '../../store/suggestions';
import type { PlanSettings } from '../../worker/protocol';
import { useCompareActions } from '../compare/use-compare';
import { noSuggestionWords } from './peak-words';
import { selectPlan } from '../../store/selectors';

/**
 * The page settings that apply `s` over `shown` (its target change as target
 * edits, its strategy), or undefined for a model edit, which has no settings.
 */
export function settingsForSuggestion(s: Suggestion, shown: PlanSettings): PlanSettings | undefined {
  if (s.args === undefined) return undefined;
  const change = s.change ?? {};
  const edits = {
    ...shown.edits,
    ...(change.order !== undefined && { order: change.order }),
    ...(change.fusion !== undefined && { fusion: change.fusion }),
    ...(change.computeUnits === 'off' && { computeUnits: false }),
    ...(change.sramBytes !== undefined && { sramBytes: change.sramBytes }),
    ...(change.dwPwCacheBytes !== undefined && { dwPwCacheBytes: change.dwPwCacheBytes }),
    ...(change.scratchPlacement !== undefined && { scratchPlacement: change.scratchPlacement }),
    ...(change.spill !== undefined && { spill: change.spill }),
    ...(change.weights !== undefined && { weights: change.weights }),
  };
  return { target: shown.target, strategy: s.strategy ?? shown.strategy, ...(Object.keys(edits).length > 0 && { edits }) };
}

/** A suggestion's effect: the bytes it takes off the peak, else "fits" for one that makes the plan fit (a spill may raise the total peak). */
export function savedWords(s: Suggestion): string {
  if (s.saves > 0) return `−${formatBytes(s.saves)}`;
  return s.fits === true ? 'fits' : `+${formatBytes(-s.saves)}`;
}

/** The suggestions of the plan on screen, or their progress while the worker evaluates them. */
export function Suggestions() {
  const suggestions = useAppStore(currentSuggestions);
  const status = suggestions?.status ?? 'pending';
  return (
    <section className="explain-block" aria-label="Suggestions" data-testid="suggestions" data-status={status}>
      <h4 className="explain-heading">What to change</h4>
      <SuggestionsBody suggestions={suggestions} />
    </section>
  );
}

function SuggestionsBody({ suggestions }: { readonly suggestions: SuggestionsState | undefined }) {
  if (suggestions === undefined || suggestions.status === 'running') {
    return (
      <div className="compare-progress" data-testid="suggestions-progress">
        <progress max={1} value={suggestions?.progress?.fraction ?? 0} aria-label="Suggestion progress" />
        <span className="muted">{suggestions?.progress?.label ?? 'evaluating suggestions'}…</span>
      </div>
    );
  }
  if (suggestions.status === 'failed') return <p className="muted">The suggestions could not be evaluated: {suggestions.error?.message}</p>;
  if (suggestions.list.length === 0) return <NoSuggestions />;
  return <SuggestionList list={suggestions.list} />;
}

function NoSuggestions() {
  const plan = useAppStore(selectPlan);
  return (
    <p className="muted" data-testid="no-suggestions">
      {noSuggestionWords(plan?.explanation.peakLive ?? [])}
    </p>
  );
}

function SuggestionList({ list }: { readonly list: readonly Suggestion[] }) {
  const shown = useAppStore((s) => (s.model?.plan.status === 'planned' ? s.model.plan.settings : s.settings));
  const { compareShownWith } = useCompareActions();
  return (
    <ul className="suggestions">
      {list.map((s, k) => {
        const settings = settingsForSuggestion(s, shown);
        const how = s.args === undefined ? `model edit: ${s.modelEdit ?? ''}` : `plan ${s.args.join(' ')}`;
        return (
          <li key={k} data-testid="suggestion" data-kind={s.kind} data-saves={s.saves} data-fits={s.fits === true ? 'true' : undefined}>
            <strong>{savedWords(s)}</strong> {s.action} <code className="muted">{how}</code>{' '}
            {settings !== undefined && (
              <button type="button" className="button button-small" onClick={() => void compareShownWith({ settings })} aria-label={`Compare with the plan after: ${shortName(s.action, MESSAGE_CHARS)}`} data-testid="suggestion-apply">
                Compare
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
