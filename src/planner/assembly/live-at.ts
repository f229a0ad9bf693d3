// liveAtStep: the buffers of a plan live at one step of one region, each with
// the bytes it adds to the step's live total, so the list sums to the live
// bytes there, aliases included. Depends only on the planner.
//
// - Aliases (in-place outputs, views, Concat inputs in their output's slots,
//   overlaid scratch) are resolved into alias groups as the lower bound does
//   (alias-groups.ts), so a member's place in its group is known.
// - Live buffers are listed largest first (lowest id on ties). A buffer counts
//   the bytes of its range in the group not covered by the ranges of its
//   group's members listed before it, and names the first of those it
//   overlaps as the buffer whose bytes it shares.

import { resolveAliasGroups, type ResolvedAliases } from '../problem/alias-groups';
import type { BufferKind, SharingRule } from '../problem/build-buffers';
import { unionBytes } from '../problem/lower-bound';
import type { Alias, PlacementProblem } from '../problem/problem';

/** A buffer live at a step. */
export interface LiveBuffer {
  readonly id: number;
  readonly name: string;
  readonly kind: BufferKind;
  readonly size: number;
  readonly counted: number; // bytes it adds to the step's live total: 0 for bytes it shares with a buffer listed before it
  readonly sharesWith?: number; // id of the live buffer whose bytes it reuses (in-place, view, Concat slot)
  readonly node?: string;
}

/** What liveAtStep reads of a buffer; a plan's PlannedBuffer records have all of it. */
export interface LiveInputBuffer {
  readonly id: number;
  readonly name: string;
  readonly kind: BufferKind;
  readonly size: number;
  readonly start: number;
  readonly end: number; // half-open
  readonly region: string;
  readonly node?: string;
  readonly alias?: { readonly parent: number; readonly offset: number; readonly rule: SharingRule }; // parent is an id
}

/**
 * The buffers of `region` live at `step`, largest first, each with the bytes
 * it adds (`counted`) and the buffer it shares bytes with; the `counted`
 * figures sum to the bytes live in the region at that step.
 */
export function liveAtStep(buffers: readonly LiveInputBuffer[], step: number, region: string): LiveBuffer[] {
  const { groups, groupOf } = planAliasGroups(buffers).resolved;
  const relOf = new Float64Array(buffers.length);
  for (const group of groups) group.members.forEach((b, k) => (relOf[b] = group.rel[k]!));
  const live = buffers
    .map((b, i) => ({ b, i }))
    .filter(({ b }) => b.region === region && b.size > 0 && b.start <= step && step < b.end)
    .sort((x, y) => y.b.size - x.b.size || x.b.id - y.b.id);
  const listed = new Map<number, { id: number; lo: number; hi: number }[]>();
  return live.map(({ b, i }) => {
    const before = listed.get(groupOf[i]!) ?? [];
    const lo = relOf[i]!;
    const hi = lo + b.size;
    const ranges = before.map((r) => [r.lo, r.hi] as const);
    const counted = unionBytes([...ranges, [lo, hi]]) - unionBytes(ranges);
    const shared = counted < b.size ? before.find((r) => r.lo < hi && lo < r.hi) : undefined;
    listed.set(groupOf[i]!, [...before, { id: b.id, lo, hi }]);
    return {
      id: b.id,
      name: b.name,
      kind: b.kind,
      size: b.size,
      counted,
      ...(shared !== undefined && { sharesWith: shared.id }),
      ...(b.node !== undefined && { node: b.node }),
    };
  });
}

/** A plan's buffers as a placement problem (buffer i is `buffers[i]`) and its alias groups. */
export interface PlanAliasGroups {
  readonly problem: PlacementProblem;
  readonly resolved: ResolvedAliases;
}

const resolvedPerPlan = new WeakMap<readonly LiveInputBuffer[], PlanAliasGroups>();

/**
 * A plan's buffers as a placement problem (buffer i is `buffers[i]`) and its
 * alias groups, resolved as the lower bound resolves them; once per buffer
 * list (a plan's buffers do not change), so picking step after step, and the
 * heap and chart views, share one resolution.
 */
export function planAliasGroups(buffers: readonly LiveInputBuffer[]): PlanAliasGroups {
  const known = resolvedPerPlan.get(buffers);
  if (known !== undefined) return known;
  const indexOf = new Map(buffers.map((b, i) => [b.id, i]));
  const aliases: Alias[] = [];
  buffers.forEach((b, i) => {
    const parent = b.alias === undefined ? undefined : indexOf.get(b.alias.parent);
    if (parent !== undefined) aliases.push({ buffer: i, parent, offset: b.alias!.offset });
  });
  const problem: PlacementProblem = {
    buffers: buffers.map((b, i) => ({ id: i, name: b.name, size: b.size, start: b.start, end: b.end, region: b.region })),
    aliases,
  };
  const result = { problem, resolved: resolveAliasGroups(problem) };
  resolvedPerPlan.set(buffers, result);
  return result;
}
