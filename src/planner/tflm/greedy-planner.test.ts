// TFLite Micro's own planner tests (memory_planner/greedy_memory_planner_test.cc),
// case for case, against the port.
import { describe, expect, it } from 'vitest';
import { planGreedy, reverseSortInPlace, type GreedyBuffer } from './greedy-planner';

const buffers = (list: readonly (readonly [number, number, number])[]): GreedyBuffer[] => list.map(([size, first, last]) => ({ size, first, last }));

/** No two buffers whose inclusive lifetimes meet share a byte (TFLM's DoAnyBuffersOverlap). */
function anyOverlap(list: readonly GreedyBuffer[], offsets: readonly number[]): boolean {
  return list.some((a, i) =>
    list.some((b, j) => j > i && !(a.first > b.last || b.first > a.last) && offsets[i]! < offsets[j]! + b.size && offsets[j]! < offsets[i]! + a.size),
  );
}

describe('GreedyMemoryPlanner, as TFLite Micro tests it', () => {
  it('ReverseSortInPlace: stable, largest first', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const ids = values.map((_, i) => i);
    reverseSortInPlace(values, ids);
    expect(values).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(ids).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const c = Array.from({ length: 100 }, (_, i) => (i % 10) + 1);
    const cIds = c.map((_, i) => i);
    reverseSortInPlace(c, cIds);
    expect(cIds.slice(0, 12)).toEqual([9, 19, 29, 39, 49, 59, 69, 79, 89, 99, 8, 18]);
    expect(cIds.slice(-10)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
  });

  it('TestGreedyBasics: two buffers apart in time share offset 0', () => {
    const plan = planGreedy(buffers([[10, 0, 1], [20, 2, 3]]));
    expect(plan.offsets).toEqual([0, 0]);
    expect(plan.head).toBe(20);
  });

  it('TestGreedyMedium: the published offsets 50, 70, 40, 0, 0 and head 90', () => {
    const list = buffers([[10, 0, 1], [20, 1, 2], [30, 2, 3], [40, 3, 4], [50, 0, 1]]);
    const plan = planGreedy(list);
    expect(plan.offsets).toEqual([50, 70, 40, 0, 0]);
    expect(plan.head).toBe(90);
    expect(anyOverlap(list, plan.offsets)).toBe(false);
  });

  it('TestPersonDetectionModel: valid and below the sum of the buffers', () => {
    const sizes: [number, number, number][] = [
      [9216, 0, 29], [3, 28, 29], [256, 27, 28], [2304, 26, 27], [2304, 25, 26], [2304, 24, 25], [1152, 23, 24],
      [4608, 22, 23], [4608, 21, 22], [4608, 20, 21], [4608, 19, 20], [4608, 18, 19], [4608, 17, 18], [4608, 16, 17],
      [4608, 15, 16], [4608, 14, 15], [4608, 13, 14], [4608, 12, 13], [2304, 11, 12], [9216, 10, 11], [9216, 9, 10],
      [9216, 8, 9], [4608, 7, 8], [18432, 6, 7], [18432, 5, 6], [18432, 4, 5], [9216, 3, 4], [36864, 2, 3], [18432, 1, 2], [18432, 0, 1],
    ];
    const list = buffers(sizes);
    const plan = planGreedy(list);
    expect(anyOverlap(list, plan.offsets)).toBe(false);
    expect(plan.head).toBeLessThan(241027);
    // The largest pair live at once (36,864 + 18,432 at steps 1-2, with the 9,216 that lives throughout).
    expect(plan.head).toBe(9216 + 36864 + 18432);
  });

  it('TestOverlapCase: head 120', () => {
    const list = buffers([[100, 0, 1], [50, 2, 3], [20, 1, 2]]);
    const plan = planGreedy(list);
    expect(plan.head).toBe(120);
    expect(anyOverlap(list, plan.offsets)).toBe(false);
  });

  it('an offline buffer keeps its offset and online buffers fit around it', () => {
    const list: GreedyBuffer[] = [{ size: 32, first: 0, last: 3, offlineOffset: 16 }, { size: 16, first: 1, last: 2 }, { size: 32, first: 2, last: 2 }];
    const plan = planGreedy(list);
    expect(plan.offsets).toEqual([16, 0, 48]);
    expect(plan.head).toBe(80);
  });

  it('no buffers: head 0', () => {
    expect(planGreedy([])).toEqual({ offsets: [], head: 0 });
  });
});
