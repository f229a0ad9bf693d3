// The shape of the page's state: the model slice (with its plan), the load slice
// (task, progress, error), the dims and plan settings, the selection shared by
// the graph and the heap, and the tensor table slice. Plain data, no behaviour.

import type { InferredModel } from '../model/inferred';
import type { BindingRef } from '../model/ir';
import type { ModelPlan, Suggestion } from '../planner/plan';
import type { ErrorData } from '../shared/errors';
import { DEFAULT_SETTINGS } from '../settings/names';
import type { SettingsRefusal } from '../settings/types';
import type { BindingRefusal } from './bindings';
import type { Grown } from '../worker/client';
import type { DimValues, GrowthAxis, GrowthPoint, InputValues, ModelBindings, PhaseTimings, PlanResult, PlanSettings, SearchProgress, ShapeValues, StrategyPeak } from '../worker/protocol';

/** Where a shown model came from. */
export type ModelOrigin = 'file' | 'sample' | 'url';

/** The model on screen. */
export interface LoadedModel {
  readonly name: string; // file name, or the last segment of the URL
  readonly size: number; // bytes of the file
  readonly origin: ModelOrigin;
  readonly url: string | undefined; // for origin 'sample' and 'url'
  readonly file?: Blob; // for origin 'file': read again to plan the model a second way (compare)
  readonly inferred: InferredModel;
  readonly timings: PhaseTimings;
  readonly plan: PlanResult; // the plan of `inferred` (or why there is none)
  readonly opening: number; // which opening of a file showed it (nextOpening()): kept by re-inference and re-planning, so views keep their place
}

/** What the page is busy with: opening a file, re-inferring or re-planning the shown model. */
export interface LoadTask {
  readonly kind: 'open' | 'reinfer' | 'replan';
  readonly name: string; // the file being opened or re-inferred
}

/** Progress of the task; `fraction` undefined when the total is not known (a download without length). */
export interface LoadProgress {
  readonly fraction: number | undefined;
  readonly label: string;
  readonly search?: SearchProgress; // while best searches within the settings' budget
  readonly stopping?: boolean; // the search was asked to stop; its best plan is on its way
}

/** An error shown in the banner, naming the file it is about. */
export interface LoadError extends ErrorData {
  readonly file: string;
  readonly task: LoadTask['kind'];
}

/** The strategy comparison of the shown model, computed in the worker beside the plan. */
export interface ComparisonState {
  readonly model: InferredModel; // the inference compared
  readonly key: string; // targetKey() of the settings compared
  readonly status: 'running' | 'done' | 'failed';
  readonly peaks: readonly StrategyPeak[]; // one per strategy once done
  readonly progress: LoadProgress | undefined; // while running
  readonly error: ErrorData | undefined; // when failed
}

/** The suggestions of the plan on screen, evaluated in the worker after the plan is shown. */
export interface SuggestionsState {
  readonly plan: ModelPlan; // the plan they are about
  readonly status: 'running' | 'done' | 'failed';
  readonly list: readonly Suggestion[]; // largest saving first, once done
  readonly progress: LoadProgress | undefined; // while running
  readonly error: ErrorData | undefined; // when failed
}

/** How the plan of the shown model grows along one axis, planned in the worker after the plan is on screen (growth.ts). */
export interface GrowthState {
  readonly key: string; // what the curve depends on (growthKey)
  readonly file: Blob | undefined; // the shown model's file, when it came from one
  readonly axis: GrowthAxis;
  readonly values: readonly number[]; // the values asked for, in order
  readonly status: 'running' | 'done' | 'failed' | 'cancelled';
  readonly points: readonly GrowthPoint[]; // planned so far, by value
  readonly result: Grown | undefined; // once done: monotonic, crossings, fitsUpTo
  readonly progress: LoadProgress | undefined; // while running
  readonly error: ErrorData | undefined; // when failed
}

/** Page status, as published on document.body.dataset.status (DESIGN.md). */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** Columns of the tensor table. `order` is the model's own order of first appearance. */
export type SortColumn = 'order' | 'name' | 'op' | 'kind' | 'dtype' | 'shape' | 'bytes';

/** Which tensors the table lists: all, run-time ones (inputs, activations, outputs), weights or constants. */
export type KindFilter = 'all' | 'runtime' | 'weights' | 'constants';

/** Sort of the tensor table. */
export interface TableSort {
  readonly column: SortColumn;
  readonly direction: 'ascending' | 'descending';
}

/**
 * What the graph and the heap show as selected: a node (by name), a buffer (by
 * plan id) or a step of the execution order.
 */
export type Selection =
  | { readonly kind: 'node'; readonly node: string }
  | { readonly kind: 'buffer'; readonly buffer: number }
  | { readonly kind: 'step'; readonly step: number };

/** The graph view's progress, as summary().graph reports it (DESIGN.md). */
export interface GraphDrawState {
  readonly model: InferredModel | undefined; // the model it is about (a state of another model or plan reads as pending)
  readonly plan: PlanResult | undefined; // the plan it is about
  readonly status: 'pending' | 'drawn' | 'simple' | 'none'; // simple: a fallback layout, with its reason on screen
  readonly boxes: number; // boxes drawn
  readonly ms: number | null; // from the plan on screen to its graph drawn
}

/**
 * Which groups of the graph are collapsed, as changes from a starting point:
 * the model's first view, every group expanded, or every top group collapsed
 * ("Collapse all"). A link carries it (groups=, group.ID=).
 */
export interface GroupView {
  readonly from: 'first' | 'open' | 'closed';
  readonly open: readonly string[]; // group ids expanded against `from`
  readonly closed: readonly string[]; // group ids collapsed against `from`
}

/** The graph's groups as the graph pane reports them, or as a link asks for them. */
export interface GraphGroupsState extends GroupView {
  readonly model: InferredModel | undefined; // the model they are about; undefined: a link's, for the next model the graph shows
  readonly collapsed: readonly string[]; // every group collapsed now, sorted (summary().graph.collapsed)
}

/** Everything the user can do; the store's actions. */
export interface AppActions {
  /** Opens a file from disk (picker or drop). Too-large files fail before any byte is read. */
  openFile(file: File): Promise<void>;
  /** Opens the sample model shipped with the app. */
  openSample(dims?: DimValues, more?: Partial<ModelBindings>): Promise<void>;
  /**
   * Downloads and opens a model from a URL; a saved plan file there goes to `openPlan` when
   * given (the plan viewer), else it is refused as a model file that is no model.
   */
  openUrl(url: string, dims?: DimValues, more?: Partial<ModelBindings>, openPlan?: (file: Blob, name: string) => Promise<void>): Promise<void>;
  /** Remembers that a link was made for the local file `name`: opening a file of that name applies `bindings`. */
  expectFile(name: string, bindings: Partial<ModelBindings>): void;
  /** Binds a symbolic dim (undefined: back to its default) and re-infers the shown model. */
  setDim(name: string, value: number | undefined): Promise<void>;
  /**
   * Gives a tensor a shape (undefined: the inferred one again) and re-infers the shown
   * model; the shape propagates. A shape that is not one is refused: `bindingError` says why.
   */
  setShape(name: string, dims: readonly number[] | undefined): Promise<void>;
  /** Gives a graph input a value (undefined: unknown again), e.g. to resolve an If, and re-infers. */
  setInputValue(name: string, values: readonly number[] | undefined): Promise<void>;
  /**
   * Changes the target preset, strategy and/or the preset's field edits and plans the
   * shown model again (in the worker). A new target drops the edits. Settings that do
   * not make a valid target are refused: `settingsError` says why, names the field, and the plan stays.
   */
  setSettings(settings: Partial<PlanSettings>): Promise<void>;
  /** Selects a node, buffer or step in every view (undefined: nothing). */
  select(selection: Selection | undefined): void;
  /** The graph view reports how far its drawing is. */
  setGraphDraw(graph: GraphDrawState): void;
  /** The graph pane reports which groups are collapsed (or a link asks for them, with no model). */
  setGroups(groups: GraphGroupsState): void;
  /**
   * The shown .tflite model with the plan on screen written in as TensorFlow Lite Micro's
   * offline plan (the runtime plan's offsets), built in the worker. Rejects with a sentence
   * when the plan on screen has no runtime plan (plannedTfliteBlocker) or the worker fails.
   */
  plannedTflite(): Promise<ArrayBuffer>;
  /**
   * Plans the shown model at each of `values` of `axis` in the worker, after the plan on
   * screen, unless that curve is there already (or `again`, to plan it anew).
   */
  sweepGrowth(axis: GrowthAxis, values: readonly number[], again?: boolean): void;
  /** Stops the growth curve in flight, keeping its points so far. */
  cancelGrowth(): void;
  /** Says why the Growth pane's typed range is refused (undefined: it is not): the pane then shows no curve. */
  setGrowthRangeError(message: string | undefined): void;
  /** Says why the Growth pane offers nothing to vary (undefined: it offers an axis): the pane then shows that instead of a curve. */
  setGrowthRefused(message: string | undefined): void;
  /** Stops the task in flight; the shown model stays. */
  cancel(): void;
  /**
   * Stops the budgeted search of the plan in flight, which then shows the best plan
   * found so far; cancels the task when its search cannot be stopped.
   */
  stopSearch(): void;
  /** Hides the error banner and a refused binding's message. */
  dismissError(): void;
  /** Shows the error banner for file `name` that could not be opened outside the loader (a saved plan file); the model on screen stays. */
  showFileError(name: string, error: ErrorData): void;
  /**
   * Adds parameters of the opening link that were left out, each as "key=value: why", to those the link notice names;
   * `bindings` are the shapes and input values among them, whose unused-binding diagnostics the notice then stands for.
   */
  noteLinkLeftOut(entries: readonly string[], bindings?: readonly BindingRef[]): void;
  /** Notes that the link was made for a local file other than the one opened, as the line the link notice names it by first. */
  noteLinkOtherFile(line: string): void;
  /** Sets the tensor table's search text. */
  setQuery(query: string): void;
  /** Sets which kinds of tensor the table lists. */
  setKindFilter(kinds: KindFilter): void;
  /** Sorts the table by `column`; the same column again flips the direction. */
  setSort(column: SortColumn): void;
}

/** The whole state of the page. */
export interface AppState {
  readonly model: LoadedModel | undefined;
  readonly task: LoadTask | undefined;
  readonly progress: LoadProgress | undefined;
  readonly error: LoadError | undefined;
  readonly dims: DimValues; // the user's bindings for the shown model
  readonly shapes: ShapeValues; // tensor shapes the user gave for the shown model
  readonly inputValues: InputValues; // graph-input values the user gave for the shown model
  readonly bindingError: BindingRefusal | undefined; // why the last shape or input value was refused, and the field it names
  readonly expectedFile: { readonly name: string; readonly bindings: Partial<ModelBindings> } | undefined; // a link's local file, to open again
  readonly settings: PlanSettings; // what the shown plan is (or is being) made for
  readonly settingsError: SettingsRefusal | undefined; // why the last settings change was refused, and the field it names
  readonly comparison: ComparisonState | undefined;
  readonly suggestions: SuggestionsState | undefined;
  readonly growth: GrowthState | undefined;
  readonly growthRangeError: string | undefined; // why the range typed in the Growth pane is refused: its curve is then not shown
  readonly growthRefused: string | undefined; // why the open Growth pane offers nothing to vary (a .tflite on tflm, a model with no symbolic dim)
  readonly selection: Selection | undefined;
  readonly selectionLost: string | undefined; // the buffer that was selected, dropped by a new plan that has no buffer of its tensor: Details says so until something is selected, or a later plan has it again and it is selected
  readonly linkLeftOut: readonly string[]; // parameters of the opening link left out (app/startup.ts), named by the link notice
  readonly linkLeftOutBindings: readonly BindingRef[]; // the shapes and input values among them: told there, not again in Diagnostics
  readonly linkOtherFile: string | undefined; // the link was made for a local file other than the one opened: the notice's first line, not a parameter left out
  readonly graph: GraphDrawState;
  readonly groups: GraphGroupsState;
  readonly query: string;
  readonly kinds: KindFilter;
  readonly sort: TableSort;
  readonly actions: AppActions;
}

/** The state before anything is opened. */
export const INITIAL_STATE: Omit<AppState, 'actions'> = {
  model: undefined,
  task: undefined,
  progress: undefined,
  error: undefined,
  dims: {},
  shapes: {},
  inputValues: {},
  bindingError: undefined,
  expectedFile: undefined,
  settings: DEFAULT_SETTINGS,
  settingsError: undefined,
  comparison: undefined,
  suggestions: undefined,
  growth: undefined,
  growthRangeError: undefined,
  growthRefused: undefined,
  selection: undefined,
  selectionLost: undefined,
  linkLeftOut: [],
  linkLeftOutBindings: [],
  linkOtherFile: undefined,
  graph: { model: undefined, plan: undefined, status: 'none', boxes: 0, ms: null },
  groups: { model: undefined, from: 'first', open: [], closed: [], collapsed: [] },
  query: '',
  kinds: 'all',
  sort: { column: 'order', direction: 'ascending' },
};
