// Strategy `m1`: METHODS.md M1, conflict-aware greedy placement with memory
// sharing, the default planner of model plans. Depends only on the planner
// engine and problem types.
//
// - Sharing sets are the problem's alias groups (a tensor with its removable
//   views, Split windows, in-place outputs, or a Concat output with its input
//   windows); each is placed as one unit, an "item".
// - Dependency sets: the first dependencies of buffer a are the buffers live
//   at a's first step (its inputs, which a cannot overwrite, and every earlier
//   output some later step still reads); the second dependencies are the later
//   buffers whose first dependencies contain a. Their union is exactly the set
//   of buffers whose lifetimes overlap a's, which the conflict graph lists.
// - Order: largest first (an item's size is its largest member, the operator
//   M1 picks first in that sharing set), ties by execution order (first step),
//   then by buffer id.
// - Placement of item t: the obstacles are the placed buffers in the
//   dependency sets of all of t's members; t's bytes [base, base + size) go at
//   the lowest aligned base, searching up from 0, that overlaps no obstacle.
// - Removable members then sit at their input's offset, and Concat inputs one
//   after another inside the Concat output: the offsets their aliases fix.
//   The inputs follow input order, which the Concat needs in order to vanish
//   (METHODS.md says execution order; in its worked example the two agree).
// - `m1Trace` replays the method step by step from explicit dependency sets,
//   for explanations and tests; it agrees with the strategy.

import { Placer } from '../../engine/placer';
import { alignBase, type PreparedRegion } from '../../engine/prepared';
import { regionOf, type PlanBuffer, type PlacementProblem } from '../../problem/problem';
import { placeInOrder, type RegionContext, type Strategy, type StrategyOutcome } from '../strategy';
import { STRATEGY_TITLES } from '../strategy-names';

/** M1's placement order of the free items: size descending, then first step, then index. */
export function m1Order(prep: PreparedRegion): Int32Array {
  const { itemExtent: size, itemStart: start } = prep;
  return prep.freeItems.slice().sort((a, b) => size[b]! - size[a]! || start[a]! - start[b]! || a - b);
}

/** How it works: see the module header. */
function planM1(prep: PreparedRegion, { dropAt }: RegionContext): StrategyOutcome {
  const placer = new Placer(prep);
  const place = (item: number) => {
    const base = placer.lowestClear(item);
    placer.set(item, base);
    return base;
  };
  return placeInOrder(placer, m1Order(prep), place, dropAt ?? Number.POSITIVE_INFINITY);
}

/** M1, conflict-aware greedy placement with memory sharing (METHODS.md M1). */
export const m1: Strategy = {
  name: 'm1',
  title: STRATEGY_TITLES['m1'],
  plan: planM1,
};

/** The two dependency sets of one buffer (ids), as METHODS.md M1 defines them. */
export interface DependencySets {
  readonly first: readonly number[]; // live at the buffer's first step: started no later, still live
  readonly second: readonly number[]; // later buffers whose first dependencies contain this one
}

/** Dependency sets of buffer `b` among the buffers of its region (zero-size buffers hold no bytes). */
export function dependencySets(problem: PlacementProblem, b: number): DependencySets {
  const a = problem.buffers[b]!;
  const first: number[] = [];
  const second: number[] = [];
  for (const c of problem.buffers) {
    if (c.id === b || c.size === 0 || a.size === 0 || regionOf(c) !== regionOf(a)) continue;
    if (c.start <= a.start && a.start < c.end) first.push(c.id);
    else if (a.start < c.start && c.start < a.end) second.push(c.id);
  }
  return { first, second };
}

/** One placement step of M1. */
export interface M1Step {
  readonly item: number;
  readonly pick: number; // buffer id M1 picks: the item's largest member, earliest on ties
  readonly base: number; // offset of the item's bytes
  readonly obstacles: readonly number[]; // placed buffer ids in the members' dependency sets, ascending
  readonly members: readonly { readonly buffer: number; readonly offset: number }[]; // ids ascending
}

/**
 * Replays M1 on one prepared region from explicit dependency sets (quadratic;
 * for explanations and tests). Its offsets equal the strategy's.
 */
export function m1Trace(prep: PreparedRegion): M1Step[] {
  const { problem, groups } = prep;
  const itemOf = new Map<number, number>();
  groups.forEach((g, i) => g.members.forEach((b) => itemOf.set(b, i)));
  const offsetOf = new Map<number, number>(); // placed buffer id -> offset
  for (const g of groups) {
    if (g.fixedBase !== undefined) g.members.forEach((b, k) => offsetOf.set(b, g.fixedBase! + g.rel[k]!));
  }
  const steps: M1Step[] = [];
  for (const item of m1Order(prep)) {
    const group = groups[item]!;
    const obstacles = new Set<number>();
    for (const b of group.members) {
      const deps = dependencySets(problem, b);
      for (const c of [...deps.first, ...deps.second]) if (itemOf.get(c) !== item && offsetOf.has(c)) obstacles.add(c);
    }
    const ids = [...obstacles].sort((x, y) => x - y);
    const base = traceBase(prep, item, ids.map((c) => [offsetOf.get(c)!, problem.buffers[c]!.size] as const));
    const members = group.members.map((b, k) => ({ buffer: b, offset: base + group.rel[k]! }));
    for (const m of members) offsetOf.set(m.buffer, m.offset);
    steps.push({ item, pick: pickOf(problem.buffers, group.members), base, obstacles: ids, members });
  }
  return steps;
}

function traceBase(prep: PreparedRegion, item: number, taken: readonly (readonly [number, number])[]): number {
  const extent = prep.itemExtent[item]!;
  let base = alignBase(prep, item, 0);
  for (let moved = true; moved; ) {
    moved = false;
    for (const [offset, size] of taken) {
      if (base < offset + size && offset < base + extent) {
        base = alignBase(prep, item, offset + size);
        moved = true;
      }
    }
  }
  return base;
}

function pickOf(buffers: readonly PlanBuffer[], members: readonly number[]): number {
  let pick = members[0]!;
  for (const b of members) {
    const x = buffers[b]!;
    const p = buffers[pick]!;
    if (x.size > p.size || (x.size === p.size && x.start < p.start)) pick = b;
  }
  return pick;
}
