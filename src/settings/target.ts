// The target profile a plan is made for: a preset with the page's edits of its
// main fields (region sizes and alignment, fusion and compute units on/off, the
// dw-pw cache, the fusion SRAM, the execution order, the scratch placement,
// spilling along the memory map on/off, where weights and graph I/O are),
// checked field by field and then by the profile parser. No DOM.

import { applyTargetChange, IO_OWNERS, ORDER_POLICIES, SPILL_MODES, weightsText, type TargetChange } from '../planner/explain/target-change';
import { memoryMapOf } from '../planner/spill/memory-map';
import { presetTarget } from '../planner/targets/presets';
import { type IoOwner, type OrderPolicy, type ScratchPlacement, type SpillMode, type TargetProfile } from '../planner/targets/target';
import { parseTarget } from '../planner/targets/parse';
import { InputError } from '../shared/errors';
import type { ModelFormat } from '../model/ir';
import { TFLM_IO_IN_ARENA_NOTE } from '../planner/tflm/arena-io';
import type { PlanSettings, RegionEdit, TargetEdits, TargetField } from './types';

/**
 * Whether `settings` plan for a runtime that allocates the shapes a file
 * states (TensorFlow Lite Micro): a .tflite is then inferred with its file's
 * shapes, dims given or not. False for settings that do not resolve (the plan
 * reports why).
 */
export function plansFileShapes(settings: PlanSettings): boolean {
  try {
    return targetForSettings(settings).planning.runtime === 'tflm';
  } catch {
    return false;
  }
}

/** The fields of a preset the settings panel offers. */
export interface EditableTarget {
  readonly regions: readonly { readonly name: string; readonly sizeLimit: number | undefined; readonly alignment: number; readonly fast: boolean }[];
  readonly fusion: boolean | undefined; // undefined: the preset has no fusion settings
  readonly computeUnits: readonly string[]; // unit names; switching off needs more than one or a restricted one
  readonly dwPwCacheBytes: number | undefined; // undefined: the preset has no dw-pw cache
  readonly sramBytes: number | undefined; // fusion SRAM; undefined: the preset has no fusion settings
  readonly order: OrderPolicy; // execution-order policy
  readonly scratchPlacement: ScratchPlacement | undefined; // undefined: the preset has no scratch rules
  readonly spill: SpillMode | undefined; // undefined: the preset's memory map has one region, so nothing can spill
  readonly weights: string; // where weights live, as --weights takes it: flash, REGION or copy-to:REGION
  readonly weightsChoices: readonly string[]; // flash, then every region and every copy-to:REGION (but TensorFlow Lite Micro's tensor arena)
  readonly weightsLabels: Readonly<Record<string, string>>; // a choice's words where not the choice itself: 'flash' on a host, which has none
  readonly io: IoOwner; // who owns graph inputs and outputs
}

/** What the settings panel shows for preset `name` under `edits`. */
export function editableTarget(name: string, edits: TargetEdits = {}): EditableTarget {
  const preset = presetTarget(name);
  // TensorFlow Lite Micro never reads weights from its tensor arena
  const weightRegions = preset.regions.filter((r) => preset.planning.runtime !== 'tflm' || r.name !== preset.planning.activationRegion);
  return {
    regions: preset.regions.map((r) => {
      const edit = edits.regions?.[r.name];
      const limit = edit?.sizeLimit ?? r.sizeLimit;
      return { name: r.name, sizeLimit: limit === 'none' ? undefined : limit, alignment: edit?.alignment ?? r.alignment, fast: r.fast };
    }),
    fusion: preset.fusion === undefined ? undefined : (edits.fusion ?? preset.fusion.enabled),
    computeUnits: preset.computeUnits.map((u) => u.name),
    dwPwCacheBytes: preset.fusion?.dwPwCacheBytes === undefined ? undefined : (edits.dwPwCacheBytes ?? preset.fusion.dwPwCacheBytes),
    sramBytes: preset.fusion === undefined ? undefined : (edits.sramBytes ?? preset.fusion.sramBytes),
    order: edits.order ?? preset.planning.order,
    scratchPlacement: preset.scratch.rules.length === 0 ? undefined : (edits.scratchPlacement ?? preset.scratch.placement),
    spill: hasMemoryMap(preset) ? (edits.spill ?? preset.planning.spill ?? 'on') : undefined,
    weights: weightsText(edits.weights ?? preset.planning.weights ?? { copied: false }),
    weightsChoices: ['flash', ...weightRegions.map((r) => r.name), ...weightRegions.map((r) => `copy-to:${r.name}`)],
    // 'flash' (--weights flash) is in no region: on a host, outside the planned regions, where the runtime loads them
    weightsLabels: preset.planning.weightsHome === 'runtime' ? { flash: 'runtime' } : {},
    io: edits.io ?? preset.planning.io ?? 'arena',
  };
}

/** True when activations of `target` may take more than one region, so switching spilling off can change the plan. */
function hasMemoryMap(target: TargetProfile): boolean {
  return memoryMapOf(target).length > 1;
}

/** True when the preset's compute units partition the graph, so switching them off changes the plan. */
export function hasComputeUnits(name: string): boolean {
  const units = presetTarget(name).computeUnits;
  return units.length > 1 || units.some((u) => !u.opTypes.includes('*'));
}

/**
 * Why graph I/O cannot be given to the application on preset `name` for a model
 * in `format`, or undefined when it can: TensorFlow Lite Micro allocates a
 * .tflite model's inputs and outputs in its arena whatever `io` says.
 */
export function fixedIoReason(name: string, format: ModelFormat | undefined): string | undefined {
  if (format !== 'tflite' || presetTarget(name).planning.runtime !== 'tflm') return undefined;
  return `${TFLM_IO_IN_ARENA_NOTE} whatever this says, so graph I/O stays there on this target (another target lets the application own it)`;
}

/**
 * The profile of `settings`: its preset with its edits. Throws InputError('bad-target')
 * naming the field as the settings panel labels it, e.g. "sram alignment must be a
 * power of two, got 48".
 */
export function targetForSettings(settings: PlanSettings): TargetProfile {
  const preset = presetTarget(settings.target);
  const edits = settings.edits;
  if (edits === undefined || isEmptyEdits(edits)) return preset;
  checkEdits(preset, edits);
  // the fields the CLI can change too go through the one function both use; region edits are the page's own
  const withRegions = { ...preset, regions: preset.regions.map((r) => editedRegion(r, edits.regions?.[r.name])) };
  const doc = applyTargetChange(withRegions, targetChangeOf(edits));
  try {
    return parseTarget(doc);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError('bad-target', error.message.replace(/^regions\[(\d+)\]\.(\w+)/, (_, i: string, field: string) => `${preset.regions[Number(i)]?.name ?? `region ${i}`} ${field}`), editedField(preset, error.field));
  }
}

/** The edited field that profile path `path` (as parseTarget names it: 'regions[0].alignment', 'fusion.sramBytes') comes from, if any. */
function editedField(preset: TargetProfile, path: string | undefined): TargetField | undefined {
  const region = /^regions\[(\d+)\]\.(sizeLimit|alignment)$/.exec(path ?? '');
  const name = region === null ? undefined : preset.regions[Number(region[1])]?.name;
  if (region !== null) return name === undefined ? undefined : regionField(name, region[2] as keyof RegionEdit);
  return path === 'fusion.sramBytes' ? 'sramBytes' : path === 'fusion.dwPwCacheBytes' ? 'dwPwCacheBytes' : undefined;
}

/** The field of region `name`'s size limit or alignment, as a refusal names it. */
export function regionField(name: string, part: keyof RegionEdit): TargetField {
  return `regions.${name}.${part}`;
}

/** True when `edits` changes nothing. */
export function isEmptyEdits(edits: TargetEdits): boolean {
  const regions = Object.values(edits.regions ?? {}).filter((r) => r.alignment !== undefined || r.sizeLimit !== undefined);
  const fields = [edits.fusion, edits.computeUnits, edits.dwPwCacheBytes, edits.sramBytes, edits.order, edits.scratchPlacement, edits.spill, edits.weights, edits.io];
  return regions.length === 0 && fields.every((f) => f === undefined);
}

/** The edits of fields a CLI option also changes (--order, --fusion, --compute-units, --sram, --dw-pw-cache, --scratch-placement, --spill): all but the regions, under the same names. */
function targetChangeOf(edits: TargetEdits): TargetChange {
  const { regions: _regions, computeUnits, ...same } = edits;
  return { ...same, ...(computeUnits === false && { computeUnits: 'off' as const }) };
}

function editedRegion<R extends { readonly name: string; readonly sizeLimit?: number; readonly alignment: number }>(region: R, edit: RegionEdit | undefined): R {
  if (edit === undefined) return region;
  const { sizeLimit: _old, ...rest } = region;
  const limit = edit.sizeLimit ?? region.sizeLimit;
  return { ...rest, ...(limit !== undefined && limit !== 'none' && { sizeLimit: limit }), alignment: edit.alignment ?? region.alignment } as R;
}

function checkEdits(preset: TargetProfile, edits: TargetEdits): void {
  for (const [name, edit] of Object.entries(edits.regions ?? {})) {
    if (!preset.regions.some((r) => r.name === name)) {
      throw new InputError('bad-target', `target ${preset.name} has no region "${name}" (regions: ${preset.regions.map((r) => r.name).join(', ')})`);
    }
    const { alignment, sizeLimit } = edit;
    if (alignment !== undefined && !(Number.isSafeInteger(alignment) && alignment > 0 && (alignment & (alignment - 1)) === 0)) {
      throw new InputError('bad-target', `${name} alignment must be a power of two, got ${alignment}`, regionField(name, 'alignment'));
    }
    if (sizeLimit !== undefined && sizeLimit !== 'none' && !(Number.isSafeInteger(sizeLimit) && sizeLimit > 0)) {
      throw new InputError('bad-target', `${name} size limit must be a whole number of bytes above 0, got ${sizeLimit}`, regionField(name, 'sizeLimit'));
    }
  }
  if (edits.fusion !== undefined && preset.fusion === undefined) throw new InputError('bad-target', `target ${preset.name} has no fusion settings to switch`);
  const cache = edits.dwPwCacheBytes;
  if (cache !== undefined) {
    if (preset.fusion?.dwPwCacheBytes === undefined) throw new InputError('bad-target', `target ${preset.name} has no dw-pw cache`);
    if (!(Number.isSafeInteger(cache) && cache > 0)) throw new InputError('bad-target', `dw-pw cache bytes must be a whole number of bytes above 0, got ${cache}`, 'dwPwCacheBytes');
  }
  const sram = edits.sramBytes;
  if (sram !== undefined) {
    if (preset.fusion === undefined) throw new InputError('bad-target', `target ${preset.name} has no fusion SRAM`);
    if (!(Number.isSafeInteger(sram) && sram > 0)) throw new InputError('bad-target', `fusion SRAM bytes must be a whole number of bytes above 0, got ${sram}`, 'sramBytes');
  }
  if (edits.spill !== undefined) {
    if (!SPILL_MODES.includes(edits.spill)) throw new InputError('bad-target', `spill must be one of ${SPILL_MODES.join(', ')}, got "${String(edits.spill)}"`);
    if (!hasMemoryMap(preset)) throw new InputError('bad-target', `target ${preset.name} has one activation region, no memory map to spill along`);
  }
  if (edits.io !== undefined && !IO_OWNERS.includes(edits.io)) throw new InputError('bad-target', `graph I/O must be one of ${IO_OWNERS.join(', ')}, got "${String(edits.io)}"`);
  if (edits.order !== undefined && !ORDER_POLICIES.includes(edits.order)) {
    throw new InputError('bad-target', `execution order must be one of ${ORDER_POLICIES.join(', ')}, got "${String(edits.order)}"`);
  }
}
