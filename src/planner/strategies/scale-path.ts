// The scale path of `best`: its plan of a region too crowded for the orders
// and the searches (more conflicts than a few greedy passes walk in the time
// of reading the problem). Depends only on the planner engine, the strategy
// interface and the local search.
//
// - The naive baseline; then the anchored sweep outward from the busiest
//   step, and again from the step where that plan peaks (packed exactly
//   there, it ends lower on about a third of generated crowded traces); then
//   the two sweeps over time (engine/sweep.ts, tightest gap, forwards and
//   backwards: on generated crowded traces the lowest-gap sweeps never did
//   better than these).
// - Then greedy by breadth; then, above the bound, a short local search
//   around the lowest plan's peak (local/local-search.ts, about a fifth of a
//   second at 62k buffers, on the work clock): on a training-like trace of
//   62k buffers it takes the sweeps' plan (0.026 % above the bound) to the
//   bound in 14 lifts, which spares the other baselines: `best` there went
//   from 9 × naive's time to about 3 ×. Where it does not, it still lowers
//   the plan the later passes are cut short at.
// - Then every other baseline (runBaselines in candidates.ts: a pass stops
//   once its peak reaches the lowest so far), in that order: on crowded
//   traces greedy by size or by breadth often beats the sweeps (by 1-2 % on
//   five of seven generated traces of 6k buffers; by 0.2-2.6 % on four real
//   training traces of 10k-62k buffers, two of which greedy by breadth
//   places at their bound). So `best` is never above any baseline here
//   either; the price is their time (a pass costs one to two times naive's
//   whole run, reading and validating included, on a training-like trace of
//   62k buffers, where greedy by breadth is cut short after 3 % of its items
//   and greedy by size after 94-98 %).
// - Only with a caller's budget (budgetMs): the size-class sweeps
//   (engine/class-sweep.ts) and the greedy orders of the portfolio, which
//   the deadline may cut short (a pass cut short is dropped).
// - Stops adding candidates once one reaches the lower bound. The smallest
//   complete plan wins, the earliest on ties.

import { classSweepPlace } from '../engine/class-sweep';
import { orderItems } from '../engine/orders';
import { Placer } from '../engine/placer';
import type { PreparedRegion } from '../engine/prepared';
import { anchoredSweepPlace, sweepPlace } from '../engine/sweep';
import type { StopReason } from '../problem/problem';
import { FITS, ORDERS, peakOf, runBaselines, smallest, type Candidate } from './candidates';
import type { SearchBudget } from './search-budget';
import { liftAndReinsert, type SearchOutcome } from './local/local-search';
import type { RegionContext, Strategy, StrategyOutcome } from './strategy';

/** Conflicts (summed over items) above which a region takes the scale path. */
export const LARGE_CONFLICTS = 5_000_000;
/** The baselines that place crowded traces lowest most often, in that order (see the module header). */
const SCALE_ORDER: readonly string[] = ['greedy-breadth', 'tflm', 'm1', 'best-fit'];
/**
 * Effort of the local search after greedy by breadth, per item: about a
 * fifth of a second on a crowded trace of 62k buffers, where it takes a
 * training-like trace's sweep plan (0.026 % above the bound) to the bound in
 * 14 lifts, half this effort, and so spares every later baseline.
 */
const LOCAL_WORK_PER_ITEM = 160;
/** Its lifts at most, when the caller did not set them: the effort ends it first at scale. */
const LOCAL_ITERATIONS = 3_000;
/** The sweeps over time after the anchored ones: [tightest gap, backwards in time]. */
const SWEEPS: readonly (readonly [boolean, boolean])[] = [[true, false], [true, true]];

/** How it works: see the module header. `baselines` must not be empty. */
export function planLarge(baselines: readonly Strategy[], prep: PreparedRegion, context: RegionContext, budget: SearchBudget): StrategyOutcome {
  const { lowerBound } = context;
  const naive = baselines.find((b) => b.name === 'naive') ?? baselines[0]!;
  const naiveOffsets = naive.plan(prep, context).offsets;
  const candidates: Candidate[] = [{ offsets: naiveOffsets, peak: peakOf(prep, naiveOffsets), source: naive.name }];
  const atBound = () => smallest(candidates).peak <= lowerBound;
  let anchored: Float64Array | undefined;
  const sweeps = [
    () => (anchored = anchoredSweepPlace(prep, true, context.peakStep)),
    // anchored again where the first anchored plan peaks: that step, packed exactly, often ends lower
    () => (anchored === undefined ? undefined : anchoredSweepPlace(prep, true, toppedStep(prep, anchored))),
    ...SWEEPS.map(([tightest, backwards]) => () => sweepPlace(prep, tightest, backwards)),
  ];
  for (const sweep of sweeps) {
    if (atBound()) break; // naive stacks everything live together, or a sweep reached the bound
    const offsets = sweep();
    if (offsets !== undefined) candidates.push({ offsets, peak: peakOf(prep, offsets), source: 'best' });
  }
  const sweepCount = candidates.length;
  const ordered = byLikelyWinner(baselines).filter((s) => s !== naive);
  // greedy by breadth alone first: it reaches the bound on some real traces, and is cut short early where the sweeps are lower
  const early = runBaselines(ordered.slice(0, 1), prep, context, candidates);
  const searched = atBound() ? undefined : searchAtScale(prep, context, budget, smallest(candidates));
  if (searched !== undefined && searched.peak < smallest(candidates).peak) candidates.push({ offsets: searched.offsets, peak: searched.peak, source: 'best' });
  const later = runBaselines(ordered.slice(1), prep, context, candidates);
  const baselined = { placements: early.placements + later.placements, dropped: early.dropped + later.dropped };
  let winner = smallest(candidates);
  let stoppedBy: StopReason = 'done';
  if (winner.peak > lowerBound && budget.timed) [winner, stoppedBy] = passesWithin(prep, context, budget, winner);
  const proven = winner.peak <= lowerBound;
  return {
    offsets: winner.offsets,
    placements: prep.freeItems.length * sweepCount + baselined.placements + (searched?.placements ?? 0),
    attempts: candidates.length + baselined.dropped,
    improvements: searched?.improvements ?? 0,
    stoppedBy: proven ? 'optimal' : stoppedBy,
    proven,
    winner: winner.source,
  };
}

/**
 * A short local search around the peak of `start` (local/local-search.ts),
 * LOCAL_WORK_PER_ITEM of effort per item unless the caller set the local
 * search's limits; undefined when they turn it off. On the work clock
 * without budgetMs, so its plan is the same on any machine.
 */
function searchAtScale(prep: PreparedRegion, { options, lowerBound }: RegionContext, budget: SearchBudget, start: Candidate): SearchOutcome | undefined {
  const iterations = options.local?.iterations ?? LOCAL_ITERATIONS;
  if (iterations <= 0) return undefined;
  return liftAndReinsert(prep, start.offsets, {
    lowerBound,
    maxIterations: iterations,
    maxWork: options.local?.work ?? LOCAL_WORK_PER_ITEM * prep.itemCount,
    deadline: budget.deadline,
    clock: budget.clock,
  });
}

/** The size-class sweeps, then every order and fit, until the budget's deadline or the caller's stop; the lower of their plans and `winner`. */
function passesWithin(prep: PreparedRegion, { options, lowerBound }: RegionContext, budget: SearchBudget, winner: Candidate): [Candidate, StopReason] {
  const stop = () => budget.clock() >= budget.deadline || (options.shouldStop?.() ?? false);
  // size-class sweeps first: near greedy by size on crowded traces, in a fraction of its time
  const classed = classSweepPlace(prep, false, stop);
  if (classed === undefined) {
    if (stop()) return [winner, 'time'];
  } else {
    const peak = peakOf(prep, classed);
    if (peak < winner.peak) winner = { offsets: classed, peak, source: 'best' };
  }
  const placer = new Placer(prep);
  for (const key of ORDERS) {
    for (const fit of FITS) {
      if (winner.peak <= lowerBound) return [winner, 'done'];
      const peak = placer.placeAll(orderItems(prep, key), fit, stop);
      if (Number.isNaN(peak)) return [winner, 'time'];
      if (peak < winner.peak) winner = { offsets: placer.offsets.slice(), peak, source: 'best' };
    }
  }
  return [winner, 'done'];
}

/** `baselines`, those that most often place crowded traces lowest first (SCALE_ORDER), so that one reaching the bound spares the others. */
function byLikelyWinner(baselines: readonly Strategy[]): Strategy[] {
  const rank = (s: Strategy) => (SCALE_ORDER.includes(s.name) ? SCALE_ORDER.indexOf(s.name) : SCALE_ORDER.length);
  return baselines.slice().sort((a, b) => rank(a) - rank(b));
}

/** Where the plan `offsets` peaks: the first step of the first item whose top is its peak. */
function toppedStep(prep: PreparedRegion, offsets: Float64Array): number {
  const peak = peakOf(prep, offsets);
  for (let i = 0; i < prep.itemCount; i++) if (prep.itemExtent[i]! > 0 && offsets[i]! + prep.itemExtent[i]! === peak) return prep.itemStart[i]!;
  return 0; // nothing has bytes: any step will do
}
