// The peak of a plan with one setting changed, for the suggestions: the same
// stages as planModel (assembly/stages.ts), stopped as soon as a cheaper proof
// shows the setting cannot lower the peak. Depends only on the planner and the
// model's IR types.
//
// - An order whose schedule is the plan's own (a chain has one order) gives
//   the same problem, so the same peak: nothing is built.
// - A change of fusion settings leaves the problem before fusion as it is:
//   only fusion is found again.
// - The changed problem's strategy-free bound at or above the plan's peak
//   proves no saving: nothing is placed.
// - Otherwise the problem is placed as planModel places it (spilled along the
//   target's memory map when it spills), leaving out what
//   the plan only reports (M1 beside best, validation, the explanation), so
//   the peak is the one `plan` with the setting's arguments prints, with each
//   region's peak beside it and, when nothing spills, the bytes moved to and
//   from slow memory (`traffic.after` of that plan).

import type { InferredGraph } from '../../model/inferred';
import { regionPeaks } from '../assembly/explain-plan';
import { buildStage, type PlanStage } from '../assembly/stages';
import { fusedTraffic, slowScratchTraffic, withScratchTraffic } from '../problem/build-traffic';
import { scratchRequestOf } from '../scratch/merge';
import { everySplitBound, placeStage } from '../spill/place-stage';
import { scheduleGraph } from '../problem/schedule';
import type { PlanOptions } from '../strategies/strategy';
import type { TargetProfile } from '../targets/target';
import { isEmptyChange, type TargetChange } from './target-change';

/** The plan the suggestions change a setting of. */
export interface ReplanBase {
  readonly model: InferredGraph;
  readonly target: TargetProfile;
  readonly strategy: string; // the strategy it was planned with
  readonly planOptions?: PlanOptions;
  readonly stage: PlanStage; // its problem
  readonly peak: number;
}

/** One region's peak in a plan. */
export interface RegionPeak {
  readonly name: string;
  readonly fast: boolean;
  readonly peak: number;
}

/** A plan made again with one setting changed. */
export interface Replanned {
  readonly peak: number; // the sum of the regions' peaks
  readonly regions: readonly RegionPeak[]; // every region of the target, in its order
  readonly slowTraffic?: number; // bytes moved to and from slow memory; absent when a spill moved buffers (not counted here)
}

/** How a changed setting was evaluated (counted by the scaling tests). */
export type ReplanOutcome = 'same-order' | 'bound' | 'placed';

/**
 * The peak of `base` planned with `change` (applied as `target`) and
 * `strategy` (undefined: the target's), or undefined when it is proven not
 * below `base.peak`; see the module header. `onOutcome` hears how.
 */
export function replannedPeak(
  base: ReplanBase,
  target: TargetProfile,
  strategy: string | undefined,
  change: TargetChange,
  onOutcome?: (outcome: ReplanOutcome) => void,
): Replanned | undefined {
  const s = strategy ?? target.planning.strategy;
  const sameStrategy = s === base.strategy;
  if (sameStrategy && onlyOrder(change) && sameSchedule(base, target)) {
    onOutcome?.('same-order');
    return undefined;
  }
  const buildOptions = { strategy: s, ...(base.planOptions !== undefined && { planOptions: base.planOptions }) };
  const stage = buildStage(base.model, target, buildOptions, sameStrategy && onlyFusion(change) ? base.stage : undefined);
  const bound = everySplitBound(stage, target);
  if (bound >= base.peak) {
    onOutcome?.('bound');
    return undefined;
  }
  onOutcome?.('placed');
  const { built, placed, spill } = placeStage(stage, target, s, base.planOptions, false);
  const peaks = regionPeaks(placed.full.problem, placed.offsets);
  const regions = target.regions.map((r) => ({ name: r.name, fast: r.fast, peak: peaks.get(r.name) ?? 0 }));
  const peak = regions.reduce((sum, r) => sum + r.peak, 0);
  if (spill !== undefined) return { peak, regions };
  const slow = new Set(target.regions.filter((r) => !r.fast).map((r) => r.name));
  const scratch = slowScratchTraffic(placed.full.problem, (id) => scratchRequestOf(built, id)?.bytes, slow);
  const traffic = withScratchTraffic(fusedTraffic(stage.graph, stage.unfused.problem, stage.unfused.info, slow, stage.fusion?.units ?? []), scratch);
  return { peak, regions, slowTraffic: traffic.total.after };
}

function onlyOrder(change: TargetChange): boolean {
  const { order, ...rest } = change;
  return order !== undefined && isEmptyChange(rest);
}

function onlyFusion(change: TargetChange): boolean {
  const { fusion: _fusion, sramBytes: _sram, dwPwCacheBytes: _cache, ...rest } = change;
  return !isEmptyChange(change) && isEmptyChange(rest);
}

/**
 * True when `target`'s order policy schedules the model exactly as the plan's
 * did. Subgraph bodies are scheduled by the policy too, so a model with
 * bodies is never taken as the same.
 */
function sameSchedule(base: ReplanBase, target: TargetProfile): boolean {
  if (base.model.nodes.some((n) => n.subgraphs.length > 0)) return false;
  const { graphIo } = target.planning;
  const planned = scheduleGraph(base.model, base.target.planning.order, graphIo).order;
  const changed = scheduleGraph(base.model, target.planning.order, graphIo).order;
  return planned.length === changed.length && planned.every((node, step) => changed[step] === node);
}
