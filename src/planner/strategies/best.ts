// Strategy `best`: a portfolio of greedy plans, a local search around the peak
// and an anytime exact search; keeps the smallest plan. Depends only on the
// planner engine and the strategy interface.
//
// | stage                           | when it runs               | what stops it                             | module                         |
// |---------------------------------|----------------------------|-------------------------------------------|--------------------------------|
// | baselines: every other strategy | always, on every region    | one reaching the bound; peak ≥ the best's | registry.ts, candidates.ts     |
// | probe at the bound              | above the lower bound      | nodes for twice the items; the deadline   | exact-plan.ts                  |
// | orders × fits                   | not proven yet             | the deadline                              | engine/orders.ts               |
// | local search around the peak    | not proven; orders not cut | 3,000 iterations, 3M effort; the deadline | local-search.ts                |
// | anytime exact search            | not proven; orders not cut | the deadline (the rest of the budget)     | exact-plan.ts, exact-search.ts |
// | scale path, instead of these    | over 5M conflicts          | baselines as above; passes: the deadline  | scale-path.ts                  |
// |   its local search               | after greedy by breadth    | 160 work per item; the deadline           | local-search.ts                |
//
// - The deadline: with the caller's `budgetMs`, that many ms of wall clock
//   from the region's start; without, DEFAULT_BUDGET_MS worth of counted
//   work on the work clock (search-budget.ts, engine/work-clock.ts), so the
//   plan is the same on any machine and under any load. A stop there is
//   reported as 'time' or 'iterations'; searches that all end before it
//   (the exact search's turns with nothing left they can go on with) say
//   'done', and with budgetMs so does a stage's own counted limit. On the scale path, the greedy passes
//   after the baselines run only with budgetMs.
// - Baselines first: every other registered strategy (naive, tflm, best-fit,
//   greedy-breadth, tvm-conflicts, m1) is a candidate, so `best` is never
//   above any of them, on every region and at every size (the scale path
//   runs them too). The registry hands them over (see `portfolio`). Once one
//   reaches the lower bound the rest are skipped: none could go lower, and
//   the earliest at the bound wins the tie, so the plan is the same. Each
//   runs with the smallest peak so far as its `dropAt` (candidates.ts,
//   runBaselines): a greedy pass whose peak reaches it stops there, since it
//   could only end at or above it and the earlier plan wins a tie (on a
//   crowded training trace greedy by breadth is dropped after 3 % of its
//   items, where the sweeps are lower).
// - Then the probe at the bound (exact-plan.ts): the dive from the bottom
//   (bottom-dive.ts), then MiniMalloc's search, once, in nodes for twice the
//   items. Real traces they often place there, which proves the plan optimal
//   before the orders and the local search spend the time (somas-resnet50:
//   proven in about 0.25 s, where it used to end 0.08 % above the bound
//   after 0.5 s). Where both fail, they have cost about two greedy passes.
// - Then every order (size, urgency, area, duration, conflicts, start) with
//   both first fit and best fit. It stops early once a candidate reaches the
//   lower bound, and at the deadline (on crowded regions just under the
//   scale path a pass takes about 70 ms, so the eleven passes alone would
//   run most of a second past a short budget). A caller's stop (Cancel) does
//   not cut them: a cancelled plan is never above the portfolio's.
// - The smallest candidate (the earliest on ties) seeds the local search
//   (see local-search.ts).
// - When the peak is still above the lower bound, the anytime exact search
//   (exact-plan.ts: MiniMalloc's search at the bound, a descent by it, then
//   the skyline search with temporal decomposition, capacity from the bound
//   upward) runs to the deadline, reporting progress and honouring the
//   caller's stop; its completion proves the result optimal. A region whose
//   items share one alignment is searched in units of it (aligned-region.ts),
//   which is exact. Regions it cannot handle (fixed offsets, mixed
//   alignments, windows) that are small get the older branch and bound
//   (exact-search.ts) instead.
// - The outcome names the winner: the baseline whose plan was kept, or
//   'best' when an order, a sweep or a search found it.

import { conflictTotal } from '../engine/degrees';
import { orderItems } from '../engine/orders';
import { Placer } from '../engine/placer';
import type { PreparedRegion } from '../engine/prepared';
import type { StopReason } from '../problem/problem';
import { alignedRegion, offsetsInBytes } from './search/aligned-region';
import { FITS, ORDERS, runBaselines, smallest, type Candidate } from './candidates';
import { improveExactly, probeAtBound, type ExactLimits, type ExactResult } from './search/exact-plan';
import { exactSearchApplies, searchExact } from './search/exact-search';
import { liftAndReinsert } from './local/local-search';
import { LARGE_CONFLICTS, planLarge } from './scale-path';
import { searchBudget, type SearchBudget } from './search-budget';
import type { PlanOptions, RegionContext, Strategy, StrategyOutcome } from './strategy';
import { STRATEGY_TITLES } from './strategy-names';

/** Node cap of the anytime exact search, per region, when its deadline is at infinity: keeps it finite. */
const UNBOUNDED_SKYLINE_NODES = 1_000_000;
/** Defaults of the local search's limits (strategy.ts, LocalSearchOptions); its effort is roughly 0.05-0.2 s on the reference machine. */
const DEFAULT_ITERATIONS = 3_000;
const DEFAULT_WORK = 3_000_000;
/** Defaults of the small branch and bound (strategy.ts, ExactOptions). */
const DEFAULT_SMALL_ITEMS = 20;
const DEFAULT_SMALL_NODES = 200_000;

/** A search's plan, whether it proved it optimal, and how it was cut short (undefined: it was not). */
interface Searched {
  readonly offsets: Float64Array;
  readonly peak: number;
  readonly proven: boolean;
  readonly cut?: StopReason;
  readonly ran?: boolean; // the anytime exact search ran: when nothing cut it, every stage has ended on its own
}

/** How it works: see the module header. */
function planPortfolio(baselines: readonly Strategy[], prep: PreparedRegion, context: RegionContext): StrategyOutcome {
  const { lowerBound, options } = context;
  const budget = searchBudget(options);
  if (conflictTotal(prep) > LARGE_CONFLICTS) return planLarge(baselines, prep, context, budget);
  const candidates: Candidate[] = [];
  const baselined = runBaselines(baselines, prep, context, candidates);
  let placements = baselined.placements;
  let winner = smallest(candidates);
  let improvements = 0;
  /** Takes a search's plan when it is lower than the winner's; returns whether the search proved it optimal. */
  const keepSearched = (found: Searched): boolean => {
    if (found.peak < winner.peak) {
      winner = { offsets: found.offsets, peak: found.peak, source: 'best' };
      improvements++;
    }
    return found.proven;
  };
  let proven = winner.peak <= lowerBound;
  // the probe at the bound: on real traces a proof in a few milliseconds, before the orders and the local search spend the time
  if (!proven) proven = keepSearched(probeExactly(prep, context, winner, budget));
  let stoppedBy: StopReason = 'done';
  if (!proven) {
    const placer = new Placer(prep);
    // the deadline alone stops them: a caller's stop (Cancel) ends only the searches after them, so a cancelled plan is never above the portfolio's
    const orders = runOrders(placer, lowerBound, candidates, winner, () => budget.clock() >= budget.deadline);
    winner = orders.winner;
    placements += placer.placements;
    proven = winner.peak <= lowerBound;
    if (orders.cut) stoppedBy = budget.cut;
  }
  if (proven) stoppedBy = 'optimal';
  if (!proven && stoppedBy === 'done') {
    const searched = searchAround(prep, context, winner, budget);
    placements += searched.placements;
    improvements += searched.improvements;
    stoppedBy = searched.stoppedBy === 'time' ? budget.cut : searched.stoppedBy;
    if (searched.peak < winner.peak) winner = { offsets: searched.offsets, peak: searched.peak, source: 'best' };
    proven = winner.peak <= lowerBound;
  }
  if (!proven) {
    const exact = searchExactly(prep, context, winner, budget);
    proven = keepSearched(exact);
    stoppedBy = proven ? 'optimal' : (exact.cut ?? (exact.ran === true ? 'done' : stoppedBy));
  }
  // on the clock, a stage's own counted limits (the local search's lifts and effort) end that stage, not the search:
  // the searches all ended before the deadline, and a longer budget gives the same plan
  if (budget.timed && stoppedBy === 'iterations') stoppedBy = 'done';
  return { offsets: winner.offsets, placements, attempts: candidates.length + baselined.dropped, improvements, stoppedBy, proven, winner: winner.source };
}


/** The probe at the bound (exact-plan.ts) where the exact stage applies; the winner unchanged elsewhere. */
function probeExactly(prep: PreparedRegion, { options, lowerBound }: RegionContext, winner: Candidate, budget: SearchBudget): Searched {
  if (options.exact?.off === true) return { ...winner, proven: false };
  const probe = improveAligned(prep, winner, lowerBound, exactLimits(options, budget, options.exact?.nodes ?? Number.POSITIVE_INFINITY), probeAtBound);
  return probe.applied ? probe : { ...winner, proven: false };
}

/** The exact stage: the skyline search when it applies, else the small branch and bound. */
function searchExactly(prep: PreparedRegion, { options, lowerBound }: RegionContext, winner: Candidate, budget: SearchBudget): Searched {
  if (options.exact?.off === true) return { ...winner, proven: false };
  const maxNodes = options.exact?.nodes ?? (budget.deadline === Number.POSITIVE_INFINITY ? UNBOUNDED_SKYLINE_NODES : Number.POSITIVE_INFINITY);
  const exact = improveAligned(prep, winner, lowerBound, exactLimits(options, budget, maxNodes));
  if (exact.applied) {
    // the deadline or the caller's stop cut it short; the caller's stop is reported as 'time' either way
    // or its node cap, counted work; otherwise its turns ended with nothing left they could go on with
    const cut = exact.proven ? undefined : budget.clock() >= budget.deadline ? budget.cut : (options.shouldStop?.() ?? false) ? 'time' : exact.nodes >= maxNodes ? 'iterations' : undefined;
    return { offsets: exact.offsets, peak: exact.peak, proven: exact.proven, ran: true, ...(cut !== undefined && { cut }) };
  }
  if (!exactSearchApplies(prep, options.exact?.smallItems ?? DEFAULT_SMALL_ITEMS)) return { ...winner, proven: false };
  const small = searchExact(prep, winner.peak, lowerBound, options.exact?.smallNodes ?? DEFAULT_SMALL_NODES);
  return { offsets: small.offsets ?? winner.offsets, peak: small.peak, proven: small.proven };
}

/** The limits and callbacks of an exact search that may take `maxNodes` nodes and runs until the budget's deadline. */
function exactLimits(options: PlanOptions, budget: SearchBudget, maxNodes: number): ExactLimits {
  return {
    deadline: budget.deadline,
    clock: budget.clock,
    maxNodes,
    ...(options.shouldStop !== undefined && { shouldStop: options.shouldStop }),
    ...(options.onProgress !== undefined && { onProgress: options.onProgress }),
  };
}

/** The skyline search, on the region in units of its shared alignment when it has one (exact; see aligned-region.ts). */
function improveAligned(prep: PreparedRegion, winner: Candidate, lowerBound: number, limits: ExactLimits, improve = improveExactly): ExactResult {
  const aligned = alignedRegion(prep);
  if (aligned === undefined) return improve(prep, winner.offsets, winner.peak, lowerBound, limits);
  const { unit } = aligned;
  const report = limits.onProgress;
  const exact = improve(aligned.prep, winner.offsets.map((o) => o / unit), winner.peak / unit, Math.ceil(lowerBound / unit), {
    ...limits,
    ...(report !== undefined && { onProgress: (p) => report({ ...p, peak: p.peak * unit, bound: p.bound * unit }) }),
  });
  return { ...exact, offsets: offsetsInBytes(aligned, exact.offsets, winner.offsets), peak: exact.peak * unit, bound: exact.bound * unit };
}

/**
 * Adds the plan of every order and fit to `candidates`; returns the smallest
 * so far, and whether `stop` (the deadline) cut the passes short. A pass
 * checks `stop` every 256 items, so only regions that large can be cut (see
 * the module header); a pass cut short is dropped.
 */
function runOrders(placer: Placer, lowerBound: number, candidates: Candidate[], winner: Candidate, stop: () => boolean): { winner: Candidate; cut: boolean } {
  for (const key of ORDERS) {
    const order = orderItems(placer.prep, key);
    for (const fit of FITS) {
      if (key === 'size' && fit === 'best') continue; // exactly the best-fit baseline
      const peak = placer.placeAll(order, fit, stop);
      if (Number.isNaN(peak)) return { winner, cut: true };
      candidates.push({ offsets: placer.offsets.slice(), peak, source: 'best' });
      if (peak < winner.peak) winner = candidates[candidates.length - 1]!;
    }
    if (winner.peak <= lowerBound) break;
  }
  return { winner, cut: false };
}

function searchAround(prep: PreparedRegion, { options, lowerBound }: RegionContext, start: Candidate, budget: SearchBudget) {
  return liftAndReinsert(prep, start.offsets, {
    lowerBound,
    maxIterations: options.local?.iterations ?? DEFAULT_ITERATIONS,
    maxWork: options.local?.work ?? DEFAULT_WORK,
    deadline: budget.deadline,
    clock: budget.clock,
  });
}

/**
 * The `best` strategy over `baselines`: their plans, every order and fit, a
 * local search and exhaustive search when small. `baselines` must not be empty.
 */
export function portfolio(baselines: readonly Strategy[]): Strategy {
  return {
    name: 'best',
    title: STRATEGY_TITLES.best,
    plan: (prep, context) => planPortfolio(baselines, prep, context),
  };
}
