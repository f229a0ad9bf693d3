// The units a spill moves and what each earns: alias groups of a built
// problem (aliased buffers move together), their bytes, lifetime hull and
// traffic, which of them a rule pins, and the scratch requests that can never
// fit the fast region. Depends only on the planner and the model's IR types.

import type { InferredGraph } from '../../model/inferred';
import { resolveAliasGroups, type AliasGroup, type ResolvedAliases } from '../problem/alias-groups';
import { alignUp } from '../problem/build-buffers';
import type { BuiltProblem } from '../problem/build-problem';
import { bufferTraffic } from '../problem/build-traffic';
import { regionOf, type PlacementProblem, type PlanBuffer } from '../problem/problem';
import type { ScratchRequest } from '../scratch/scratch-requests';
import type { MemoryRegion, RegionPin } from '../targets/target';
import type { TimedItem } from './choose-fast';

/** An alias group as the spill sees it. */
export interface SpillUnit extends TimedItem {
  readonly group: AliasGroup;
  readonly written: number; // bytes written over one inference
  readonly read: number; // bytes read over one inference
  readonly pinnedTo: string | undefined; // the region a rule or a fixed offset keeps it in; undefined: it may move
}

/**
 * The alias groups of `built` as spill units. A group may move when it lies in
 * a region of `map` and has no fixed offset; a pin rule (op type of a member's
 * producer, or a member's tensor name) keeps it in the rule's region.
 */
export function spillUnits(built: BuiltProblem, graph: InferredGraph, map: readonly MemoryRegion[], pins: readonly RegionPin[]): SpillUnit[] {
  const { problem, info } = built;
  const moves = bufferTraffic(graph, problem, info);
  const opOf = new Map(built.steps.map((s) => [s.node, s.opType]));
  const inMap = new Set(map.map((r) => r.name));
  return aliasesOf(problem).groups.map((group) => {
    let start = Infinity;
    let end = -Infinity;
    let size = 0;
    let written = 0;
    let read = 0;
    group.members.forEach((b, k) => {
      const buffer = problem.buffers[b]!;
      start = Math.min(start, buffer.start);
      end = Math.max(end, buffer.end);
      size = Math.max(size, group.rel[k]! + buffer.size);
      written += moves[b]!.written;
      read += moves[b]!.read;
    });
    const pin = pins.find((p) => group.members.some((b) => pinMatches(p, problem.buffers[b]!.name, opOf.get(info[b]!.node ?? ''))));
    const fixed = group.fixedBase !== undefined || !inMap.has(group.region);
    const pinnedTo = fixed ? group.region : pin?.region;
    return { group, start, end, size, written, read, value: written + read, pinnedTo };
  });
}

/** Whether `pin` names a buffer called `name` made by an op of type `opType` (undefined: a graph input's). */
export function pinMatches(pin: RegionPin, name: string, opType: string | undefined): boolean {
  return pin.tensor !== undefined ? name === pin.tensor : opType === pin.opType;
}

/**
 * The scratch requests with those too large for their region's limit moved
 * down the memory map (a latency-critical im2col of 1.2 MiB cannot be in a
 * 512 KiB SRAM); the moved ones are listed by index.
 */
export function fittedScratch(requests: readonly ScratchRequest[], map: readonly MemoryRegion[]): { readonly requests: ScratchRequest[]; readonly moved: number[] } {
  const moved: number[] = [];
  const out = requests.map((q, k) => {
    let level = map.findIndex((r) => r.name === q.region);
    if (level < 0) return q;
    // sized as it would be in each region: padded to that region's alignment
    while (level < map.length - 1 && map[level]!.sizeLimit !== undefined && alignUp(q.bytes, map[level]!.alignment) > map[level]!.sizeLimit!) level++;
    const region = map[level]!;
    if (region.name === q.region) return q;
    moved.push(k);
    return { ...q, region: region.name, alignment: region.alignment, size: alignUp(q.bytes, region.alignment) };
  });
  return { requests: out, moved };
}

/**
 * `built` with each buffer in the region `regionOfBuffer` gives and the
 * scratch requests given, each buffer as movedBuffer has it there.
 */
export function withRegions(built: BuiltProblem, regionOfBuffer: readonly string[], map: readonly MemoryRegion[], scratch: readonly ScratchRequest[]): BuiltProblem {
  const alignOf = new Map(map.map((r) => [r.name, r.alignment]));
  const aliases = aliasesOf(built.problem);
  const buffers = built.problem.buffers.map((b) => movedBuffer(built, aliases, b.id, regionOfBuffer[b.id]!, alignOf.get(regionOfBuffer[b.id]!) ?? 1));
  return { ...built, problem: { ...built.problem, buffers }, scratch };
}

const resolved = new WeakMap<PlacementProblem, ResolvedAliases>();

/** The alias groups of `problem`, resolved once: a spill asks for them at every level, every round and in its fill-back. */
export function aliasesOf(problem: PlacementProblem): ResolvedAliases {
  let aliases = resolved.get(problem);
  if (aliases === undefined) {
    aliases = resolveAliasGroups(problem);
    resolved.set(problem, aliases);
  }
  return aliases;
}

/**
 * Buffer `id` of `built` in `region` (of alignment `align`). In its own
 * region it is as built; moved to another, it takes that region's alignment,
 * as if it had been planned there (the problem's default is the first
 * region's), and its size is padded to it instead of the first region's: an
 * SRAM aligned to 4 KiB must not make every buffer spilled to a
 * 16-byte-aligned DRAM take 4 KiB. A member of an alias group takes it only
 * when every place in its group is a multiple of the new alignment (an
 * in-place output at 0, concat parts whose offsets the new alignment
 * divides); otherwise the group keeps the layout it was given, and a larger
 * alignment is taken by the members it places at a multiple of it (the
 * group's base among them): a concat part at 48 B inside its output cannot
 * start on a 4 KiB boundary, and need not, being a view of that output.
 */
export function movedBuffer(built: BuiltProblem, { groups, groupOf }: Pick<ResolvedAliases, 'groups' | 'groupOf'>, id: number, region: string, align: number): PlanBuffer {
  const b = built.problem.buffers[id]!;
  if (region === regionOf(b)) return b;
  const own = b.alignment ?? built.problem.alignment ?? 1;
  const group = groups[groupOf[id]!];
  if (group !== undefined && !group.rel.every((r) => r % align === 0)) {
    // a view inside its group (a concat part) is placed with the group: only members at a multiple of the alignment can meet it
    const rel = group.rel[group.members.indexOf(id)]!;
    return { ...b, region, ...(align > own && rel % align === 0 && { alignment: align }) };
  }
  const alignment = Math.max(b.alignment ?? 1, align);
  const bytes = built.info[id]!.bytes;
  return { ...b, region, alignment, ...(b.size === alignUp(bytes, own) && { size: alignUp(bytes, alignment) }) };
}
