// The symbolic dims of the model: one labelled number input per dim, named by
// the input axes it sizes (a long name wraps; one past 200 characters is cut,
// with the full text on hover), with its
// current value, whether it is a default and the rule that chose it. A change
// re-infers in the worker.

import { useId, useState } from 'react';
import type { DimBinding } from '../../model/inferred';
import { dimLabel, shownDimLabel } from '../../store/assumptions';
import { useActions, useAppStore } from '../../store/context';
import { ownValue } from '../../shared/own';
import { titleText } from '../../shared/short-name';
import { Panel } from './panel';

/** Inputs for the shown model's symbolic dims. */
export function DimsPanel() {
  const dims = useAppStore((s) => s.model?.inferred.dims);
  const opening = useAppStore((s) => s.task?.kind === 'open');
  if (dims === undefined) return null;
  return (
    <Panel title="Symbolic dims" count={dims.length} testId="dims-panel">
      {dims.length === 0 ? (
        <p className="muted">Every dim of this model is fixed.</p>
      ) : (
        <ul className="dims">
          {dims.map((dim) => (
            <DimInput key={dim.name} dim={dim} disabled={opening} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** One dim: label, number input, default/set badge, reset. */
function DimInput({ dim, disabled }: { dim: DimBinding; disabled: boolean }) {
  const { setDim } = useActions();
  // The value asked for: the user's binding while its re-inference runs, else the model's.
  // Own keys only: a dim named "constructor" must not read Object.prototype's (a function made this re-render forever).
  const expected = useAppStore((s) => ownValue(s.dims, dim.name)) ?? dim.value;
  const [draft, setDraft] = useState(String(expected));
  const [synced, setSynced] = useState(expected);
  if (synced !== expected) {
    setSynced(expected);
    setDraft(String(expected));
  }
  const id = useId();
  const label = dimLabel(dim);
  const valid = isDimText(draft);
  const notSet = dim.source !== 'user'; // a default, or a length the dims set fix: nothing to reset
  const commit = (text: string): void => {
    setDraft(text);
    if (isDimText(text) && Number(text) !== expected) void setDim(dim.name, Number(text));
  };
  return (
    <li className="dim" data-testid="dim" data-dim={dim.name}>
      <label className="dim-name" htmlFor={id} title={titleText(dim.rule ? `${dim.name}: ${dim.rule}` : dim.name)}>
        {shownDimLabel(dim)}
      </label>
      <input
        id={id}
        className="input dim-input"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={draft}
        disabled={disabled}
        aria-invalid={!valid}
        aria-describedby={valid ? `${id}-state` : `${id}-state ${id}-error`}
        onChange={(event) => commit(event.target.value)}
        onBlur={() => !valid && setDraft(String(expected))}
      />
      <span id={`${id}-state`} className={`tag ${dim.source === 'user' ? 'tag-accent' : 'tag-muted'}`} data-testid="dim-source" title={dim.source === 'derived' ? titleText(dim.rule) : undefined}>
        {dim.source === 'user' ? 'set' : dim.source === 'derived' ? 'from set' : 'default'}
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={`Reset ${titleText(label)} to its default`}
        title="Reset to default"
        disabled={notSet || disabled}
        onClick={() => void setDim(dim.name, undefined)}
      >
        <svg viewBox="0 0 16 16" aria-hidden="true">
          <path d="M3.5 8a4.5 4.5 0 1 0 1.4-3.3M3.5 2.5v2.7h2.7" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {!valid && (
        // Said in words, as the command line says it: a red outline alone left the old plan on screen without a reason.
        <p id={`${id}-error`} className="dim-error" role="alert" data-testid="dim-error">
          {draft.trim() === '' ? 'Type' : `${titleText(draft)} is not`} a whole number from 0 to {MAX_DIM.toLocaleString('en-US')}; the plan keeps {expected.toLocaleString('en-US')}.
        </p>
      )}
    </li>
  );
}

/** The largest value a dim takes. */
const MAX_DIM = 2 ** 31 - 1;

/** True for the text of a whole number from 0 to MAX_DIM. */
function isDimText(text: string): boolean {
  return /^\d{1,10}$/.test(text) && Number(text) <= MAX_DIM;
}
