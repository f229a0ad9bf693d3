// The symbolic dims of the model: one labelled number input per dim, named by
// the input axes it sizes (a long name wraps; one past 200 characters is cut,
// with the full text on hover), with its
// current value, whether it is a default and the rule that chose it. A value
// is planned on Enter or when the field loses focus, as the target's fields
// are; a step of the arrow keys or the spin buttons at once. A value that is no
// dim is refused in words and the plan keeps its value; Escape restores it.

import { useId, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import type { DimBinding } from '../../model/inferred';
import { dimLabel, shownDimLabel } from '../../store/assumptions';
import { useActions, useAppStore } from '../../store/context';
import { MAX_DIM } from '../../store/dim-params';
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
  // Set when Enter or leaving the field refused the text: its message stays until the text is a dim again.
  const [refused, setRefused] = useState(false);
  const [synced, setSynced] = useState(expected);
  if (synced !== expected) {
    setSynced(expected);
    setDraft(String(expected));
    setRefused(false);
  }
  const id = useId();
  const label = dimLabel(dim);
  const invalid = refused && !isDimText(draft);
  const notSet = dim.source !== 'user'; // a default, or a length the dims set fix: nothing to reset
  const commit = (text: string): void => {
    if (!isDimText(text)) return setRefused(true);
    setRefused(false);
    setDraft(String(Number(text)));
    if (Number(text) !== expected) void setDim(dim.name, Number(text));
  };
  const onChange = (event: ChangeEvent<HTMLInputElement>): void => {
    const text = event.target.value;
    setDraft(text);
    // Typing is planned on Enter (1024 typed planned 1, 10, 102 and 1024); a step of the arrow keys,
    // the spin buttons or the wheel is no text edit (it has no inputType) and gives a whole value, planned at once.
    if (!(event.nativeEvent as InputEvent).inputType) commit(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') commit(draft);
    else if (event.key === 'Escape' && (draft !== String(expected) || refused)) {
      // Only the field's edit is undone: the Escape does not also close what holds the field.
      event.stopPropagation();
      setDraft(String(expected));
      setRefused(false);
    }
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
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-state ${id}-error` : `${id}-state`}
        onChange={onChange}
        onKeyDown={onKeyDown}
        onBlur={() => commit(draft)}
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
      {invalid && (
        // Said in words, as the command line says it: a red outline alone left the old plan on screen without a reason.
        <p id={`${id}-error`} className="dim-error" role="alert" data-testid="dim-error">
          {draft.trim() === '' ? 'Type' : `${titleText(draft)} is not`} a whole number from 0 to {MAX_DIM.toLocaleString('en-US')}; the plan keeps {expected.toLocaleString('en-US')}.
        </p>
      )}
    </li>
  );
}

/** True for the text of a whole number from 0 to MAX_DIM. */
function isDimText(text: string): boolean {
  return /^\d{1,10}$/.test(text) && Number(text) <= MAX_DIM;
}
