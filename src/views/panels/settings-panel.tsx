// The plan settings: target preset, strategy, search budget and the preset's main fields. A change re-plans the shown
// model in the worker (no re-decoding, no re-inference); the views update when
// the new plan arrives.

import { useId } from 'react';
import { useActions, useAppStore } from '../../store/context';
import { selectPlan } from '../../store/selectors';
import { peakText } from '../plan-words';
import { RegionsPeakNote } from '../regions-peak-note';
import { STRATEGY_CHOICES, TARGET_NAMES, defaultStrategyOf } from '../../settings/names';
import { Panel } from './panel';
import { BudgetField, PlanProof } from './search-budget';
import { TargetFields } from './target-fields';

/** Target, strategy and budget selects, and the plan's time and proof. */
export function SettingsPanel() {
  const settings = useAppStore((s) => s.settings);
  const hasModel = useAppStore((s) => s.model !== undefined);
  const opening = useAppStore((s) => s.task?.kind === 'open');
  const plan = useAppStore(selectPlan);
  const complete = useAppStore((s) => {
    const shown = selectPlan(s);
    return shown === undefined || s.model === undefined || shown.complete;
  });
  const planMs = useAppStore((s) => (s.model?.plan.status === 'planned' ? s.model.plan.ms : undefined));
  const { setSettings } = useActions();
  const targetId = useId();
  const strategyId = useId();
  if (!hasModel) return null;
  const fallback = defaultStrategyOf(settings.target);
  return (
    <Panel title="Plan settings" testId="settings-panel">
      <div className="settings">
        <label htmlFor={targetId}>Target</label>
        <select
          id={targetId}
          className="input select"
          value={settings.target}
          disabled={opening}
          onChange={(e) => void setSettings({ target: e.target.value })}
          data-testid="target-select"
        >
          {TARGET_NAMES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
          {!TARGET_NAMES.includes(settings.target) && <option value={settings.target}>{settings.target} (unknown)</option>}
        </select>
        <label htmlFor={strategyId}>Strategy</label>
        <select
          id={strategyId}
          className="input select"
          value={settings.strategy ?? ''}
          disabled={opening}
          onChange={(e) => void setSettings({ strategy: e.target.value === '' ? undefined : e.target.value })}
          data-testid="strategy-select"
          title={settings.strategy === undefined ? `the target's default strategy: ${fallback ?? 'unknown'}` : undefined}
        >
          {/* the strategy first: a narrow side bar cuts the end of the words, never what the plan uses */}
          <option value="">{fallback ? `${fallback} (default)` : 'target default'}</option>
          {STRATEGY_CHOICES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <BudgetField disabled={opening} />
      </div>
      <TargetFields />
      {plan && (
        <p className="settings-note muted" data-testid="plan-note">
          {plan.strategy} on {plan.target}: {peakText(plan.peak, complete)} peak
          <RegionsPeakNote plan={plan} complete={complete} />, {plan.buffers.length.toLocaleString('en-US')} buffers
          {planMs === undefined ? '' : `, planned in ${planMs < 10 ? planMs.toFixed(1) : Math.round(planMs)} ms`}; <PlanProof plan={plan} complete={complete} />
        </p>
      )}
    </Panel>
  );
}
