// Opening models (file, sample, URL) through the worker client, re-inferring
// them on dim changes and re-planning them on settings changes (all in the
// worker). A generation counter makes every task supersede the one
// before it; an AbortController stops a superseded read or download.

import { toErrorData, type ErrorData } from '../shared/errors';
import { formatBytes } from '../shared/format';
import type { ClientOutcome, ClientResult, ModelClient } from '../worker/client';
import { looksLikePlanFile } from '../planner/assembly/plan-file';
import { refusalOf, settingsProblem } from '../settings/usable';
import { changeSettings } from '../settings/change';
import { plansFileShapes } from '../settings/target';
import { INFER_LABEL, NO_MODEL_CODE, PLAN_LABEL, type PlanResult, type PlanSettings, type SearchProgress } from '../worker/protocol';
import { keptSelection } from './kept-selection';
import { inputValueProblem, isDimValue, NO_BINDINGS, shapeProblem, userBindings, withEntry, type Bindings, type BindingRefusal } from './bindings';
import { checkSize, fetchModel, nameOfUrl, resolveUrl, type FetchDeps } from './read-source';
import type { AppState, LoadedModel, LoadTask, ModelOrigin } from './state';

/** What loading needs from the outside; tests pass fakes. */
export interface LoaderDeps extends FetchDeps {
  readonly client: ModelClient;
  readonly sampleUrl: string; // the sample model shipped with the app
  readonly maxBytes?: number; // largest file the page reads; 2 GiB by default
}

/** zustand's set and get, as the loader uses them. */
export interface StateAccess {
  readonly set: (partial: Partial<AppState>) => void;
  readonly get: () => AppState;
}

/** Where a model's bytes come from; kept for the shown model so it can be read again. */
export type ModelSource =
  | { readonly kind: 'blob'; readonly blob: Blob; readonly name: string }
  | { readonly kind: 'url'; readonly url: string; readonly origin: Exclude<ModelOrigin, 'file'> };

/** Bytes read from a source: a downloaded buffer, or a file the worker reads itself. */
interface SourceBytes {
  readonly bytes: ArrayBuffer | Blob;
  readonly name: string;
  readonly url: string | undefined;
}

let openings = 0;

/** A number for a model just opened, unlike any before it: a re-inferred model keeps its opening's. */
export function nextOpening(): number {
  openings += 1;
  return openings;
}

/** Share of the progress bar that reading the bytes takes; the worker takes the rest. */
const READ_SHARE = 0.3;

/** Runs the open and re-inference tasks of one store. */
export class ModelLoader {
  private generation = 0;
  private stopping: number | undefined; // the task whose search was asked to stop
  private abort: AbortController | undefined;
  private shownSource: ModelSource | undefined; // the source of the model on screen

  constructor(
    private readonly state: StateAccess,
    private readonly deps: LoaderDeps,
  ) {}

  /**
   * Reads `source` and opens it; the model on screen stays until it succeeds. A saved plan
   * downloaded from a URL goes to `openPlan` when given, as a dropped one goes to the plan viewer.
   */
  open(source: ModelSource, bindings: Bindings, openPlan?: OpenPlan): Promise<void> {
    const task: LoadTask = { kind: 'open', name: sourceName(source, this.deps.baseUrl) };
    const token = this.begin(task, source.kind === 'blob' ? 'Reading the file' : 'Waiting for the server');
    return this.load(token, task, source, bindings, openPlan);
  }

  /** Binds dim `name` (undefined: back to its default) and re-infers the shown model. */
  setDim(name: string, value: number | undefined): Promise<void> {
    if (value !== undefined && !isDimValue(value)) return Promise.resolve();
    return this.rebind((b) => ({ ...b, dims: withEntry(b.dims, name, value) }));
  }

  /** Gives tensor `name` a shape (undefined: the inferred one again) and re-infers the shown model. */
  setShape(name: string, dims: readonly number[] | undefined): Promise<void> {
    const refused = dims === undefined ? undefined : shapeProblem(name, dims, this.state.get().model?.inferred.format);
    if (refused !== undefined) return this.refuse(refused);
    return this.rebind((b) => ({ ...b, shapes: withEntry(b.shapes, name, dims) }));
  }

  /** Gives graph input `name` a value (undefined: unknown again) and re-infers the shown model. */
  setInputValue(name: string, values: readonly number[] | undefined): Promise<void> {
    const refused = values === undefined ? undefined : inputValueProblem(name, values);
    if (refused !== undefined) return this.refuse(refused);
    return this.rebind((b) => ({ ...b, inputValues: withEntry(b.inputValues, name, values) }));
  }

  /** Keeps the plan and says why a binding was refused. */
  private refuse(refusal: BindingRefusal): Promise<void> {
    this.state.set({ bindingError: refusal });
    return Promise.resolve();
  }

  /** Re-infers the shown model with its bindings changed by `change`. */
  private async rebind(change: (bindings: Bindings) => Bindings): Promise<void> {
    const { model, task: busy, dims, shapes, inputValues } = this.state.get();
    if (model === undefined || busy?.kind === 'open') return;
    const next = change({ dims, shapes, inputValues });
    const task: LoadTask = { kind: 'reinfer', name: model.name };
    const token = this.begin(task, INFER_LABEL);
    this.state.set({ ...next, bindingError: undefined });
    const outcome = await this.deps.client.reinfer(next, this.state.get().settings, (f, label, search) => this.report(token, f, label, search));
    if (outcome.status === 'failed' && outcome.error.code === NO_MODEL_CODE && this.shownSource !== undefined) {
      // The worker was restarted since this model was opened: read the file again.
      return this.load(token, task, this.shownSource, next);
    }
    this.settle(token, task, outcome, (result) => ({
      ...model,
      inferred: result.model,
      timings: { ...result.timings, decodeMs: model.timings.decodeMs },
      plan: result.plan,
    }));
  }

  /** Changes the plan settings and plans the shown model again, without inferring it again. */
  async setSettings(change: Partial<PlanSettings>): Promise<void> {
    const { model, task: busy, settings, settingsError } = this.state.get();
    const next = changeSettings(settings, change);
    // Back to the settings in force: nothing to plan, and a refusal of another value no longer stands.
    if (sameSettings(next, settings)) {
      if (settingsError !== undefined) this.state.set({ settingsError: undefined });
      return;
    }
    const refused = settingsProblem(next);
    if (refused !== undefined) {
      this.state.set({ settingsError: refused });
      return;
    }
    this.state.set({ settings: next, settingsError: undefined });
    if (model === undefined || busy?.kind === 'open') return;
    // a .tflite shows its file's shapes for TensorFlow Lite Micro and the dims given elsewhere: inferred again when that changes
    if (model.inferred.format === 'tflite' && plansFileShapes(next) !== plansFileShapes(settings)) return this.rebind((b) => b);
    const task: LoadTask = { kind: 'replan', name: model.name };
    const token = this.begin(task, PLAN_LABEL);
    const outcome = await this.deps.client.replan(next, (f, label, search) => this.report(token, f, label, search));
    if (outcome.status === 'failed' && outcome.error.code === NO_MODEL_CODE && this.shownSource !== undefined) {
      const { dims, shapes, inputValues } = this.state.get();
      return this.load(token, task, this.shownSource, { dims, shapes, inputValues });
    }
    if (!this.isCurrent(token) || outcome.status === 'cancelled') return;
    if (outcome.status === 'failed') {
      this.fail(token, task, outcome.error);
      return;
    }
    const shown = this.state.get().model ?? model;
    const result = outcome.result;
    if (result.status === 'failed' && SETTINGS_CODES.has(result.error.code) && shown.plan.status === 'planned') {
      // The worker refused the settings: keep the plan on screen and the settings it was made for.
      this.state.set({ task: undefined, progress: undefined, settings: shown.plan.settings, settingsError: refusalOf(result.error) });
      return;
    }
    this.state.set({ model: { ...shown, plan: result }, task: undefined, progress: undefined, error: undefined, ...kept(this.state.get(), result) });
  }

  /** Opens the shown model in the worker again, as shown (a restarted worker holds none); true once it is back on screen. */
  async reopen(): Promise<boolean> {
    const { model, task } = this.state.get();
    if (model === undefined || task !== undefined || this.shownSource === undefined) return false;
    const again: LoadTask = { kind: 'replan', name: model.name };
    const token = this.begin(again, PLAN_LABEL);
    await this.load(token, again, this.shownSource, this.shownBindings());
    return this.isCurrent(token) && this.state.get().error === undefined;
  }

  /** Stops the search of the task in flight, keeping its best plan; cancels the task when it has no search to stop. */
  stopSearch(): void {
    const { task, progress } = this.state.get();
    if (task === undefined) return;
    if (progress?.search?.stoppable !== true || !this.deps.client.stopSearch()) {
      this.cancel();
      return;
    }
    this.stopping = this.generation;
    this.state.set({ progress: { ...progress, stopping: true } });
  }

  /** Stops the task in flight; the shown model and its bindings stay. */
  cancel(): void {
    if (this.state.get().task === undefined) return;
    this.generation += 1;
    this.abort?.abort();
    this.deps.client.cancel();
    this.state.set({ task: undefined, progress: undefined, ...this.shownBindings() });
  }

  private begin(task: LoadTask, label: string): number {
    this.generation += 1;
    this.abort?.abort();
    this.abort = new AbortController();
    this.state.set({ task, error: undefined, progress: { fraction: 0, label } });
    return this.generation;
  }

  private isCurrent(token: number): boolean {
    return token === this.generation;
  }

  private report(token: number, fraction: number | undefined, label: string, search?: SearchProgress): void {
    if (!this.isCurrent(token)) return;
    const stopping = this.stopping === token ? { stopping: true } : {};
    this.state.set({ progress: { fraction: fraction === undefined ? undefined : Math.min(1, fraction), label, ...(search !== undefined && { search }), ...stopping } });
  }

  private shownBindings(): Bindings {
    const shown = this.state.get().model;
    return shown ? userBindings(shown.inferred) : NO_BINDINGS;
  }

  private fail(token: number, task: LoadTask, error: ErrorData): void {
    if (!this.isCurrent(token)) return;
    this.state.set({ task: undefined, progress: undefined, error: { ...error, file: task.name, task: task.kind }, ...this.shownBindings() });
  }

  /** Reads `source` and opens it in the worker as part of task `task`. */
  private async load(token: number, task: LoadTask, source: ModelSource, bindings: Bindings, openPlan?: OpenPlan): Promise<void> {
    try {
      const file = await this.read(token, source);
      if (!this.isCurrent(token)) return;
      if (openPlan !== undefined && isPlanBytes(file.bytes)) {
        // Not a model: the page's task ends here, and the plan viewer reads the file.
        this.state.set({ task: undefined, progress: undefined, ...this.shownBindings() });
        await openPlan(new Blob([file.bytes]), file.name);
        return;
      }
      const size = file.bytes instanceof Blob ? file.bytes.size : file.bytes.byteLength;
      const toWorker = (f: number, label: string, search?: SearchProgress): void => {
        // A search reports its own share of the budget, not the share of the whole open.
        this.report(token, search === undefined ? READ_SHARE + (1 - READ_SHARE) * f : f, label, search);
      };
      const outcome = await this.deps.client.open(file.bytes, file.name, bindings, this.state.get().settings, toWorker);
      this.settle(token, task, outcome, (result) => {
        this.shownSource = source;
        const origin: ModelOrigin = source.kind === 'blob' ? 'file' : source.origin;
        const blob = source.kind === 'blob' ? { file: source.blob } : {};
        // Read again for a re-inference (the worker restarted): still the same opening.
        const shown = this.state.get().model;
        const opening = task.kind === 'open' || shown === undefined ? nextOpening() : shown.opening;
        return { name: result.name, size, origin, url: file.url, ...blob, inferred: result.model, timings: result.timings, plan: result.plan, opening };
      });
    } catch (error) {
      this.fail(token, task, toErrorData(error));
    }
  }

  private async read(token: number, source: ModelSource): Promise<SourceBytes> {
    const onProgress = (loaded: number, total: number | undefined): void => {
      const verb = source.kind === 'blob' ? 'Reading' : 'Downloading';
      const label = `${verb} ${formatBytes(loaded)}${total === undefined ? '' : ` of ${formatBytes(total)}`}`;
      this.report(token, total ? (READ_SHARE * loaded) / total : undefined, label);
    };
    const signal = this.abort?.signal;
    const max = this.deps.maxBytes;
    const options = { onProgress, ...(signal ? { signal } : {}), ...(max ? { max } : {}) };
    if (source.kind === 'url') return fetchModel(source.url, this.deps, options);
    // The worker reads the file itself, so the limit is checked (and said) before any byte is read,
    // and no buffer near 2 GiB has to cross postMessage.
    checkSize(source.name, source.blob.size, max);
    this.report(token, READ_SHARE, `Reading ${formatBytes(source.blob.size)}`);
    return { bytes: source.blob, name: source.name, url: undefined };
  }

  private settle(token: number, task: LoadTask, outcome: ClientOutcome, toModel: (result: ClientResult) => LoadedModel): void {
    if (!this.isCurrent(token) || outcome.status === 'cancelled') return;
    if (outcome.status === 'failed') {
      this.fail(token, task, outcome.error);
      return;
    }
    const model = toModel(outcome.result);
    const fresh = task.kind === 'open' ? { query: '', selection: undefined, selectionLost: undefined } : kept(this.state.get(), model.plan);
    this.state.set({ model, task: undefined, progress: undefined, error: undefined, ...userBindings(model.inferred), ...fresh });
  }
}

/** Opens a saved plan file (the plan viewer's), in place of a model. */
export type OpenPlan = (file: Blob, name: string) => Promise<void>;

/** True for downloaded bytes that start as a saved plan file does (the sniff reads only their head, as for a dropped file). */
function isPlanBytes(bytes: ArrayBuffer | Blob): bytes is ArrayBuffer {
  return bytes instanceof ArrayBuffer && looksLikePlanFile(new Uint8Array(bytes));
}

/** Error codes of settings the planner refuses (unknown names, bad field values). */
const SETTINGS_CODES: ReadonlySet<string> = new Set(['bad-target', 'bad-argument']);

/** True when two settings make the same plan. */
function sameSettings(a: PlanSettings, b: PlanSettings): boolean {
  return a.target === b.target && a.strategy === b.strategy && a.budgetMs === b.budgetMs && JSON.stringify(a.edits ?? {}) === JSON.stringify(b.edits ?? {});
}

/** The selection that still means the same thing in the new plan `after` of the shown model: a buffer by its tensor, not its id. */
function kept(state: AppState, after: PlanResult): Pick<AppState, 'selection' | 'selectionLost'> {
  const { selection, lost } = keptSelection(state.selection, state.model?.plan, after, state.selectionLost);
  return { selection, selectionLost: lost };
}

/** The name a task shows before the bytes arrive. */
function sourceName(source: ModelSource, baseUrl: string): string {
  if (source.kind === 'blob') return source.name;
  try {
    return nameOfUrl(resolveUrl(source.url, baseUrl));
  } catch {
    return source.url;
  }
}
