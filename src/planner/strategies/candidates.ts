// The plans `best` weighs against each other (best.ts, scale-path.ts): each
// candidate's offsets, peak and source, the run of the baselines that gives
// the first of them, and the greedy orders and fits it tries. Depends only on
// the planner engine and the strategy interface.

import type { OrderKey } from '../engine/orders';
import type { Fit } from '../engine/placer';
import type { PreparedRegion } from '../engine/prepared';
import type { RegionContext, Strategy } from './strategy';

/** One plan of a region and where it came from. */
export interface Candidate {
  readonly offsets: Float64Array;
  readonly peak: number;
  readonly source: string; // the baseline strategy's name, or 'best' for the portfolio's own orders, sweeps and searches
}

/** The orders `best` places the items in, each with every fit of FITS. */
export const ORDERS: readonly OrderKey[] = ['size', 'urgency', 'area', 'duration', 'conflicts', 'start'];
export const FITS: readonly Fit[] = ['first', 'best'];

/** The candidate with the lowest peak; the earliest on ties. `candidates` must not be empty. */
export function smallest(candidates: readonly Candidate[]): Candidate {
  let best = candidates[0]!;
  for (const c of candidates) if (c.peak < best.peak) best = c;
  return best;
}

/** The peak of the plan `offsets`: the highest top of an item that holds bytes. */
export function peakOf(prep: PreparedRegion, offsets: Float64Array): number {
  let peak = 0;
  for (let i = 0; i < prep.itemCount; i++) if (prep.itemExtent[i]! > 0) peak = Math.max(peak, offsets[i]! + prep.itemExtent[i]!);
  return peak;
}

/**
 * Adds the plan of each of `baselines` to `candidates`, in order, until one
 * reaches the lower bound (none of the rest could go lower, and the earliest
 * at the bound wins the tie). Each runs with the smallest peak so far as its
 * `dropAt`: a pass that reaches it could not win, so it stops there and adds
 * nothing. Returns the items placed and the passes dropped.
 */
export function runBaselines(baselines: readonly Strategy[], prep: PreparedRegion, context: RegionContext, candidates: Candidate[]): { placements: number; dropped: number } {
  let placements = 0;
  let dropped = 0;
  for (const strategy of baselines) {
    if (candidates.length > 0 && smallest(candidates).peak <= context.lowerBound) break;
    const dropAt = candidates.length > 0 ? smallest(candidates).peak : Number.POSITIVE_INFINITY;
    const outcome = strategy.plan(prep, { ...context, dropAt });
    placements += outcome.placements;
    if (outcome.dropped === true) dropped++;
    else candidates.push({ offsets: outcome.offsets, peak: peakOf(prep, outcome.offsets), source: strategy.name });
  }
  return { placements, dropped };
}
