// best's search budget beside the strategy, and what the plan's search proved:
// "optimal (proven)" only when the plan says so, else its gap to the lower bound.

import { useId } from 'react';
import type { ModelPlan } from '../../planner/plan';
import { boundOfEverySplit, gapOf, regionBoundSum } from '../../planner/region-gap';
import { useActions, useAppStore } from '../../store/context';
import { BUDGET_CHOICES, DEFAULT_BUDGET_MS, defaultStrategyOf } from '../../settings/names';

/** A budget in seconds, as the page writes it ("0.5 s", "30 s"). */
export function budgetText(ms: number): string {
  return ms < 10_000 ? `${Number((ms / 1000).toFixed(2))} s` : `${Math.round(ms / 1000)} s`;
}

/** The budget select, as two cells of the settings grid, and a note when the strategy has no search. */
export function BudgetField({ disabled }: { readonly disabled: boolean }) {
  const settings = useAppStore((s) => s.settings);
  const { setSettings } = useActions();
  const id = useId();
  const strategy = settings.strategy ?? defaultStrategyOf(settings.target);
  const budget = settings.budgetMs;
  const choices = budget === undefined || BUDGET_CHOICES.includes(budget) ? BUDGET_CHOICES : [...BUDGET_CHOICES, budget].sort((a, b) => a - b);
  return (
    <>
      <label htmlFor={id}>Search budget</label>
      <select
        id={id}
        className="input select"
        value={budget ?? ''}
        disabled={disabled}
        title="How long best searches for a smaller plan after its portfolio, per memory region; the search stops early once the plan is proven optimal"
        onChange={(e) => void setSettings({ budgetMs: e.target.value === '' ? undefined : Number(e.target.value) })}
        data-testid="budget-select"
      >
        <option value="">default ({budgetText(DEFAULT_BUDGET_MS)})</option>
        {choices.map((ms) => (
          <option key={ms} value={ms}>
            {budgetText(ms)}
          </option>
        ))}
      </select>
      {budget !== undefined && strategy !== 'best' && (
        <p className="settings-note settings-wide muted" data-testid="budget-note">
          The budget applies to best only; {strategy ?? 'this strategy'} has no search.
        </p>
      )}
    </>
  );
}

/**
 * "optimal (proven)" when the plan is at the bound of any plan; else the gap
 * to that bound, and what is proven: every region at its own bound (a plan
 * split between regions, whose total no split of the same buffers lowers),
 * or the search's proof that no placement of the buffers it placed is lower
 * (the bound may rest on a layout or sharing the plan did not take); else
 * whether the search was cut short. With sizes unknown (`complete` false)
 * the proof covers only the sizes known, and says so.
 */
export function PlanProof({ plan, complete }: { readonly plan: ModelPlan; readonly complete: boolean }) {
  const proven = provenOf(plan);
  const text = proofText(plan, complete);
  return (
    <span className={proven ? 'plan-proven' : undefined} data-testid="plan-proof" data-proven={plan.search?.proven === true} data-stopped-by={plan.search?.stoppedBy}>
      {text}
    </span>
  );
}

/**
 * Whether the plan's placement is proven: with sizes unknown, of the sizes known
 * (`search.knownSizesProof`; the plan itself claims no proof then).
 */
function provenOf(plan: Pick<ModelPlan, 'search'>): boolean {
  return plan.search?.proven === true || plan.search?.knownSizesProof !== undefined;
}

/** PlanProof's words (see it). */
export function proofText(plan: Pick<ModelPlan, 'search' | 'gap' | 'optimal' | 'regions' | 'peak' | 'lowerBound'>, complete: boolean): string {
  const proven = provenOf(plan);
  const knownProof = plan.search?.knownSizesProof;
  // 'time': the budget ran out or the search was cancelled; 'iterations': it reached its effort limit.
  const cut = plan.search?.stoppedBy === 'time' || plan.search?.stoppedBy === 'iterations';
  const split = boundOfEverySplit(plan);
  const gap = `${percent(plan.gap)} above the lower bound`;
  // a peak of several memories, their sum, against the bound of every memory as one; and against the sum of their own bounds
  const gapWords = split ? `${gap} of any split between memories, ${percent(gapOf(plan.peak, regionBoundSum(plan)))} above the sum of their own bounds` : gap;
  const known = complete ? '' : ' for the sizes known';
  if (proven && (plan.optimal || knownProof === 'lower-bound' || plan.gap <= 0)) return `optimal (proven)${known}`;
  const finished = plan.search?.stoppedBy === 'done' ? ': the search has nothing left to try, so a longer budget gives the same plan' : '';
  if (!proven) return `${gapWords}${known}, not proven optimal${cut ? ': the search stopped before a proof' : finished}`;
  if (plan.regions.length > 1 && (knownProof === 'region-bounds' || plan.regions.every((r) => r.optimal))) return `every region at its own bound (proven)${known}; the total is ${gap} of any split between regions`;
  return `${gapWords}; no placement of its buffers is lower (proven${known})`;
}

/** A gap as a percentage: two decimals under 1 %, one above. */
function percent(gap: number): string {
  return `${(gap * 100).toFixed(gap < 0.01 ? 2 : 1)} %`;
}
