// Placement across the regions of a memory map: the buffers that earn the
// fast region most stay there, the rest spill to the next region, each region
// planned by the chosen strategy within its limit. Depends only on the
// planner and the model's IR types.
//
// Method (a placement problem with a knapsack over time), region by region
// down the map, fastest first:
// - Units are alias groups (aliased buffers move together); a group with a
//   fixed offset (a fusion unit's on-chip buffer), outside the map, or named
//   by a pin rule stays where it is. Latency-critical scratch (M4) stays in
//   the fast region, unless it alone exceeds the limit: then it goes down.
// - choose-fast.ts picks the groups the region keeps: the most bytes read and
//   written in it, with every step's live bytes (kept groups, pinned groups,
//   scratch) within the capacity. The rest is assigned to the next region.
// - The whole problem is placed (placeAll: the strategy, then M4's scratch).
//   Placement can need more than the live bytes (holes, alignment): when the
//   region's peak is over its limit, the capacity is lowered by the excess
//   and the choice made again, at most MAX_ROUNDS times; then everything
//   that may move goes down.
// - Fill-back (fill-back.ts): a spilled group that fits a hole of the placed
//   region over its lifetime, below the limit, is moved into it, densest
//   first: the region ends with no spilled group that would still fit.
// What it optimizes: bytes moved in the fast region (so, bytes kept off the
// slow one), subject to the live-bytes constraint; exact when choose-fast's
// search finishes (small cases), greedy by density and maximal otherwise.

import type { InferredGraph } from '../../model/inferred';
import type { BuiltProblem } from '../problem/build-problem';
import { regionPeaks } from '../assembly/explain-plan';
import { placeAll, type PlacedPlan } from '../assembly/placement';
import type { PlanOptions } from '../strategies/strategy';
import type { MemoryRegion, TargetProfile } from '../targets/target';
import { chooseFast, densityOf, type FastChoice, type PinnedLoad } from './choose-fast';
import { fillBack } from './fill-back';
import { memoryMapOf } from './memory-map';
import { fittedScratch, spillUnits, withRegions, type SpillUnit } from './spill-items';

/** Times a region's choice is made again after its placement went over the limit. */
const MAX_ROUNDS = 6;

/** What the spill did. */
export interface SpillResult {
  readonly built: BuiltProblem; // with every buffer in its final region
  readonly placed: PlacedPlan;
  readonly units: readonly SpillUnit[];
  readonly unitRegion: readonly string[]; // final region per unit
  readonly wanted: string; // the region every movable unit wanted: the map's first
  readonly proven: boolean; // every region's choice proven the best of the knapsack over time
  readonly movedScratch: readonly number[]; // scratch requests too large for their region
}

/**
 * Choices of the knapsack made so far for one stage, by region, capacity and
 * the units it chose among: the choice does not depend on the strategy, so
 * spills of the same stage by several strategies make each one once.
 */
export type FastChoices = Map<string, FastChoice>;

/** Spills the activations of `built` along the memory map of `target`; see the module header. `report` as placeAll's. */
export function spillPlan(built: BuiltProblem, graph: InferredGraph, target: TargetProfile, strategy: string, planOptions?: PlanOptions, report = true, choices: FastChoices = new Map()): SpillResult {
  const map = memoryMapOf(target);
  const units = spillUnits(built, graph, map, target.planning.pins ?? []);
  const scratch = fittedScratch(built.scratch, map);
  const unitRegion = units.map((u) => u.pinnedTo ?? map[0]!.name);
  let proven = true;
  for (let level = 0; level < map.length - 1; level++) {
    const region = map[level]!;
    if (region.sizeLimit === undefined) break;
    // every level is split, whether or not the one above was proven (`proven &&= levelSplit(…)` skipped the rest)
    const levelProven = levelSplit({ built, units, unitRegion, scratch: scratch.requests, target, strategy, planOptions, choices }, region, map[level + 1]!);
    proven &&= levelProven;
  }
  const finalBuilt = () => withRegions(built, bufferRegions(built, units, unitRegion), map, scratch.requests);
  const placed = placeAll(finalBuilt(), target, strategy, planOptions, report);
  const filled = fillBack(placed, built, units, unitRegion, map);
  return { built: finalBuilt(), placed: filled, units, unitRegion, wanted: map[0]!.name, proven, movedScratch: scratch.moved };
}

/** What one level's split reads and changes (`unitRegion` is updated in place). */
interface LevelInput {
  readonly built: BuiltProblem;
  readonly units: readonly SpillUnit[];
  readonly unitRegion: string[];
  readonly scratch: BuiltProblem['scratch'];
  readonly target: TargetProfile;
  readonly strategy: string;
  readonly planOptions: PlanOptions | undefined;
  readonly choices: FastChoices;
}

/** Splits the units now in `region` between it and `next`; see the module header. */
function levelSplit(input: LevelInput, region: MemoryRegion, next: MemoryRegion): boolean {
  const { units, unitRegion } = input;
  const limit = region.sizeLimit!;
  const movable = units.map((u, k) => k).filter((k) => unitRegion[k] === region.name && units[k]!.pinnedTo === undefined);
  const pinned = pinnedLoad(input, region.name);
  let capacity = limit;
  let proven = true;
  for (let round = 0; round <= MAX_ROUNDS; round++) {
    const items = movable.map((k) => units[k]!);
    const choice = round === MAX_ROUNDS ? { kept: items.map(() => false), proven: false } : knownChoice(input.choices, `${region.name}:${capacity}:${movable.join(',')}`, () => chooseFast(items, pinned, capacity));
    proven = choice.proven;
    movable.forEach((k, i) => (unitRegion[k] = choice.kept[i] === true ? region.name : next.name));
    const built = withRegions(input.built, bufferRegions(input.built, units, unitRegion), [region, next], input.scratch);
    const placed = placeAll(built, input.target, input.strategy, input.planOptions, false);
    const peak = regionPeaks(placed.full.problem, placed.offsets).get(region.name) ?? 0;
    if (peak <= limit) break;
    capacity = Math.max(0, capacity - Math.max(peak - limit, region.alignment));
  }
  return proven;
}

/** The choice made under `key`, made now when it is new. */
function knownChoice(choices: FastChoices, key: string, choose: () => FastChoice): FastChoice {
  let choice = choices.get(key);
  if (choice === undefined) {
    choice = choose();
    choices.set(key, choice);
  }
  return choice;
}

/** Bytes pinned in `region` per lifetime: groups that may not move, and its scratch (counted whole). */
function pinnedLoad(input: LevelInput, region: string): PinnedLoad[] {
  const loads: PinnedLoad[] = [];
  input.units.forEach((u, k) => {
    if (u.pinnedTo !== undefined && input.unitRegion[k] === region && u.size > 0) loads.push({ start: u.start, end: u.end, bytes: u.size });
  });
  for (const q of input.scratch) if (q.region === region && q.size > 0) loads.push({ start: q.step, end: q.step + 1, bytes: q.size });
  return loads;
}

/** The region of every buffer: its unit's. */
function bufferRegions(built: BuiltProblem, units: readonly SpillUnit[], unitRegion: readonly string[]): string[] {
  const out = built.problem.buffers.map((b) => b.region ?? '');
  units.forEach((u, k) => u.group.members.forEach((b) => (out[b] = unitRegion[k]!)));
  return out;
}

/** Units by decreasing density: the order fill-back and the explanation read them in. */
export function byDensity(units: readonly SpillUnit[], ids: readonly number[]): number[] {
  return [...ids].sort((a, b) => densityOf(units[b]!) - densityOf(units[a]!) || a - b);
}
