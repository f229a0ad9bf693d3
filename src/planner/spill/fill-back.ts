// Fill-back after a spill: a spilled alias group that fits a hole of a faster
// region over its whole lifetime, below that region's limit, is moved into
// it, densest first, at the lowest offset that fits (the placed buffers stay
// where they are). Depends only on the planner.
//
// - For each region of the map, fastest first, and each group placed in a
//   slower one: collect the address ranges of the region's buffers whose
//   lifetime meets the group's, scan the gaps from offset 0 for the first
//   aligned base where the whole group fits under the limit, and move it.
// - The plan stays valid: the group conflicts with nothing in its new region,
//   and leaving the slower region frees bytes there.

import type { PlacedPlan } from '../assembly/placement';
import type { BuiltProblem } from '../problem/build-problem';
import { regionOf, type PlanBuffer } from '../problem/problem';
import type { MemoryRegion } from '../targets/target';
import { densityOf } from './choose-fast';
import { aliasesOf, movedBuffer, type SpillUnit } from './spill-items';

/**
 * `placed` with the spilled groups that fit a faster region moved there, each
 * member sized and aligned as that region has it (movedBuffer, from `built`);
 * `unitRegion` is updated in place.
 */
export function fillBack(placed: PlacedPlan, built: BuiltProblem, units: readonly SpillUnit[], unitRegion: string[], map: readonly MemoryRegion[]): PlacedPlan {
  const level = new Map(map.map((r, i) => [r.name, i]));
  const aliases = aliasesOf(built.problem);
  const buffers = [...placed.full.problem.buffers];
  const offsets = [...placed.offsets];
  const activationPeaks = new Map(placed.activationPeaks);
  let moved = false;
  map.forEach((region, i) => {
    if (region.sizeLimit === undefined) return;
    const candidates = units
      .map((_, k) => k)
      .filter((k) => units[k]!.pinnedTo === undefined && (level.get(unitRegion[k]!) ?? -1) > i && units[k]!.size > 0)
      .sort((a, b) => densityOf(units[b]!) - densityOf(units[a]!) || a - b);
    for (const k of candidates) {
      const { group } = units[k]!;
      const there = group.members.map((b) => movedBuffer(built, aliases, b, region.name, region.alignment));
      const fit = { group, start: units[k]!.start, end: units[k]!.end, size: there.reduce((most, b, m) => Math.max(most, group.rel[m]! + b.size), 0), alignment: there.reduce((most, b) => Math.max(most, b.alignment ?? 1), 1) };
      const base = freeBase(buffers, offsets, fit, region);
      if (base === undefined) continue;
      group.members.forEach((b, m) => {
        buffers[b] = there[m]!;
        offsets[b] = base + group.rel[m]!;
      });
      unitRegion[k] = region.name;
      if (activationPeaks.has(region.name)) activationPeaks.set(region.name, Math.max(activationPeaks.get(region.name)!, base + fit.size));
      moved = true;
    }
  });
  if (!moved) return placed;
  return { ...placed, full: { ...placed.full, problem: { ...placed.full.problem, buffers } }, offsets, activationPeaks };
}

/** A group's extent and lifetime hull in the region it may move to, and its members' largest alignment there. */
interface GroupThere {
  readonly group: SpillUnit['group'];
  readonly start: number;
  readonly end: number;
  readonly size: number;
  readonly alignment: number;
}

/** The lowest base at which `unit` fits `region` beside the buffers placed there, or undefined. */
function freeBase(buffers: readonly PlanBuffer[], offsets: readonly number[], unit: GroupThere, region: MemoryRegion): number | undefined {
  const members = new Set(unit.group.members);
  const taken: [number, number][] = [];
  for (const b of buffers) {
    if (members.has(b.id) || regionOf(b) !== region.name || b.size === 0) continue;
    if (b.start >= unit.end || unit.start >= b.end) continue;
    taken.push([offsets[b.id]!, offsets[b.id]! + b.size]);
  }
  taken.sort((a, b) => a[0] - b[0]);
  const modulus = Math.max(unit.group.modulus, region.alignment, unit.alignment);
  const phase = unit.group.phase % modulus;
  const align = (x: number) => x + ((((phase - x) % modulus) + modulus) % modulus);
  let base = align(0);
  for (const [lo, hi] of taken) {
    if (base + unit.size <= lo) break;
    if (hi > base) base = align(hi);
  }
  return base + unit.size <= region.sizeLimit! ? base : undefined;
}
