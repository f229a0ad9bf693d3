// The placement of a model plan's buffers: activations by the chosen strategy,
// then scratch by M4 in the free areas, or scratch planned together with the
// activations as one-step buffers, as the target says. Depends only on the
// planner. What the other placement's plan peaks at is measured by planModel
// (scratch-compare.ts): this placement is of one split, before fill-back.
//
// With strategy `best` and M4, candidates are compared by their final peak
// (scratch included): best's activation plan and each baseline strategy's,
// so the kept plan is never above any strategy's on the same problem. On a
// crowded problem (thousands of buffers live at once) the baselines and M1,
// whose placement looks at every live placed buffer, are not run: their cost
// grows with the square of the buffers live together.

import { assignOffsets } from './assign-offsets';
import type { BuiltProblem } from '../problem/build-problem';
import { placeScratch, type ScratchPlacement, type ScratchVariant } from '../scratch/place-scratch';
import { withPlacedScratch, withScratchBuffers, type FullProblem } from '../scratch/merge';
import { STRATEGY_NAMES } from '../strategies/strategy-names';
import type { PlanOptions } from '../strategies/strategy';
import type { PlanResult, StopReason } from '../problem/problem';
import type { ScratchSettings, TargetProfile } from '../targets/target';

/** How scratch was placed. */
export interface PlacedScratch {
  readonly placement: ScratchSettings['placement']; // the way the plan uses
  readonly buffers: number;
  readonly grown: number; // scratch buffers for which M4 grew a heap
  readonly variant: ScratchVariant; // M4's kept choice of sides
  readonly runs: number; // M4 variants tried
}

/** How scratch was placed, and the peak of the plan each placement gives (`plan --scratch-placement` with it). */
export interface ScratchSummary extends PlacedScratch {
  readonly freeAreasPeak: number; // the plan's peak with scratch in the free areas (M4)
  readonly withActivationsPeak: number; // the plan's peak with scratch planned with the activations
}

/** Every buffer of the plan with its offset. */
export interface PlacedPlan {
  readonly full: FullProblem;
  readonly offsets: readonly number[];
  readonly activationPeaks: ReadonlyMap<string, number>; // region peaks before M4; empty when not placed by M4
  readonly scratch: PlacedScratch | undefined; // undefined without scratch
  readonly portfolio?: { readonly winner: string; readonly m1Peak?: number; readonly winnerPeak?: number }; // strategy 'best': the kept candidate, and M1 on the same problem (absent when crowded); winnerPeak: what the winning baseline plans when chosen itself, where the plan kept is not its own (as plan-types.ts's PortfolioWinner)
  readonly search: PlacementSearch;
}

/** How the placement of the kept offsets ended. */
export interface PlacementSearch {
  readonly proven: boolean; // no offsets of these buffers peak lower: every region at its bound, or the exact search finished
  readonly stoppedBy: StopReason; // 'time' when the budget or the caller's stop cut a search short
  /**
   * A model plan's, when proven: what the proof reaches. 'lower-bound': the peak is the lower bound, no plan is
   * lower; 'region-bounds': every region is at its own bound, no placement of the same split is lower; 'search': an
   * exhaustive search found no placement of these buffers lower. Either of the last two puts `strategyBound` at the peak.
   */
  readonly proof?: 'lower-bound' | 'region-bounds' | 'search';
  /**
   * A model plan's with sizes unknown (not `complete`): what the proof reaches for the buffers of known size only, in
   * the words of `proof`. Such a plan is never `proven`: a buffer of unknown size is planned as 0 bytes, and the real
   * sizes may need another placement.
   */
  readonly knownSizesProof?: 'lower-bound' | 'region-bounds' | 'search';
}

/** The search record of an assignOffsets result whose offsets the plan keeps as they are. */
function searchOf(result: PlanResult): PlacementSearch {
  return { proven: result.optimal, stoppedBy: result.stats.stoppedBy };
}

/** Buffers live at once above which the pairwise baselines and M1 are not run beside `best`. */
export const CROWDED_LIVE = 2_000;

/** The most buffers live at one step (zero-size ones left out). */
export function maxLiveBuffers(problem: BuiltProblem['problem']): number {
  const events: number[] = [];
  for (const b of problem.buffers) {
    if (b.size === 0 || b.end <= b.start) continue;
    events.push(b.start * 2 + 1, b.end * 2);
  }
  events.sort((a, b) => a - b);
  let live = 0;
  let most = 0;
  for (const e of events) {
    live += e % 2 === 1 ? 1 : -1;
    if (live > most) most = live;
  }
  return most;
}

/** Strategies `best` runs as baselines; with M4 each one's final plan is a candidate too. */
export const BASELINES = STRATEGY_NAMES.filter((name) => name !== 'best');

/**
 * Places activations, then scratch the way the target asks for. With
 * `report: false` only the placement is made: what the plan merely reports
 * (M1 beside `best`, M4's choices when the target plans scratch with the
 * activations) is not run, and `scratch` and `portfolio` are left out.
 */
export function placeAll(built: BuiltProblem, target: TargetProfile, strategy: string, planOptions?: PlanOptions, report = true): PlacedPlan {
  const portfolio = strategy === 'best';
  const crowded = portfolio && maxLiveBuffers(built.problem) > CROWDED_LIVE;
  const activations = assignOffsets(built.problem, strategy, planOptions);
  if (built.scratch.length === 0) {
    const plan = { full: { problem: built.problem, info: built.info }, offsets: activations.offsets, activationPeaks: new Map(), scratch: undefined, search: searchOf(activations) };
    if (!portfolio || !report) return plan;
    const winner = activations.winner ?? strategy;
    return { ...plan, portfolio: crowded ? { winner } : { winner, m1Peak: assignOffsets(built.problem, 'm1').peak } };
  }
  const joint = withScratchBuffers(built);
  const withActivations = target.scratch.placement === 'with-activations';
  const jointPlan = withActivations ? assignOffsets(joint.problem, strategy, planOptions) : undefined;
  const candidates = [{ name: activations.winner ?? strategy, offsets: activations.offsets }];
  if (portfolio && !withActivations && !crowded) candidates.push(...BASELINES.map((name) => ({ name, offsets: assignOffsets(built.problem, name).offsets })));
  const runs = withActivations && !report ? [] : candidates.map((c) => ({ name: c.name, offsets: c.offsets, m4: scratchPlacement(built, target, c.offsets) }));
  // M4 places scratch around the searched activations: no search proves the merged plan optimal. An activation search
  // that ended at its own optimum left nothing to try ('done'): a longer budget gives the same plan.
  const stoppedBy = activations.stats.stoppedBy === 'optimal' ? 'done' : activations.stats.stoppedBy;
  const mergedSearch: PlacementSearch = { proven: false, stoppedBy };
  if (!report) {
    return withActivations
      ? { full: joint, offsets: jointPlan!.offsets, activationPeaks: new Map(), scratch: undefined, search: searchOf(jointPlan!) }
      : { ...mergedPlan(built, keptRun(runs)), search: mergedSearch };
  }
  const kept = keptRun(runs);
  const { m4 } = kept;
  const scratch: PlacedScratch = {
    placement: target.scratch.placement,
    buffers: built.scratch.length,
    grown: m4.placed.filter((p) => p.grown).length,
    variant: m4.variant,
    runs: m4.runs,
  };
  const m1Peak = () => (withActivations ? assignOffsets(joint.problem, 'm1').peak : finalPeak(runs.find((r) => r.name === 'm1')!.m4));
  const chosen = withActivations ? { winner: jointPlan!.winner ?? strategy } : { winner: kept.name };
  const summary = portfolio ? { portfolio: crowded ? chosen : { ...chosen, m1Peak: m1Peak() } } : {};
  if (withActivations) return { full: joint, offsets: jointPlan!.offsets, activationPeaks: new Map(), scratch, ...summary, search: searchOf(jointPlan!) };
  return { ...mergedPlan(built, kept), scratch, ...summary, search: mergedSearch };
}

interface ScratchRun {
  readonly name: string;
  readonly offsets: readonly number[];
  readonly m4: ScratchPlacement;
}

/** The run whose final peak is lowest; the first of equal ones. */
function keptRun(runs: readonly ScratchRun[]): ScratchRun {
  let kept = runs[0]!;
  for (const run of runs) if (finalPeak(run.m4) < finalPeak(kept.m4)) kept = run;
  return kept;
}

/** The activations of `run` with M4's scratch merged in. */
function mergedPlan(built: BuiltProblem, run: ScratchRun): Omit<PlacedPlan, 'search'> {
  const merged = withPlacedScratch(built, run.offsets, run.m4);
  const activationPeaks = new Map(run.m4.heaps.map((h) => [h.name, h.activationPeak]));
  return { full: merged, offsets: merged.offsets, activationPeaks, scratch: undefined };
}

function scratchPlacement(built: BuiltProblem, target: TargetProfile, offsets: readonly number[]): ScratchPlacement {
  return placeScratch({ problem: built.problem, offsets, regions: target.regions, requests: built.scratch, settings: target.scratch });
}

/** The sum of the region peaks once M4 has placed the scratch. */
function finalPeak(m4: ScratchPlacement): number {
  return m4.heaps.reduce((sum, h) => sum + h.size, 0);
}
