// The saved plan file: a plan with the model name, the settings that produced it
// and the node list, as one JSON document the page reopens and `diff` reads.
// Depends only on src/shared, the model's IR types and the planner.

import type { InferredGraph, InferredModel } from '../../model/inferred';
import { InputError } from '../../shared/errors';
import { previewJson } from '../../shared/json-preview';
import type { ModelPlan, Suggestion } from '../plan-types';
import { type TargetProfile } from '../targets/target';
import { parseTarget } from '../targets/parse';
import { PRESETS } from '../targets/presets';
import { checkPlanMeaning } from './plan-file-check';
import { checkRuntimePlan } from './plan-file-runtime';
import { withUnknownSizes } from './plan-records';
import { nullRecord } from '../../shared/own';
import { MAX_EXACT_POWER } from '../../shared/format';

/** The `format` value every plan file carries. */
export const PLAN_FILE_FORMAT = 'heapscope-plan';
/** The version this code writes and reads. */
export const PLAN_FILE_VERSION = 1;

/** The settings a plan was made with. */
export interface PlanSettings {
  readonly strategy: string;
  readonly target: string; // preset name or 'custom'
  readonly targetProfile: TargetProfile;
  readonly dims: Readonly<Record<string, number>>; // every symbolic dim and the value planned with
  readonly inputShapes?: Readonly<Record<string, readonly number[]>>; // each graph input's shape as planned (dims and shape overrides applied), the known ones; absent in older plan files
}

/** A node of the planned graph, enough to match buffers by producer op. */
export interface PlanFileNode {
  readonly name: string;
  readonly opType: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

/** A saved plan (JSON). `format` comes first so a reader can sniff it. */
export interface PlanFile {
  readonly format: 'heapscope-plan';
  readonly version: 1;
  readonly model: string; // file name or URL
  readonly settings: PlanSettings;
  readonly nodes: readonly PlanFileNode[];
  readonly plan: ModelPlan;
}

/** What toPlanFile needs besides the model and plan. */
export interface PlanFileSettings {
  readonly model: string; // file name or URL
  readonly strategy?: string; // default: the plan's strategy
  readonly target: string; // preset name or 'custom'
  readonly targetProfile: TargetProfile;
  readonly dims?: Readonly<Record<string, number>>; // dims the user set, recorded when the model carries no bindings of its own
  readonly suggestions?: readonly Suggestion[]; // the plan's evaluated suggestions when they were evaluated apart from it (the page's worker); default: the plan's own
}

/**
 * The plan file of `plan` made from `model`. When `model` carries its dim
 * bindings (an InferredModel), every dim it was planned with is recorded,
 * the defaulted ones too, so two files show which dims differ (not one that
 * sizes nothing: a shape given fixes every axis it names). The plan carries
 * its evaluated suggestions (`[]` when there are none), from the plan itself
 * (`plan` of the command line) or from `settings.suggestions` (the page, which
 * evaluates them after the plan is shown), so a file saved by either has the
 * same fields; left out only when they were never evaluated.
 */
export function toPlanFile(model: InferredGraph | InferredModel, plan: ModelPlan, settings: PlanFileSettings): PlanFile {
  const dims = nullRecord<number>();
  // A model that carries its bindings records the values it was planned with, by the dims' own names; the user's
  // names may be axes ("input_ids:0") or dims the model lacks (ignored when planned), which are no dims of the plan.
  // A default dim that sizes nothing (a shape given replaces every axis it names) is no value the plan was made with;
  // one the user bound is recorded as given.
  if ('dims' in model) for (const d of model.dims) if (d.sizesNothing !== true || d.source === 'user') dims[d.name] = d.value;
  else Object.assign(dims, settings.dims ?? {});
  const inputShapes = inputShapesOf(model);
  const suggestions = settings.suggestions ?? plan.suggestions;
  return {
    format: PLAN_FILE_FORMAT,
    version: PLAN_FILE_VERSION,
    model: settings.model,
    settings: { strategy: settings.strategy ?? plan.strategy, target: settings.target, targetProfile: settings.targetProfile, dims, inputShapes },
    nodes: model.nodes.map((n) => ({ name: n.name, opType: n.opType, inputs: n.inputs, outputs: n.outputs })),
    plan: suggestions === undefined ? plan : { ...plan, suggestions },
  };
}

/** The shape each graph input was planned with, by name; inputs of unknown shape are left out. */
function inputShapesOf(model: InferredGraph): Record<string, readonly number[]> {
  const shapes = nullRecord<readonly number[]>();
  for (const name of model.inputs) {
    const shape = model.values.find((v) => v.name === name && v.kind === 'input')?.shape;
    if (shape !== undefined) shapes[name] = shape;
  }
  return shapes;
}

/** The plan file as JSON text (format first, as isPlanFileText expects). */
export function writePlanFile(file: PlanFile): string {
  return JSON.stringify(file) + '\n';
}

/** How far into a file the sniff looks for the format field. */
const SNIFF_CHARS = 256;

/** True when the text or bytes look like a plan file: a JSON object whose first field is "format": "heapscope-plan". */
export function isPlanFileText(bytesOrText: Uint8Array | string): boolean {
  const head = typeof bytesOrText === 'string' ? bytesOrText.slice(0, SNIFF_CHARS) : asciiHead(bytesOrText);
  return /^\uFEFF?\s*\{\s*"format"\s*:\s*"heapscope-plan"/.test(head);
}

/**
 * True when the text or bytes start like a plan file, even one cut short or
 * edited: a JSON object that mentions "heapscope-plan" or opens with a key a
 * plan file has ("format", "version", "model", "settings", "nodes", "plan").
 * Such a file is read as a plan, so what is wrong with it is told in a plan
 * file's terms (readPlanFile), not as a model that is JSON.
 */
export function looksLikePlanFile(bytesOrText: Uint8Array | string): boolean {
  if (isPlanFileText(bytesOrText)) return true;
  const head = typeof bytesOrText === 'string' ? bytesOrText.slice(0, SNIFF_CHARS) : asciiHead(bytesOrText);
  if (!/^\uFEFF?\s*\{/.test(head)) return false;
  return head.includes(PLAN_FILE_FORMAT) || /^\uFEFF?\s*\{\s*"(format|version|model|settings|nodes|plan)"\s*:/.test(head);
}

/** The first bytes as text, a UTF-8 byte order mark as U+FEFF; the sniffed part is ASCII. */
function asciiHead(bytes: Uint8Array): string {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return String.fromCharCode(...bytes.subarray(start, start + SNIFF_CHARS));
}

/**
 * Reads a plan file; `source` names it in errors. Throws InputError('bad-plan')
 * naming the file and the field for text that is not JSON, not a heapscope
 * plan, of another version, or lacks a field the planner's readers need.
 */
export function readPlanFile(text: string, source: string): PlanFile {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const why = String(error instanceof Error ? error.message : error).replace(/\s+/g, ' ');
    throw new InputError('bad-plan', `${source} is not a plan file: not valid JSON (${why})`);
  }
  const tooDeep = deepestPath(json);
  if (tooDeep !== undefined) throw new InputError('bad-plan', `${source}: plan file field ${tooDeep} nests deeper than ${MAX_PLAN_DEPTH} levels; plan files are a few levels deep`);
  const doc = objectAt(json, '', source, 'a JSON object');
  if (doc.format !== PLAN_FILE_FORMAT) {
    throw new InputError('bad-plan', `${source} is not a plan file: "format" is ${show(doc.format)}, expected "${PLAN_FILE_FORMAT}"`);
  }
  if (doc.version !== PLAN_FILE_VERSION) {
    throw new InputError('bad-plan', `${source}: plan file version ${show(doc.version)} is not supported (this heapscope reads version ${PLAN_FILE_VERSION})`);
  }
  const model = stringAt(doc, 'model', '', source);
  const settings = readSettings(doc.settings, source);
  const nodes = arrayAt(doc, 'nodes', '', source).map((n, i) => readNode(n, `nodes[${i}]`, source));
  const plan = readPlan(doc.plan, source);
  checkSettingsAgree(settings, plan, source);
  checkRuntimePlan(plan as unknown as Json, settings.targetProfile, source);
  return { format: PLAN_FILE_FORMAT, version: PLAN_FILE_VERSION, model, settings, nodes, plan };
}

/**
 * Refuses settings that contradict what the plan was made with, as a file
 * heapscope writes never has them: `settings.target` naming one preset while
 * `settings.targetProfile` is another (a side labelled cpu would be planned
 * on mcu), and `settings.strategy` other than `plan.strategy` (a side
 * labelled by one strategy while the model planned from its settings uses
 * another). A target edited from a preset is saved as 'custom' or keeps the
 * preset's name in its profile, so neither is refused.
 */
function checkSettingsAgree(settings: PlanSettings, plan: ModelPlan, source: string): void {
  const profile = settings.targetProfile.name;
  if (PRESETS.has(settings.target) && profile !== settings.target) {
    throw new InputError('bad-plan', `${source}: settings.target ${show(settings.target)} names the preset ${settings.target}, but settings.targetProfile is ${show(profile)}: the two contradict each other (one was edited); save the plan again`);
  }
  if (settings.strategy !== plan.strategy) {
    throw new InputError('bad-plan', `${source}: settings.strategy ${show(settings.strategy)} contradicts plan.strategy ${show(plan.strategy)}, the strategy the plan was made with (one was edited); save the plan again`);
  }
}

type Json = Record<string, unknown>;

/** Nesting a plan file may have: what it writes is under ten levels; fields kept as written reach the diff and the views. */
const MAX_PLAN_DEPTH = 64;

/** The path of the first value nested deeper than MAX_PLAN_DEPTH, or undefined; without recursion, whatever the depth. */
function deepestPath(root: unknown): string | undefined {
  const stack: [unknown, number, string][] = [[root, 0, '']];
  while (stack.length > 0) {
    const [value, depth, path] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_PLAN_DEPTH) return path.length > 80 ? `${path.slice(0, 79)}…` : path;
    const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value).map(([k, v]) => [`.${k}`, v] as const);
    // Path text is cut early: a 100,000-deep chain must not build 100,000-character paths.
    for (const [key, child] of entries) stack.push([child, depth + 1, path.length > 80 ? path : `${path}${key}`.replace(/^\./, '')]);
  }
  return undefined;
}

function readSettings(value: unknown, source: string): PlanSettings {
  const s = objectAt(value, 'settings', source);
  const dimsDoc = objectAt(s.dims, 'settings.dims', source);
  const dims = nullRecord<number>();
  for (const [name, v] of Object.entries(dimsDoc)) {
    dims[name] = wholeAt(v, `settings.dims.${name}`, source);
  }
  let targetProfile: TargetProfile;
  try {
    targetProfile = parseTarget(s.targetProfile);
  } catch (error) {
    if (error instanceof InputError) throw new InputError('bad-plan', `${source}: settings.targetProfile: ${error.message}`);
    throw error;
  }
  const inputShapes = s.inputShapes === undefined ? undefined : readInputShapes(s.inputShapes, source);
  return { strategy: stringAt(s, 'strategy', 'settings.', source), target: stringAt(s, 'target', 'settings.', source), targetProfile, dims, ...(inputShapes !== undefined && { inputShapes }) };
}

/** settings.inputShapes: whole numbers by input name (absent in plan files saved before it was recorded). */
function readInputShapes(value: unknown, source: string): Record<string, readonly number[]> {
  const doc = objectAt(value, 'settings.inputShapes', source);
  const shapes = nullRecord<readonly number[]>();
  for (const [name, shape] of Object.entries(doc)) {
    const whole = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
    const tooLarge = Array.isArray(shape) ? shape.findIndex((v: unknown) => typeof v === 'number' && v > Number.MAX_SAFE_INTEGER) : -1;
    if (tooLarge >= 0) wholeAt((shape as unknown[])[tooLarge], `settings.inputShapes.${name}[${tooLarge}]`, source);
    if (!Array.isArray(shape) || !shape.every(whole)) fieldError(source, `settings.inputShapes.${name}`, 'an array of whole numbers', shape);
    shapes[name] = shape as number[];
  }
  return shapes;
}

function readNode(value: unknown, path: string, source: string): PlanFileNode {
  const n = objectAt(value, path, source);
  const strings = (key: string) => arrayAt(n, key, `${path}.`, source).map((v, i) => (typeof v === 'string' ? v : fieldError(source, `${path}.${key}[${i}]`, 'a string', v)));
  return { name: stringAt(n, 'name', `${path}.`, source), opType: stringAt(n, 'opType', `${path}.`, source), inputs: strings('inputs'), outputs: strings('outputs') };
}

/** The fields of a saved plan's `plan`: those of ModelPlan, every one heapscope has written. */
const PLAN_KEYS: ReadonlySet<string> = new Set(['peak', 'lowerBound', 'strategyBound', 'strategy', 'valid', 'complete', 'fits', 'lowerEstimate', 'fitNeeds', 'spill', 'storage', 'assumptions', 'portfolio', 'target', 'regions', 'buffers', 'fusionUnits', 'fusionExplanations', 'traffic', 'functions', 'boundaries', 'units', 'tags', 'unitComparison', 'diagnostics', 'gap', 'optimal', 'search', 'peakStep', 'peakRegion', 'liveAtPeak', 'explanation', 'suggestions', 'waste', 'order', 'weights', 'scratch', 'steps', 'bodies', 'runtimePlan'] satisfies (keyof ModelPlan)[]);

/** Checks the plan fields that diff, the exports and the views read; the rest is kept as written. */
function readPlan(value: unknown, source: string): ModelPlan {
  const p = objectAt(value, 'plan', source);
  // a field no heapscope writes is refused, not kept as written beside the ones read
  const unknown = Object.keys(p).find((key) => !PLAN_KEYS.has(key));
  if (unknown !== undefined) throw new InputError('bad-plan', `${source}: plan file field plan.${show(unknown)} is not one heapscope writes (a hand edit, or a file of another tool)`);
  for (const key of ['peak', 'lowerBound']) numberAt(p, key, 'plan.', source);
  for (const key of ['strategy', 'target']) stringAt(p, key, 'plan.', source);
  const regionNames = new Set<string>();
  arrayAt(p, 'regions', 'plan.', source).forEach((r, i) => {
    const region = objectAt(r, `plan.regions[${i}]`, source);
    const name = stringAt(region, 'name', `plan.regions[${i}].`, source);
    if (regionNames.has(name)) fieldError(source, `plan.regions[${i}].name`, 'unique', name);
    regionNames.add(name);
    for (const key of ['peak', 'lowerBound']) numberAt(region, key, `plan.regions[${i}].`, source);
  });
  arrayAt(p, 'buffers', 'plan.', source).forEach((b, i) => {
    const buffer = objectAt(b, `plan.buffers[${i}]`, source);
    for (const key of ['name', 'kind', 'region']) stringAt(buffer, key, `plan.buffers[${i}].`, source);
    for (const key of ['id', 'size', 'bytes', 'start', 'end', 'offset']) numberAt(buffer, key, `plan.buffers[${i}].`, source);
  });
  arrayAt(p, 'fusionUnits', 'plan.', source).forEach((u, i) => arrayAt(objectAt(u, `plan.fusionUnits[${i}]`, source), 'nodes', `plan.fusionUnits[${i}].`, source));
  for (const key of ['steps', 'liveAtPeak', 'diagnostics']) arrayAt(p, key, 'plan.', source);
  checkAssumptions(p, source);
  checkPlanMeaning(p, source);
  // a plan saved before plans with sizes unknown stopped claiming an optimum is read as one made now
  return withUnknownSizes({ ...p, complete: completeOf(p, source) } as unknown as ModelPlan);
}

/**
 * Checks the assumptions diff and the views read by field (absent in plans
 * saved before they were recorded): the tensors of unknown size and the
 * kernels of unknown scratch, each a list of records naming them.
 */
function checkAssumptions(p: Json, source: string): void {
  if (p.assumptions === undefined) return;
  const assumptions = objectAt(p.assumptions, 'plan.assumptions', source);
  for (const [key, field] of [['unknown', 'tensor'], ['kernels', 'node']] as const) {
    if (assumptions[key] === undefined) continue;
    arrayAt(assumptions, key, 'plan.assumptions.', source).forEach((a, i) => stringAt(objectAt(a, `plan.assumptions.${key}[${i}]`, source), field, `plan.assumptions.${key}[${i}].`, source));
  }
}

/**
 * Whether every size was known, as the views read it: the file's own field,
 * or for a plan saved before plans recorded it, whether it lists no tensor of
 * unknown size (or, saved before that too, complete, as it was shown then).
 */
function completeOf(p: Json, source: string): boolean {
  const complete = p.complete;
  if (typeof complete === 'boolean') return complete;
  if (complete !== undefined) fieldError(source, 'plan.complete', 'true or false', complete);
  const unknown = (p.assumptions as { unknown?: unknown } | undefined)?.unknown;
  return !Array.isArray(unknown) || unknown.length === 0;
}

function objectAt(value: unknown, path: string, source: string, what = 'an object'): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    if (path === '') throw new InputError('bad-plan', `${source} is not a plan file: expected ${what}, got ${show(value)}`);
    fieldError(source, path, what, value);
  }
  return value as Json;
}

function arrayAt(doc: Json, key: string, prefix: string, source: string): readonly unknown[] {
  const value = doc[key];
  return Array.isArray(value) ? value : fieldError(source, prefix + key, 'an array', value);
}

function stringAt(doc: Json, key: string, prefix: string, source: string): string {
  const value = doc[key];
  return typeof value === 'string' ? value : fieldError(source, prefix + key, 'a string', value);
}

function numberAt(doc: Json, key: string, prefix: string, source: string): number {
  const value = doc[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : fieldError(source, prefix + key, 'a number', value);
}

/** A whole number from 0 to 2^53 − 1; one past it is named too large, as --dim names it, not "no whole number" (1e+30). */
function wholeAt(value: unknown, path: string, source: string): number {
  if (typeof value === 'number' && value > Number.MAX_SAFE_INTEGER) fieldError(source, path, `at most ${Number.MAX_SAFE_INTEGER} (${MAX_EXACT_POWER})`, value);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) fieldError(source, path, 'a whole number', value);
  return value;
}

function fieldError(source: string, path: string, what: string, value: unknown): never {
  const got = value === undefined ? 'it is missing' : `got ${show(value)}`;
  throw new InputError('bad-plan', `${source}: plan file field ${path} must be ${what}, ${got}`);
}

function show(value: unknown): string {
  return value === undefined ? 'missing' : previewJson(value, 40);
}
