// Without a time budget, best's searches stop by counted work: the plan does
// not depend on the clock, the machine or its load. With one, they stop by
// the wall clock and say so.

import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assignOffsets } from '../assembly/assign-offsets';
import { validatePlan } from '../assembly/validate-plan';
import { workClock } from '../engine/work-clock';
import { heavyNetworkProblem } from '../testing/instances-heavy';
import { tiledProblem } from '../testing/instances';
import { DEFAULT_WORK_BUDGET } from './search-budget';

/** A crowded trace (2,000 buffers, hundreds live at once) on which the default budget ends the search before it is done. */
const crowded = heavyNetworkProblem(2_000, 2);

/** Threads that spin until terminated: the machine is busy while they run. */
function busyThreads(count: number): Worker[] {
  return Array.from({ length: count }, () => new Worker('for (;;) {}', { eval: true }));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the search budget of best', () => {
  it('without budgetMs, stops a crowded trace by counted work and gives the same plan while other threads burn the CPU', async () => {
    const quiet = assignOffsets(crowded, 'best');
    expect(quiet.stats.stoppedBy).toBe('iterations'); // the budget, not the end of the search, decided where it stopped
    expect(quiet.optimal).toBe(false);
    const workers = busyThreads(2);
    try {
      await new Promise((resolve) => setTimeout(resolve, 50)); // let them start spinning
      const busy = assignOffsets(crowded, 'best');
      expect([busy.peak, busy.stats.stoppedBy, busy.winner]).toEqual([quiet.peak, quiet.stats.stoppedBy, quiet.winner]);
      expect(busy.offsets).toEqual(quiet.offsets);
      expect(validatePlan(crowded, busy).violations).toEqual([]);
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  });

  it('without budgetMs, never reads the clock: a clock that throws changes nothing', () => {
    const { problem } = tiledProblem(150, 1 << 20, 400, 150);
    const plain = assignOffsets(problem, 'best');
    const broken = () => {
      throw new Error('the clock was read');
    };
    vi.spyOn(Date, 'now').mockImplementation(broken);
    vi.spyOn(performance, 'now').mockImplementation(broken);
    const again = assignOffsets(problem, 'best');
    expect([again.peak, again.offsets, again.stats]).toEqual([plain.peak, plain.offsets, plain.stats]);
  });

  it('spends about the counted budget, and a smaller workBudget stops sooner, reported as iterations', () => {
    const before = workClock();
    const full = assignOffsets(crowded, 'best');
    const spent = workClock() - before;
    // the baselines and a search's last step run past the deadline, but not by much
    expect(spent).toBeGreaterThanOrEqual(DEFAULT_WORK_BUDGET);
    expect(spent).toBeLessThan(2 * DEFAULT_WORK_BUDGET);
    const short = assignOffsets(crowded, 'best', { workBudget: DEFAULT_WORK_BUDGET / 50 });
    expect(short.stats.stoppedBy).toBe('iterations');
    expect(short.peak).toBeGreaterThanOrEqual(full.peak);
    expect(validatePlan(crowded, short).violations).toEqual([]);
  });

  it('with budgetMs, says done, never counted work, when every search ends before the deadline', () => {
    const clock = () => 0; // the deadline never comes: the local search's own limits and the exact stage's nodes end them
    const timed = assignOffsets(crowded, 'best', { budgetMs: 500, clock, exact: { nodes: 2_000 } });
    expect(timed.optimal).toBe(false);
    expect(timed.stats.stoppedBy).toBe('done');
    expect(validatePlan(crowded, timed).violations).toEqual([]);
    // without budgetMs the same node cap is counted work, the same on any machine
    expect(assignOffsets(crowded, 'best', { exact: { nodes: 2_000 }, workBudget: Number.POSITIVE_INFINITY }).stats.stoppedBy).toBe('iterations');
  });

  it('with budgetMs, stops by the wall clock and reports time', () => {
    let now = 0;
    const clock = () => (now += 1_000); // every look is a second later: the deadline has passed by the first check
    const timed = assignOffsets(crowded, 'best', { budgetMs: 500, clock });
    expect(timed.stats.stoppedBy).toBe('time');
    expect(timed.peak).toBeGreaterThanOrEqual(assignOffsets(crowded, 'best').peak);
    expect(validatePlan(crowded, timed).violations).toEqual([]);
  });
});
