// The suggestions of the plan on screen: asked of the worker once the plan is
// shown (so the plan never waits for them), again for every new plan; their
// progress and answer go to the `suggestions` slice.

import type { StoreApi } from 'zustand/vanilla';
import type { Suggestion } from '../planner/plan';
import type { ModelClient } from '../worker/client';
import type { StateAccess } from './model-loader';
import type { AppState, SuggestionsState } from './state';

/** The suggestions of the plan on screen, if they were asked for. */
export function currentSuggestions(state: AppState): SuggestionsState | undefined {
  const s = state.suggestions;
  const plan = state.model?.plan;
  return s !== undefined && plan?.status === 'planned' && s.plan === plan.plan ? s : undefined;
}

/**
 * The suggestions of the plan on screen once the worker has evaluated them
 * (waiting while it runs); undefined when they are not known: the evaluation
 * failed, was not asked for, or the plan on screen changed meanwhile.
 */
export function settledSuggestions(store: StoreApi<AppState>): Promise<readonly Suggestion[] | undefined> {
  const plan = store.getState().model?.plan;
  const settled = (state: AppState): { done: boolean; list?: readonly Suggestion[] } => {
    if (state.model?.plan !== plan) return { done: true };
    const s = currentSuggestions(state);
    return s?.status === 'running' ? { done: false } : { done: true, ...(s?.status === 'done' && { list: s.list }) };
  };
  const now = settled(store.getState());
  if (now.done) return Promise.resolve(now.list);
  return new Promise((resolve) => {
    const stop = store.subscribe((state) => {
      const next = settled(state);
      if (!next.done) return;
      stop();
      resolve(next.list);
    });
  });
}

/** Why the plan on screen has no suggestions to save once `settledSuggestions` gave none: the worker's failure, or an evaluation that did not finish. */
export function suggestionsMissing(state: AppState): string {
  const s = currentSuggestions(state);
  return s?.status === 'failed' && s.error !== undefined ? `their evaluation failed: ${s.error.message}` : 'their evaluation did not finish';
}

/** Starts the evaluation of suggestions when the plan on screen needs one. */
export class SuggestionEvaluator {
  constructor(
    private readonly state: StateAccess,
    private readonly client: ModelClient,
  ) {}

  /** Asks the worker for the suggestions of the plan on screen, unless they are asked for already or a task runs. */
  async refresh(): Promise<void> {
    const { model, task, suggestions } = this.state.get();
    if (model === undefined || task !== undefined || model.plan.status !== 'planned') return;
    const { plan, settings } = model.plan;
    if (suggestions?.plan === plan && suggestions.status !== 'failed') return;
    const base: SuggestionsState = { plan, status: 'running', list: [], progress: { fraction: 0, label: 'Evaluating suggestions' }, error: undefined };
    this.state.set({ suggestions: base });
    const isMine = (): boolean => this.state.get().suggestions?.plan === plan;
    const outcome = await this.client.suggest(settings, (fraction, label) => {
      if (isMine()) this.state.set({ suggestions: { ...base, progress: { fraction, label } } });
    });
    if (!isMine()) return;
    if (outcome.status === 'cancelled') this.state.set({ suggestions: undefined });
    else if (outcome.status === 'failed') this.state.set({ suggestions: { ...base, status: 'failed', progress: undefined, error: outcome.error } });
    else this.state.set({ suggestions: { ...base, status: 'done', progress: undefined, list: outcome.result.suggestions } });
  }
}
