// The strategy comparison of the shown model: asked of the worker once a plan is
// on screen, again only when the model or the target changes (a strategy change
// does not change it); its progress and answer go to the `comparison` slice.

import type { ModelClient } from '../worker/client';
import type { PlanSettings } from '../worker/protocol';
import type { StateAccess } from './model-loader';
import type { AppState, ComparisonState } from './state';

/** What the comparison depends on besides the model: the target and its edits, not the strategy. */
export function targetKey(settings: PlanSettings): string {
  return JSON.stringify([settings.target, settings.edits ?? {}]);
}

/** The comparison of the shown model and target, if one was asked for. */
export function currentComparison(state: AppState): ComparisonState | undefined {
  const c = state.comparison;
  const model = state.model;
  if (c === undefined || model === undefined || c.model !== model.inferred) return undefined;
  return model.plan.status === 'planned' && c.key === targetKey(model.plan.settings) ? c : undefined;
}

/** Starts comparisons when the shown plan needs one. */
export class StrategyComparer {
  constructor(
    private readonly state: StateAccess,
    private readonly client: ModelClient,
  ) {}

  /** Asks the worker to compare strategies for the plan on screen, unless it is already compared or a task runs. */
  async refresh(): Promise<void> {
    const { model, task, comparison } = this.state.get();
    if (model === undefined || task !== undefined || model.plan.status !== 'planned') return;
    const settings = model.plan.settings;
    const key = targetKey(settings);
    if (comparison !== undefined && comparison.model === model.inferred && comparison.key === key && comparison.status !== 'failed') return;
    const base: ComparisonState = { model: model.inferred, key, status: 'running', peaks: [], progress: { fraction: 0, label: 'Comparing strategies' }, error: undefined };
    this.state.set({ comparison: base });
    const isMine = (): boolean => this.state.get().comparison?.model === base.model && this.state.get().comparison?.key === key;
    const outcome = await this.client.compare({ ...settings, strategy: undefined }, (fraction, label) => {
      if (isMine()) this.state.set({ comparison: { ...base, progress: { fraction, label } } });
    });
    if (!isMine()) return;
    if (outcome.status === 'cancelled') this.state.set({ comparison: undefined });
    else if (outcome.status === 'failed') this.state.set({ comparison: { ...base, status: 'failed', progress: undefined, error: outcome.error } });
    else this.state.set({ comparison: { ...base, status: 'done', progress: undefined, peaks: outcome.result.peaks } });
  }
}
