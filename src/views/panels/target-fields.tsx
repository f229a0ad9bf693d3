// The target preset's main fields, editable: size limit and alignment of every
// memory region, fusion and compute units on/off, spilling along the memory map
// on/off, the dw-pw cache, the fusion SRAM, the execution order, where
// scratch goes and where weights and graph I/O are (so every suggestion's
// change shows here). A field is
// committed on Enter or when it loses focus; a value that makes no valid target
// shows an error naming the field, right under that field, and the plan on screen stays.

import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { exactBytesText } from '../../shared/byte-size';
import { formatCount } from '../../shared/format';
import { useActions, useAppStore } from '../../store/context';
import { parseBytesField } from '../../store/field-text';
import { IO_OWNERS, ORDER_POLICIES, readWeightsText, SCRATCH_PLACEMENTS } from '../../planner/explain/target-change';
import { TARGET_NAMES } from '../../settings/names';
import { editableTarget, fixedIoReason, hasComputeUnits, isEmptyEdits, regionField } from '../../settings/target';
import type { SettingsRefusal, TargetField } from '../../settings/types';
import type { RegionEdit, TargetEdits } from '../../worker/protocol';

/** The labels of the single bytes fields, which also open their error sentences. */
const CACHE_LABEL = 'dw-pw cache bytes';
const SRAM_LABEL = 'fusion SRAM bytes';
const CACHE_FIELD: TargetField = 'dwPwCacheBytes';
const SRAM_FIELD: TargetField = 'sramBytes';

/** The editable fields of the chosen preset. */
export function TargetFields() {
  const settings = useAppStore((s) => s.settings);
  const settingsError = useAppStore((s) => s.settingsError);
  const disabled = useAppStore((s) => s.task?.kind === 'open');
  const fixedIo = useAppStore((s) => fixedIoReason(s.settings.target, s.model?.inferred.format));
  const { setSettings } = useActions();
  const [localError, setLocalError] = useState<SettingsRefusal | undefined>(undefined);
  const errorId = useId();
  const error = localError ?? settingsError;
  // A new message is brought into the side bar's view, where the field that caused it is.
  useEffect(() => {
    if (error !== undefined) document.getElementById(errorId)?.scrollIntoView({ block: 'nearest' });
  }, [error, errorId]);
  if (!TARGET_NAMES.includes(settings.target)) return null;
  const edits: TargetEdits = settings.edits ?? {};
  const fields = editableTarget(settings.target, edits);
  const apply = (next: TargetEdits): void => {
    setLocalError(undefined);
    void setSettings({ edits: next });
  };
  const editRegion = (name: string, change: RegionEdit): void => apply({ ...edits, regions: { ...edits.regions, [name]: { ...edits.regions?.[name], ...change } } });
  // The message goes beside the field it names, so it shows where the value was typed; one naming no field shown goes below them all.
  const shownFields = [...fields.regions.flatMap((r) => [regionField(r.name, 'sizeLimit'), regionField(r.name, 'alignment')]), ...(fields.dwPwCacheBytes === undefined ? [] : [CACHE_FIELD]), ...(fields.sramBytes === undefined ? [] : [SRAM_FIELD])];
  const errorField = shownFields.find((field) => field === error?.field);
  const errorText = error === undefined ? undefined : (
    <p className="field-error" role="alert" id={errorId} data-testid="settings-error">
      {error.message}
    </p>
  );
  /** The bytes field `field`, labelled `label`: its text read as bytes goes to `onValue`, or its error to the panel. */
  const bytesField = (field: TargetField, label: string, optional: boolean, onValue: (value: number | undefined) => void) => ({
    label,
    disabled,
    describedBy: error === undefined || (errorField !== undefined && errorField !== field) ? undefined : errorId,
    invalid: errorField === field,
    onCommit: (text: string) => {
      const parsed = parseBytesField(label, text, optional);
      if (parsed.ok) onValue(parsed.value);
      else setLocalError({ message: parsed.error, field });
    },
  });
  return (
    <fieldset className="target-fields" data-testid="target-fields">
      <legend>Target fields</legend>
      <table className="region-fields">
        <thead>
          <tr>
            <th scope="col">Region</th>
            <th scope="col" className="region-limit">Size limit</th>
            <th scope="col" className="region-align">Alignment</th>
          </tr>
        </thead>
        <tbody>
          {fields.regions.map((r) => [
            <tr key={r.name}>
              <th scope="row" title={fields.regions.length < 2 ? `${r.name}: the target's memory` : r.fast ? `${r.name}: fast on-chip memory` : `${r.name}: slow memory`}>
                {r.name}
              </th>
              <td>
                <BytesInput
                  value={r.sizeLimit === undefined ? '' : exactBytesText(r.sizeLimit)}
                  title={r.sizeLimit === undefined ? 'no limit (empty)' : `${formatCount(r.sizeLimit)} bytes; type 512K or 512 KiB (1024), 500KB (1000), 4M`}
                  placeholder="no limit"
                  {...bytesField(regionField(r.name, 'sizeLimit'), `${r.name} size limit`, true, (v) => editRegion(r.name, { sizeLimit: v ?? 'none' }))}
                />
              </td>
              <td>
                <BytesInput
                  value={String(r.alignment)}
                  title="bytes, a power of two"
                  {...bytesField(regionField(r.name, 'alignment'), `${r.name} alignment`, false, (v) => editRegion(r.name, { alignment: v! }))}
                />
              </td>
            </tr>,
            (errorField === regionField(r.name, 'sizeLimit') || errorField === regionField(r.name, 'alignment')) && (
              <tr key={`${r.name}-error`} className="region-error">
                <td colSpan={3}>{errorText}</td>
              </tr>
            ),
          ])}
        </tbody>
      </table>
      {fields.dwPwCacheBytes !== undefined && (
        <LabelledBytes bytes={fields.dwPwCacheBytes} {...bytesField(CACHE_FIELD, CACHE_LABEL, false, (v) => apply({ ...edits, dwPwCacheBytes: v! }))} />
      )}
      {errorField === CACHE_FIELD && errorText}
      {fields.sramBytes !== undefined && (
        <LabelledBytes bytes={fields.sramBytes} {...bytesField(SRAM_FIELD, SRAM_LABEL, false, (v) => apply({ ...edits, sramBytes: v! }))} />
      )}
      {errorField === SRAM_FIELD && errorText}
      <ChoiceField
        label="execution order"
        value={fields.order}
        choices={ORDER_POLICIES}
        disabled={disabled}
        onChoose={(order) => apply(withChoice(edits, 'order', order, editableTarget(settings.target).order))}
      />
      {fields.scratchPlacement !== undefined && (
        <ChoiceField
          label="scratch placement"
          value={fields.scratchPlacement}
          choices={SCRATCH_PLACEMENTS}
          disabled={disabled}
          title="free-areas: scratch goes in the gaps the planned activations leave (M4), growing the heap where none fits; with-activations: planned together with them"
          onChoose={(placement) => apply(withChoice(edits, 'scratchPlacement', placement, editableTarget(settings.target).scratchPlacement))}
        />
      )}
      <ChoiceField
        label="weights"
        value={fields.weights}
        choices={fields.weightsChoices}
        labels={fields.weightsLabels}
        disabled={disabled}
        title="where the model's weights live: flash (counted against no region; on a host, which has no flash, outside the planned regions, loaded or mapped by the runtime), a RAM region, or copied to one at start; in a region they take its bytes below the arena (the CLI's --weights)"
        onChoose={(text) => apply(withWeights(edits, text, editableTarget(settings.target).weights))}
      />
      <ChoiceField
        label="graph I/O"
        value={fields.io}
        choices={IO_OWNERS}
        disabled={disabled}
        fixed={fixedIo}
        testId="io-field"
        title="arena: graph inputs and outputs are planned with the activations; application: the application owns their buffers, outside the arena (the CLI's --io). TensorFlow Lite Micro allocates them in its arena whatever this says"
        onChoose={(io) => apply(withChoice(edits, 'io', io, editableTarget(settings.target).io))}
      />
      <div className="target-switches">
        {fields.fusion !== undefined && (
          <Switch label="Fusion units" checked={fields.fusion} disabled={disabled} onChange={(on) => apply({ ...edits, fusion: on })} />
        )}
        {fields.spill !== undefined && (
          <Switch
            label="Spill to the next region"
            title="activations that do not fit the first region of the memory map go on to the next; off: all in the first (the CLI's --spill off)"
            checked={fields.spill === 'on'}
            disabled={disabled}
            onChange={(on) => apply(withChoice(edits, 'spill', on ? 'on' : 'off', editableTarget(settings.target).spill))}
          />
        )}
        {hasComputeUnits(settings.target) && (
          <Switch
            label={`Compute units (${fields.computeUnits.join(', ')})`}
            checked={edits.computeUnits !== false}
            disabled={disabled}
            onChange={(on) => apply({ ...edits, computeUnits: on ? undefined : false })}
          />
        )}
      </div>
      {errorField === undefined && errorText}
      {!isEmptyEdits(edits) && (
        <button type="button" className="button button-small" disabled={disabled} onClick={() => apply({})}>
          Reset to the {settings.target} preset
        </button>
      )}
    </fieldset>
  );
}

interface BytesInputProps {
  readonly id?: string; // when a visible <label> points at it
  readonly label: string; // the accessible name, also used in error sentences
  readonly value: string; // the committed value
  readonly title: string; // the value in words, shown on hover
  readonly placeholder?: string; // what an empty field means, for a field that may be left empty (a size limit: none)
  readonly disabled: boolean;
  readonly describedBy: string | undefined;
  readonly invalid: boolean; // the panel's error names this field
  readonly onCommit: (text: string) => void;
}

/** A text field committed on Enter or blur; Escape restores the committed value. */
function BytesInput({ id, label, value, title, placeholder, disabled, describedBy, invalid, onCommit }: BytesInputProps) {
  const [draft, setDraft] = useState<{ base: string; text: string }>({ base: value, text: value });
  const text = draft.base === value ? draft.text : value;
  // A refused field commits the value in force too, which takes its message back.
  const commit = (): void => {
    if (text !== value || invalid) onCommit(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') commit();
    else if (event.key === 'Escape') setDraft({ base: value, text: value });
  };
  return (
    <input
      id={id}
      className="input field-input"
      aria-label={id === undefined ? label : undefined}
      value={text}
      title={title}
      placeholder={placeholder}
      disabled={disabled}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onChange={(e) => setDraft({ base: value, text: e.target.value })}
      onBlur={commit}
      onKeyDown={onKeyDown}
    />
  );
}

/** A bytes field with a visible label, in the column of the single fields (the dw-pw cache, the fusion SRAM). */
function LabelledBytes({ bytes, ...field }: Omit<BytesInputProps, 'id' | 'value' | 'title'> & { readonly bytes: number }) {
  const id = useId();
  return (
    <div className="cache-field">
      <label htmlFor={id}>{field.label}</label>
      <BytesInput id={id} value={exactBytesText(bytes)} title={`${formatCount(bytes)} bytes`} {...field} />
    </div>
  );
}

interface SwitchProps {
  readonly label: string;
  readonly title?: string; // what the switch does, on hover
  readonly checked: boolean;
  readonly disabled: boolean;
  readonly onChange: (on: boolean) => void;
}

/** A labelled checkbox drawn as a switch. */
function Switch({ label, title, checked, disabled, onChange }: SwitchProps) {
  return (
    <label className="switch" title={title}>
      <input type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

interface ChoiceFieldProps<T extends string> {
  readonly label: string;
  readonly value: T;
  readonly choices: readonly T[];
  readonly labels?: Readonly<Record<string, string>>; // a choice's words where not the choice itself
  readonly disabled: boolean;
  readonly title?: string;
  readonly fixed?: string | undefined; // why no value can be chosen here: the field is disabled and says so
  readonly testId?: string;
  readonly onChoose: (value: T) => void;
}

/** A target field with a few named values (the execution order, the scratch placement). */
function ChoiceField<T extends string>({ label, value, choices, labels = {}, disabled, title, fixed, testId, onChoose }: ChoiceFieldProps<T>) {
  const id = useId();
  return (
    <div className="cache-field" data-testid={testId}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="input select"
        value={value}
        disabled={disabled || fixed !== undefined}
        title={title}
        aria-describedby={fixed === undefined ? undefined : `${id}-fixed`}
        onChange={(e) => onChoose(e.target.value as T)}
      >
        {choices.map((c) => (
          <option key={c} value={c}>
            {Object.hasOwn(labels, c) ? labels[c] : c}
          </option>
        ))}
      </select>
      {fixed !== undefined && (
        <p id={`${id}-fixed`} className="choice-fixed" data-testid="choice-fixed">
          {fixed}
        </p>
      )}
    </div>
  );
}

/** `edits` with `key` set to `value`, or without it when that is the preset's own value (the link then leaves it out). */
function withChoice<K extends 'order' | 'scratchPlacement' | 'spill' | 'io'>(edits: TargetEdits, key: K, value: NonNullable<TargetEdits[K]>, preset: TargetEdits[K]): TargetEdits {
  const { [key]: _old, ...rest } = edits;
  return value === preset ? rest : { ...rest, [key]: value };
}

/** `edits` with the weights placed as `text` says, or without the field when that is the preset's own place. */
function withWeights(edits: TargetEdits, text: string, preset: string): TargetEdits {
  const { weights: _old, ...rest } = edits;
  const weights = readWeightsText(text);
  return text === preset || weights === undefined ? rest : { ...rest, weights };
}
