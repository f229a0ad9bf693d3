// The target fields a user edits by name (the fields of explain/target-change.ts:
// fusion, its SRAM, the execution order, compute units, where scratch goes,
// the spill, where weights and graph I/O live) that differ between two plans,
// in words: "scratch placement changed (free areas → with activations)".
// Depends only on the plan file and target types.

import { formatBytes } from '../../shared/format';
import type { PlanFile } from '../assembly/plan-file';
import type { TargetProfile } from '../targets/target';

/** One named field: what it is called and its value on a side (undefined: the target has no such field). */
interface NamedField {
  readonly name: string;
  readonly value: (file: PlanFile) => string | undefined;
}

const profileOf = (file: PlanFile) => file.settings.targetProfile;

const FIELDS: readonly NamedField[] = [
  { name: 'fusion', value: (f) => (profileOf(f).fusion === undefined ? undefined : profileOf(f).fusion!.enabled ? 'on' : 'off') },
  { name: 'fusion SRAM', value: (f) => (profileOf(f).fusion === undefined ? undefined : formatBytes(profileOf(f).fusion!.sramBytes)) },
  { name: 'execution order', value: (f) => profileOf(f).planning.order },
  { name: 'compute units', value: (f) => (profileOf(f).computeUnits.length > 1 ? profileOf(f).computeUnits.map((u) => u.name).join('+') : 'one unit') },
  { name: 'scratch placement', value: (f) => (profileOf(f).scratch.rules.length === 0 ? undefined : profileOf(f).scratch.placement === 'with-activations' ? 'with activations' : 'free areas') },
  { name: 'spill', value: (f) => (profileOf(f).planning.spill === 'off' ? 'off' : 'on') },
  { name: 'weights', value: (f) => weightsValue(profileOf(f)) },
  // where the plan put graph I/O (TFLite Micro keeps it in its arena whatever was asked)
  { name: 'graph I/O', value: (f) => ((f.plan.storage?.io.owner ?? profileOf(f).planning.io) === 'application' ? 'owned by the application' : 'in the arena') },
];

function weightsValue(profile: TargetProfile): string {
  const weights = profile.planning.weights;
  if (weights?.region === undefined) return profile.planning.weightsHome === 'runtime' ? 'outside the regions' : 'in flash';
  return `${weights.copied ? 'copied to' : 'in'} ${weights.region}`;
}

/**
 * The named fields that differ, "scratch placement changed (free areas →
 * with activations)", when the two targets are one preset with only those
 * edited (a preset on one side and the same preset edited on the other
 * included); undefined when the targets differ otherwise (another preset, a
 * region's size) or in no named field.
 */
export function targetFieldChanges(a: PlanFile, b: PlanFile): string[] | undefined {
  if (!editedFieldsOnly(a, b)) return undefined;
  const changes = FIELDS.flatMap((field) => {
    const [va, vb] = [field.value(a), field.value(b)];
    return va === vb ? [] : [`${field.name} changed (${va ?? 'none'} → ${vb ?? 'none'})`];
  });
  return changes.length === 0 ? undefined : changes;
}

/**
 * True when the two targets are the same preset (by profile name) and their
 * profiles agree in everything but the named fields: an edited side's label
 * then says what was edited, and "(edited)" adds nothing.
 */
export function editedFieldsOnly(a: PlanFile, b: PlanFile): boolean {
  const [pa, pb] = [profileOf(a), profileOf(b)];
  if (pa.name !== pb.name) return false;
  const presetA = a.settings.target === 'custom' ? pa.name : a.settings.target;
  const presetB = b.settings.target === 'custom' ? pb.name : b.settings.target;
  if (presetA !== presetB) return false;
  const units = pa.computeUnits.length > 1 && pb.computeUnits.length > 1;
  return stableJson(unnamedFields(pa, units)) === stableJson(unnamedFields(pb, units));
}

/** A profile without its named fields (compute units kept when `units`: both sides have several, and their details count). */
function unnamedFields(profile: TargetProfile, units: boolean): unknown {
  const { computeUnits, scratch, planning, fusion, ...rest } = profile;
  const { placement: _placement, ...scratchRest } = scratch;
  const { order: _order, spill: _spill, weights: _weights, io: _io, ...planningRest } = planning;
  const fusionRest = fusion === undefined ? undefined : (({ enabled: _enabled, sramBytes: _sram, ...r }) => r)(fusion);
  return { ...rest, scratch: scratchRest, planning: planningRest, fusion: fusionRest, ...(units && { computeUnits }) };
}

/** JSON with object keys sorted, so two equal profiles read the same whatever order their fields were written in. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => x.localeCompare(y))) : v,
  );
}
