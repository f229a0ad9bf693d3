import { describe, expect, it } from 'vitest';
import type { PlanDiff } from '../../planner/diff/diff-plans';
import { comparedFigure, deltaPercent } from './compared-figure';

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
      detail: "TensorFlow Lite Micro arena 73.1 KiB → 80.4 KiB (head 72.7 KiB → 54.0 KiB, tail 416 B → 26.4 KiB) · heapscope's placement: peak −100 KiB, not what the firmware declares",
    });
    expect(deltaPercent(figure)).toBe(' (+10.0 %)');
  });

  it('is the peak otherwise', () => {
    const figure = comparedFigure(PEAKS as unknown as PlanDiff);
    expect(figure).toEqual({ what: 'peak', a: 158_160, b: 55_296, delta: -102_864, label: 'B − A', detail: undefined });
    expect(deltaPercent(figure)).toBe(' (−65.0 %)');
    expect(deltaPercent({ a: 0, delta: 5 })).toBe('');
  });
});
