import { describe, expect, it } from 'vitest';
import { syntheticPlan } from './synthetic-plan';

describe('synthetic plan for the heap benchmark', () => {
  it('places every buffer without overlap and reports its peak and bound', () => {
    const plan = syntheticPlan(600, 7);
    expect(plan.buffers).toHaveLength(600);
    const b = plan.buffers;
    for (let i = 0; i < b.length; i += 1) {
      for (let j = i + 1; j < b.length; j += 1) {
        const inTime = b[i]!.start < b[j]!.end && b[j]!.start < b[i]!.end;
        const inSpace = b[i]!.offset < b[j]!.offset + b[j]!.size && b[j]!.offset < b[i]!.offset + b[i]!.size;
        expect(inTime && inSpace).toBe(false);
      }
    }
    expect(plan.peak).toBe(Math.max(...b.map((x) => x.offset + x.size)));
    expect(plan.lowerBound).toBeLessThanOrEqual(plan.peak);
    expect(plan.liveAtPeak.reduce((sum, x) => sum + x.size, 0)).toBe(plan.lowerBound);
    expect(syntheticPlan(600, 7)).toEqual(plan);
  });
});
