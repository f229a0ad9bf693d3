import { describe, expect, it } from 'vitest';
import type { ModelPlan, PlannedBuffer } from '../../planner/plan';
import { syntheticPlan } from './synthetic-plan';
import { heapData } from './heap-data';
import { cursorStep, heapKeyTarget, liveInDrawnOrder, markedStep } from './heap-keys';

const buffer = (id: number, region: string, start: number, end: number, offset: number, size: number): PlannedBuffer => ({
  id, name: `b${id}`, kind: 'activation', size, bytes: size, start, end, offset, region,
});

/**
 * Eight steps over two regions: in 'ram', b0 [0,3) at 0, b1 [2,6) at 64,
 * b2 [3,5) at 0 (after b0), b3 [5,8) at 0; in 'sram', b4 [2,4) at 0.
 */
function plan(): ModelPlan {
  const base = syntheticPlan(80, 1); // eight steps
  const buffers = [buffer(0, 'ram', 0, 3, 0, 64), buffer(1, 'ram', 2, 6, 64, 32), buffer(2, 'ram', 3, 5, 0, 48), buffer(3, 'ram', 5, 8, 0, 96), buffer(4, 'sram', 2, 4, 0, 16)];
  const waste = base.waste;
  return {
    ...base,
    buffers,
    regions: [
      { name: 'ram', peak: 96, lowerBound: 96, optimal: true, fast: false, overBy: 0, waste },
      { name: 'sram', peak: 16, lowerBound: 16, optimal: true, fast: true, overBy: 0, waste },
    ],
  };
}

const data = heapData(plan());

describe('heap keys', () => {
  it('walks time from a selected buffer\'s first step, not from step 0', () => {
    expect(data.steps).toBe(8);
    const at = { step: cursorStep(data, undefined, 2, undefined), buffer: 2 }; // b2 lives over [3,5)
    expect(at.step).toBe(3);
    expect(heapKeyTarget(data, 'ArrowRight', at)).toEqual({ kind: 'step', step: 4 });
    expect(heapKeyTarget(data, 'ArrowLeft', at)).toEqual({ kind: 'step', step: 2 });
  });

  it('walks from a step or a node\'s step, stopping at the ends; with nothing selected → starts at 0 and ← at the end', () => {
    expect(heapKeyTarget(data, 'ArrowRight', { step: 5, buffer: undefined })).toEqual({ kind: 'step', step: 6 });
    expect(heapKeyTarget(data, 'ArrowRight', { step: 7, buffer: undefined })).toEqual({ kind: 'step', step: 7 });
    expect(heapKeyTarget(data, 'ArrowLeft', { step: 0, buffer: undefined })).toEqual({ kind: 'step', step: 0 });
    expect(heapKeyTarget(data, 'ArrowRight', { step: undefined, buffer: undefined })).toEqual({ kind: 'step', step: 0 });
    expect(heapKeyTarget(data, 'ArrowLeft', { step: undefined, buffer: undefined })).toEqual({ kind: 'step', step: 7 });
  });

  it('goes to the first and last step on Home and End, from anywhere', () => {
    expect(heapKeyTarget(data, 'Home', { step: 4, buffer: 2 })).toEqual({ kind: 'step', step: 0 });
    expect(heapKeyTarget(data, 'End', { step: undefined, buffer: undefined })).toEqual({ kind: 'step', step: 7 });
  });

  it('orders the buffers live at a step as drawn: lanes top to bottom, higher addresses first', () => {
    expect(liveInDrawnOrder(data, 3)).toEqual([1, 2, 4]);
    expect(liveInDrawnOrder(data, 2)).toEqual([1, 0, 4]);
    expect(liveInDrawnOrder(data, 7)).toEqual([3]);
  });

  it('moves between the buffers live at the step with ↓ and ↑, entering at the top or the bottom', () => {
    expect(heapKeyTarget(data, 'ArrowDown', { step: 3, buffer: undefined })).toEqual({ kind: 'buffer', buffer: 1, step: 3 });
    expect(heapKeyTarget(data, 'ArrowUp', { step: 3, buffer: undefined })).toEqual({ kind: 'buffer', buffer: 4, step: 3 });
    expect(heapKeyTarget(data, 'ArrowDown', { step: 3, buffer: 1 })).toEqual({ kind: 'buffer', buffer: 2, step: 3 });
    expect(heapKeyTarget(data, 'ArrowDown', { step: 3, buffer: 2 })).toEqual({ kind: 'buffer', buffer: 4, step: 3 });
    expect(heapKeyTarget(data, 'ArrowDown', { step: 3, buffer: 4 })).toEqual({ kind: 'buffer', buffer: 4, step: 3 });
    expect(heapKeyTarget(data, 'ArrowUp', { step: 3, buffer: 1 })).toEqual({ kind: 'buffer', buffer: 1, step: 3 });
    // ↑ and ↓ need a step to stand at
    expect(heapKeyTarget(data, 'ArrowDown', { step: undefined, buffer: undefined })).toBeUndefined();
  });

  it('keeps the step a buffer was reached at while it is live there, so ↑ ↓ → compose', () => {
    // b1 [2,6) reached by ↓ at step 4: → goes to 5, not to the step after its first (3)
    expect(cursorStep(data, undefined, 1, 4)).toBe(4);
    expect(heapKeyTarget(data, 'ArrowRight', { step: cursorStep(data, undefined, 1, 4), buffer: 1 })).toEqual({ kind: 'step', step: 5 });
    // a step outside its lifetime (another buffer walked there) is not where it stands
    expect(cursorStep(data, undefined, 1, 7)).toBe(2);
    // a selected step wins over the buffer
    expect(cursorStep(data, 6, 1, 4)).toBe(6);
  });

  it('marks the step ↑ or ↓ reached the selected buffer at, and none for a buffer selected otherwise', () => {
    expect(markedStep(3, undefined, undefined)).toBe(3);
    expect(markedStep(undefined, 1, { buffer: 1, step: 4 })).toBe(4);
    // the selection moved to a buffer the keys did not reach (a click, the graph)
    expect(markedStep(undefined, 2, { buffer: 1, step: 4 })).toBeUndefined();
    expect(markedStep(undefined, undefined, { buffer: 1, step: 4 })).toBeUndefined();
    // a selected step is the one marked
    expect(markedStep(6, 1, { buffer: 1, step: 4 })).toBe(6);
  });

  it('takes no other key', () => {
    expect(heapKeyTarget(data, 'Enter', { step: 3, buffer: 2 })).toBeUndefined();
    expect(heapKeyTarget(data, 'PageDown', { step: 3, buffer: 2 })).toBeUndefined();
  });
});
