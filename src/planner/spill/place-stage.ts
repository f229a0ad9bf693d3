// A stage placed as planModel places it: spilled along the memory map when
// the target spills (spill-plan.ts), else every activation in the activation
// region; and the lower bound that holds for every split. Depends only on the
// planner.
//
// The bound of a split plan: a region's peak is at least the bytes live in
// it at any step, so the sum of the map's region peaks is at least, at every
// step, the bytes live in all of them together. The bound of the problem with
// the map's regions merged into one (activations and scratch alike) is
// therefore a bound on every split, whatever the spill chooses; the regions
// outside the map keep their own bound. Each region's reported bound is the
// bound of the split the plan made (no placement of its buffers goes lower).
//
// `best` on a spilling target: the split, the fill-back and M4's scratch all
// follow the placement, so a strategy planned alone can end with a lower total
// than `best`'s placement inside the same spill (FastestDet on mcu: M1 1,936 B
// lower, its scratch grown less). Each baseline is therefore spilled whole as
// well, and the lowest total is kept (`best`'s own on ties): `best` is never
// above a baseline's whole plan. The knapsack's choices are shared between
// these spills (they do not depend on the strategy): the extra cost is the
// placements. On a crowded stage the baselines are not run, as in placeAll.
// When `best`'s own spill is kept, the winner it names is the baseline whose
// placement of that split was lowest, not that baseline's own plan, which
// splits its own way (SqueezeNet fp16 on mcu: tvm-conflicts's placement in
// best's 2.63 MiB, tvm-conflicts chosen 3.20 MiB): `winnerPeak` carries the latter.

import { regionPeaks } from '../assembly/explain-plan';
import { BASELINES, CROWDED_LIVE, maxLiveBuffers, placeAll, type PlacedPlan } from '../assembly/placement';
import { stageBounds, type PlanStage } from '../assembly/stages';
import type { BuiltProblem } from '../problem/build-problem';
import type { PlanOptions } from '../strategies/strategy';
import type { TargetProfile } from '../targets/target';
import { memoryMapOf, spillsOn } from './memory-map';
import { alignUp } from '../problem/build-buffers';
import { regionOf } from '../problem/problem';
import { withRegions } from './spill-items';
import { spillPlan, type FastChoices, type SpillResult } from './spill-plan';

/** A placed stage: the problem as placed (regions after the spill) and its placement. */
export interface PlacedStage {
  readonly built: BuiltProblem;
  readonly placed: PlacedPlan;
  readonly spill: SpillResult | undefined; // undefined when the target does not spill
}

/** Places `stage` for `target`; see the module header. */
export function placeStage(stage: PlanStage, target: TargetProfile, strategy: string, planOptions?: PlanOptions, report = true): PlacedStage {
  if (!spillsOn(target)) return { built: stage.built, placed: placeAll(stage.built, target, strategy, planOptions, report), spill: undefined };
  const choices: FastChoices = new Map();
  const spill = spillPlan(stage.built, stage.graph, target, strategy, planOptions, report, choices);
  if (strategy !== 'best' || maxLiveBuffers(stage.built.problem) > CROWDED_LIVE) return placedSpill(spill);
  let kept = { name: 'best', spill, total: totalPeak(spill) };
  const wholes = new Map<string, number>();
  for (const name of BASELINES) {
    const whole = spillPlan(stage.built, stage.graph, target, name, undefined, false, choices);
    const total = totalPeak(whole);
    wholes.set(name, total);
    if (total < kept.total) kept = { name, spill: whole, total };
  }
  if (!report) return placedSpill(kept.spill);
  const chosen = kept.name === 'best' ? spill : spillPlan(stage.built, stage.graph, target, kept.name, undefined, true, choices);
  const winner = kept.name === 'best' ? (spill.placed.portfolio?.winner ?? 'best') : kept.name;
  // best's own spill keeps a baseline's placement of the split best's placements made: that baseline chosen splits its own way
  const winnerPeak = kept.name === 'best' ? wholes.get(winner) : undefined;
  return placedSpill({ ...chosen, placed: { ...chosen.placed, portfolio: { winner, m1Peak: wholes.get('m1')!, ...(winnerPeak !== undefined && { winnerPeak }) } } });
}

/** The placed stage of a spill. */
function placedSpill(spill: SpillResult): PlacedStage {
  return { built: spill.built, placed: spill.placed, spill };
}

/** The sum of a spilled plan's region peaks: the plan's peak. */
function totalPeak(spill: SpillResult): number {
  let total = 0;
  for (const peak of regionPeaks(spill.placed.full.problem, spill.placed.offsets).values()) total += peak;
  return total;
}

/**
 * The least total bytes of any plan of `stage` for `target`, over every split
 * the spill could make: every buffer of the memory map in one region, the one
 * of the least alignment (a buffer is padded to its region's alignment, so a
 * buffer takes the fewest bytes there).
 */
export function everySplitBound(stage: PlanStage, target: TargetProfile): number {
  if (!spillsOn(target)) return stageBounds(stage, target).reduce((sum, r) => sum + r.lowerBound, 0);
  const regions = memoryMapOf(target);
  const map = new Set(regions.map((r) => r.name));
  const least = regions.reduce((a, r) => (r.alignment < a.alignment ? r : a));
  const { problem, scratch } = stage.built;
  const into = problem.buffers.map((b) => (map.has(regionOf(b)) ? least.name : regionOf(b)));
  const merged = scratch.map((q) => (map.has(q.region) ? { ...q, region: least.name, alignment: least.alignment, size: alignUp(q.bytes, least.alignment) } : q));
  const built: BuiltProblem = withRegions(stage.built, into, regions, merged);
  return stageBounds({ ...stage, built }, target).reduce((sum, r) => sum + r.lowerBound, 0);
}
