// chooseFast against exhaustive search over every split of small random
// instances (fast-check, fixed seed), plus hand-computed cases.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseFast, type PinnedLoad, type TimedItem } from './choose-fast';

/** At every step where a kept item lives, kept plus pinned bytes stay within capacity (pinned alone may not). */
function feasible(items: readonly TimedItem[], kept: readonly boolean[], pinned: readonly PinnedLoad[], capacity: number): boolean {
  const last = Math.max(0, ...items.map((i) => i.end), ...pinned.map((p) => p.end));
  for (let t = 0; t < last; t++) {
    let live = pinned.reduce((sum, p) => (p.start <= t && t < p.end ? sum + p.bytes : sum), 0);
    let any = false;
    items.forEach((item, k) => {
      if (kept[k] !== true || t < item.start || t >= item.end) return;
      live += item.size;
      any = true;
    });
    if (any && live > capacity) return false;
  }
  return true;
}

/** The best value over all 2^n splits. */
function exhaustive(items: readonly TimedItem[], pinned: readonly PinnedLoad[], capacity: number): number {
  let best = 0;
  for (let mask = 0; mask < 1 << items.length; mask++) {
    const kept = items.map((_, k) => (mask & (1 << k)) !== 0);
    if (!feasible(items, kept, pinned, capacity)) continue;
    best = Math.max(best, items.reduce((sum, item, k) => (kept[k] ? sum + item.value : sum), 0));
  }
  return best;
}

const item = fc
  .record({ start: fc.nat(7), length: fc.integer({ min: 1, max: 6 }), size: fc.integer({ min: 0, max: 12 }), reads: fc.nat(4) })
  .map(({ start, length, size, reads }): TimedItem => ({ start, end: start + length, size, value: size * (1 + reads) }));
const load = fc.record({ start: fc.nat(7), length: fc.integer({ min: 1, max: 4 }), bytes: fc.integer({ min: 1, max: 8 }) })
  .map(({ start, length, bytes }): PinnedLoad => ({ start, end: start + length, bytes }));
const instance = fc.record({
  items: fc.array(item, { maxLength: 11 }),
  pinned: fc.array(load, { maxLength: 3 }),
  capacity: fc.integer({ min: 0, max: 30 }),
});

describe('chooseFast', () => {
  it('finds the best split of small random instances, as exhaustive search does, and proves it', () => {
    fc.assert(
      fc.property(instance, ({ items, pinned, capacity }) => {
        const choice = chooseFast(items, pinned, capacity);
        expect(choice.proven).toBe(true);
        expect(feasible(items, choice.kept, pinned, capacity)).toBe(true);
        expect(choice.value).toBe(items.reduce((sum, it, k) => (choice.kept[k] ? sum + it.value : sum), 0));
        expect(choice.value).toBe(exhaustive(items, pinned, capacity));
      }),
      { seed: 32, numRuns: 400 },
    );
  });

  it('stopped by its work budget, keeps a feasible and maximal split no worse than greedy', () => {
    fc.assert(
      fc.property(instance, ({ items, pinned, capacity }) => {
        const choice = chooseFast(items, pinned, capacity, 0);
        expect(feasible(items, choice.kept, pinned, capacity)).toBe(true);
        items.forEach((_, k) => {
          if (choice.kept[k] === true) return;
          const more = choice.kept.map((x, j) => x || j === k);
          expect(feasible(items, more, pinned, capacity)).toBe(false);
        });
      }),
      { seed: 33, numRuns: 200 },
    );
  });

  it('keeps the buffer read by three ops over two steps, not the one waiting for a skip connection', () => {
    const busy: TimedItem = { start: 10, end: 12, size: 100, value: 400 };
    const skip: TimedItem = { start: 0, end: 300, size: 100, value: 200 };
    const choice = chooseFast([skip, busy], [], 150);
    expect(choice.kept).toEqual([false, true]);
  });

  it('beats greedy by density when two smaller items together earn more', () => {
    // Greedy keeps the densest (a), which leaves no room for b and c: 60 < 50 + 50.
    const a: TimedItem = { start: 0, end: 1, size: 10, value: 60 };
    const b: TimedItem = { start: 0, end: 1, size: 6, value: 35 };
    const c: TimedItem = { start: 0, end: 1, size: 6, value: 35 };
    const choice = chooseFast([a, b, c], [], 12);
    expect(choice.kept).toEqual([false, true, true]);
    expect(choice.value).toBe(70);
    expect(choice.proven).toBe(true);
  });

  it('keeps nothing that cannot fit beside the pinned load', () => {
    const choice = chooseFast([{ start: 0, end: 2, size: 8, value: 80 }], [{ start: 1, end: 2, bytes: 5 }], 10);
    expect(choice.kept).toEqual([false]);
  });
});
