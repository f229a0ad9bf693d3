import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { decodeOnnx } from '../model/onnx/decode-onnx';
import { inferShapes } from '../model/infer/shapes';
import { writePlanFile } from '../planner/assembly/plan-file';
import { createAppStore } from './create-store';
import { createLocalPort, createModelClient } from '../worker/client';
import { planForSettings } from '../worker/plan/settings';
import { createCompareStore } from './compare-store';
import { sidePlanFile } from './side-plan-file';
import { currentSuggestions } from './suggestions';
import { compareSummary } from '../views/compare/compare-summary';
import { comparedFigure } from '../views/compare/compared-figure';
import { GraphBuilder } from '../model/testing/onnx-writer';

const SAMPLE = new Uint8Array(readFileSync(new URL('../../public/sample.onnx', import.meta.url)));
const SAMPLE_URL = 'https://app.example/sample.onnx';

/** The real request handler on this thread, as the page's fallback runs it. */
const localClient = () => createModelClient((onResponse) => createLocalPort(onResponse));

/** The page's store and a comparison over it, both planning with the real handler; fetch serves the sample. */
function setup() {
  const fetches: string[] = [];
  const fetchFn = (async (url: string | URL | Request) => {
    fetches.push(String(url));
    return new Response(SAMPLE.slice());
  }) as typeof fetch;
  const page = createAppStore({ client: localClient(), fetch: fetchFn, baseUrl: 'https://app.example/', sampleUrl: SAMPLE_URL });
  let client: ReturnType<typeof localClient> | undefined;
  const released: number[] = [];
  const compare = createCompareStore({
    page: () => page.getState(),
    client: () => (client ??= localClient()),
    releaseClient: () => {
      if (client !== undefined) released.push(1);
      client?.dispose();
      client = undefined;
    },
    fetch: fetchFn,
    baseUrl: 'https://app.example/',
    subscribe: (listener) => page.subscribe(listener),
  });
  return { page, compare, actions: compare.getState().actions, fetches, released };
}

/** The peak of the sample planned directly, for `dims` on the cpu target. */
function directPeak(dims: Record<string, number>): number {
  return planForSettings(inferShapes(decodeOnnx(SAMPLE, {}), { dims }), { target: 'cpu', strategy: undefined }).peak;
}

describe('comparing plans', () => {
  it('plans B as the shown model with another dim, leaving the page alone, and diffs A against B', async () => {
    const { page, compare, actions, fetches } = setup();
    await page.getState().actions.openSample({ batch: 1 });
    const shownPlan = page.getState().model;
    await actions.compareShownWith({ dims: { batch: 4 } });
    const { a, b, diff, error } = compare.getState();
    expect(error).toBeUndefined();
    expect(a?.file.plan.peak).toBe(directPeak({ batch: 1 }));
    expect(b?.file.plan.peak).toBe(directPeak({ batch: 4 }));
    expect(b?.file.settings.dims.batch).toBe(4);
    expect(diff?.delta).toBe(directPeak({ batch: 4 }) - directPeak({ batch: 1 }));
    expect(diff?.causes[0]).toMatchObject({ kind: 'dim-changed', dim: 'batch' });
    // The sample was read again for B; the page's model and plan did not change.
    expect(fetches).toEqual([SAMPLE_URL, SAMPLE_URL]);
    expect(page.getState().model).toBe(shownPlan);
  });

  it("records B's whole settings, which plan the same B again, and the summary gives both peaks and B's settings", async () => {
    const { page, compare, actions } = setup();
    await page.getState().actions.openSample({ batch: 1 });
    await actions.compareShownWith({ dims: { batch: 4 }, settings: { target: 'mcu', strategy: 'tflm' } });
    const first = compare.getState();
    expect(first.sideB).toEqual({ dims: { batch: 4 }, shapes: {}, inputValues: {}, settings: { target: 'mcu', strategy: 'tflm' } });
    const summary = compareSummary(first);
    expect(summary).toMatchObject({ peakA: directPeak({ batch: 1 }), peakB: first.b!.file.plan.peak, strategy: 'tflm', target: 'mcu' });
    expect(summary?.settings).toMatchObject({ target: 'mcu', strategy: 'tflm', dims: { batch: 4 }, fusion: true });
    actions.close();
    expect(compareSummary(compare.getState())).toBeNull();
    await actions.compareShownAs(first.sideB!);
    expect(compare.getState().b?.file.plan.peak).toBe(first.b!.file.plan.peak);
    expect(compareSummary(compare.getState())).toEqual(summary);
    // B from a file is not the shown model planned again: it has no settings to link.
    await actions.compareShownWithFile(new Blob([writePlanFile(first.b!.file)]), 'b.plan.json');
    expect(compare.getState().sideB).toBeUndefined();
    expect(compareSummary(compare.getState())?.settings).toBeNull();
  });

  it('takes a saved plan file as B, with the same diff as planning it', async () => {
    const { page, compare, actions } = setup();
    await page.getState().actions.openSample({ batch: 1 });
    await actions.compareShownWith({ dims: { batch: 4 } });
    const planned = compare.getState();
    const saved = new Blob([writePlanFile(planned.b!.file)]);
    await actions.compareShownWithFile(saved, 'batch4.plan.json');
    const reopened = compare.getState();
    expect(reopened.b?.label).toContain('(saved)');
    expect(reopened.diff?.causes).toEqual(planned.diff?.causes);
    expect(reopened.diff?.buffers).toEqual(planned.diff?.buffers);
  });

  /** The sample at batch `shown` on the page, its plan at batch `saved` written to a file and opened alone in the viewer. */
  async function withSavedPlan(shown: number, saved: number) {
    const s = setup();
    await s.page.getState().actions.openSample({ batch: shown });
    await s.actions.compareShownWith({ dims: { batch: saved } });
    const file = s.compare.getState().b!.file;
    s.actions.close();
    await s.actions.openSavedPlan(new Blob([writePlanFile(file)]), 'saved.plan.json');
    return s;
  }

  it('shows a saved plan alone, then against the plan on screen', async () => {
    const { compare, actions } = await withSavedPlan(2, 1);
    expect(compare.getState()).toMatchObject({ b: undefined, diff: undefined });
    expect(compare.getState().a?.file.plan.peak).toBe(directPeak({ batch: 1 }));
    actions.compareSavedWithShown();
    expect(compare.getState().diff?.delta).toBe(directPeak({ batch: 2 }) - directPeak({ batch: 1 }));
  });

  it('labels a saved plan shown alone with the input shape it was planned with', async () => {
    const { page, compare, actions } = setup();
    await page.getState().actions.openSample();
    await actions.compareShownAs({ dims: {}, shapes: { image: [1, 3, 224, 224] }, inputValues: {}, settings: { target: 'cpu', strategy: undefined } });
    const file = compare.getState().b!.file;
    actions.close();
    await actions.openSavedPlan(new Blob([writePlanFile(file)]), 'image224.plan.json');
    expect(compare.getState().a?.label).toContain('image=1×3×224×224');
  });

  it('refuses a file that is not a plan, and a comparison without a plan on screen, with a sentence', async () => {
    const { page, compare, actions } = setup();
    await actions.openSavedPlan(new Blob(['{"name": "notes"}']), 'notes.json');
    expect(compare.getState().error).toBe('notes.json is not a heapscope plan file (it does not start with "format": "heapscope-plan")');
    // JSON that starts like a plan is read as one, and its fault named: a plan cut short, a format of another tool
    await actions.openSavedPlan(new Blob(['{"model":"x","nodes":[']), 'cut.plan.json');
    expect(compare.getState().error).toMatch(/^cut\.plan\.json is not a plan file: not valid JSON/);
    await actions.openSavedPlan(new Blob(['{"format": "other"}']), 'other.json');
    expect(compare.getState().error).toBe('other.json is not a plan file: "format" is "other", expected "heapscope-plan"');
    await actions.compareShownWith({ dims: { batch: 4 } });
    expect(compare.getState().error).toBe('there is no plan on screen to compare with: open a model first');
    await page.getState().actions.openSample();
    await actions.compareShownWith({ settings: { strategy: 'no-such-strategy' } });
    expect(compare.getState().error).toContain('no-such-strategy');
    expect(compare.getState().b).toBeUndefined();
  });

  it("hands a damaged saved plan's error to the caller that asked for it, and leaves no message of its own", async () => {
    const { compare, actions } = setup();
    const refused: { code: string; message: string }[] = [];
    await actions.openSavedPlan(new Blob(['{"format": "heapscope-plan", "version": 1, "mod']), 'cut.plan.json', (error) => refused.push(error));
    expect(refused).toEqual([{ code: 'bad-plan', message: expect.stringMatching(/^cut\.plan\.json is not a plan file: not valid JSON/) }]);
    expect(compare.getState()).toMatchObject({ a: undefined, busy: undefined, error: undefined });
  });

  it('closes the viewer of an earlier saved plan when a damaged one handed to the caller fails, so nothing covers its message', async () => {
    const { compare, actions } = await withSavedPlan(1, 2);
    expect(compare.getState().a).toBeDefined();
    const refused: unknown[] = [];
    await actions.openSavedPlan(new Blob(['{"format": "heapscope-plan", "version": 1, "mod']), 'edited.plan.json', (error) => refused.push(error));
    expect(refused).toHaveLength(1);
    expect(compare.getState()).toMatchObject({ a: undefined, b: undefined, busy: undefined, error: undefined });
  });

  it('clears a stale message once another model is on screen', async () => {
    const { page, compare, actions } = setup();
    await actions.openSavedPlan(new Blob(['{"format": "heapscope-plan"']), 'cut.plan.json');
    expect(compare.getState().error).toContain('cut.plan.json');
    await page.getState().actions.openSample();
    expect(compare.getState().error).toBeUndefined();
  });

  it('drops the answer of a comparison closed while B was being planned', async () => {
    const { page, compare, actions, released } = setup();
    await page.getState().actions.openSample();
    const running = actions.compareShownWith({ dims: { batch: 3 } });
    expect(compare.getState().busy).toBeDefined();
    actions.close();
    await running;
    expect(compare.getState()).toMatchObject({ a: undefined, b: undefined, busy: undefined, error: undefined });
    // The next comparison starts the second worker (the first was closed while still reading), and closing stops it.
    await actions.compareShownWith({ dims: { batch: 2 } });
    expect(compare.getState().b?.file.settings.dims.batch).toBe(2);
    expect(released).toHaveLength(0);
    actions.close();
    expect(released).toHaveLength(1);
  });
});

describe("B's settings", () => {
  it('plans B on another target from a shown plan with edits: the edits name fields of the shown preset only', async () => {
    const { page, compare, actions } = setup();
    await page.getState().actions.openSample({ batch: 1 });
    // mcu without spilling, compared with cpu: cpu has one region and refused the spill edit.
    await page.getState().actions.setSettings({ target: 'mcu', strategy: undefined, edits: { spill: 'off' } });
    await actions.compareShownWith({ settings: { target: 'cpu', strategy: undefined } });
    expect(compare.getState().error).toBeUndefined();
    expect(compare.getState().sideB?.settings).toEqual({ target: 'cpu', strategy: undefined });
    expect(compare.getState().b?.file.plan.peak).toBe(directPeak({ batch: 1 }));
  });
});

describe('another model opened while a comparison is open', () => {
  /** A small model of its own, unlike the sample: x[batch, 8] -> Relu -> Relu. */
  function otherModel(): File {
    const g = new GraphBuilder('other');
    const x = g.input('x', 'float32', ['batch', 8]);
    g.output(g.node('Relu', [g.node('Relu', [x])]), 'float32', ['batch', 8]);
    return new File([new Uint8Array(g.toBytes({ opset: 17 }))], 'other.onnx');
  }

  it("plans B again for the new model with B's settings and the bindings it has, never keeping the old model's numbers", async () => {
    const { page, compare, actions } = setup();
    await page.getState().actions.openSample();
    await actions.compareShownAs({ dims: { batch: 4 }, shapes: {}, inputValues: {}, settings: { target: 'mcu', strategy: undefined } });
    expect(compare.getState().a?.file.model).toBe('sample.onnx');
    await page.getState().actions.openFile(otherModel());
    // Until B is planned again, nothing of the sample's comparison is left to show.
    expect(compare.getState()).toMatchObject({ a: undefined, b: undefined, diff: undefined });
    await vi.waitFor(() => expect(compare.getState().busy).toBeUndefined());
    const { a, b, sideB, error } = compare.getState();
    expect(error).toBeUndefined();
    expect(a?.file.model).toBe('other.onnx');
    expect(b?.file.model).toBe('other.onnx');
    expect(b?.file.settings.target).toBe('mcu');
    expect(sideB).toEqual({ dims: { batch: 4 }, shapes: {}, inputValues: {}, settings: { target: 'mcu', strategy: undefined } });
    const shown = page.getState().model?.plan;
    expect(compareSummary(compare.getState())?.peakA).toBe(shown?.status === 'planned' ? shown.plan.peak : undefined);
  });

  it('closes a saved plan shown alone as another model starts opening, and a comparison against another file once a new model is on screen', async () => {
    const { page, compare, actions } = await withSavedPlanAlone();
    const opening = page.getState().actions.openFile(otherModel());
    expect(compare.getState()).toMatchObject({ a: undefined, b: undefined, busy: undefined });
    await opening;
    expect(page.getState().model?.name).toBe('other.onnx');
    expect(compare.getState().a).toBeUndefined();
    await actions.compareShownWithFile(otherModel(), 'b.onnx');
    expect(compare.getState().b).toBeDefined();
    await page.getState().actions.openSample();
    expect(compare.getState()).toMatchObject({ a: undefined, b: undefined, busy: undefined });
  });

  async function withSavedPlanAlone() {
    const s = setup();
    await s.page.getState().actions.openSample();
    await s.actions.compareShownWith({ dims: { batch: 2 } });
    const file = s.compare.getState().b!.file;
    s.actions.close();
    await s.actions.openSavedPlan(new Blob([writePlanFile(file)]), 'saved.plan.json');
    return s;
  }
});

const TFLITE = new URL('../../../shared/models/tflite/', import.meta.url);
const haveTflite = existsSync(new URL('tflm_person_detect_vela.tflite', TFLITE));

describe.skipIf(!haveTflite)('comparing TensorFlow Lite Micro plans', () => {
  it('compares the arenas to declare, as heapscope diff does, not the peaks of the placements drawn', async () => {
    // A = Vela's person_detect on tflm, B = the plain model: "B − A: −100 KiB (-65.0 %)", where B's arena is 7.30 KiB larger
    const { page, compare, actions } = setup();
    const file = (name: string) => new File([new Uint8Array(readFileSync(new URL(name, TFLITE)))], name);
    await page.getState().actions.openFile(file('tflm_person_detect_vela.tflite'));
    await page.getState().actions.setSettings({ target: 'tflm' });
    await actions.compareShownWithFile(file('tflm_person_detect.tflite'), 'tflm_person_detect.tflite');
    const { diff, error } = compare.getState();
    expect(error).toBeUndefined();
    // neither side is refused by TensorFlow Lite Micro: each arena is one that works
    // the Vela file's ethos-u kernel asks for scratch heapscope does not know: A's arena is a lower estimate, so B − A is at most +7.30 KiB
    expect(diff?.runtime).toEqual({
      runtime: 'tflm',
      a: { head: 74_464, tail: 416, tailAlone: 404, planning: 12, arena: 74_880, arenaAsIs: 74_880, lowerEstimate: true, tailEstimated: true, refused: false },
      b: { head: 55_296, tail: 27_056, tailAlone: 27_052, planning: 4, arena: 82_352, arenaAsIs: 82_352, lowerEstimate: false, tailEstimated: true, refused: false },
      delta: 7_472,
      deltaAsIs: 7_472,
    });
    expect(comparedFigure(diff!)).toMatchObject({ what: 'arena', delta: 7_472, bound: 'at-most', asIs: undefined });
    expect(diff?.delta).toBeLessThan(0); // the placements' peaks, shown beside the arenas
    expect(compareSummary(compare.getState())).toMatchObject({ arenaA: 74_880, arenaB: 82_352, arenaAsIsA: 74_880, arenaAsIsB: 82_352, arenaLowerEstimateA: true, arenaLowerEstimateB: false });
  });
});

describe.skipIf(!existsSync(new URL('tflm_person_detect.tflite', TFLITE)))('comparing a TensorFlow Lite Micro plan with a plan of another target', () => {
  it("gives the one side's arena to declare from the diff, as diff's runtimeA or runtimeB, and names its side", async () => {
    // A = person_detect on tflm, B = it on cpu: Compare read only "B − A: 0 B" and summary().compare had no arena
    const { page, compare, actions } = setup();
    const name = 'tflm_person_detect.tflite';
    await page.getState().actions.openFile(new File([new Uint8Array(readFileSync(new URL(name, TFLITE)))], name));
    await page.getState().actions.setSettings({ target: 'tflm' });
    await actions.compareShownWith({ settings: { target: 'cpu' } });
    const { diff, a, b, error } = compare.getState();
    expect(error).toBeUndefined();
    expect(diff?.runtime).toBeUndefined();
    expect(diff?.runtimeB).toBeUndefined();
    expect(diff?.runtimeA).toMatchObject({ arena: 82_352, arenaAsIs: 82_352, tailEstimated: true, lowerEstimate: false });
    const figure = comparedFigure(diff!, { a: a!.file.settings, b: b!.file.settings });
    expect(figure).toMatchObject({ what: 'peak', alone: { side: 'a', figures: diff!.runtimeA } });
    expect(figure.detail).toMatch(/^arena to declare, A only: 80\.4 KiB \(estimate\) \(TensorFlow Lite Micro, head 54\.0 KiB \+ tail and planning 26\.4 KiB\); B is no TensorFlow Lite Micro plan \(target cpu\) and declares no arena/);
    const shown = compareSummary(compare.getState())!;
    expect(shown).toMatchObject({ arenaA: 82_352, arenaAsIsA: 82_352, arenaLowerEstimateA: false });
    expect(shown.arenaB).toBeUndefined();
  });
});

describe("a side's plan file", () => {
  it('carries the suggestions of the plan on screen when the side is that plan, as the Export panel saves it', async () => {
    const { page, compare, actions } = setup();
    await page.getState().actions.openSample({ batch: 1 });
    await actions.compareShownWith({ dims: { batch: 4 } });
    const { a, b } = compare.getState();
    // A waits for the suggestions the page evaluates, then carries them
    const savedA = await sidePlanFile(a!, page);
    const evaluated = currentSuggestions(page.getState());
    expect(evaluated?.status).toBe('done');
    expect(savedA).toEqual({ file: { ...a!.file, plan: { ...a!.file.plan, suggestions: evaluated!.list } } });
    expect(JSON.parse(writePlanFile(savedA.file)).plan.suggestions).toEqual(evaluated!.list);
    // B was planned for the comparison: none evaluated, so the key is left out and the save says why
    const savedB = await sidePlanFile(b!, page);
    expect('suggestions' in JSON.parse(writePlanFile(savedB.file)).plan).toBe(false);
    expect(savedB.withoutSuggestions).toBe('they are evaluated for the plan on screen only, not for a plan made for the comparison');
  });

  it('leaves them out, saying why, once the plan on screen is another; a saved plan keeps what it was saved with', async () => {
    const { page, compare, actions } = setup();
    await page.getState().actions.openSample({ batch: 1 });
    await actions.compareShownWith({ dims: { batch: 4 } });
    const { a, b } = compare.getState();
    await page.getState().actions.setSettings({ strategy: 'naive' });
    const stale = await sidePlanFile(a!, page);
    expect('suggestions' in stale.file.plan).toBe(false);
    expect(stale.withoutSuggestions).toBe('they were evaluated for the plan on screen, which this side no longer is');

    await actions.openSavedPlan(new Blob([writePlanFile(b!.file)]), 'b.plan.json');
    expect(await sidePlanFile(compare.getState().a!, page)).toMatchObject({ withoutSuggestions: 'the plan file it was read from has none' });
    const withThem = (await sidePlanFile(compare.getState().a!, page)).file;
    const suggested = { ...withThem, plan: { ...withThem.plan, suggestions: [] } };
    await actions.openSavedPlan(new Blob([writePlanFile(suggested)]), 'suggested.plan.json');
    const resaved = await sidePlanFile(compare.getState().a!, page);
    expect(resaved.withoutSuggestions).toBeUndefined();
    expect(resaved.file.plan.suggestions).toEqual([]);
  });
});
