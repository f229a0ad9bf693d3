// What to change to lower the peak: the suggestions the planner evaluated, each
// with its saving and the CLI arguments that apply it; one click plans the shown
// model with the change as side B of a comparison.

import type { ModelPlan, Suggestion } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { useAppStore } from '../../store/context';
import type { PlanSettings } from '../../worker/protocol';
import { useCompareActions } from '../compare/use-compare';

/**
 * The page settings that apply `s` over `shown`, or undefined when the page
 * cannot apply it (a model edit, or a target field the settings panel lacks).
 */
export function settingsForSuggestion(s: Suggestion, shown: PlanSettings): PlanSettings | undefined {
  const change = s.change ?? {};
  if (s.args === undefined || change.order !== undefined || change.sramBytes !== undefined) return undefined;
  const edits = {
    ...shown.edits,
    ...(change.fusion !== undefined && { fusion: change.fusion }),
    ...(change.computeUnits === 'off' && { computeUnits: false }),
    ...(change.dwPwCacheBytes !== undefined && { dwPwCacheBytes: change.dwPwCacheBytes }),
  };
  return { target: shown.target, strategy: s.strategy ?? shown.strategy, ...(Object.keys(edits).length > 0 && { edits }) };
}

/** The suggestions of the plan on screen. */
export function Suggestions({ plan }: { readonly plan: ModelPlan }) {
  const shown = useAppStore((s) => s.settings);
  const { compareShownWith } = useCompareActions();
  const list = plan.suggestions ?? [];
  if (list.length === 0) return null;
  return (
    <section className="explain-block" aria-label="Suggestions" data-testid="suggestions">
      <h4 className="explain-heading">What to change</h4>
      <ul className="suggestions">
        {list.map((s, k) => {
          const settings = settingsForSuggestion(s, shown);
          const how = s.args === undefined ? `model edit: ${s.modelEdit ?? ''}` : `plan ${s.args.join(' ')}`;
          return (
            <li key={k} data-testid="suggestion" data-kind={s.kind} data-saves={s.saves}>
              <strong>−{formatBytes(s.saves)}</strong> {s.action} <code className="muted">{how}</code>{' '}
              {settings !== undefined ? (
                <button type="button" className="button button-small" onClick={() => void compareShownWith({ settings })} data-testid="suggestion-apply">
                  Compare
                </button>
              ) : (
                s.args !== undefined && <span className="muted">(apply with the CLI)</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
