// A clock that counts work instead of time. The placement code advances it
// as it goes (queries of the time index, search nodes, the sections and
// items their loops walk), so a search that stops at a deadline on this
// clock stops at the same point on every machine and under any load.
// Depends on nothing.
//
// - A unit is about a nanosecond: each call passes the iterations of the
//   loop it stands for times what one cost in warm runs on the reference
//   machine (2 cores, where `npm run bench:planner` runs), fitted over the
//   greedy passes, the local search and each exact search on the
//   benchmark's traces, generated problems, tilings and pinwheel sets
//   (within a factor of two of the measured time on four runs in five).
//   Whole plans there, cold and with the searches' caches competing, run at
//   0.3-1 unit per nanosecond of CPU.
// - One counter per thread (module instance); it only grows, and readers
//   take differences, as they would of a wall clock.

/** Work-clock units per millisecond of the fitted costs (see the header). */
export const WORK_PER_MS = 1_000_000;

/** Work counted so far in this thread. */
let counted = 0;

/** Adds `units` of work to the clock. */
export function countWork(units: number): void {
  counted += units;
}

/** Work counted so far: a monotonic clock that does not depend on the machine or its load. */
export function workClock(): number {
  return counted;
}
