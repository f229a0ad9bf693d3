// Names and titles of the exports of one plan: file names start with the
// model's name without its extension, its target and strategy and the user's
// dims, then what the file holds ("sample.cpu.best.batch-4.plan.json",
// "person.tflm.best.planned.tflite"), so the exports of two targets never
// overwrite each other; drawings carry a title
// in human units naming the model, target and strategy, the dims, shapes
// and input values the user gave and the default dims the plan assumes, so a
// pasted image keeps them. A comparison's sides
// are saved under the same names with the side added.

import { formatBytes } from '../../shared/format';
import { withRegionsPeak } from '../plan-words';
import { nullRecord, ownValue } from '../../shared/own';
import type { PlanFile } from '../../planner/assembly/plan-file';
import type { PlanAssumptions } from '../../planner/plan-types';
import type { DimAssumption } from '../../planner/assembly/assumptions';
import { shapeText, valuesText } from '../../planner/diff/input-changes';

/** What names a plan besides its model and dims. */
export interface PlanNaming {
  readonly target: string;
  readonly strategy: string;
  readonly peak: number; // bytes
  readonly lowerBound: number; // bytes
  readonly complete: boolean; // false: some sizes are unknown, the peak is a lower estimate
  readonly regions?: readonly { readonly name: string; readonly peak: number }[]; // each memory's own peak: a peak of several is named their sum
  readonly assumptions?: Partial<Pick<PlanAssumptions, 'dims' | 'shapes' | 'inputValues'>>; // what the plan was made with; the user's part is named in titles
}

/** The stem of every export of `model` planned with `dims` (and on `plan`'s target with its strategy): "model.target.strategy.dim-value". */
export function exportStem(model: string, dims: Readonly<Record<string, number>>, plan?: Pick<PlanNaming, 'target' | 'strategy'>): string {
  const base = model.split(/[\\/]/).pop()!.replace(/\.(onnx|ort|tflite|json)$/i, '') || 'model';
  const parts = Object.keys(dims)
    .sort()
    .map((name) => `${name}-${ownValue(dims, name)}`);
  const planParts = plan === undefined ? [] : [plan.target, plan.strategy];
  return [base, ...planParts, ...parts].join('.').replace(/[^\w.-]+/g, '_');
}

/** The name the model is saved under with its plan written in as TFLite Micro's offline plan: "person.tflm.best.planned.tflite". */
export function plannedTfliteName(model: string, dims: Readonly<Record<string, number>>, plan: Pick<PlanNaming, 'target' | 'strategy'>): string {
  return `${exportStem(model, dims, plan)}.planned.tflite`;
}

/** What names a side of a comparison: its model, every dim it was planned with, its target and strategy, and which dims the user gave. */
export interface SideNaming {
  readonly model: string;
  readonly settings: Pick<PlanFile['settings'], 'dims'>;
  readonly plan: Pick<PlanNaming, 'target' | 'strategy'> & { readonly assumptions?: { readonly dims?: readonly Pick<DimAssumption, 'name' | 'value' | 'bound' | 'derived'>[] } };
}

/**
 * The name side `side` of a comparison is saved under as a plan file: "sample.cpu.best.batch-4.b.plan.json"; a plan
 * shown alone, no side of a comparison (`side` undefined), has none: "sample.cpu.best.batch-4.plan.json". With the
 * dims the user gave, as Export names the same plan (a plan file records every dim, defaults too; one saved before it
 * recorded which were given is named by all of them).
 */
export function sidePlanFileName(side: 'a' | 'b' | undefined, file: SideNaming): string {
  const dims = file.plan.assumptions?.dims;
  const given = dims === undefined ? file.settings.dims : nullRecord(dims.filter((d) => d.bound && d.derived !== true).map((d) => [d.name, d.value] as const));
  return `${exportStem(file.model, given, file.plan)}${side === undefined ? '' : `.${side}`}.plan.json`;
}

/**
 * The title of a drawing of `plan`: "net.onnx · peak 1.5 MiB · lower bound
 * 1.2 MiB · best on cpu", then the dims the user bound, the default dims the
 * plan assumes ("assumes seq_len=128 (default)", as the page's banner and the
 * C header state them), shapes and input values given ("past_seq_len=64",
 * "data_0=1×3×256×256").
 */
export function exportTitle(model: string, plan: PlanNaming): string {
  const estimate = !plan.complete;
  const peak = withRegionsPeak(`peak ${estimate ? 'at least ' : ''}${formatBytes(plan.peak)}${estimate ? ' (lower estimate: some sizes are unknown)' : ''}`, plan.regions && { regions: plan.regions }, plan.complete);
  return [`${model} · ${peak} · lower bound ${formatBytes(plan.lowerBound)} · ${plan.strategy} on ${plan.target}`, ...givenParts(plan.assumptions)].join(' · ');
}

/**
 * "past_seq_len=64", "assumes seq_len=128 (default)", "data_0=1×3×256×256", "rate=[16000]": what the plan
 * was made with, dims the user bound, the defaults it rests on (one part), then shapes, then input values, each
 * by name (as the file name and the link list dims), so the same plan gets the same title.
 */
function givenParts(given: PlanNaming['assumptions']): string[] {
  if (given === undefined) return [];
  const byName = <T extends { readonly name: string }>(list: readonly T[]): T[] => [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const dims = byName((given.dims ?? []).filter((d) => d.bound)).map((d) => `${d.name}=${d.value}`);
  const defaults = byName((given.dims ?? []).filter((d) => !d.bound)).map((d) => `${d.name}=${d.value}`);
  const assumed = defaults.length === 0 ? [] : [`assumes ${defaults.join(', ')} (default${defaults.length > 1 ? 's' : ''})`];
  const shapes = byName(Object.entries(given.shapes ?? {}).map(([name, shape]) => ({ name, shape }))).map(({ name, shape }) => `${name}=${shapeText(shape)}`);
  const values = byName(Object.entries(given.inputValues ?? {}).map(([name, v]) => ({ name, v }))).map(({ name, v }) => `${name}=${valuesText(v)}`);
  return [...dims, ...assumed, ...shapes, ...values];
}
