// The first thing the page does: open the model named by the URL, or the sample,
// with every setting the link carries, then its view: the selection, the graph's
// groups and an open comparison. A link made for a local file opens nothing:
// the page asks for that file again and applies the link to it once opened;
// another model opened instead takes only the settings that do not depend on
// the model, and the link notice says so.

import type { AppStore } from '../store/create-store';
import type { CompareStore } from '../store/compare-store';
import { shareSearch, type UrlParams } from './url-params';
import { checkLinkSettings } from './link-settings';
import { DEFAULT_SETTINGS } from '../settings/names';
import type { PlanSettings } from '../worker/protocol';
import type { LoadedModel, Selection } from '../store/state';
import type { InferredGraph } from '../model/inferred';
import type { BindingRef } from '../model/ir';
import { dimsNotInModel } from '../store/missing-dims';
import type { Bindings } from '../store/bindings';
import { nullRecord, ownValue } from '../shared/own';
import { shortName } from '../shared/short-name';
import { NO_EXTRAS, selectionText } from './url-settings';
import { warnLeftOut } from '../store/left-out-warnings';

/**
 * Opens `model=` if given, else the sample (or waits for `file=`), with the URL's bindings, target,
 * fields, strategy, budget, selection, graph groups and, given the page's `compare` store, its comparison.
 */
export async function openInitialModel(store: AppStore, link: UrlParams, compare?: CompareStore): Promise<void> {
  const { actions } = store.getState();
  const { params, settings } = usableLink(link);
  actions.noteLinkLeftOut(leftOutOfLink(link));
  if (params.embed) {
    const leftOut = notInEmbed(link);
    warnLeftOut(leftOut);
    actions.noteLinkLeftOut(leftOut);
  }
  // With no model shown yet, this only records the settings the first plan is made for.
  if (Object.keys(settings).length > 0) void actions.setSettings(settings);
  // Taken by the graph of the first model shown.
  if (params.groups !== undefined) actions.setGroups({ model: undefined, ...params.groups, collapsed: [] });
  const more = { shapes: params.shapes, inputValues: params.inputValues };
  if (params.model === undefined && params.file !== undefined) {
    actions.expectFile(params.file, { dims: params.dims, ...more });
    whenFileShown(store, params.file, {
      then: () => void openView(store, params, compare),
      otherwise: (shown) => otherFileShown(store, params, settings, shown),
    });
    return;
  }
  await (params.model !== undefined ? actions.openUrl(params.model, params.dims, more, compare && savedPlanOpener(store, compare, params)) : actions.openSample(params.dims, more));
  await openView(store, params, compare);
}

/**
 * Opens a saved plan named by `model=` as a dropped one opens: in the plan viewer, what is wrong with it in the page's banner;
 * the link's settings, which a saved plan does not take, are named in the link notice.
 */
function savedPlanOpener(store: AppStore, compare: CompareStore, params: UrlParams): (file: Blob, name: string) => Promise<void> {
  const { dismissError, showFileError, noteLinkLeftOut } = store.getState().actions;
  return (file, name) => {
    dismissError();
    const leftOut = notForSavedPlan(params);
    warnLeftOut(leftOut);
    noteLinkLeftOut(leftOut);
    return compare.getState().actions.openSavedPlan(file, name, (error) => showFileError(name, error));
  };
}

/**
 * The settings of a link whose `model=` is a saved plan, each as "dim.batch=2: …": the plan keeps
 * the settings it was saved with, so the link's dims, target, strategy, fields, shapes, input values,
 * selection, groups and comparison do not apply to it.
 */
export function notForSavedPlan(params: UrlParams): string[] {
  const search = shareSearch({ ...params, model: undefined, file: undefined, embed: false });
  return quotedParams(search, params.typed).map((entry) => `${entry}: does not apply to a saved plan, which keeps the settings it was saved with`);
}

/** The parameters of `search`, each "key=value" with the value as the link wrote it (`typed`), else as the page writes it. */
function quotedParams(search: string, typed: Readonly<Record<string, string>>): string[] {
  return [...new URLSearchParams(search)].map(([key, value]) => `${key}=${ownValue(typed, key) ?? value}`);
}

/** Selects what the link selects and opens its comparison, once its model is on screen. */
async function openView(store: AppStore, params: UrlParams, compare: CompareStore | undefined): Promise<void> {
  const { model, actions } = store.getState();
  if (model === undefined) return;
  const { dims, shapes, inputs, selection, bindings } = notInModel(model, params);
  // B is the model on screen planned again: its bindings are checked against it as A's are, and named with their b.
  const sideB = params.compare === undefined || compare === undefined || params.embed ? undefined : notInModel(model, { ...params.compare, selection: undefined, typed: params.typed }, 'b.');
  // Known only now that the model is read: named with those the link notice named before it.
  const leftOut = [...dims, ...shapes, ...inputs, ...(selection === undefined ? [] : [selection]), ...(sideB === undefined ? [] : [...sideB.dims, ...sideB.shapes, ...sideB.inputs])];
  warnLeftOut(leftOut);
  // The Diagnostics lists are A's: only A's bindings are left to the notice there.
  actions.noteLinkLeftOut(leftOut, bindings);
  // A selection of nothing on screen is not made, so the link the page writes back drops it.
  if (params.selection !== undefined && selection === undefined) actions.select(params.selection);
  // An embedded view has no comparison dialog; B is planned without what it names that the model lacks, so its link drops that too.
  if (params.compare !== undefined && compare !== undefined && sideB !== undefined) await compare.getState().actions.compareShownAs({ ...params.compare, ...sideB.kept });
}

/** What notInModel finds: each entry as "dim.nosuch=3: the model has no dim nosuch". */
export interface NotInModel {
  readonly dims: string[];
  readonly shapes: string[];
  readonly inputs: string[];
  readonly selection: string | undefined;
  readonly bindings: BindingRef[]; // the shapes and input values of `shapes` and `inputs`, by name
  readonly kept: Bindings; // the dims, shapes and input values given that name something in the model
}

/** Inputs listed by name when the link's input names none of them; more are counted. */
const LISTED_INPUTS = 8;

/**
 * The link's parameters that name what the model on screen does not have, each
 * as "dim.nosuch=3: the model has no dim nosuch" (an input's axis as inference
 * tells it: "dim.image:5=3: input 'image' has rank 4, so it has no axis 5"): dims, tensor shapes and input
 * values (told here, in the link's words, where inference's unused-binding diagnostic of the same binding is not
 * shown again: see `bindings`) and the selection (a node, buffer or step that is not there). A shape or value
 * given to a tensor that is there but takes none is told by the model's own diagnostics. `prefix` is that of
 * the parameters checked ("b." for a comparison's B, the same model planned again); each is quoted as `typed` has it.
 */
export function notInModel(model: LoadedModel, params: Pick<UrlParams, 'dims' | 'shapes' | 'inputValues' | 'selection'> & Partial<Pick<UrlParams, 'typed'>>, prefix = ''): NotInModel {
  const typed = params.typed ?? {};
  // as the link wrote it, else as the page writes it
  const quoted = (key: string, value: string): string => `${prefix}${key}=${ownValue(typed, `${prefix}${key}`) ?? value}`;
  // a dim is bound by its name or by an input axis it sizes ("image:2"), as inference takes it; an input's axis
  // ("image:5") is told what that axis is
  const missingDims = dimsNotInModel(model.inferred, params.dims);
  const missingKeys = new Set(missingDims.map(([key]) => key));
  const [keptDims] = split(params.dims, (key) => !missingKeys.has(key));
  const dims = missingDims.map(([name, value, why]) => `${quoted(`dim.${name}`, String(value))}: ${why}`);
  const tensors = tensorNames(model.inferred);
  const [keptShapes, missingShapes] = split(params.shapes, (name) => tensors.has(name));
  const shapes = missingShapes.map(([name, shape]) => `${quoted(`shape.${name}`, shape.join('x'))}: the model has no tensor ${name}`);
  const graphInputs = model.inferred.inputs;
  const listed = graphInputs.length === 0 ? ' (it has no graph inputs)' : ` (its inputs: ${graphInputs.slice(0, LISTED_INPUTS).join(', ')}${graphInputs.length > LISTED_INPUTS ? ` and ${graphInputs.length - LISTED_INPUTS} more` : ''})`;
  const [keptInputs, missingInputs] = split(params.inputValues, (name) => graphInputs.includes(name) || tensors.has(name));
  const inputs = missingInputs.map(([name, values]) => `${quoted(`input.${name}`, values.join(','))}: the model has no input ${name}${listed}`);
  const bindings: BindingRef[] = [...missingShapes.map(([name]) => ({ kind: 'shape', name }) as const), ...missingInputs.map(([name]) => ({ kind: 'input', name }) as const)];
  const kept = { dims: nullRecord(keptDims), shapes: nullRecord(keptShapes), inputValues: nullRecord(keptInputs) };
  const selection = params.selection === undefined ? undefined : missingSelection(model, params.selection, ownValue(typed, `${prefix}select`) ?? selectionText(params.selection), prefix);
  return { dims, shapes, inputs, selection, bindings, kept };
}

/** The entries of `record` whose name `has` takes, and the others. */
function split<T>(record: Readonly<Record<string, T>>, has: (name: string) => boolean): [[string, T][], [string, T][]] {
  const entries = Object.entries(record);
  return [entries.filter(([name]) => has(name)), entries.filter(([name]) => !has(name))];
}

/** Every tensor name of `graph` and its subgraphs. */
function tensorNames(graph: InferredGraph, names = new Set<string>()): Set<string> {
  for (const value of graph.values) names.add(value.name);
  for (const node of graph.nodes) for (const body of node.subgraphs) tensorNames(body, names);
  return names;
}

/**
 * Why `selection` names nothing in the model on screen, or undefined when it does (or the plan to check it against
 * failed); `written` is its value as the link wrote it ("buffer:007"), quoted and, for a buffer, looked up as written.
 */
function missingSelection(model: LoadedModel, selection: Selection, written: string, prefix: string): string | undefined {
  const plan = model.plan.status === 'planned' ? model.plan.plan : undefined;
  const quoted = `${prefix}select=${written}`;
  switch (selection.kind) {
    case 'node':
      return hasNode(model.inferred, selection.node) ? undefined : `${quoted}: the model has no node ${selection.node}`;
    case 'buffer': {
      if (plan === undefined || plan.buffers.some((b) => b.id === selection.buffer)) return undefined;
      // the views label a buffer by its tensor's name, which may be a number ("252", "007"): point to the id that name has
      const id = written.slice(written.indexOf(':') + 1);
      const named = plan.buffers.filter((b) => b.name === id);
      const byName = named.length === 1 ? `; the buffer named ${id} is select=buffer:${named[0]!.id} (the link takes a buffer's id)` : '';
      return `${quoted}: the plan has no buffer ${id} (it has ${plan.buffers.length})${byName}`;
    }
    case 'step':
      return plan === undefined || selection.step < plan.steps.length ? undefined : `${quoted}: the plan has ${plan.steps.length} steps (0–${plan.steps.length - 1})`;
  }
}

function hasNode(graph: InferredGraph, name: string): boolean {
  return graph.nodes.some((n) => n.name === name || n.subgraphs.some((g) => hasNode(g, name)));
}

/** Calls `then` once the local file `name` is opened and shown, or `otherwise` with the model shown first instead. */
function whenFileShown(store: AppStore, name: string, { then, otherwise }: { then: () => void; otherwise: (shown: LoadedModel) => void }): void {
  const stop = store.subscribe((state) => {
    if (state.task !== undefined || state.model === undefined) return;
    stop();
    if (state.model.origin === 'file' && state.model.name === name) then();
    else otherwise(state.model);
  });
}

/**
 * Another model than the link's file is on screen: it was opened plain, with the link's settings that do not
 * depend on the model (`applied`), and the notice says so; the link's graph groups, waiting for the first graph
 * drawn, are withdrawn before it is.
 */
function otherFileShown(store: AppStore, params: UrlParams, applied: Partial<PlanSettings>, shown: LoadedModel): void {
  const { actions } = store.getState();
  if (params.groups !== undefined) actions.setGroups({ model: undefined, from: 'first', open: [], closed: [], collapsed: [] });
  const { file, leftOut } = notForOtherFile(params, applied, shown.origin === 'sample' ? 'the sample model' : shortName(shown.name));
  console.warn(`heapscope: URL parameter ${file}`);
  warnLeftOut(leftOut);
  actions.noteLinkOtherFile(file);
  actions.noteLinkLeftOut(leftOut);
}

/**
 * The link made for the local file `file=` when `opened` (a name as the page shows it) was opened instead: the
 * file, with which of the link's settings applied to `opened` (those that do not depend on the model: target,
 * strategy, the target's fields, the search budget), and each setting of the model the link was made for (dims,
 * shapes, input values, selection, graph groups, a comparison), left out; each quoted as the link wrote it. The
 * file line is no parameter left out: the link's target did apply.
 */
export function notForOtherFile(params: UrlParams, applied: Partial<PlanSettings>, opened: string): { readonly file: string; readonly leftOut: string[] } {
  const quoted = (search: string): string[] => quotedParams(search, params.typed);
  const none = { ...NO_EXTRAS, model: undefined, dims: {}, strategy: undefined, target: undefined, embed: false };
  const settings = quoted(shareSearch({ ...none, target: applied.target, strategy: applied.strategy, edits: applied.edits, budgetMs: applied.budgetMs }));
  const { dims, shapes, inputValues, selection, groups, compare } = params;
  const own = quoted(shareSearch({ ...none, dims, shapes, inputValues, selection, groups, compare }));
  const said =
    settings.length === 0 ? 'none of its settings applied to it' : `${settings.join(' and ')} applied to it${own.length === 0 ? '' : ', the settings of the model it was made for did not'}`;
  return {
    file: `file=${shortName(params.file ?? '')}: the link was made for this file, and ${opened} was opened instead; ${said}`,
    leftOut: own.map((entry) => `${entry}: a setting of the model the link was made for, not applied to ${opened}`),
  };
}

/**
 * The parameters of an embed's link that open a comparison, which an embedded view does not show: `compare=1`
 * and each `b.` parameter, quoted as the link wrote it, except those already left out for another reason
 * (a value that does not parse, a target B's plan cannot take). The full view ("Open in heapscope") opens it.
 */
export function notInEmbed(params: UrlParams): string[] {
  if (!params.embed || params.compare === undefined) return [];
  const { b } = checkedLink(params);
  const told = [...params.ignored, ...(b?.ignored ?? [])];
  return Object.entries(params.typed)
    .filter(([key]) => key === 'compare' || key.startsWith('b.'))
    .filter(([key]) => !told.some((entry) => entry.startsWith(`${key}=`)))
    .map(([key, value]) => `${key}=${value}: an embedded view opens no comparison; Open in heapscope opens it`);
}

/** The link's settings of A, and of B when it compares, as checkLinkSettings keeps them and says what it left out. */
function checkedLink(params: UrlParams) {
  const a = checkLinkSettings({
    ...(params.target !== undefined && { target: params.target }),
    ...(params.strategy !== undefined && { strategy: params.strategy }),
    ...(params.edits !== undefined && { edits: params.edits }),
    ...(params.budgetMs !== undefined && { budgetMs: params.budgetMs }),
  }, '', params.typed);
  const b = params.compare === undefined ? undefined : checkLinkSettings(params.compare.settings, 'b.', params.typed);
  return { a, b };
}

/**
 * Every parameter of the link left out, because it does not parse ("dim.batch=-3") or makes no
 * plan ("region.nope.limit=5: target mcu has no region …"), in the order of the console warnings.
 */
function leftOutOfLink(params: UrlParams): readonly string[] {
  const { a, b } = checkedLink(params);
  return [...params.ignored, ...a.ignored, ...(b?.ignored ?? [])];
}

/**
 * The link with the settings of A (returned apart, as a change) and of B that make a plan; every
 * parameter left out, because it does not parse or makes no plan, is named in a console warning
 * (and on the page: see link-notice.tsx).
 */
function usableLink(params: UrlParams): { params: UrlParams; settings: Partial<PlanSettings> } {
  const { a, b } = checkedLink(params);
  if (params.ignored.length > 0) console.warn(`heapscope: ignored URL parameters ${params.ignored.join(', ')}`);
  warnLeftOut([...a.ignored, ...(b?.ignored ?? [])]);
  if (params.compare === undefined || b === undefined) return { params, settings: a.settings };
  // B's settings are whole: a left-out target is B's default, as a target left out of the link is.
  const { target = DEFAULT_SETTINGS.target, strategy, ...rest } = b.settings;
  return { params: { ...params, compare: { ...params.compare, settings: { target, strategy, ...rest } } }, settings: a.settings };
}
