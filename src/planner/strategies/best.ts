// Strategy `best`: a portfolio of greedy plans, a local search around the peak
// and an anytime exact search; keeps the smallest plan. Depends only on the
// planner engine and the strategy interface.
//
// - Large, crowded regions (more conflicts than a few greedy passes can walk
//   in the time of reading the problem) get the scale path instead: the naive
//   baseline, the anchored sweep outward from the busiest step, the anchored
//   sweep again from the step where that plan peaks (packed exactly there,
//   it ends lower on about a third of generated crowded traces), and two
//   sweeps over time (engine/sweep.ts, tightest gap, forwards and backwards:
//   on generated crowded traces the lowest-gap sweeps never did better than
//   these); up to 10M conflicts also greedy by size and by breadth (on
//   generated crowded traces of 6k buffers they beat the sweeps by 1-2 % on
//   five of seven, in about 0.3 s each); then, only when the caller gave a budget,
//   the size-class sweeps (engine/class-sweep.ts) and whole greedy passes,
//   which the budget may cut short (see `planLarge`).
// - Baselines first: every other registered strategy (naive, tflm, best-fit,
//   greedy-breadth, tvm-conflicts, ...) is a candidate, so `best` is never
//   worse than any of them. The registry hands them over (see `portfolio`).
// - Then the probe at the bound (exact-plan.ts): the dive from the bottom
//   (bottom-dive.ts), then MiniMalloc's search, once, in nodes for twice the
//   items. Real traces they often place there, which proves the plan optimal
//   before the orders and the local search spend the time (somas-resnet50
//   at the default budget: proven in about 0.25 s, where it used to end
//   0.08 % above the bound after 0.5 s). Where both fail, they have cost
//   about two greedy passes.
// - Then every order (size, urgency, area, duration, conflicts, start) with
//   both first fit and best fit. It stops early once a candidate reaches the
//   lower bound, and at the budget's deadline (the baselines always run in
//   full; on crowded regions just under the scale path a pass takes about
//   70 ms, so the eleven passes alone would run most of a second past a
//   short budget). A caller's stop (Cancel) does not cut them: a cancelled
//   plan is never above the portfolio's.
// - The smallest candidate (the earliest on ties) seeds the local search
//   (see local-search.ts), bounded by iterations, an effort budget and the
//   wall-clock budget.
// - When the peak is still above the lower bound, the anytime exact search
//   (exact-plan.ts: MiniMalloc's search at the bound, a descent by it, then
//   the skyline search with temporal decomposition, capacity from the bound
//   upward)
//   runs for the rest of the
//   budget, reporting progress and honouring cancellation; its completion
//   proves the result optimal. A region whose items share one alignment is
//   searched in units of it (aligned-region.ts), which is exact. Regions it
//   cannot handle (fixed offsets, mixed alignments, windows) that are small
//   get the older branch and bound (exact-search.ts) instead.
// - The outcome names the winner: the baseline whose plan was kept, or
//   'best' when an order, a sweep or a search found it.
// - Everything is deterministic except where the wall-clock budget or the
//   caller's stop cuts the search short, which the result reports as `stoppedBy: 'time'`.

import { conflictTotal } from '../engine/degrees';
import { orderItems, type OrderKey } from '../engine/orders';
import { Placer, type Fit } from '../engine/placer';
import type { PreparedRegion } from '../engine/prepared';
import type { StopReason } from '../problem/problem';
import { classSweepPlace } from '../engine/class-sweep';
import { anchoredSweepPlace, sweepPlace } from '../engine/sweep';
import { alignedRegion, offsetsInBytes } from './aligned-region';
import { improveExactly, probeAtBound, type ExactLimits, type ExactResult } from './exact-plan';
import { exactSearchApplies, searchExact } from './exact-search';
import { liftAndReinsert } from './local-search';
import type { RegionContext, Strategy, StrategyOutcome } from './strategy';

/** Default wall-clock budget per region, counted from its start: the baselines always run in full, the orders and searches after them stop at it. */
export const DEFAULT_BUDGET_MS = 500;
/** Conflicts (summed over items) above which a region takes the scale path. */
const LARGE_CONFLICTS = 5_000_000;
/** Conflicts up to which the scale path still runs the two greedy baselines that pack crowded traces best (each walks every live neighbour once: about a quarter second there). */
const GREEDY_CONFLICTS = 10_000_000;
/** Those baselines: greedy by size (first fit) and greedy by breadth. */
const SCALE_GREEDY: readonly string[] = ['tflm', 'greedy-breadth'];
/** Default node cap of the anytime exact search, per region, when the budget is unbounded: keeps it deterministic and finite. A finite budget has no node cap unless one is given. */
const DEFAULT_SKYLINE_NODES = 1_000_000;
/** Default effort budget of the local search, per region (roughly 0.05-0.2 s unloaded). */
const DEFAULT_WORK = 3_000_000;
const DEFAULT_EXACT_ITEMS = 20;
const DEFAULT_EXACT_NODES = 200_000;
const DEFAULT_ITERATIONS = 3_000;
const ORDERS: readonly OrderKey[] = ['size', 'urgency', 'area', 'duration', 'conflicts', 'start'];
const FITS: readonly Fit[] = ['first', 'best'];
/** The sweeps of the scale path after the anchored one: [tightest gap, backwards in time]. */
const SWEEPS: readonly (readonly [boolean, boolean])[] = [[true, false], [true, true]];

interface Candidate {
  readonly offsets: Float64Array;
  readonly peak: number;
  readonly source: string; // the baseline strategy's name, or 'best' for the portfolio's own orders and searches
}

/** How it works: see the module header. */
function planPortfolio(baselines: readonly Strategy[], prep: PreparedRegion, context: RegionContext): StrategyOutcome {
  const { lowerBound, options } = context;
  const clock = options.clock ?? Date.now;
  const deadline = clock() + (options.budgetMs ?? DEFAULT_BUDGET_MS);
  const conflicts = conflictTotal(prep);
  if (conflicts > LARGE_CONFLICTS) return planLarge(baselines, prep, context, deadline, conflicts);
  const candidates = baselines.map((strategy) => {
    const { offsets } = strategy.plan(prep, context);
    return { offsets, peak: peakOf(prep, offsets), source: strategy.name };
  });
  let placements = candidates.length * prep.freeItems.length; // each baseline places every free item once
  let winner = smallest(candidates);
  let improvements = 0;
  /** Takes a search's plan when it is lower than the winner's; returns whether the search proved it optimal. */
  const keepSearched = (found: { offsets: Float64Array; peak: number; proven: boolean }): boolean => {
    if (found.peak < winner.peak) {
      winner = { offsets: found.offsets, peak: found.peak, source: 'best' };
      improvements++;
    }
    return found.proven;
  };
  let proven = winner.peak <= lowerBound;
  // the probe at the bound: on real traces a proof in a few milliseconds, before the orders and the local search spend the time
  if (!proven) proven = keepSearched(probeExactly(prep, context, winner, deadline));
  let stoppedBy: StopReason = 'done';
  if (!proven) {
    const placer = new Placer(prep);
    // the deadline alone stops them: a caller's stop (Cancel) ends only the searches after them, so a cancelled plan is never above the portfolio's
    const clock = options.clock ?? Date.now;
    const orders = runOrders(placer, lowerBound, candidates, winner, () => clock() >= deadline);
    winner = orders.winner;
    placements += placer.placements;
    proven = winner.peak <= lowerBound;
    if (orders.cut) stoppedBy = 'time';
  }
  if (proven) stoppedBy = 'optimal';
  if (!proven && stoppedBy !== 'time') {
    const searched = searchAround(prep, context, winner, deadline);
    placements += searched.placements;
    improvements += searched.improvements;
    stoppedBy = searched.stoppedBy;
    if (searched.peak < winner.peak) winner = { offsets: searched.offsets, peak: searched.peak, source: 'best' };
    proven = winner.peak <= lowerBound;
  }
  if (!proven) {
    const exact = searchExactly(prep, context, winner, deadline);
    proven = keepSearched(exact);
    stoppedBy = proven ? 'optimal' : exact.timedOut ? 'time' : stoppedBy;
  }
  return { offsets: winner.offsets, placements, attempts: candidates.length, improvements, stoppedBy, proven, winner: winner.source };
}

/** The probe at the bound (exact-plan.ts) where the exact stage applies; the winner unchanged elsewhere. */
function probeExactly(prep: PreparedRegion, context: RegionContext, winner: Candidate, deadline: number): { offsets: Float64Array; peak: number; proven: boolean } {
  const { options, lowerBound } = context;
  if (options.exactItems === 0) return { ...winner, proven: false };
  const probe = improveAligned(prep, winner, lowerBound, exactLimits(context, deadline, options.exactNodes ?? Number.POSITIVE_INFINITY), probeAtBound);
  return probe.applied ? probe : { ...winner, proven: false };
}

/** The exact stage: the skyline search when it applies, else the small branch and bound. */
function searchExactly(prep: PreparedRegion, context: RegionContext, winner: Candidate, deadline: number) {
  const { options, lowerBound } = context;
  const clock = options.clock ?? Date.now;
  if (options.exactItems === 0) return { offsets: winner.offsets, peak: winner.peak, proven: false, timedOut: false };
  const maxNodes = options.exactNodes ?? (Number.isFinite(options.budgetMs ?? DEFAULT_BUDGET_MS) ? Number.POSITIVE_INFINITY : DEFAULT_SKYLINE_NODES);
  const exact = improveAligned(prep, winner, lowerBound, exactLimits(context, deadline, maxNodes));
  // A stop by the caller cuts the search short as the deadline does: both report 'time'.
  const cut = !exact.proven && (clock() >= deadline || (options.shouldStop?.() ?? false));
  if (exact.applied) return { offsets: exact.offsets, peak: exact.peak, proven: exact.proven, timedOut: cut };
  if (!exactSearchApplies(prep, options.exactItems ?? DEFAULT_EXACT_ITEMS)) {
    return { offsets: winner.offsets, peak: winner.peak, proven: false, timedOut: false };
  }
  const small = searchExact(prep, winner.peak, lowerBound, options.exactNodes ?? DEFAULT_EXACT_NODES);
  return { offsets: small.offsets ?? winner.offsets, peak: small.peak, proven: small.proven, timedOut: false };
}

/** The limits and callbacks of an exact search that may take `maxNodes` nodes and runs until `deadline`. */
function exactLimits({ options }: RegionContext, deadline: number, maxNodes: number): ExactLimits {
  return {
    deadline,
    clock: options.clock ?? Date.now,
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
 * The scale path: naive, the anchored sweep, it again from where its plan peaks, the two tightest-gap sweeps and, with an explicit budget, the
 * size-class sweeps and greedy passes that stop at the deadline; the smallest
 * complete plan wins.
 */
function planLarge(baselines: readonly Strategy[], prep: PreparedRegion, context: RegionContext, deadline: number, conflicts: number): StrategyOutcome {
  const { options, lowerBound } = context;
  const naive = baselines.find((b) => b.name === 'naive') ?? baselines[0]!;
  const naiveOffsets = naive.plan(prep, context).offsets;
  const candidates: Candidate[] = [{ offsets: naiveOffsets, peak: peakOf(prep, naiveOffsets), source: naive.name }];
  let anchored: Float64Array | undefined;
  const sweeps = [
    () => (anchored = anchoredSweepPlace(prep, true, context.peakStep)),
    // anchored again where the first anchored plan peaks: that step, packed exactly, often ends lower
    () => (anchored === undefined ? undefined : anchoredSweepPlace(prep, true, toppedStep(prep, anchored))),
    ...SWEEPS.map(([tightest, backwards]) => () => sweepPlace(prep, tightest, backwards)),
  ];
  for (const sweep of sweeps) {
    if (smallest(candidates).peak <= lowerBound) break; // naive stacks everything live together, or a sweep reached the bound
    const offsets = sweep();
    if (offsets !== undefined) candidates.push({ offsets, peak: peakOf(prep, offsets), source: 'best' });
  }
  // a region not much past the portfolio's reach: the greedy passes that beat the sweeps on about half such traces
  for (const strategy of conflicts <= GREEDY_CONFLICTS ? baselines.filter((b) => SCALE_GREEDY.includes(b.name)) : []) {
    if (smallest(candidates).peak <= lowerBound) break;
    const { offsets } = strategy.plan(prep, context);
    candidates.push({ offsets, peak: peakOf(prep, offsets), source: strategy.name });
  }
  let winner = smallest(candidates);
  let stoppedBy: StopReason = winner.peak <= lowerBound ? 'optimal' : 'done';
  if (winner.peak > lowerBound && options.budgetMs !== undefined) {
    const clock = options.clock ?? Date.now;
    const stop = () => clock() >= deadline || (options.shouldStop?.() ?? false);
    // size-class sweeps first: near greedy by size on crowded traces, in a fraction of its time
    const classed = classSweepPlace(prep, false, stop);
    if (classed === undefined) stoppedBy = stop() ? 'time' : stoppedBy;
    else {
      const peak = peakOf(prep, classed);
      if (peak < winner.peak) winner = { offsets: classed, peak, source: 'best' };
    }
    const placer = new Placer(prep);
    for (const key of ORDERS) {
      if (stoppedBy === 'time' || winner.peak <= lowerBound) break;
      for (const fit of FITS) {
        const peak = placer.placeAll(orderItems(prep, key), fit, stop);
        if (Number.isNaN(peak)) stoppedBy = 'time';
        else if (peak < winner.peak) winner = { offsets: placer.offsets.slice(), peak, source: 'best' };
        if (stoppedBy === 'time' || winner.peak <= lowerBound) break;
      }
      if (stoppedBy === 'time' || winner.peak <= lowerBound) break;
    }
  }
  const proven = winner.peak <= lowerBound;
  return { offsets: winner.offsets, placements: prep.freeItems.length * candidates.length, attempts: candidates.length, improvements: 0, stoppedBy: proven ? 'optimal' : stoppedBy, proven, winner: winner.source };
}

/** Where the plan `offsets` peaks: the first step of the first item whose top is its peak. */
function toppedStep(prep: PreparedRegion, offsets: Float64Array): number {
  const peak = peakOf(prep, offsets);
  for (let i = 0; i < prep.itemCount; i++) if (prep.itemExtent[i]! > 0 && offsets[i]! + prep.itemExtent[i]! === peak) return prep.itemStart[i]!;
  return 0; // nothing has bytes: any step will do
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

function searchAround(prep: PreparedRegion, context: RegionContext, start: Candidate, deadline: number) {
  const { options, lowerBound } = context;
  return liftAndReinsert(prep, start.offsets, {
    lowerBound,
    maxIterations: options.maxIterations ?? DEFAULT_ITERATIONS,
    maxWork: options.maxWork ?? DEFAULT_WORK,
    deadline,
    clock: options.clock ?? Date.now,
  });
}

function smallest(candidates: readonly Candidate[]): Candidate {
  let best = candidates[0]!;
  for (const c of candidates) if (c.peak < best.peak) best = c;
  return best;
}

function peakOf(prep: PreparedRegion, offsets: Float64Array): number {
  let peak = 0;
  for (let i = 0; i < prep.itemCount; i++) if (prep.itemExtent[i]! > 0) peak = Math.max(peak, offsets[i]! + prep.itemExtent[i]!);
  return peak;
}

/**
 * The `best` strategy over `baselines`: their plans, every order and fit, a
 * local search and exhaustive search when small. `baselines` must not be empty.
 */
export function portfolio(baselines: readonly Strategy[]): Strategy {
  return {
    name: 'best',
    title: 'portfolio of every strategy, orders and fits, local search around the peak, then an anytime exact search',
    plan: (prep, context) => planPortfolio(baselines, prep, context),
  };
}
