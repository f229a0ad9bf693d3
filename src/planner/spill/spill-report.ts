// What a plan says of its memory map: per region the bytes that wanted a
// faster region and the bytes moved to and from it over one inference (its
// buffers' and, where the target places them, the weights'); why
// the largest spilled buffers were the ones to go; and, when a region is over
// its limit, the least memory that would make the plan fit. Depends only on
// the planner and the model's IR types.

import type { InferredGraph } from '../../model/inferred';
import type { BuiltProblem } from '../problem/build-problem';
import { bufferTraffic, scratchMoves } from '../problem/build-traffic';
import { unionBytes } from '../problem/lower-bound';
import { isWeight, weightsOf } from '../problem/weights';
import { regionOf, type PlacementProblem, type PlanBuffer } from '../problem/problem';
import { scratchRequestOf } from '../scratch/merge';
import type { MemoryRegion, TargetProfile } from '../targets/target';
import { formatBytes } from '../../shared/format';
import { densityOf } from './choose-fast';
import { memoryMapOf } from './memory-map';
import { aliasesOf } from './spill-items';
import type { SpillResult } from './spill-plan';

/** Bytes moved to and from a region over one inference: every buffer's writes and reads. */
export interface RegionMoves {
  readonly written: number;
  readonly read: number;
}

/** Why a spilled buffer went to a slower region. */
export interface SpilledRecord {
  readonly id: number; // the group's first buffer
  readonly name: string;
  readonly size: number; // bytes of the group
  readonly wanted: string; // the region it wanted
  readonly region: string; // where it went
  readonly moved: number; // bytes read and written while it lives
  readonly span: number; // steps it lives
  readonly start: number; // the group's first step: with buffers sharing its bytes (in place, a concat), the block's, not the first buffer's
  readonly end: number; // the step after the group's last (half-open)
  readonly shared: number; // buffers that share the group's bytes beside its first: 0 when it is one buffer
  readonly density: number; // moved / (size × span): what the fast region earns per byte-step
  readonly reason: string;
}

/** One memory that, grown by `bytes`, would let the plan fit (alone). */
export interface FitNeed {
  readonly region: string;
  readonly bytes: number;
  readonly atLeast: boolean; // a faster region would take the excess of a slower one: at least this much
}

/** Spilled buffers explained, largest first. */
const EXPLAINED = 5;

/**
 * Bytes moved to and from every buffer of `problem` over one inference, by id:
 * activations as bufferTraffic counts them; scratch written and read once, by
 * the bytes its op asked for (a variable-size buffer's minimum), not the share
 * of free space M4 granted it, which the op is not known to touch; undefined
 * for a buffer held outside the arena (application-owned I/O).
 */
export function bufferMoves(graph: InferredGraph, built: BuiltProblem, problem: PlacementProblem, info: readonly { readonly bytes: number }[]): (RegionMoves | undefined)[] {
  const moves = bufferTraffic(graph, built.problem, built.info);
  return problem.buffers.map((b) => {
    if (b.size === 0 && info[b.id]!.bytes > 0) return undefined;
    const asked = scratchRequestOf(built, b.id)?.bytes ?? info[b.id]!.bytes;
    return moves[b.id] ?? scratchMoves(asked);
  });
}

/**
 * Bytes moved to and from the region that holds the weights (the target's
 * `planning.weights`) over one inference: every op that runs reads each
 * weight it takes once (an op given the same weight twice reads it once);
 * weights copied from flash at start are written there once, counted in the
 * inference that follows the start, an If/Loop/Scan body's among them (the
 * reads of a body's weights are left out: how often a body runs is not known
 * here). Empty when the weights stay in flash.
 */
export function weightsMoves(graph: InferredGraph, target: TargetProfile): Map<string, RegionMoves> {
  const placement = target.planning.weights;
  if (placement?.region === undefined) return new Map();
  let read = 0;
  for (const v of graph.values) {
    if (!isWeight(v)) continue;
    read += (v.bytes ?? 0) * new Set(v.consumers.filter((c) => !graph.nodes[c]!.constant)).size;
  }
  return new Map([[placement.region, { written: placement.copied === true ? weightsOf(graph).bytes : 0, read }]]);
}

/** The sum of two per-region tallies of bytes moved. */
export function addMoves(a: ReadonlyMap<string, RegionMoves>, b: ReadonlyMap<string, RegionMoves>): Map<string, RegionMoves> {
  const out = new Map(a);
  for (const [name, m] of b) {
    const r = out.get(name) ?? { written: 0, read: 0 };
    out.set(name, { written: r.written + m.written, read: r.read + m.read });
  }
  return out;
}

/** Bytes moved per region of `problem`: the sum of bufferMoves over the buffers it holds. */
export function regionMoves(problem: PlacementProblem, moves: readonly (RegionMoves | undefined)[]): Map<string, RegionMoves> {
  const out = new Map<string, { written: number; read: number }>();
  for (const b of problem.buffers) {
    const m = moves[b.id];
    if (m === undefined) continue;
    const r = out.get(regionOf(b)) ?? { written: 0, read: 0 };
    out.set(regionOf(b), { written: r.written + m.written, read: r.read + m.read });
  }
  return out;
}

/** Bytes of spilled groups per region (those that wanted a faster one), each as the region holds it: its members as `problem` sizes them there. */
export function spilledBytes(spill: SpillResult | undefined, problem: PlacementProblem): Map<string, number> {
  const out = new Map<string, number>();
  spill?.units.forEach((u, k) => {
    const region = spill.unitRegion[k]!;
    if (u.pinnedTo === undefined && region !== spill.wanted) {
      const extent = u.group.members.reduce((most, b, m) => Math.max(most, u.group.rel[m]! + problem.buffers[b]!.size), 0);
      out.set(region, (out.get(region) ?? 0) + extent);
    }
  });
  return out;
}

/** The region each spilled buffer wanted, by buffer id. */
export function wantedRegions(spill: SpillResult | undefined): Map<number, string> {
  const out = new Map<number, string>();
  spill?.units.forEach((u, k) => {
    if (u.pinnedTo === undefined && spill.unitRegion[k] !== spill.wanted) for (const b of u.group.members) out.set(b, spill.wanted);
  });
  return out;
}

/** Why the largest spilled groups went, largest first. */
export function spilledRecords(spill: SpillResult, problem: PlacementProblem, target: TargetProfile): SpilledRecord[] {
  const wanted = target.regions.find((r) => r.name === spill.wanted)!;
  const spilled = spill.units.map((_, k) => k).filter((k) => spill.units[k]!.pinnedTo === undefined && spill.unitRegion[k] !== spill.wanted);
  const limit = wanted.sizeLimit ?? Infinity;
  const bySize = (a: number, b: number) => spill.units[b]!.size - spill.units[a]!.size || a - b;
  const couldFit = spilled.filter((k) => spill.units[k]!.size <= limit).sort(bySize).slice(0, EXPLAINED);
  const tooBig = spilled.filter((k) => spill.units[k]!.size > limit).sort(bySize).slice(0, 2);
  return [...couldFit, ...tooBig].map((k) => {
    const u = spill.units[k]!;
    const first = u.group.members[0]!;
    const density = densityOf(u);
    return {
      id: first,
      name: problem.buffers[first]!.name,
      size: u.size,
      wanted: spill.wanted,
      region: spill.unitRegion[k]!,
      moved: u.value,
      span: u.end - u.start,
      start: u.start,
      end: u.end,
      shared: u.group.members.length - 1,
      density,
      reason: blockWords(u.group.members, u.start, u.end, problem) + spillReason(spill, k, wanted, problem),
    };
  });
}

/** Buffers named in a block's words before "and N more". */
const BLOCK_NAMES = 3;

/**
 * What a group of buffers sharing bytes spilled as: "the block 282 and 283
 * share, steps [24, 43): ", its figures being the block's over those steps;
 * nothing for one buffer, whose lifetime is the one its details give.
 */
function blockWords(members: readonly number[], start: number, end: number, problem: PlacementProblem): string {
  if (members.length < 2) return '';
  const names = members.slice(0, BLOCK_NAMES).map((b) => problem.buffers[b]!.name);
  const more = members.length - names.length;
  const list = more > 0 ? `${names.join(', ')} and ${more} more` : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `the block ${list} share, steps [${start}, ${end}): `;
}

/**
 * The fullest step of the unit's lifetime in the wanted region, and what held
 * it: buffers that share bytes (an in-place output, a view, a Concat slot)
 * count those bytes once, as the region holds them.
 */
function spillReason(spill: SpillResult, k: number, wanted: MemoryRegion, problem: PlacementProblem): string {
  const u = spill.units[k]!;
  const limit = wanted.sizeLimit ?? Infinity;
  if (u.size > limit) return `${formatBytes(u.size)} is more than the ${formatBytes(limit)} ${wanted.name} has for activations`;
  const unitOf = new Int32Array(problem.buffers.length).fill(-1);
  spill.units.forEach((x, j) => x.group.members.forEach((b) => (unitOf[b] = j)));
  const density = densityOf(u);
  const better = (b: number) => {
    const j = unitOf[b]!;
    return j < 0 || spill.units[j]!.pinnedTo !== undefined || densityOf(spill.units[j]!) >= density;
  };
  const inWanted = problem.buffers.filter((b) => regionOf(b) === wanted.name && b.size > 0 && b.start < u.end && u.start < b.end);
  let [fullest, most, denser] = [u.start, -1, 0];
  for (let t = u.start; t < u.end; t++) {
    const { live, kept } = heldAt(problem, inWanted.filter((b) => b.start <= t && t < b.end), better);
    if (live > most) [most, fullest, denser] = [live, t, kept];
  }
  const free = Math.max(0, limit - most);
  return `${formatBytes(u.value)} moved over ${u.end - u.start} steps (${density.toPrecision(3)} B per byte-step); at step ${fullest} ${wanted.name} holds ${formatBytes(most)} (${formatBytes(denser)} of it pinned or earning more per byte-step), leaving ${formatBytes(free)} for its ${formatBytes(u.size)}`;
}

/**
 * The bytes `live` buffers hold together, each alias group's as the union of
 * its live members' ranges in it, and of those the bytes held by buffers
 * `better` says were pinned or earned more.
 */
function heldAt(problem: PlacementProblem, live: readonly PlanBuffer[], better: (b: number) => boolean): { readonly live: number; readonly kept: number } {
  const { groups, groupOf } = aliasesOf(problem);
  const ranges = new Map<number, { all: (readonly [number, number])[]; kept: (readonly [number, number])[] }>();
  for (const b of live) {
    const g = groupOf[b.id]!;
    const group = groups[g]!;
    const lo = group.rel[group.members.indexOf(b.id)]!;
    const entry = ranges.get(g) ?? { all: [], kept: [] };
    entry.all.push([lo, lo + b.size]);
    if (better(b.id)) entry.kept.push([lo, lo + b.size]);
    ranges.set(g, entry);
  }
  let [all, kept] = [0, 0];
  for (const r of ranges.values()) [all, kept] = [all + unionBytes(r.all), kept + unionBytes(r.kept)];
  return { live: all, kept };
}

/**
 * The memories that would each alone make the plan fit: the slowest region
 * over its limit by its excess; a faster region of the map by at least the
 * excess of every region below it (bytes taken up there leave the slower one).
 */
export function fitNeeds(target: TargetProfile, overBy: ReadonlyMap<string, number>): FitNeed[] {
  const map = memoryMapOf(target);
  const over = target.regions.filter((r) => (overBy.get(r.name) ?? 0) > 0);
  if (over.length === 0) return [];
  const inMap = new Set(map.map((r) => r.name));
  const outside = over.filter((r) => !inMap.has(r.name));
  const mapOver = map.map((r) => overBy.get(r.name) ?? 0);
  const deepest = mapOver.reduce((last, v, i) => (v > 0 ? i : last), -1);
  const needs: FitNeed[] = outside.map((r) => ({ region: r.name, bytes: overBy.get(r.name)!, atLeast: false }));
  if (deepest < 0) return needs;
  if (mapOver.slice(0, deepest).every((v) => v === 0)) needs.push({ region: map[deepest]!.name, bytes: mapOver[deepest]!, atLeast: false });
  const excess = mapOver.reduce((sum, v) => sum + v, 0);
  for (let i = deepest - 1; i >= 0; i--) if (mapOver.slice(0, i).every((v) => v === 0)) needs.push({ region: map[i]!.name, bytes: excess, atLeast: true });
  return needs;
}
