// Strategy `best`: a portfolio of greedy plans, a local search around the peak
// and, for small regions, an exhaustive search; keeps the smallest plan.
// Depends only on the planner engine and the strategy interface.
//
// - Baselines first: every other registered strategy (naive, tflm, best-fit,
//   greedy-breadth, tvm-conflicts, ...) is a candidate, so `best` is never
//   worse than any of them. The registry hands them over (see `portfolio`).
// - Then every order (size, urgency, area, duration, conflicts, start) with
//   both first fit and best fit; the conflict graph is built once and shared.
//   It stops early once a candidate reaches the lower bound.
// - The smallest candidate (the earliest on ties) seeds the local search
//   (see local-search.ts), bounded by iterations, an effort budget and a
//   small wall-clock budget.
// - When the peak is still above the lower bound and the region is small,
//   branch and bound (see exact-search.ts) looks for a lower peak, and its
//   completion proves the result optimal.
// - The outcome names the winner: the baseline whose plan was kept, or
//   'best' when an order, the local search or the exact search found it.
// - Everything is deterministic except where the wall-clock budget cuts the
//   search short, which the result reports as `stoppedBy: 'time'`.

import { orderItems, type OrderKey } from '../engine/orders';
import { Placer, type Fit } from '../engine/placer';
import type { PreparedRegion } from '../engine/prepared';
import type { StopReason } from '../problem';
import { exactSearchApplies, searchExact } from './exact-search';
import { liftAndReinsert } from './local-search';
import type { RegionContext, Strategy, StrategyOutcome } from './strategy';

/** Default wall-clock budget of the local search, per region: a guard; the effort budget binds first. */
export const DEFAULT_BUDGET_MS = 500;
/** Default effort budget of the local search, per region (roughly 0.05-0.2 s unloaded). */
const DEFAULT_WORK = 3_000_000;
const DEFAULT_EXACT_ITEMS = 20;
const DEFAULT_EXACT_NODES = 200_000;
const DEFAULT_ITERATIONS = 3_000;
const ORDERS: readonly OrderKey[] = ['size', 'urgency', 'area', 'duration', 'conflicts', 'start'];
const FITS: readonly Fit[] = ['first', 'best'];

interface Candidate {
  readonly offsets: Float64Array;
  readonly peak: number;
  readonly source: string; // the baseline strategy's name, or 'best' for the portfolio's own orders and searches
}

/** How it works: see the module header. */
function planPortfolio(baselines: readonly Strategy[], prep: PreparedRegion, context: RegionContext): StrategyOutcome {
  const { lowerBound } = context;
  const candidates = baselines.map((strategy) => {
    const { offsets } = strategy.plan(prep, context);
    return { offsets, peak: peakOf(prep, offsets), source: strategy.name };
  });
  let placements = candidates.length * prep.freeItems.length; // each baseline places every free item once
  let winner = smallest(candidates);
  if (winner.peak > lowerBound) {
    const placer = new Placer(prep);
    winner = runOrders(placer, lowerBound, candidates, winner);
    placements += placer.placements;
  }
  let improvements = 0;
  let stoppedBy: StopReason = winner.peak <= lowerBound ? 'optimal' : 'done';
  if (winner.peak > lowerBound) {
    const searched = searchAround(prep, context, winner);
    placements += searched.placements;
    improvements = searched.improvements;
    stoppedBy = searched.stoppedBy;
    if (searched.peak < winner.peak) winner = { offsets: searched.offsets, peak: searched.peak, source: 'best' };
  }
  let proven = winner.peak <= lowerBound;
  if (!proven && exactSearchApplies(prep, context.options.exactItems ?? DEFAULT_EXACT_ITEMS)) {
    const exact = searchExact(prep, winner.peak, lowerBound, context.options.exactNodes ?? DEFAULT_EXACT_NODES);
    if (exact.offsets !== undefined) winner = { offsets: exact.offsets, peak: exact.peak, source: 'best' };
    proven = exact.proven;
    if (proven) stoppedBy = 'optimal';
  }
  return { offsets: winner.offsets, placements, attempts: candidates.length, improvements, stoppedBy, proven, winner: winner.source };
}

/** Adds the plan of every order and fit to `candidates`; returns the smallest so far. */
function runOrders(placer: Placer, lowerBound: number, candidates: Candidate[], winner: Candidate): Candidate {
  for (const key of ORDERS) {
    const order = orderItems(placer.prep, key);
    for (const fit of FITS) {
      if (key === 'size' && fit === 'best') continue; // exactly the best-fit baseline
      const peak = placer.placeAll(order, fit);
      candidates.push({ offsets: placer.offsets.slice(), peak, source: 'best' });
      if (peak < winner.peak) winner = candidates[candidates.length - 1]!;
    }
    if (winner.peak <= lowerBound) break;
  }
  return winner;
}

function searchAround(prep: PreparedRegion, context: RegionContext, start: Candidate) {
  const { options, lowerBound } = context;
  const clock = options.clock ?? Date.now;
  return liftAndReinsert(prep, start.offsets, {
    lowerBound,
    maxIterations: options.maxIterations ?? DEFAULT_ITERATIONS,
    maxWork: options.maxWork ?? DEFAULT_WORK,
    deadline: clock() + (options.budgetMs ?? DEFAULT_BUDGET_MS),
    clock,
  });
}

function smallest(candidates: readonly Candidate[]): Candidate {
  let best = candidates[0]!;
  for (const c of candidates) if (c.peak < best.peak) best = c;
  return best;
}

function peakOf(prep: PreparedRegion, offsets: Float64Array): number {
  let peak = 0;
  for (let i = 0; i < prep.itemCount; i++) peak = Math.max(peak, offsets[i]! + prep.itemExtent[i]!);
  return peak;
}

/**
 * The `best` strategy over `baselines`: their plans, every order and fit, a
 * local search and exhaustive search when small. `baselines` must not be empty.
 */
export function portfolio(baselines: readonly Strategy[]): Strategy {
  return {
    name: 'best',
    title: 'portfolio of every strategy, orders and fits, local search around the peak, exact search when small',
    plan: (prep, context) => planPortfolio(baselines, prep, context),
  };
}
