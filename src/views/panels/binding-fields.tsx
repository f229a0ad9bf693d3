// Fields that bind what the file leaves open: a tensor's shape, a graph input's
// value, the default dims. Each is a small form committed with Enter or its
// button; text that is not a value shows a message naming the field, and the
// plan on screen stays. Used by the assumptions banner, the selection details
// and the side bar.

import { useId, useState, type FormEvent } from 'react';
import type { DimAssumption } from '../../planner/plan';
import { shownDimLabel } from '../../store/assumptions';
import { useActions, useAppStore } from '../../store/context';
import { parseShapeField, parseValuesField, type NumbersField } from '../../store/field-text';
import './binding-fields.css';
import { ownValue } from '../../shared/own';
import { booleanText } from '../../shared/input-words';
import { shortName, titleText } from '../../shared/short-name';
import { fixedShapesReason, inputValueField, shapeField, type BindingField } from '../../store/bindings';
import { derivedFrom, dimsToBind, initialDraft, typeDim, type DimsDraft } from './dims-draft';

/** Props of the single-value fields. */
interface FieldProps {
  readonly autoFocus?: boolean;
  readonly compact?: boolean; // label above the input, for narrow places
}

/** A shape override for tensor `tensor`; `inferred` is shown as the placeholder. */
export function ShapeField({ tensor, inferred, ...props }: FieldProps & { readonly tensor: string; readonly inferred?: readonly number[] | undefined }) {
  const { setShape } = useActions();
  const given = useAppStore((s) => ownValue(s.shapes, tensor));
  const fixed = useAppStore((s) => fixedShapesReason(s.model?.inferred.format));
  const label = `Shape of "${shortName(tensor)}"`;
  return (
    <NumbersForm
      {...props}
      fixed={fixed}
      testId="shape-field"
      name={tensor}
      field={shapeField(tensor)}
      label={label}
      initial={given === undefined ? '' : given.join('x')}
      placeholder={inferred === undefined ? 'e.g. 1x3x224x224' : inferred.join('x') || 'scalar'}
      parse={(text) => parseShapeField(label, text)}
      onValue={(dims) => void setShape(tensor, dims)}
      canClear={given !== undefined}
    />
  );
}

/** A value for graph input `input`, e.g. the sample rate an If's condition reads. */
export function InputValueField({ input, ...props }: FieldProps & { readonly input: string }) {
  const { setInputValue } = useActions();
  const given = useAppStore((s) => ownValue(s.inputValues, input));
  // a bool (an If's condition) is typed as true or false, as its hint says
  const bool = useAppStore((s) => s.model?.inferred.values.find((v) => v.name === input)?.dtypeName === 'bool');
  const label = `Value of "${shortName(input)}"`;
  return (
    <NumbersForm
      {...props}
      testId="input-value-field"
      name={input}
      field={inputValueField(input)}
      label={label}
      initial={given === undefined ? '' : bool ? given.map(booleanText).join(', ') : given.join(', ')}
      placeholder={bool ? 'true or false' : 'e.g. 16000'}
      parse={(text) => parseValuesField(label, text, bool)}
      onValue={(values) => void setInputValue(input, values)}
      canClear={given !== undefined}
    />
  );
}

interface NumbersFormProps extends FieldProps {
  readonly testId: string;
  readonly name: string; // what the field binds, for tests (data-name)
  readonly field: BindingField; // the id a refusal of the store names this field by
  readonly label: string;
  readonly initial: string;
  readonly placeholder: string;
  readonly parse: (text: string) => NumbersField;
  readonly onValue: (value: number[] | undefined) => void;
  readonly canClear: boolean;
  readonly fixed?: string | undefined; // why no value can be given here: the field is disabled and says so
}

/** One labelled text field with Apply (and Clear when a value is given) and its error. */
function NumbersForm({ testId, name, field, label, initial, placeholder, parse, onValue, canClear, fixed, autoFocus, compact }: NumbersFormProps) {
  const busy = useAppStore((s) => s.task?.kind === 'open');
  const bindingError = useAppStore((s) => s.bindingError);
  const [text, setText] = useState(initial);
  const [synced, setSynced] = useState(initial);
  const [error, setError] = useState<string | undefined>(undefined);
  if (synced !== initial) {
    // The value given changed elsewhere (another field, a reset, a failed re-inference).
    setSynced(initial);
    setText(initial);
  }
  const id = useId();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const parsed = parse(text);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(undefined);
    onValue(parsed.value);
  };
  // A refusal is shown beside the field it names by id, whatever its sentence says.
  const shown = error ?? (bindingError?.field === field ? bindingError.message : undefined);
  return (
    <form className={`binding-field${compact ? ' binding-field-compact' : ''}`} onSubmit={submit} data-testid={testId} data-name={name}>
      <label htmlFor={id} className="binding-label" title={titleText(label)}>
        {label}
      </label>
      <span className="binding-row">
        <input
          id={id}
          className="input binding-input mono"
          value={text}
          placeholder={placeholder}
          disabled={busy || fixed !== undefined}
          autoFocus={autoFocus}
          aria-invalid={shown !== undefined}
          aria-describedby={shown !== undefined ? `${id}-error` : fixed !== undefined ? `${id}-fixed` : undefined}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button button-small" disabled={busy || fixed !== undefined}>
          Apply
        </button>
        {canClear && (
          <button type="button" className="button button-small" disabled={busy} onClick={() => onValue(undefined)} title="Forget the given value">
            Clear
          </button>
        )}
      </span>
      {fixed !== undefined && (
        <p id={`${id}-fixed`} className="binding-fixed" data-testid="binding-fixed">
          {fixed}
        </p>
      )}
      {shown !== undefined && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid="binding-error">
          {shown}
        </p>
      )}
    </form>
  );
}

/**
 * Inputs for the default dims a plan assumes, labelled by input axis; a total
 * length follows the sequence and past as they are typed, and Apply binds every
 * field as shown, defaults left alone too (dims-draft.ts).
 */
export function DimsFields({ dims, autoFocus }: { readonly dims: readonly DimAssumption[]; readonly autoFocus?: boolean }) {
  const { setDim } = useActions();
  const busy = useAppStore((s) => s.task?.kind === 'open');
  const [draft, setDraft] = useState<DimsDraft>(() => initialDraft(dims));
  const [error, setError] = useState<string | undefined>(undefined);
  const baseId = useId();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const chosen = dimsToBind(dims, draft);
    const bad = chosen.find(([, text]) => !/^\d{1,10}$/.test(text) || Number(text) > 2 ** 31 - 1);
    if (bad !== undefined) {
      setError(`${shownDimLabel(bad[0])} must be a whole number from 0 up, got "${bad[1]}"`);
      return;
    }
    setError(undefined);
    // Each setDim reads the bindings the one before it set, so the last re-inference has them all.
    for (const [d, text] of chosen) void setDim(d.name, Number(text));
  };
  return (
    <form className="binding-dims" onSubmit={submit} data-testid="banner-dims">
      {dims.map((d, k) => (
        <span key={d.name} className="binding-dim">
          <label htmlFor={`${baseId}-${k}`} title={titleText(`${d.name}: ${d.rule}${derivedFrom(dims, d) === undefined ? '' : ` (follows ${derivedFrom(dims, d)} until you change it)`}`)}>
            {shownDimLabel(d)}
          </label>
          <input
            id={`${baseId}-${k}`}
            className="input binding-dim-input"
            type="number"
            min={0}
            step={1}
            value={ownValue(draft.values, d.name) ?? ''}
            disabled={busy}
            autoFocus={autoFocus === true && k === 0}
            data-dim={d.name}
            data-changed={draft.changed.has(d.name)}
            onChange={(event) => setDraft(typeDim(dims, draft, d.name, event.target.value))}
          />
        </span>
      ))}
      <button type="submit" className="button button-small" disabled={busy}>
        Apply
      </button>
      {error !== undefined && (
        <p className="field-error" role="alert" data-testid="binding-error">
          {error}
        </p>
      )}
    </form>
  );
}
