import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import type { PlanDiff } from '../../planner/diff/diff-plans';
import { arenaFigures } from '../../planner/diff/runtime-delta';
import { planForSettings } from '../../worker/plan/settings';
import { runtimeLines } from '../details/runtime-plan-words';
import { barPartsText, memoryMapData } from '../panels/memory-map-data';
import { arenaSideText, comparedFigure, deltaPercent, placementPeaksText } from './compared-figure';

const PEAKS = { peakA: 158_160, peakB: 55_296, delta: -102_864, completeA: true, completeB: true } as const;

/** A side's arena as runtime-delta.ts gives it: the file as it is needs the same arena, known unless `lowerEstimate`. */
const side = (head: number, tail: number, lowerEstimate = false, arenaAsIs = head + tail) => ({ head, tail, arena: head + tail, arenaAsIs, lowerEstimate });

describe('the figure Compare reads', () => {
  it('is the arena to declare when both sides are TensorFlow Lite Micro plans, the peaks beside it', () => {
    // Vela's person_detect against the plain model read "B − A: −100 KiB (-65.0 %)"; the plain model's arena is 7.30 KiB larger
    const runtime = { runtime: 'tflm', a: side(74_464, 416), b: side(55_296, 27_056), delta: 7_472, deltaAsIs: 7_472 } as const;
    const figure = comparedFigure({ ...PEAKS, runtime } as unknown as PlanDiff);
    expect(figure).toEqual({
      what: 'arena',
      a: 74_880,
      b: 82_352,
      delta: 7_472,
      bound: 'exact',
      note: undefined,
      asIs: undefined,
      label: 'B − A, arena to declare',
      detail: "TensorFlow Lite Micro arena 73.1 KiB → 80.4 KiB (head 72.7 KiB → 54.0 KiB, tail and planning 416 B → 26.4 KiB) · heapscope's placement: peak 154 KiB → 54.0 KiB (−100 KiB), not what the firmware declares",
      alone: undefined,
    });
    expect(deltaPercent(figure)).toBe(' (+10.0 %)');
  });

  it('says no arena works for a side TensorFlow Lite Micro refuses, as diff does, not only its figures', () => {
    const refused = { ...side(96, 656), refused: true };
    const runtime = { runtime: 'tflm', a: { ...side(96, 656), refused: false }, b: refused, delta: 0, deltaAsIs: 0 } as const;
    const detail = comparedFigure({ ...PEAKS, runtime, refusedB: true } as unknown as PlanDiff).detail!;
    expect(detail).toMatch(/^No arena works for B: TensorFlow Lite Micro refuses it, AllocateTensors\(\) fails whatever the arena; the figures are what it would plan were it accepted\. TensorFlow Lite Micro arena 752 B → 752 B/);
    expect(arenaSideText(refused)).toBe('no arena works, TensorFlow Lite Micro refuses it; were it accepted: arena 752 B (head 96 B + tail and planning 656 B)');
    expect(arenaSideText({ ...refused, refused: false })).toBe('arena 752 B (head 96 B + tail and planning 656 B)');
  });

  it('says no arena works for B when only B is a TensorFlow Lite Micro plan and TFLM refuses it (no arenas to compare)', () => {
    const figure = comparedFigure({ ...PEAKS, refusedB: true } as unknown as PlanDiff);
    expect(figure.what).toBe('peak');
    expect(figure.detail).toBe('No arena works for B: TensorFlow Lite Micro refuses it, AllocateTensors() fails whatever the arena.');
  });

  it("gives the placements' peaks on both sides, not their change alone: a planned .tflite against its model read 'peak 0 B'", () => {
    // the selfie segmenter against its planned .tflite: both placements peak at 3.50 MiB, as diff says (±0 B)
    const same = { peakA: 3_670_016, peakB: 3_670_016, delta: 0, completeA: true, completeB: true };
    expect(placementPeaksText(same)).toBe('peak 3.50 MiB → 3.50 MiB (±0 B)');
    const mediapipe = side(3_670_016, 47_680, true, 4_241_984);
    const figure = comparedFigure({ ...same, runtime: { runtime: 'tflm', a: mediapipe, b: mediapipe, delta: 0, deltaAsIs: 0 } } as unknown as PlanDiff);
    expect(figure.detail).toMatch(/ · heapscope's placement: peak 3\.50 MiB → 3\.50 MiB \(±0 B\), not what the firmware declares$/);
    // a side with a size unknown is a lower estimate, and so bounds the change
    expect(placementPeaksText({ ...same, peakB: 3_000_000, delta: -670_016, completeB: false })).toBe('peak 3.50 MiB → ≥ 2.86 MiB (at least −654 KiB)');
  });

  it("names the arena to declare of the one side that is a TensorFlow Lite Micro plan, with its side, as diff's 'b only' line", () => {
    // person_detect on cpu against it on tflm: Compare read only "B − A: 0 B", B's 80.4 KiB to declare left to its row
    const cpu = { target: 'cpu', targetProfile: { planning: {} } };
    const tflm = { target: 'tflm', targetProfile: { planning: { runtime: 'tflm' } } };
    const person = { ...side(55_296, 27_056), tailEstimated: true, refused: false };
    const figure = comparedFigure({ ...PEAKS, runtimeB: person } as unknown as PlanDiff, { a: cpu, b: tflm });
    expect(figure).toMatchObject({ what: 'peak', delta: PEAKS.delta, label: 'B − A', alone: { side: 'b', figures: person } });
    expect(figure.detail).toBe(
      "arena to declare, B only: 80.4 KiB (estimate) (TensorFlow Lite Micro, head 54.0 KiB + tail and planning 26.4 KiB); A is no TensorFlow Lite Micro plan (target cpu) and declares no arena, so B − A is of heapscope's placements, not the arena the firmware declares",
    );
    // A alone on tflm, B an ONNX model planned on tflm all the same; a lower estimate is "≥", not "(estimate)"
    const lower = { ...side(74_464, 416, true), tailEstimated: true, refused: false };
    const reversed = comparedFigure({ ...PEAKS, runtimeA: lower } as unknown as PlanDiff, { a: tflm, b: tflm });
    expect(reversed.alone?.side).toBe('a');
    expect(reversed.detail).toMatch(/^arena to declare, A only: ≥ 73\.1 KiB \(TensorFlow Lite Micro, head 72\.7 KiB \+ tail and planning 416 B\); B is no TensorFlow Lite Micro plan \(not a \.tflite model\) and declares no arena/);
    // the file as it is first where it needs another arena; a refusal before it all, with the figures said to be what TFLM would plan
    const asIs = { ...side(3_670_016, 47_680, true, 4_241_984), tailEstimated: true, refused: true };
    const refused = comparedFigure({ ...PEAKS, runtimeB: asIs, refusedB: true } as unknown as PlanDiff, { a: cpu, b: tflm }).detail!;
    expect(refused).toMatch(/^No arena works for B: .*; the figures are what it would plan were it accepted\. arena to declare, B only: ≥ 4\.05 MiB for the file as it is, flashed unchanged; ≥ 3\.55 MiB with heapscope's plan written in \(TensorFlow Lite Micro, head 3\.50 MiB/);
  });

  it('is the peak otherwise', () => {
    const figure = comparedFigure(PEAKS as unknown as PlanDiff);
    expect(figure).toEqual({ what: 'peak', a: 158_160, b: 55_296, delta: -102_864, bound: 'exact', note: undefined, asIs: undefined, label: 'B − A', detail: undefined, alone: undefined });
    expect(comparedFigure({ ...PEAKS, completeB: false } as unknown as PlanDiff)).toMatchObject({ bound: 'at-least', note: "B's peak is a lower estimate: some sizes are unknown in B" });
    expect(deltaPercent(figure)).toBe(' (−65.0 %)');
    expect(deltaPercent({ a: 0, delta: 5 })).toBe('');
  });

  it("bounds the arenas' change by a side whose kernel's scratch is not known, as diff does: the plain person_detect against Vela's is at least −7.30 KiB", () => {
    // it read "B − A, arena to declare: −7.30 KiB" as exact, and each side's arena without "≥"
    const runtime = { runtime: 'tflm', a: side(55_296, 27_056), b: side(74_464, 416, true), delta: -7_472, deltaAsIs: -7_472 } as const;
    const figure = comparedFigure({ ...PEAKS, runtime } as unknown as PlanDiff);
    expect(figure).toMatchObject({ bound: 'at-least', asIs: undefined, note: "B's arena is a lower estimate: a kernel's scratch requests are not known, none assumed" });
    expect(figure.detail).toContain('arena 80.4 KiB → ≥ 73.1 KiB (head');
    expect(arenaSideText(runtime.b)).toBe('arena ≥ 73.1 KiB (head 72.7 KiB + tail and planning 416 B)');
    const reversed = comparedFigure({ ...PEAKS, runtime: { ...runtime, a: runtime.b, b: runtime.a, delta: 7_472 } } as unknown as PlanDiff);
    expect(reversed).toMatchObject({ bound: 'at-most', note: "A's arena is a lower estimate: a kernel's scratch requests are not known, none assumed" });
  });

  it("gives the files as they are beside the arenas with the plan written when they differ: MediaPipe's selfie segmenter against itself", () => {
    // it read only the 3.55 MiB with heapscope's plan written in, while the file flashed unchanged needs 4.05 MiB
    const mediapipe = side(3_670_016, 47_680, true, 4_241_984);
    const runtime = { runtime: 'tflm', a: mediapipe, b: mediapipe, delta: 0, deltaAsIs: 0 } as const;
    const figure = comparedFigure({ ...PEAKS, runtime } as unknown as PlanDiff);
    expect(figure).toMatchObject({ a: 3_717_696, delta: 0, bound: 'unbounded', asIs: { a: 4_241_984, b: 4_241_984, delta: 0 } });
    expect(figure.note).toBe("both arenas are lower estimates: a kernel's scratch requests are not known, none assumed, so the true change may be larger or smaller");
    expect(figure.detail).toContain('arena ≥ 4.05 MiB → ≥ 4.05 MiB for the files as they are, flashed unchanged; ≥ 3.55 MiB → ≥ 3.55 MiB with heapscope\'s plan written in (head 3.50 MiB');
    expect(arenaSideText(mediapipe)).toBe('arena ≥ 4.05 MiB as it is · ≥ 3.55 MiB with the plan written (head 3.50 MiB + tail and planning 46.6 KiB)');
  });

  it("says an arena resting on the tail's estimated parts is an estimate, as Details does, and a lower estimate only '≥'", () => {
    // person_detect's arena read "arena 80.4 KiB (head …)" as exact while the heap's header and Details said "80.4 KiB (estimate)"
    const estimated = { ...side(55_296, 27_056), tailEstimated: true };
    expect(arenaSideText(estimated)).toBe('arena 80.4 KiB (estimate) (head 54.0 KiB + tail and planning 26.4 KiB)');
    expect(arenaSideText({ ...side(74_464, 416, true), tailEstimated: true })).toBe('arena ≥ 73.1 KiB (head 72.7 KiB + tail and planning 416 B)');
    expect(arenaSideText({ ...side(3_670_000, 47_712, false, 4_242_000), tailEstimated: true })).toBe(
      'arena 4.05 MiB (estimate) as it is · 3.55 MiB (estimate) with the plan written (head 3.50 MiB + tail and planning 46.6 KiB)',
    );
    const runtime = { runtime: 'tflm', a: { ...side(74_464, 416), tailEstimated: false }, b: estimated, delta: 7_472, deltaAsIs: 7_472 } as const;
    expect(comparedFigure({ ...PEAKS, runtime } as unknown as PlanDiff).detail).toContain('TensorFlow Lite Micro arena 73.1 KiB → 80.4 KiB (estimate) (head 72.7 KiB → 54.0 KiB');
  });

  it("gives person_detect's arena the words of the heap's header and Details: 80.4 KiB (estimate)", () => {
    const person = new URL('../../../../shared/models/tflite/tflm_person_detect.tflite', import.meta.url);
    if (!existsSync(person)) return void console.log('compared figure: ../shared/models/tflite is absent; skipping the person_detect arena');
    const plan = planForSettings(inferShapes(decodeModel(new Uint8Array(readFileSync(person))), { dims: {} }), { target: 'tflm', strategy: undefined });
    const shown = runtimeLines(plan.runtimePlan!, plan.peak).find((l) => l.key === 'arena')!.shown;
    expect(shown).toBe('80.4 KiB (estimate)');
    expect(arenaSideText(arenaFigures(plan)!)).toBe(`arena ${shown} (head 54.0 KiB + tail and planning 26.4 KiB)`);
  });

  it('names the arena beyond the head "tail and planning", as the memory map does: Vela\'s 416 B is its 404 B tail and planning', () => {
    // it read "arena 73.1 KiB (72.7 KiB + 416 B)" and "tail 26.4 KiB → 416 B" while the details said Tail 404 B
    const vela = side(74_464, 416);
    expect(arenaSideText(vela)).toBe('arena 73.1 KiB (head 72.7 KiB + tail and planning 416 B)');
    const runtime = { runtime: 'tflm', a: side(55_296, 27_056), b: vela, delta: -7_472, deltaAsIs: -7_472 } as const;
    const detail = comparedFigure({ ...PEAKS, runtime, refusedB: true } as unknown as PlanDiff).detail!;
    expect(detail).toContain('tail and planning 26.4 KiB → 416 B');
    expect(detail).not.toMatch(/tail (?!and planning)/);
  });

  it('gives the Vela model one figure per label in Compare, the memory map and the details: tail 404 B, tail and planning 416 B', () => {
    const vela = new URL('../../../../shared/models/tflite/tflm_person_detect_vela.tflite', import.meta.url);
    if (!existsSync(vela)) return void console.log('compared figure: ../shared/models/tflite is absent; skipping the Vela figures');
    const plan = planForSettings(inferShapes(decodeModel(new Uint8Array(readFileSync(vela))), { dims: {} }), { target: 'tflm', strategy: undefined });
    const tail = runtimeLines(plan.runtimePlan!, plan.peak).find((l) => l.key === 'tail')!;
    expect([tail.label, tail.bytes]).toEqual(['Tail', 404]);
    const arena = arenaFigures(plan)!;
    expect(arena.tail).toBe(416);
    expect(arenaSideText(arena)).toContain('tail and planning 416 B');
    const bar = memoryMapData(plan).bars[0]!;
    expect(bar.tail).toBe(arena.tail);
    expect(barPartsText(bar)).toContain("TFLite Micro's tail and planning 416 B");
  });
});
