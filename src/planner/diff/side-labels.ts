// Labels for the two sides of a comparison that say what differs between
// them: the model file, each dim, the target, fusion, the execution order,
// compute units, where scratch goes and the strategy; facts both sides share
// are left out.
// Depends only on the plan file type.

import type { PlanFile } from '../assembly/plan-file';

/** The facts a side is told apart by, in label order, by key. */
function factsOf(file: PlanFile): Map<string, string> {
  const profile = file.settings.targetProfile;
  const facts = new Map<string, string>([['model', file.model]]);
  for (const [name, value] of Object.entries(file.settings.dims)) facts.set(`dim:${name}`, `${name}=${value}`);
  facts.set('target', file.settings.target === 'custom' ? `${profile.name} (edited)` : file.settings.target);
  if (profile.fusion !== undefined) facts.set('fusion', profile.fusion.enabled ? 'fusion on' : 'fusion off');
  if (profile.fusion !== undefined) facts.set('sram', `SRAM ${profile.fusion.sramBytes} B`);
  facts.set('order', `${profile.planning.order} order`);
  facts.set('units', profile.computeUnits.length > 1 ? `compute units ${profile.computeUnits.map((u) => u.name).join('+')}` : 'one compute unit');
  if (profile.scratch.rules.length > 0) facts.set('scratch', profile.scratch.placement === 'with-activations' ? 'scratch with activations' : 'scratch in free areas');
  facts.set('strategy', file.plan.strategy);
  return facts;
}

/**
 * Labels for A and B naming only what differs ("seq_len=16" and
 * "seq_len=512"; "fusion on" and "fusion off"); both are the model's name
 * when nothing does. A fact one side lacks says so in words: a dim bound on
 * one side only reads "NAME default" on the other; fusion, its SRAM and
 * scratch rules a target lacks read "no fusion", "no fusion SRAM", "no
 * scratch rules".
 */
export function sideLabels(a: PlanFile, b: PlanFile): [string, string] {
  return differingLabels(a, b, () => true) ?? [a.model, b.model];
}

/** The facts that come from the target profile: the preset and the fields a user can edit. */
const TARGET_FACTS: ReadonlySet<string> = new Set(['target', 'fusion', 'sram', 'order', 'units', 'scratch']);

/**
 * Labels naming only the target facts that differ ("mcu · scratch in free
 * areas" and "mcu · scratch with activations": an edited field, where the
 * preset's name alone would read the same on both sides); undefined when
 * the targets agree on every one.
 */
export function targetLabels(a: PlanFile, b: PlanFile): [string, string] | undefined {
  const labels = differingLabels(a, b, (k) => TARGET_FACTS.has(k) && k !== 'target');
  if (labels === undefined) return differingLabels(a, b, (k) => k === 'target');
  const [ta, tb] = [factsOf(a).get('target')!, factsOf(b).get('target')!];
  return [`${ta} · ${labels[0]}`, `${tb} · ${labels[1]}`];
}

function differingLabels(a: PlanFile, b: PlanFile, kept: (key: string) => boolean): [string, string] | undefined {
  const [fa, fb] = [factsOf(a), factsOf(b)];
  const keys = [...new Set([...fa.keys(), ...fb.keys()])];
  const differ = keys.filter((k) => kept(k) && fa.get(k) !== fb.get(k));
  if (differ.length === 0) return undefined;
  const label = (facts: Map<string, string>) => differ.map((k) => facts.get(k) ?? absent(k)).join(' · ');
  return [label(fa), label(fb)];
}

/** The label of fact `key` on the side that lacks it. */
function absent(key: string): string {
  if (key.startsWith('dim:')) return `${key.slice('dim:'.length)} default`;
  return ABSENT[key] ?? `no ${key}`;
}

const ABSENT: Readonly<Record<string, string>> = { fusion: 'no fusion', sram: 'no fusion SRAM', scratch: 'no scratch rules' };
