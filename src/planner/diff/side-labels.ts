// Labels for the two sides of a comparison that say what differs between
// them: the model file, each dim, each shape override and input value, the target, fusion, the execution order,
// compute units, where scratch goes, the spill, where weights and graph I/O live, and the strategy; facts both sides share
// are left out.
// Depends only on the plan file type.

import type { PlanFile } from '../assembly/plan-file';
import { inputValues, shapeLabel, shapeOverrides, valueLabel } from './input-changes';
import { editedFieldsOnly } from './target-fields';

/**
 * The facts a side is told apart by, in label order, by key; `plain`: an
 * edited preset is named as the preset, its edits being named fields that
 * the other facts name.
 */
function factsOf(file: PlanFile, plain = false): Map<string, string> {
  const profile = file.settings.targetProfile;
  const facts = new Map<string, string>([['model', file.model]]);
  for (const [name, value] of Object.entries(file.settings.dims)) facts.set(`dim:${name}`, `${name}=${value}`);
  for (const name of Object.keys(shapeOverrides(file) ?? {})) facts.set(`shape:${name}`, shapeLabel(file, name));
  for (const name of Object.keys(inputValues(file) ?? {})) facts.set(`input:${name}`, valueLabel(file, name));
  facts.set('target', file.settings.target !== 'custom' ? file.settings.target : plain ? profile.name : `${profile.name} (edited)`);
  if (profile.fusion !== undefined) facts.set('fusion', profile.fusion.enabled ? 'fusion on' : 'fusion off');
  if (profile.fusion !== undefined) facts.set('sram', `SRAM ${profile.fusion.sramBytes} B`);
  facts.set('order', `${profile.planning.order} order`);
  facts.set('units', profile.computeUnits.length > 1 ? `compute units ${profile.computeUnits.map((u) => u.name).join('+')}` : 'one compute unit');
  if (profile.scratch.rules.length > 0) facts.set('scratch', profile.scratch.placement === 'with-activations' ? 'scratch with activations' : 'scratch in free areas');
  facts.set('spill', profile.planning.spill === 'off' ? 'spill off' : 'spill on');
  const weights = profile.planning.weights;
  facts.set('weights', weights?.region === undefined ? (profile.planning.weightsHome === 'runtime' ? 'weights outside the regions' : 'weights in flash') : `weights ${weights.copied ? 'copied to' : 'in'} ${weights.region}`);
  // where the plan put graph I/O (TFLite Micro keeps it in its arena whatever was asked); an older file says only what was asked
  const io = file.plan.storage?.io.owner ?? profile.planning.io;
  facts.set('io', io === 'application' ? 'I/O owned by the application' : 'I/O in the arena');
  facts.set('strategy', file.plan.strategy);
  return facts;
}

/**
 * Labels for A and B naming only what differs ("seq_len=16" and
 * "seq_len=512"; "fusion on" and "fusion off"; "data_0=1×3×224×224" and
 * "data_0=1×3×1024×1024"); both are the model's name when nothing does. A
 * fact one side lacks says so in words: a dim bound on one side only reads
 * "NAME default" on the other, unless that side's model has no such dim (another
 * model: each side names only its own dims); a shape given on one side only
 * reads the shape the other was planned with ("NAME as declared" when its
 * file does not say); an input value "NAME not given"; fusion, its SRAM and
 * scratch rules a target lacks read "no fusion", "no fusion SRAM", "no
 * scratch rules".
 */
export function sideLabels(a: PlanFile, b: PlanFile): [string, string] {
  return differingLabels(a, b, () => true) ?? [a.model, b.model];
}

/** The facts that come from the target profile: the preset and the fields a user can edit. */
const TARGET_FACTS: ReadonlySet<string> = new Set(['target', 'fusion', 'sram', 'order', 'units', 'scratch', 'spill', 'weights', 'io']);

/**
 * Labels naming only the target facts that differ ("mcu · scratch in free
 * areas" and "mcu · scratch with activations": an edited field, where the
 * preset's name alone would read the same on both sides); undefined when
 * the targets agree on every one.
 */
export function targetLabels(a: PlanFile, b: PlanFile): [string, string] | undefined {
  const labels = differingLabels(a, b, (k) => TARGET_FACTS.has(k) && k !== 'target');
  if (labels === undefined) return differingLabels(a, b, (k) => k === 'target');
  const plain = editedFieldsOnly(a, b);
  const [ta, tb] = [factsOf(a, plain).get('target')!, factsOf(b, plain).get('target')!];
  return [`${ta} · ${labels[0]}`, `${tb} · ${labels[1]}`];
}

function differingLabels(a: PlanFile, b: PlanFile, kept: (key: string) => boolean): [string, string] | undefined {
  const plain = editedFieldsOnly(a, b);
  const [fa, fb] = [factsOf(a, plain), factsOf(b, plain)];
  const keys = [...new Set([...fa.keys(), ...fb.keys()])];
  const text = (facts: Map<string, string>, file: PlanFile, other: PlanFile, k: string) => facts.get(k) ?? absent(k, file, other);
  // weights in no region differ only in words between a microcontroller (flash) and a host (the runtime's): the same placement
  const same = (k: string) => (k === 'weights' ? weightsKey(a) === weightsKey(b) : text(fa, a, b, k) === text(fb, b, a, k));
  const differ = keys.filter((k) => kept(k) && !same(k));
  if (differ.length === 0) return undefined;
  const label = (facts: Map<string, string>, file: PlanFile, other: PlanFile) =>
    differ.flatMap((k) => {
      const fact = text(facts, file, other, k);
      return fact === undefined ? [] : [fact];
    }).join(' · ');
  return [label(fa, a, b), label(fb, b, a)];
}

/** The label of fact `key` on the side (`file`) that lacks it; undefined when the side has no such thing to name. */
function absent(key: string, file: PlanFile, other: PlanFile): string | undefined {
  const [kind, name] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  if (kind === 'dim') return hasNoDim(file, other, name) ? undefined : `${name} default`;
  if (kind === 'shape') return shapeLabel(file, name);
  if (kind === 'input') return valueLabel(file, name);
  return ABSENT[key] ?? `no ${key}`;
}

/**
 * True when `file`'s model has no dim `name`: the two sides are different
 * models, or the plan lists every dim it rests on and not this one.
 */
function hasNoDim(file: PlanFile, other: PlanFile, name: string): boolean {
  if (file.model !== other.model) return true;
  const recorded = file.plan.assumptions?.dims;
  return Array.isArray(recorded) && recorded.length > 0 && !recorded.some((d) => d.name === name);
}

const ABSENT: Readonly<Record<string, string>> = { fusion: 'no fusion', sram: 'no fusion SRAM', scratch: 'no scratch rules' };

/** Where a side places its weights, apart from how its target words weights in no region. */
function weightsKey(file: PlanFile): string {
  const w = file.settings.targetProfile.planning.weights;
  return w?.region === undefined ? '' : `${w.copied ? 'copy-to:' : ''}${w.region}`;
}
