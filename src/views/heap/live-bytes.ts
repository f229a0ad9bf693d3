// Bytes live at each step of a plan's buffers, shared bytes counted once: the
// buffers' alias groups are resolved and measured by the lower bound's own
// live profile (a group's bytes are the union of its live members' ranges,
// for as long as any of them is live), so the heap lanes' curve and the peak
// chart agree with each other and with the bound. Plain functions; no DOM.

import { planAliasGroups } from '../../planner/assembly/live-at';
import type { PlannedBuffer } from '../../planner/plan';
import type { AliasGroup } from '../../planner/problem/alias-groups';
import { liveProfile } from '../../planner/problem/lower-bound';
import type { PlacementProblem } from '../../planner/problem/problem';

/** A plan's alias groups, each with the buffer whose bytes the others share (its kind is the group's). */
export interface SharingGroups {
  readonly problem: PlacementProblem; // buffer i is the plan's buffers[i]
  readonly groups: readonly { readonly group: AliasGroup; readonly root: PlannedBuffer }[];
}

/** The alias groups of `buffers` (a plan's), as `planAliasGroups` resolves them once per plan, each with its root. */
export function sharingGroups(buffers: readonly PlannedBuffer[]): SharingGroups {
  const { problem, resolved } = planAliasGroups(buffers);
  const groups = resolved.groups.map((group) => {
    const root = group.members.find((b) => buffers[b]!.alias === undefined) ?? group.members[0]!;
    return { group, root: buffers[root]! };
  });
  return { problem, groups };
}

/** Bytes live at each step of [0, steps) for the groups of `shared` that `keep` accepts. */
export function liveBytes(shared: SharingGroups, keep: (root: PlannedBuffer) => boolean, steps: number): Float64Array {
  const { times, live } = liveProfile(
    shared.problem,
    shared.groups.filter((g) => keep(g.root)).map((g) => g.group),
  );
  const out = new Float64Array(steps);
  let k = -1; // the last change at or before step s
  for (let s = 0; s < steps; s += 1) {
    while (k + 1 < times.length && times[k + 1]! <= s) k += 1;
    out[s] = k < 0 ? 0 : live[k]!;
  }
  return out;
}
