// The side bar's Compare panel: B is the shown model with other dims, target,
// strategy or fusion (the form starts from the shown settings), or another
// file (a model, planned with the shown settings, or a saved plan); a saved
// plan can also be opened on its own. The result shows in CompareDialog.

import { useId, useState, type FormEvent } from 'react';
import { useActions, useAppStore } from '../../store/context';
import { STRATEGY_CHOICES, TARGET_NAMES, defaultStrategyOf } from '../../settings/names';
import { editableTarget } from '../../settings/target';
import type { PlanSettings } from '../../worker/protocol';
import { Panel } from '../panels/panel';
import { FileButton } from '../file-button';
import { useCompare, useCompareActions } from './use-compare';
import './compare.css';
import { ownValue } from '../../shared/own';
import { shortName, titleText } from '../../shared/short-name';

/** The panel; nothing without a model. */
export function ComparePanel() {
  const model = useAppStore((s) => s.model);
  const settings = useAppStore((s) => s.settings);
  if (model === undefined) return null;
  // A new model or new settings start the form again from what is shown.
  return <CompareForm key={`${model.name}:${JSON.stringify(settings)}:${model.inferred.dims.map((d) => d.value).join(',')}`} />;
}

function CompareForm() {
  const dims = useAppStore((s) => s.model?.inferred.dims) ?? [];
  const shown = useAppStore((s) => s.settings);
  const planned = useAppStore((s) => s.model?.plan.status === 'planned');
  const busy = useCompare((s) => s.busy);
  const { compareShownWith } = useCompareActions();
  const [draftDims, setDraftDims] = useState<Record<string, string>>(() => Object.fromEntries(dims.map((d) => [d.name, String(d.value)])));
  const [target, setTarget] = useState(shown.target);
  const [strategy, setStrategy] = useState(shown.strategy ?? '');
  const [fusion, setFusion] = useState<boolean | undefined>(() => fusionOf(shown));
  const baseId = useId();
  const canFuse = fusionOf({ target, strategy: undefined }) !== undefined;
  const badDim = Object.entries(draftDims).find(([, text]) => !/^\d+$/.test(text.trim()));

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    if (badDim !== undefined) return;
    const changedDims = Object.fromEntries(dims.filter((d) => Number(ownValue(draftDims, d.name)) !== d.value).map((d) => [d.name, Number(ownValue(draftDims, d.name))]));
    // The shown edits carry over to the same target; fusion is an edit only when it differs from the preset.
    const { fusion: _shownFusion, ...kept } = target === shown.target ? (shown.edits ?? {}) : {};
    const preset = fusionOf({ target, strategy: undefined });
    const edits = canFuse && fusion !== undefined && fusion !== preset ? { ...kept, fusion } : kept;
    const next: PlanSettings = { target, strategy: strategy === '' ? undefined : strategy, edits: Object.keys(edits).length > 0 ? edits : undefined };
    void compareShownWith({ dims: changedDims, settings: next });
  };

  return (
    <Panel title="Compare" testId="compare-panel">
      <form onSubmit={onSubmit} aria-label="Plan B: this model with other settings">
        <p className="muted tool-note">A is the plan on screen. B is this model with:</p>
        <div className="tool-grid">
          {dims.map((d) => (
            <DimField key={d.name} id={`${baseId}-dim-${d.name}`} name={d.name} value={ownValue(draftDims, d.name) ?? ''} onChange={(v) => setDraftDims((old) => ({ ...old, [d.name]: v }))} />
          ))}
          <label htmlFor={`${baseId}-target`}>target</label>
          <select id={`${baseId}-target`} className="input select" value={target} onChange={(e) => setTarget(e.target.value)} data-testid="compare-target">
            {TARGET_NAMES.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
          <label htmlFor={`${baseId}-strategy`}>strategy</label>
          <select id={`${baseId}-strategy`} className="input select" value={strategy} onChange={(e) => setStrategy(e.target.value)} data-testid="compare-strategy">
            <option value="">{defaultStrategyOf(target) === undefined ? 'target default' : `${defaultStrategyOf(target)} (default)`}</option>
            {STRATEGY_CHOICES.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
          {canFuse && (
            <>
              <label htmlFor={`${baseId}-fusion`}>fusion</label>
              <input
                id={`${baseId}-fusion`}
                type="checkbox"
                checked={fusion ?? fusionOf({ target, strategy: undefined }) ?? false}
                onChange={(e) => setFusion(e.target.checked)}
                data-testid="compare-fusion"
              />
            </>
          )}
        </div>
        <div className="tool-actions">
          <button type="submit" className="button button-small button-primary" disabled={!planned || busy !== undefined || badDim !== undefined} aria-label="Compare A with plan B" data-testid="compare-run">
            Compare
          </button>
          <FileButtons />
        </div>
      </form>
      {badDim && <p className="tool-error">{badDim[0]} must be a whole number, got "{badDim[1]}"</p>}
      <CompareStatus />
    </Panel>
  );
}

/**
 * B from a file (a model or a saved plan), and a saved plan on its own. As a
 * file opened on the page does, a file picked here takes the place of an older
 * file's error in the page's banner: its own outcome is told beside the buttons.
 */
function FileButtons() {
  const { compareShownWithFile, openSavedPlan } = useCompareActions();
  const { dismissError } = useActions();
  return (
    <>
      <FileButton
        accept=".onnx,.ort,.tflite,.json,application/json,application/octet-stream"
        onFile={(file) => {
          dismissError();
          void compareShownWithFile(file, file.name);
        }}
        className="button button-small"
        testId="compare-file"
      >
        Compare with a file…
      </FileButton>
      <FileButton
        accept=".json,application/json"
        onFile={(file) => {
          dismissError();
          void openSavedPlan(file, file.name);
        }}
        className="button button-small"
        testId="open-saved-plan"
      >
        Open a saved plan…
      </FileButton>
    </>
  );
}

/** What the comparison is doing, or why it failed. */
function CompareStatus() {
  const busy = useCompare((s) => s.busy);
  const error = useCompare((s) => s.error);
  return (
    <>
      {busy && (
        <p className="muted tool-note" role="status" data-testid="compare-busy">
          {busy.label}
          {busy.fraction === undefined ? '…' : ` · ${Math.round(busy.fraction * 100)}%`}
        </p>
      )}
      {error && (
        <p className="tool-error" role="alert" data-testid="compare-error">
          {error}
        </p>
      )}
    </>
  );
}

function DimField({ id, name, value, onChange }: { id: string; name: string; value: string; onChange: (value: string) => void }) {
  return (
    <>
      <label htmlFor={id} title={titleText(name)}>
        {shortName(name, 200, 'middle')}
      </label>
      <input id={id} className="input" inputMode="numeric" value={value} onChange={(e) => onChange(e.target.value)} data-testid="compare-dim" data-dim={name} aria-invalid={!/^\d+$/.test(value.trim())} />
    </>
  );
}

/** Whether `settings` plan with fusion; undefined when the target has no fusion settings. */
function fusionOf(settings: PlanSettings): boolean | undefined {
  try {
    return editableTarget(settings.target, settings.edits).fusion;
  } catch {
    return undefined;
  }
}
