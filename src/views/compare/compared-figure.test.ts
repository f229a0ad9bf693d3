import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import type { PlanDiff } from '../../planner/diff/diff-plans';
import { arenaFigures } from '../../planner/diff/runtime-delta';
import { planForSettings } from '../../worker/plan/settings';
import { runtimeLines } from '../details/runtime-plan-words';
import { barPartsText, memoryMapData } from '../panels/memory-map-data';
import { arenaSideText, comparedFigure, deltaPercent } from './compared-figure';

const PEAKS = { peakA: 158_160, peakB: 55_296, delta: -102_864 } as const;

describe('the figure Compare reads', () => {
  it('is the arena to declare when both sides are TensorFlow Lite Micro plans, the peaks beside it', () => {
    // Vela's person_detect against the plain model read "B − A: −100 KiB (-65.0 %)"; the plain model's arena is 7.30 KiB larger
    const runtime = { runtime: 'tflm', a: { head: 74_464, tail: 416, arena: 74_880 }, b: { head: 55_296, tail: 27_056, arena: 82_352 }, delta: 7_472 } as const;
    const figure = comparedFigure({ ...PEAKS, runtime } as unknown as PlanDiff);
    expect(figure).toEqual({
      what: 'arena',
      a: 74_880,
      b: 82_352,
      delta: 7_472,
      label: 'B − A, arena to declare',
      detail: "TensorFlow Lite Micro arena 73.1 KiB → 80.4 KiB (head 72.7 KiB → 54.0 KiB, tail and planning 416 B → 26.4 KiB) · heapscope's placement: peak −100 KiB, not what the firmware declares",
    });
    expect(deltaPercent(figure)).toBe(' (+10.0 %)');
  });

  it('is the peak otherwise', () => {
    const figure = comparedFigure(PEAKS as unknown as PlanDiff);
    expect(figure).toEqual({ what: 'peak', a: 158_160, b: 55_296, delta: -102_864, label: 'B − A', detail: undefined });
    expect(deltaPercent(figure)).toBe(' (−65.0 %)');
    expect(deltaPercent({ a: 0, delta: 5 })).toBe('');
  });

  it('names the arena beyond the head "tail and planning", as the memory map does: Vela\'s 416 B is its 404 B tail and planning', () => {
    // it read "arena 73.1 KiB (72.7 KiB + 416 B)" and "tail 26.4 KiB → 416 B" while the details said Tail 404 B
    const vela = { head: 74_464, tail: 416, arena: 74_880 };
    expect(arenaSideText(vela)).toBe('arena 73.1 KiB (head 72.7 KiB + tail and planning 416 B)');
    const runtime = { runtime: 'tflm', a: { head: 55_296, tail: 27_056, arena: 82_352 }, b: vela, delta: -7_472 } as const;
    const detail = comparedFigure({ ...PEAKS, runtime } as unknown as PlanDiff).detail!;
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
