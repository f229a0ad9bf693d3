// Strategy `tvm-conflicts`: Apache TVM USMP's greedy_by_conflicts. Depends
// only on the planner engine.
//
// - A buffer's conflicts are the buffers whose lifetimes overlap its own.
// - Buffers are sorted by number of conflicts, most first; then by size,
//   larger first; then by name, descending (TVM compares name hints with >);
//   then by id.
// - Each buffer goes at the aligned top of the highest already-placed buffer
//   it conflicts with, or at 0. Like TVM, it never fills a gap below: it
//   only looks at the largest end offset among its placed conflicts.
// - Alias groups move as one item and count conflicts as one buffer.

import { itemDegrees } from '../../engine/degrees';
import type { PreparedRegion } from '../../engine/prepared';
import { runGreedy, type RegionContext, type Strategy, type StrategyOutcome } from '../strategy';
import { STRATEGY_TITLES } from '../strategy-names';

/** TVM's order: conflicts descending, size descending, name descending, id. */
export function tvmConflictsOrder(prep: PreparedRegion): Int32Array {
  const degree = itemDegrees(prep);
  const size = prep.itemExtent;
  const names = prep.groups.map((group) => prep.problem.buffers[group.members[0]!]!.name);
  const byName = (a: number, b: number) => (names[a]! > names[b]! ? -1 : names[a]! < names[b]! ? 1 : 0);
  return prep.freeItems.slice().sort((a, b) => degree[b]! - degree[a]! || size[b]! - size[a]! || byName(a, b) || a - b);
}

function planTvmConflicts(prep: PreparedRegion, { dropAt }: RegionContext): StrategyOutcome {
  return runGreedy(prep, tvmConflictsOrder(prep), 'above', dropAt);
}

/** TVM USMP's greedy by conflicts, no gap filling. */
export const tvmConflicts: Strategy = {
  name: 'tvm-conflicts',
  title: STRATEGY_TITLES['tvm-conflicts'],
  plan: planTvmConflicts,
};
