// The lower bounds a model plan reports: the strategy-free bound, which no
// valid plan of the model, target and dims goes below whatever the strategy,
// and the bound of the strategy's own problem. Depends only on the planner.
//
// The strategy's problem depends on the strategy in three places, and the
// strategy-free bound lets go of each:
// - a subgraph body's buffer is sized by the strategy's plan of the body: the
//   bound sizes it by the body's own lower bound (recursively);
// - the compute-unit plan (M3) keeps whichever of "shared" and "copy at every
//   boundary" the strategy laid out smaller: the bound is the smaller of the
//   two variants' bounds, per region;
// - M4 may move a scratch buffer that is not latency-critical into the fast
//   region when it fits there without growth, which depends on the activation
//   layout: such a buffer counts in no region's bound.

import type { InferredGraph } from '../../model/inferred';
import { boundProblem, type BuiltProblem } from '../problem/build-problem';
import type { ScratchRequest } from '../scratch/scratch-requests';
import { findFusionUnits } from '../fusion/find-units';
import { withFusion } from '../fusion/fused-problem';
import type { PlacementProblem } from '../problem/problem';
import { boundsWithScratch, type RegionBound } from '../scratch/bound';
import type { TargetProfile } from '../targets/target';

/** A way the compute-unit plan could lay the model out, before fusion. */
export interface LayoutVariant {
  readonly graph: InferredGraph;
  readonly built: BuiltProblem;
}

/**
 * Per region of `target`, the least bytes any valid plan needs: `kept` is the
 * (fused) problem the plan was made from; `alternative` the compute-unit
 * variant it did not keep, if any.
 */
export function strategyFreeBounds(target: TargetProfile, kept: BuiltProblem, alternative?: LayoutVariant): RegionBound[] {
  const names = target.regions.map((r) => r.name);
  const ofKept = problemBounds(kept, target, names);
  if (alternative === undefined) return ofKept;
  const ofOther = problemBounds(fused(alternative, target), target, names);
  return ofKept.map((k, i) => {
    const o = ofOther[i]!;
    return o.lowerBound < k.lowerBound ? { ...o, rawLowerBound: Math.min(o.rawLowerBound, k.rawLowerBound) } : { ...k, rawLowerBound: Math.min(o.rawLowerBound, k.rawLowerBound) };
  });
}

/**
 * Per region, the bound of the strategy's own problem: bodies as the strategy
 * planned them, scratch in the region where it was placed. `placed` holds the
 * activations of `built` followed by its scratch buffers.
 */
export function strategyBounds(target: TargetProfile, built: BuiltProblem, placed: PlacementProblem): RegionBound[] {
  const raw = { ...built.problem, buffers: built.problem.buffers.map((b) => ({ ...b, size: Math.min(b.size, built.info[b.id]!.bytes) })) };
  const n = built.problem.buffers.length;
  const scratch = built.scratch.map((q, k) => ({ ...q, region: placed.buffers[n + k]?.region ?? q.region }));
  return boundsWithScratch(built.problem, raw, scratch, target.regions.map((r) => r.name));
}

/** The plan fields a strategy's own figures fill: its bound when above the reported one, and how `best` did. */
export interface OwnBoundFields {
  readonly strategyBound?: number;
  readonly portfolio?: { readonly winner: string; readonly m1Peak?: number; readonly winnerPeak?: number };
}

/**
 * `strategyBound` when the strategy's own bound is above `lowerBound`, and the
 * portfolio's winner with M1's peak. M1's peak on the same problem, and the
 * winner's own peak, stand unless `replan` is given (the problem depends on
 * the strategy): then each is of the model planned afresh with that strategy.
 * `provenPeak`: the peak of a plan proven the lowest placement of its own
 * problem, which bounds that problem too.
 */
export function ownBoundFields(
  lowerBound: number,
  own: readonly RegionBound[],
  portfolio: OwnBoundFields['portfolio'],
  replan: ((strategy: string) => number) | undefined,
  provenPeak?: number,
): OwnBoundFields {
  const strategyBound = Math.max(own.reduce((sum, r) => sum + r.lowerBound, 0), provenPeak ?? 0);
  return {
    ...(strategyBound > lowerBound && { strategyBound }),
    ...(portfolio !== undefined && { portfolio: replan === undefined ? portfolio : replannedPortfolio(portfolio, replan) }),
  };
}

/** `portfolio` with M1's peak and the winner's own peak of the model planned afresh: those of best's problem are of a problem sized by best's plan. */
function replannedPortfolio(portfolio: NonNullable<OwnBoundFields['portfolio']>, replan: (strategy: string) => number): NonNullable<OwnBoundFields['portfolio']> {
  const { m1Peak, winnerPeak } = portfolio;
  return { ...portfolio, ...(m1Peak !== undefined && { m1Peak: replan('m1') }), ...(winnerPeak !== undefined && { winnerPeak: replan(portfolio.winner) }) };
}

function problemBounds(built: BuiltProblem, target: TargetProfile, names: readonly string[]): RegionBound[] {
  return boundsWithScratch(boundProblem(built), boundProblem(built, true), fixedScratch(built.scratch, target), names);
}

/** The scratch requests M4 cannot move to another region, whatever the activation layout. */
function fixedScratch(requests: readonly ScratchRequest[], target: TargetProfile): ScratchRequest[] {
  const { placement, retries, criterion } = target.scratch;
  const fast = target.regions.find((r) => r.fast);
  if (placement !== 'free-areas' || !(retries || criterion === 'most-fast') || fast === undefined) return [...requests];
  return requests.filter((q) => q.latencyCritical || q.variable || q.region === fast.name);
}

function fused(variant: LayoutVariant, target: TargetProfile): BuiltProblem {
  const fusion = findFusionUnits(variant.graph, variant.built.schedule.order, target);
  return fusion === undefined ? variant.built : withFusion(variant.built, fusion.units, fusion.region);
}
