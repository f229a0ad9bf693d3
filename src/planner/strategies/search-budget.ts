// How long `best`'s searches may run on one region: until a wall-clock
// deadline when the caller gave `budgetMs`, else until a deadline on the work
// clock (engine/work-clock.ts), so that without a budget the same problem
// gets the same plan on any machine and under any load. Depends only on the
// engine's work clock and the strategy interface.

import { WORK_PER_MS, workClock } from '../engine/work-clock';
import type { StopReason } from '../problem/problem';
import type { PlanOptions } from './strategy';

/** What the search budget per region is worth without the caller's `budgetMs`, in ms of the work clock's fitted costs. */
export const DEFAULT_BUDGET_MS = 500;
/**
 * Counted work per region when no `budgetMs` is given (work-clock units).
 * On the reference machine it takes 0.5-1.5 s of CPU on the benchmark's
 * problems that use all of it (more on unstructured problems of 3,000 and
 * more buffers); that much plans no benchmark set worse than the 500 ms of
 * wall-clock budget it replaces (a smaller one left the largest tilings and
 * pinwheel sets higher).
 */
export const DEFAULT_WORK_BUDGET = DEFAULT_BUDGET_MS * WORK_PER_MS;

/** The clock a region's searches read, the deadline on it, and how a stop there is reported. */
export interface SearchBudget {
  readonly clock: () => number; // the wall clock (or the caller's, in tests) when timed; the work clock otherwise
  readonly deadline: number; // on `clock`; Infinity for an unbounded budget
  readonly timed: boolean; // the caller gave budgetMs
  readonly cut: StopReason; // what a stop at the deadline reports: 'time' on the wall clock, 'iterations' on the work clock
}

/** The budget of a region's searches, starting now. */
export function searchBudget(options: PlanOptions): SearchBudget {
  if (options.budgetMs !== undefined) {
    const clock = options.clock ?? Date.now;
    return { clock, deadline: clock() + options.budgetMs, timed: true, cut: 'time' };
  }
  return { clock: workClock, deadline: workClock() + (options.workBudget ?? DEFAULT_WORK_BUDGET), timed: false, cut: 'iterations' };
}
