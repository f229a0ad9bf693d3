import { describe, expect, it } from 'vitest';
import type { ModelPlan } from '../planner/plan';
import { overLimitList } from './fit-words';

/** A plan of one arena over its 60 KiB limit, its figures exact or lower estimates as given. */
function arenaOver(plan: { complete: boolean; lowerEstimate?: boolean }): ModelPlan {
  const arena = { name: 'arena', peak: 74880, used: 74880, sizeLimit: 61440, overBy: 13440 };
  return { ...plan, regions: [arena], fits: false } as unknown as ModelPlan;
}

describe('overLimitList', () => {
  it('says what a region needs as it is when every figure is known', () => {
    expect(overLimitList(arenaOver({ complete: true, lowerEstimate: false }))).toBe('arena needs 73.1 KiB, 13.1 KiB over its 60.0 KiB limit');
  });

  it('says "at least" when the arena is a lower estimate, a size or a TFLM kernel\'s scratch not known', () => {
    expect(overLimitList(arenaOver({ complete: false }))).toBe('arena needs at least 73.1 KiB, at least 13.1 KiB over its 60.0 KiB limit');
    expect(overLimitList(arenaOver({ complete: true, lowerEstimate: true }))).toBe('arena needs at least 73.1 KiB, at least 13.1 KiB over its 60.0 KiB limit');
  });

  it('writes a need and its limit in bytes when both round to the same figure, so the need does not read as exactly its limit', () => {
    const ext = { name: 'ext-ram', peak: 1050112, used: 1050112, sizeLimit: 1048576, overBy: 1536 };
    const plan = { complete: true, lowerEstimate: false, regions: [ext], fits: false } as unknown as ModelPlan;
    expect(overLimitList(plan)).toBe('ext-ram needs 1,050,112 B, 1.50 KiB over its 1,048,576 B limit');
  });

  it("says \"(estimate)\" when the need holds TensorFlow Lite Micro's tail and the tail rests on estimated parts, as the arena to declare says it", () => {
    const arena = { name: 'arena', peak: 55296, runtimeTail: 27056, used: 82352, sizeLimit: 61440, overBy: 20912 };
    const plan = (tailEstimated: boolean) => ({ complete: true, lowerEstimate: false, regions: [arena], fits: false, runtimePlan: { tailEstimated } }) as unknown as ModelPlan;
    expect(overLimitList(plan(true))).toBe("arena needs 80.4 KiB (estimate) (26.4 KiB of it TFLite Micro's tail and planning), 20.4 KiB over its 60.0 KiB limit");
    expect(overLimitList(plan(false))).toBe("arena needs 80.4 KiB (26.4 KiB of it TFLite Micro's tail and planning), 20.4 KiB over its 60.0 KiB limit");
  });
});
