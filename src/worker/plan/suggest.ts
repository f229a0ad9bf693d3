// The suggestions of a plan on screen, evaluated after it: the steps that
// planWithSuggestionSteps returned run one at a time with a yield between them,
// so a newer plan can run (and drop them) and the page sees progress. Runs in
// the worker; no DOM.

import type { InferredModel } from '../../model/inferred';
import { rankSuggestions, type Suggestion, type SuggestionStep } from '../../planner/plan';
import { SUGGEST_LABEL, type PlanSettings } from '../protocol';

/** The last plan the worker made for the page, with the steps that evaluate its suggestions. */
export interface LastPlan {
  readonly model: InferredModel; // the inference it planned
  readonly key: string; // planKey of its settings
  readonly steps: readonly SuggestionStep[];
}

/** What runSuggestionSteps needs from the handler. */
export interface StepRunner {
  /** Resolves after messages already queued had a chance to arrive. */
  readonly yieldToQueue: () => Promise<void>;
  /** False once a newer request made the answer unwanted. */
  readonly live: () => boolean;
  /** Reports how far the evaluation is. */
  readonly progress: (fraction: number, label: string) => void;
}

/**
 * Runs every step and ranks what they find (as `plan --json` lists them);
 * undefined when the runner stopped being live between steps.
 */
export async function runSuggestionSteps(steps: readonly SuggestionStep[], runner: StepRunner): Promise<Suggestion[] | undefined> {
  const found: Suggestion[] = [];
  for (const [k, step] of steps.entries()) {
    await runner.yieldToQueue();
    if (!runner.live()) return undefined;
    runner.progress(k / steps.length, `${SUGGEST_LABEL}: ${step.label} (${k + 1} of ${steps.length})`);
    found.push(...step.run());
  }
  await runner.yieldToQueue();
  return runner.live() ? rankSuggestions(found) : undefined;
}

/** The key of the settings a plan was made for: equal keys make the same plan of the same model. */
export function planKey(settings: PlanSettings): string {
  return JSON.stringify([settings.target, settings.strategy ?? null, settings.edits ?? {}, settings.budgetMs ?? null]);
}
