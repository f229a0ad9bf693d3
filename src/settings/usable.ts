// The part of plan settings from outside the page's own fields (a link) that
// makes a plan: an unknown target or strategy is left out, and each target
// field edit is kept or left out on its own, so one bad value does not cost
// the rest. Depends only on the settings layer.

import { InputError } from '../shared/errors';
import { DEFAULT_SETTINGS, isBudgetMs, STRATEGY_CHOICES, TARGET_NAMES } from './names';
import { targetForSettings } from './target';
import type { PlanSettings, SettingsRefusal, TargetEdits, TargetField } from './types';

/** A part of the wanted settings that was left out, and why. */
export interface LeftOut {
  readonly part: Partial<PlanSettings>; // one setting: a target, a strategy, a budget or one field edit
  readonly reason: string;
}

/** What `usableSettings` keeps and leaves out. */
export interface UsableSettings {
  readonly settings: Partial<PlanSettings>; // the wanted settings that make a plan; a left-out target is absent
  readonly leftOut: readonly LeftOut[]; // in the order checked: target, strategy, budget, then the field edits
}

/**
 * The settings of `wanted` that make a plan: the target when it is a preset,
 * the strategy when it is one, the budget when the planner takes it, and each
 * field edit that the target (the wanted one, or the default when that was
 * left out) takes with the edits kept before it.
 */
export function usableSettings(wanted: Partial<PlanSettings>): UsableSettings {
  const leftOut: LeftOut[] = [];
  const kept: { -readonly [K in keyof PlanSettings]?: PlanSettings[K] } = {};
  if (wanted.target !== undefined) {
    if (TARGET_NAMES.includes(wanted.target)) kept.target = wanted.target;
    else leftOut.push({ part: { target: wanted.target }, reason: `unknown target preset "${wanted.target}" (presets: ${TARGET_NAMES.join(', ')})` });
  }
  if (wanted.strategy !== undefined) {
    if (STRATEGY_CHOICES.includes(wanted.strategy)) kept.strategy = wanted.strategy;
    else leftOut.push({ part: { strategy: wanted.strategy }, reason: `unknown strategy "${wanted.strategy}" (strategies: ${STRATEGY_CHOICES.join(', ')})` });
  }
  if (wanted.budgetMs !== undefined) {
    const refused = settingsProblem({ ...DEFAULT_SETTINGS, budgetMs: wanted.budgetMs });
    if (refused === undefined) kept.budgetMs = wanted.budgetMs;
    else leftOut.push({ part: { budgetMs: wanted.budgetMs }, reason: refused.message });
  }
  const target = kept.target ?? DEFAULT_SETTINGS.target;
  let edits: TargetEdits = {};
  for (const part of editParts(wanted.edits ?? {})) {
    const next = mergedEdits(edits, part);
    const refused = settingsProblem({ target, strategy: undefined, edits: next });
    if (refused === undefined) edits = next;
    else leftOut.push({ part: { edits: part }, reason: refused.message });
  }
  if (Object.keys(edits).length > 0) kept.edits = edits;
  return { settings: kept, leftOut };
}

/** `edits` as one edit per field: a region's limit and alignment apart. */
function editParts(edits: TargetEdits): TargetEdits[] {
  const parts: TargetEdits[] = [];
  for (const [name, edit] of Object.entries(edits.regions ?? {})) {
    if (edit.sizeLimit !== undefined) parts.push({ regions: Object.fromEntries([[name, { sizeLimit: edit.sizeLimit }]]) });
    if (edit.alignment !== undefined) parts.push({ regions: Object.fromEntries([[name, { alignment: edit.alignment }]]) });
  }
  for (const [field, value] of Object.entries(edits)) {
    if (field !== 'regions' && value !== undefined) parts.push(Object.fromEntries([[field, value]]) as TargetEdits);
  }
  return parts;
}

/** `a` with the fields of `b` added; a region edited in both keeps both fields. */
function mergedEdits(a: TargetEdits, b: TargetEdits): TargetEdits {
  if (b.regions === undefined) return { ...a, ...b };
  const regions = new Map(Object.entries(a.regions ?? {}));
  for (const [name, edit] of Object.entries(b.regions)) regions.set(name, { ...regions.get(name), ...edit });
  return { ...a, regions: Object.fromEntries(regions) };
}

/** Why `settings` make no plan (a search budget the planner does not take, or edits the target refuses), or undefined when they do. */
export function settingsProblem(settings: PlanSettings): SettingsRefusal | undefined {
  if (settings.budgetMs !== undefined && !isBudgetMs(settings.budgetMs)) {
    return { message: `the search budget must be a positive whole number of milliseconds, got ${settings.budgetMs}` };
  }
  if (settings.edits === undefined) return undefined;
  try {
    targetForSettings(settings);
    return undefined;
  } catch (error) {
    if (error instanceof InputError) return refusalOf(error);
    throw error;
  }
}

/** The refusal an error of the target's fields makes: its sentence, and the field it names when that is a TargetField. */
export function refusalOf(error: { readonly message: string; readonly field?: string }): SettingsRefusal {
  // a path of another document (a profile's 'regions[0].alignment') names no field of the panel
  return { message: error.message, ...(error.field !== undefined && isTargetField(error.field) && { field: error.field }) };
}

/** Every TargetField outside the regions, as a set the type keeps complete. */
const EDIT_FIELDS: Readonly<Record<Exclude<keyof TargetEdits, 'regions'>, true>> = {
  fusion: true,
  computeUnits: true,
  dwPwCacheBytes: true,
  sramBytes: true,
  order: true,
  scratchPlacement: true,
  spill: true,
  weights: true,
  io: true,
};

/** True when `field` is the id of a target field the page edits ('regions.sram.alignment', 'sramBytes'). */
export function isTargetField(field: string): field is TargetField {
  return /^regions\..+\.(sizeLimit|alignment)$/.test(field) || Object.hasOwn(EDIT_FIELDS, field);
}
