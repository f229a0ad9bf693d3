// `diff` of a saved plan against a model: the model is planned with the
// settings the plan file records (its target profile as saved, strategy, the
// dims, shapes and input values given), so a budget is judged where the saved
// plan was made; a setting the command line gives wins for that setting.

import { decodeModel } from '../src/model/decode-model';
import { dimByKey } from '../src/model/infer/dims';
import { inferShapes } from '../src/model/infer/shapes';
import type { InferredModel } from '../src/model/inferred';
import { toPlanFile, type PlanFile } from '../src/planner/assembly/plan-file';
import { inputValues, shapeText, valuesText, shapeOverrides } from '../src/planner/diff/input-changes';
import { applyTargetChange, readTargetChange } from '../src/planner/explain/target-change';
import { planModel } from '../src/planner/plan';
import { isStrategyName } from '../src/planner/strategies/strategy-names';
import { PRESETS } from '../src/planner/targets/presets';
import { nullRecord, ownValue } from '../src/shared/own';
import { resolveTarget, targetSettingName } from './targets';

/** How one side is planned when it is a model. */
export interface SideOptions {
  readonly dims: Readonly<Record<string, number>>;
  readonly dimOptions?: Readonly<Record<string, string>>; // the option that gave a dim, where not --dim (side b's --b-dim), as diagnostics name it
  readonly shapes: Readonly<Record<string, readonly number[]>>; // --shape, both sides
  readonly inputValues: Readonly<Record<string, readonly number[]>>; // --input, both sides
  readonly strategy: string | undefined;
  readonly target: string | undefined;
  readonly memoryMap: Readonly<Record<string, string | undefined>>; // --spill, --weights, --io by option name (explain/target-change.ts)
  readonly given: readonly string[]; // the options that set these, to name them in errors
  readonly budgetMs?: number; // --budget-ms: best's searches stop by the clock instead of counted work
}

/** What a model side took from the saved plan on the other side (`diff --json`: `savedSettings`). */
export interface SavedSettingsUse {
  readonly planned: 'a' | 'b'; // the model side planned with them
  readonly from: 'a' | 'b'; // the saved plan they come from
  readonly target?: string; // the saved target (preset name or 'custom'), its profile as recorded; absent when the command line gave one
  readonly strategy?: string; // absent when the command line gave one or it is unknown here
  readonly dims: Readonly<Record<string, number>>; // the saved dims the user bound, applied
  readonly shapes: Readonly<Record<string, readonly number[]>>; // the saved shapes given, applied
  readonly inputValues: Readonly<Record<string, readonly number[]>>; // the saved input values given, applied
  readonly commandLine: readonly string[]; // options given that win over a saved setting
  readonly notApplied: readonly string[]; // saved settings the model cannot take, each with why
}

/** Saved bindings of one kind: those the command line leaves alone, and the ones the model can take. */
interface Bindings<T> {
  readonly saved: Readonly<Record<string, T>>; // saved and not given on the command line
  readonly applies: (model: InferredModel, name: string) => boolean;
  readonly describe: (name: string) => string; // a saved binding in words ("dim batch=2")
  readonly why: (model: InferredModel) => string;
}

/**
 * Plans the model `file` with the settings saved in `saved`, `options` (the
 * command line's, for this side) on top. Bindings the model has no dim, tensor
 * or input for are left out and named in `notApplied`.
 */
export function planWithSavedSettings(
  file: string,
  bytes: Uint8Array,
  saved: PlanFile,
  options: SideOptions,
  sides: { readonly planned: 'a' | 'b'; readonly from: 'a' | 'b' },
): { readonly plan: PlanFile; readonly use: SavedSettingsUse } {
  const s = saved.settings;
  const notApplied: string[] = [];
  const savedStrategy = options.strategy === undefined && isStrategyName(s.strategy) ? s.strategy : undefined;
  if (options.strategy === undefined && savedStrategy === undefined) notApplied.push(`strategy ${s.strategy} (not a strategy of this heapscope)`);
  const strategy = options.strategy ?? savedStrategy;
  const profile = applyTargetChange(options.target === undefined ? s.targetProfile : resolveTarget(options.target), readTargetChange((name) => ownValue(options.memoryMap, name)));
  const targetName = options.target === undefined ? s.target : targetSettingName(options.target);
  const kinds = {
    dims: bindings<number>(boundDims(saved), options.dims, (m, name) => dimByKey(m.dims, name) !== undefined, (n, v) => `dim ${n}=${v}`, () => 'the model has no such dim'),
    shapes: bindings(shapeOverrides(saved) ?? {}, options.shapes, (m, name) => m.format !== 'tflite' && m.values.some((v) => v.name === name), (n, v) => `shape ${n}=${shapeText(v)}`, (m) => (m.format === 'tflite' ? 'a .tflite model keeps its shapes' : 'the model has no such tensor')),
    inputValues: bindings(inputValues(saved) ?? {}, options.inputValues, (m, name) => m.inputs.includes(name), (n, v) => `input ${n}=${valuesText(v)}`, () => 'the model has no such graph input'),
  };
  const infer = (keep: (kind: keyof typeof kinds, name: string) => boolean) => {
    const merged = <T>(kind: keyof typeof kinds, given: Readonly<Record<string, T>>) =>
      nullRecord<T>([...Object.entries(kinds[kind].saved as Record<string, T>).filter(([name]) => keep(kind, name)), ...Object.entries(given)]);
    const dims = merged('dims', options.dims);
    return { dims, model: inferShapes(decodeModel(bytes, { name: file }), { dims, ...(options.dimOptions !== undefined && { dimOptions: options.dimOptions }), shapes: merged('shapes', options.shapes), inputValues: merged('inputValues', options.inputValues), fileShapes: profile.planning.runtime === 'tflm' }) };
  };
  let { dims, model } = infer(() => true);
  const unfit = (kind: keyof typeof kinds, name: string) => !kinds[kind].applies(model, name);
  const left = (Object.keys(kinds) as (keyof typeof kinds)[]).flatMap((kind) => Object.keys(kinds[kind].saved).filter((name) => unfit(kind, name)).map((name) => [kind, name] as const));
  if (left.length > 0) {
    // Inferred again without them, so the plan does not record a binding the model never took.
    for (const [kind, name] of left) notApplied.push(`${kinds[kind].describe(name)} (${kinds[kind].why(model)})`);
    const dropped = new Set(left.map(([kind, name]) => `${kind}\u0000${name}`));
    ({ dims, model } = infer((kind, name) => !dropped.has(`${kind}\u0000${name}`)));
  }
  const plan = planModel(model, profile, { ...(strategy !== undefined && { strategy }), ...(options.budgetMs !== undefined && { planOptions: { budgetMs: options.budgetMs } }) });
  const applied = <T>(kind: keyof typeof kinds) => nullRecord<T>(Object.entries(kinds[kind].saved as Record<string, T>).filter(([name]) => !left.some(([k, n]) => k === kind && n === name)));
  const use: SavedSettingsUse = {
    planned: sides.planned,
    from: sides.from,
    ...(options.target === undefined && { target: s.target }),
    ...(savedStrategy !== undefined && { strategy: savedStrategy }),
    dims: applied<number>('dims'),
    shapes: applied<readonly number[]>('shapes'),
    inputValues: applied<readonly number[]>('inputValues'),
    commandLine: commandLineWins(options, saved),
    notApplied,
  };
  return { plan: toPlanFile(model, plan, { model: file, target: targetName, targetProfile: profile, dims }), use };
}

function bindings<T>(
  saved: Readonly<Record<string, T>>,
  given: Readonly<Record<string, T>>,
  applies: Bindings<T>['applies'],
  label: (name: string, value: T) => string,
  why: Bindings<T>['why'],
): Bindings<T> {
  const kept = nullRecord(Object.entries(saved).filter(([name]) => !Object.hasOwn(given, name)));
  return { saved: kept, applies, describe: (name) => label(name, kept[name] as T), why };
}

/** The dims the saved plan's user bound (a dim it took by default is left to the model's own default, so --strict still sees it); all of them for a plan saved before it recorded which. */
function boundDims(saved: PlanFile): Readonly<Record<string, number>> {
  const recorded = (saved.plan.assumptions as { dims?: unknown } | undefined)?.dims;
  if (!Array.isArray(recorded)) return saved.settings.dims;
  const bound = new Set(recorded.filter((d: { bound?: unknown }) => d.bound === true).map((d: { name?: unknown }) => d.name));
  return nullRecord(Object.entries(saved.settings.dims).filter(([name]) => bound.has(name)));
}

/** The options given for this side that replace a setting the saved plan records. */
function commandLineWins(options: SideOptions, saved: PlanFile): string[] {
  const overlaps = <T>(given: Readonly<Record<string, T>>, recorded: Readonly<Record<string, T>> | undefined) => Object.keys(given).some((name) => Object.hasOwn(recorded ?? {}, name));
  const won = new Set<string>();
  for (const option of options.given) {
    const bare = option.replace(/^--b-/, '--');
    if (bare === '--target' || bare === '--strategy' || DIFF_MEMORY_MAP.has(bare)) won.add(option);
    if (bare === '--dim' && overlaps(options.dims, saved.settings.dims)) won.add(option);
  }
  if (overlaps(options.shapes, shapeOverrides(saved))) won.add('--shape');
  if (overlaps(options.inputValues, inputValues(saved))) won.add('--input');
  return [...won];
}

/** Memory-map options: they change fields of the saved target, which is otherwise kept. */
const DIFF_MEMORY_MAP: ReadonlySet<string> = new Set(['--spill', '--weights', '--io']);

/** "b planned with the settings saved in a: target mcu, strategy best, batch=2; the command line's --target wins", and the line naming what was not applied. */
export function savedSettingsLines(use: SavedSettingsUse): string[] {
  const target = use.target === undefined ? [] : [`target ${use.target}${use.target === 'custom' || PRESETS.has(use.target) ? '' : ' (its profile as saved: not a preset of this heapscope)'}`];
  const settings = [
    ...target,
    ...(use.strategy === undefined ? [] : [`strategy ${use.strategy}`]),
    ...Object.entries(use.dims).map(([n, v]) => `${n}=${v}`),
    ...Object.entries(use.shapes).map(([n, v]) => `${n}=${shapeText(v)}`),
    ...Object.entries(use.inputValues).map(([n, v]) => `${n}=${valuesText(v)}`),
  ];
  const wins = use.commandLine.length === 0 ? '' : `; the command line's ${use.commandLine.join(', ')} ${use.commandLine.length === 1 ? 'wins' : 'win'}`;
  const lines = [`${use.planned} planned with the settings saved in ${use.from}: ${settings.length === 0 ? 'none apply' : settings.join(', ')}${wins}`];
  if (use.notApplied.length > 0) lines.push(`not applied to ${use.planned}, saved in ${use.from}: ${use.notApplied.join(', ')}`);
  return lines;
}
