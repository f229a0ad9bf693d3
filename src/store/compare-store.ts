// The comparison of two plans, A and B, and the saved plan viewer: its own small
// store beside the page's. A is the plan on screen (or a saved plan); B is the
// same model planned again with other dims or settings, another model, or a
// saved plan. B is planned in a second model worker, so the page's worker and
// the plan on screen are left alone. The diff is the planner's diffPlans.

import { createStore, type StoreApi } from 'zustand/vanilla';
import { diffPlans, type PlanDiff } from '../planner/diff/diff-plans';
import { sideLabels } from '../planner/diff/side-labels';
import { inputValues, shapeLabel, shapeOverrides, valueLabel } from '../planner/diff/input-changes';
import { looksLikePlanFile, readPlanFile, type PlanFile } from '../planner/assembly/plan-file';
import { InputError, toErrorData, type ErrorData } from '../shared/errors';
import { fetchModel, readBlob, type FetchDeps } from './read-source';
import type { Bindings } from './bindings';
import type { AppState, LoadedModel } from './state';
import type { InferredModel } from '../model/inferred';
import type { ModelPlan } from '../planner/plan';
import type { ModelClient } from '../worker/client';
import type { DimValues, ModelBindings, PlanSettings } from '../worker/protocol';
import { planFileOf } from '../settings/plan-file';
import { changeSettings } from '../settings/change';

/** One side of the comparison. */
export interface ComparedPlan {
  readonly file: PlanFile;
  readonly label: string; // what the side is, e.g. "sample.onnx, batch=4"
  readonly shown?: ModelPlan; // the page's plan the side was made from, when it is the plan on screen: the page evaluates its suggestions
  readonly saved?: true; // read from a saved plan file, as it was saved
}

/** What the user asked B to be, relative to the plan on screen. */
export interface SettingsChange {
  readonly dims?: DimValues; // bindings to change (merged over the shown ones)
  readonly settings?: Partial<PlanSettings>;
}

/** B as the shown model planned again: every binding and setting it was planned with, as a link carries it. */
export interface SideBSettings extends Bindings {
  readonly settings: PlanSettings;
}

/** Buffers and nodes to emphasize in both diagrams (a cause or a buffer change the user picked). */
export interface CompareFocus {
  readonly label: string;
  readonly buffersA: readonly string[]; // tensor names in A
  readonly buffersB: readonly string[]; // tensor names in B
  readonly nodes: readonly string[];
}

/** The comparison's state. */
export interface CompareState {
  readonly a: ComparedPlan | undefined;
  readonly b: ComparedPlan | undefined; // undefined with `a` set: a saved plan shown alone
  readonly sideB: SideBSettings | undefined; // what B was planned with when it is the shown model planned again; undefined for a file or saved plan
  readonly diff: PlanDiff | undefined;
  readonly busy: { readonly label: string; readonly fraction: number | undefined } | undefined;
  readonly error: string | undefined;
  readonly focus: CompareFocus | undefined;
}

/** The comparison's actions. */
export interface CompareActions {
  /** A = the plan on screen; B = the same model with `change` applied, planned in the second worker. */
  compareShownWith(change: SettingsChange): Promise<void>;
  /** A = the plan on screen; B = the same model planned with exactly `b` (a link's B). */
  compareShownAs(b: SideBSettings): Promise<void>;
  /** A = the plan on screen; B = a model file (planned with the shown settings) or a saved plan file. */
  compareShownWithFile(file: Blob, name: string): Promise<void>;
  /**
   * Shows a saved plan file alone, as it was saved (no planning). Why it cannot be read goes to
   * `onError` when given (the page's error banner, for a file opened as the page opens files), else to `error`.
   */
  openSavedPlan(file: Blob, name: string, onError?: (error: ErrorData) => void): Promise<void>;
  /** With a saved plan shown alone: makes it A and the plan on screen B. */
  compareSavedWithShown(): void;
  /** Emphasizes buffers and nodes in both diagrams (undefined: none). */
  setFocus(focus: CompareFocus | undefined): void;
  /** Closes the comparison. */
  close(): void;
}

/** The store of the comparison. */
export type CompareStore = StoreApi<CompareState & { readonly actions: CompareActions }>;

/** What the comparison needs from the page. */
export interface CompareDeps extends FetchDeps {
  readonly page: () => AppState; // the page's state: the shown model and its settings
  readonly client: () => ModelClient; // the second worker, created on first use
  readonly releaseClient?: () => void; // stops the second worker (its decoded model is large) when the comparison closes
  readonly subscribe?: (listener: (state: AppState, previous: AppState) => void) => () => void; // the page's changes: a new model on screen clears a stale message
}

const EMPTY: CompareState = { a: undefined, b: undefined, sideB: undefined, diff: undefined, busy: undefined, error: undefined, focus: undefined };

type Sides = { a: ComparedPlan; b: ComparedPlan | undefined; sideB?: SideBSettings };

/** Creates the comparison's store. */
export function createCompareStore(deps: CompareDeps): CompareStore {
  return createStore<CompareState & { readonly actions: CompareActions }>()((set, get) => {
    let generation = 0;
    let planning: SideBSettings | undefined; // B asked of the task in flight when it is the shown model planned again
    /** Runs one task that ends with B (and A); a newer task or close() drops its answer. */
    const run = async (
      label: string,
      task: (progress: (fraction: number | undefined, label: string) => void) => Promise<Sides>,
      onError?: (error: ErrorData) => void,
    ): Promise<void> => {
      const mine = ++generation;
      planning = undefined;
      set({ busy: { label, fraction: undefined }, error: undefined });
      try {
        const { a, b, sideB } = await task((fraction, text) => {
          if (mine === generation) set({ busy: { label: text, fraction } });
        });
        if (mine !== generation) return;
        set({ ...EMPTY, ...labelled(a, b), sideB, diff: b === undefined ? undefined : diffPlans(a.file, b.file) });
      } catch (error) {
        if (mine !== generation) return;
        // Told elsewhere (the page's banner for a dropped file): the viewer of an earlier saved plan closes, or it
        // would cover the banner and the page would say "error" behind a dialog showing the old plan.
        if (onError !== undefined) set({ ...EMPTY });
        else set({ busy: undefined, error: toErrorData(error).message });
        onError?.(toErrorData(error));
      }
    };
    // A message about an earlier model or file is stale once another model is on screen, and so is a comparison
    // whose A is the model that was on screen: B as that model planned again is planned again for the new one,
    // any other B (another file, a saved plan) was about the old model and closes. A saved plan shown alone
    // closes as soon as another model starts opening: the user asked to see that model, and the viewer left open
    // over it offered to compare the saved plan with a model it was not opened against.
    deps.subscribe?.((state, previous) => {
      if (state.model !== previous.model && state.model !== undefined && get().error !== undefined) set({ error: undefined });
      if (state.task !== previous.task && state.task?.kind === 'open' && get().a !== undefined && get().b === undefined) close();
      if (state.model === undefined || previous.model === undefined || state.model.opening === previous.model.opening) return;
      const { b, sideB, busy } = get();
      if (b === undefined && busy === undefined) return;
      const asked = busy === undefined ? sideB : planning;
      close();
      if (asked !== undefined && state.model.plan.status === 'planned') void compareShownAs(sideBFor(asked, state.model.inferred));
    });
    const close = (): void => {
      generation += 1;
      deps.releaseClient?.();
      set(EMPTY);
    };
    const compareShownAs = (sideB: SideBSettings): Promise<void> => {
      const task = run('Planning B', async (progress) => {
        const shown = shownPlan(deps.page());
        const bytes = await modelBytes(shown.model, deps);
        const { settings, ...bindings } = sideB;
        const b = await planInWorker(deps.client(), bytes, shown.model.name, bindings, settings, progress);
        return { a: shown.side, b, sideB };
      });
      planning = sideB;
      return task;
    };
    return {
      ...EMPTY,
      actions: {
        compareShownWith(change) {
          const page = deps.page();
          // The same model: the page's shapes and input values hold.
          const settings = changeSettings(page.settings, change.settings ?? {});
          return compareShownAs({ dims: { ...page.dims, ...change.dims }, shapes: page.shapes, inputValues: page.inputValues, settings });
        },
        compareShownAs,
        compareShownWithFile: (file, name) =>
          run(`Reading ${name}`, async (progress) => {
            const shown = shownPlan(deps.page());
            const bytes = await readBlob(file, name);
            if (looksLikePlanFile(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 256)))) return { a: shown.side, b: savedSide(bytes, name) };
            const page = deps.page();
            return { a: shown.side, b: await planInWorker(deps.client(), bytes, name, { dims: page.dims }, page.settings, progress) };
          }),
        openSavedPlan: (file, name, onError) =>
          run(`Reading ${name}`, async () => ({ a: savedSide(await readBlob(file, name), name), b: undefined }), onError),
        compareSavedWithShown() {
          const { a, b } = get();
          if (a === undefined || b !== undefined) return;
          try {
            const shown = shownPlan(deps.page()).side;
            set({ ...EMPTY, ...labelled(a, shown), diff: diffPlans(a.file, shown.file) });
          } catch (error) {
            set({ error: toErrorData(error).message });
          }
        },
        setFocus: (focus) => set({ focus }),
        close,
      },
    };
  });
}

/** B's settings for another model: its plan settings, and those of its bindings that name a dim, tensor or input of `model`. */
function sideBFor(sideB: SideBSettings, model: InferredModel): SideBSettings {
  const dims = new Set(model.dims.map((d) => d.name));
  const values = new Set(model.values.map((v) => v.name));
  const inputs = new Set(model.inputs);
  const keep = <T>(record: Readonly<Record<string, T>>, names: ReadonlySet<string>) => Object.fromEntries(Object.entries(record).filter(([name]) => names.has(name)));
  return { dims: keep(sideB.dims, dims), shapes: keep(sideB.shapes, values), inputValues: keep(sideB.inputValues, inputs), settings: sideB.settings };
}

/** The saved plan shown alone in the plan viewer (no comparison open): the plan on screen, over the page's model; undefined otherwise. */
export function shownSavedPlan(state: Pick<CompareState, 'a' | 'b'>): PlanFile | undefined {
  return state.a?.saved === true && state.b === undefined ? state.a.file : undefined;
}

/** Both sides labelled by what differs between them (a saved side keeps saying so). */
function labelled(a: ComparedPlan, b: ComparedPlan | undefined): { a: ComparedPlan; b: ComparedPlan | undefined } {
  if (b === undefined) return { a, b };
  const [la, lb] = sideLabels(a.file, b.file);
  const saved = (side: ComparedPlan) => (side.saved === true ? ' (saved)' : '');
  return { a: { ...a, label: la + saved(a) }, b: { ...b, label: lb + saved(b) } };
}

/** The plan on screen as side A; fails with a sentence when there is none. */
function shownPlan(page: AppState): { model: LoadedModel; side: ComparedPlan } {
  const model = page.model;
  if (model === undefined || model.plan.status !== 'planned') throw new InputError('bad-argument', 'there is no plan on screen to compare with: open a model first');
  const settings = model.plan.settings;
  const file = planFileOf({ name: model.name, inferred: model.inferred, plan: model.plan.plan, settings, dims: page.dims });
  return { model, side: { file, label: sideLabel(model.name, file), shown: model.plan.plan } };
}

/** Where the shown model's bytes are read again from. */
async function modelBytes(model: LoadedModel, deps: FetchDeps): Promise<ArrayBuffer> {
  if (model.file !== undefined) return readBlob(model.file, model.name);
  if (model.url !== undefined) return (await fetchModel(model.url, deps)).bytes;
  throw new InputError('io', `${model.name} cannot be read again: open it again to compare`);
}

/** Opens `bytes` in the second worker and makes its plan a side. */
async function planInWorker(
  client: ModelClient,
  bytes: ArrayBuffer,
  name: string,
  bindings: ModelBindings,
  settings: PlanSettings,
  progress: (fraction: number | undefined, label: string) => void,
): Promise<ComparedPlan> {
  const outcome = await client.open(bytes, name, bindings, settings, progress);
  if (outcome.status === 'cancelled') throw new Error('planning B was cancelled');
  if (outcome.status === 'failed') throw new InputError('bad-argument', `B: ${outcome.error.message}`);
  const { plan, model } = outcome.result;
  if (plan.status === 'failed') throw new InputError('bad-argument', `B could not be planned: ${plan.error.message}`);
  const userDims = Object.fromEntries(model.dims.filter((d) => d.source === 'user').map((d) => [d.name, d.value]));
  const file = planFileOf({ name, inferred: model, plan: plan.plan, settings: plan.settings, dims: userDims });
  return { file, label: sideLabel(name, file) };
}

/** A saved plan file as a side. */
function savedSide(bytes: ArrayBuffer, name: string): ComparedPlan {
  const text = new TextDecoder().decode(bytes);
  // A file that starts like a plan (cut short, edited) is read as one, so its fault is named in a plan file's terms.
  if (!looksLikePlanFile(text)) throw new InputError('bad-plan', `${name} is not a heapscope plan file (it does not start with "format": "heapscope-plan")`);
  const file = readPlanFile(text, name);
  return { file, label: `${sideLabel(file.model, file)} (saved)`, saved: true };
}

/** "model · target · strategy · dims · shapes and input values given", and "fusion off" or "spill off" when the target's fusion or spilling is switched off. */
export function sideLabel(name: string, file: PlanFile): string {
  const dims = [
    ...Object.entries(file.settings.dims).map(([k, v]) => `${k}=${v}`),
    ...Object.keys(shapeOverrides(file) ?? {}).map((k) => shapeLabel(file, k)),
    ...Object.keys(inputValues(file) ?? {}).map((k) => valueLabel(file, k)),
  ];
  const { fusion, planning } = file.settings.targetProfile;
  const off = [...(fusion !== undefined && !fusion.enabled ? ['fusion off'] : []), ...(planning.spill === 'off' ? ['spill off'] : [])];
  return [name, file.settings.target, file.plan.strategy, ...dims, ...off].join(' · ');
}
