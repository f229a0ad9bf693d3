// The lower bound of a placement problem: the most bytes live at any one step,
// found by a sweep over lifetime ends (O(n log n); alias groups in
// group-footprint.ts). Depends only on problem types.
//
// The bound stays honest with aliases: an alias group counts the union of its
// live members' byte ranges, so a Concat input inside the Concat output counts
// its own bytes while only the input is live and nothing extra once the output
// is. A group with a fixed offset also bounds the peak by its own top.

import { ascendingOrder } from '../../shared/index-order';
import { groupsByRegion, resolveAliasGroups, type AliasGroup } from './alias-groups';
import { groupFootprintDeltas } from './group-footprint';
import type { PlacementProblem } from './problem';

/** The lower bound of one memory region. */
export interface RegionLowerBound {
  readonly name: string;
  readonly lowerBound: number; // bytes
  readonly peakStep: number | undefined; // first step where live bytes peak; undefined without buffers
  readonly liveAtPeak: readonly number[]; // ids of the buffers live at peakStep
}

/** The lower bound of a problem: per region, and summed. */
export interface LowerBound {
  readonly lowerBound: number; // sum over regions
  readonly peakStep: number | undefined; // of the region with the largest bound
  readonly liveAtPeak: readonly number[];
  readonly regions: readonly RegionLowerBound[]; // in order of first appearance
}

/** Live bytes as a step function: `live[i]` holds on steps [times[i], times[i+1]). */
export interface LiveProfile {
  readonly times: Float64Array; // ascending
  readonly live: Float64Array; // bytes live from times[i] on; the last entry is 0
}

/** No placement of `problem` can have a smaller peak than this. */
export function lowerBound(problem: PlacementProblem): LowerBound {
  return lowerBoundOfGroups(problem, resolveAliasGroups(problem).groups);
}

/** `lowerBound` for a problem whose alias groups are already resolved. */
export function lowerBoundOfGroups(problem: PlacementProblem, groups: readonly AliasGroup[]): LowerBound {
  const results = groupsByRegion(problem, groups).map((r) => regionLowerBound(problem, r.name, r.groups));
  let top: RegionLowerBound | undefined;
  let total = 0;
  for (const r of results) {
    total += r.lowerBound;
    if (top === undefined || r.lowerBound > top.lowerBound) top = r;
  }
  return { lowerBound: total, peakStep: top?.peakStep, liveAtPeak: top?.liveAtPeak ?? [], regions: results };
}

function regionLowerBound(problem: PlacementProblem, name: string, groups: readonly AliasGroup[]): RegionLowerBound {
  const profile = liveProfile(problem, groups);
  let best = 0;
  let peakStep: number | undefined;
  for (let i = 0; i < profile.times.length; i++) {
    if (profile.live[i]! > best) {
      best = profile.live[i]!;
      peakStep = profile.times[i]!;
    }
  }
  if (peakStep === undefined && profile.times.length > 0) peakStep = profile.times[0]!;
  let fixedTop = 0;
  for (const group of groups) {
    if (group.fixedBase === undefined) continue;
    group.members.forEach((b, i) => {
      const size = problem.buffers[b]!.size;
      if (size > 0) fixedTop = Math.max(fixedTop, group.fixedBase! + group.rel[i]! + size); // no bytes, no room
    });
  }
  const liveAtPeak: number[] = [];
  if (peakStep !== undefined) {
    for (const group of groups) {
      for (const b of group.members) {
        const buffer = problem.buffers[b]!;
        if (buffer.start <= peakStep && peakStep < buffer.end) liveAtPeak.push(b);
      }
    }
    liveAtPeak.sort((a, b) => a - b);
  }
  return { name, lowerBound: Math.max(best, fixedTop), peakStep, liveAtPeak };
}

/**
 * The profile `liveProfile` made last for a problem, with the groups it was
 * for: a plan asks for a region's profile for its lower bound and again for
 * a placement order by busiest step (on a 62k-buffer trace, a tenth of a
 * greedy-by-breadth plan's time went to making it twice). Alias groups are
 * made afresh each time a problem's aliases are resolved, so the same group
 * objects mean the same input.
 */
const lastProfile = new WeakMap<PlacementProblem, { readonly groups: readonly AliasGroup[]; readonly profile: LiveProfile }>();

/** Whether `a` and `b` hold the same group objects in the same order. */
function sameGroups(a: readonly AliasGroup[], b: readonly AliasGroup[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The live-bytes step function of a set of alias groups (typically one region's); callers only read it. */
export function liveProfile(problem: PlacementProblem, groups: readonly AliasGroup[]): LiveProfile {
  const last = lastProfile.get(problem);
  if (last !== undefined && sameGroups(last.groups, groups)) return last.profile;
  const profile = buildLiveProfile(problem, groups);
  lastProfile.set(problem, { groups: groups.slice(), profile });
  return profile;
}

function buildLiveProfile(problem: PlacementProblem, groups: readonly AliasGroup[]): LiveProfile {
  // every change of live bytes, then summed per step in step order (typed arrays: millions of buffers make millions of steps)
  let steps = new Float64Array(2 * groups.length);
  let deltas = new Float64Array(2 * groups.length);
  let count = 0;
  const add = (t: number, delta: number) => {
    if (count === steps.length) [steps, deltas] = [grown(steps, count), grown(deltas, count)];
    steps[count] = t;
    deltas[count++] = delta;
  };
  for (const group of groups) {
    if (group.members.length === 1) {
      const buffer = problem.buffers[group.members[0]!]!;
      add(buffer.start, buffer.size);
      add(buffer.end, -buffer.size);
    } else {
      groupFootprintDeltas(problem, group, add);
    }
  }
  const order = ascendingOrder(steps.slice(0, count));
  const times: number[] = [];
  const live: number[] = [];
  let sum = 0;
  for (let k = 0; k < count; k++) {
    const e = order[k]!;
    sum += deltas[e]!; // whole bytes, the total within 2^53: exact in any order
    if (times.length > 0 && times[times.length - 1] === steps[e]) live[live.length - 1] = sum;
    else {
      times.push(steps[e]!);
      live.push(sum);
    }
  }
  return { times: Float64Array.from(times), live: Float64Array.from(live) };
}

/** `array` with twice the room, its first `count` entries kept. */
function grown(array: Float64Array, count: number): Float64Array<ArrayBuffer> {
  const larger = new Float64Array(Math.max(16, 2 * array.length));
  larger.set(array.subarray(0, count));
  return larger;
}

/** Bytes covered by the union of half-open byte ranges `[lo, hi)`. */
export function unionBytes(ranges: readonly (readonly [number, number])[]): number {
  const sorted = ranges.slice().sort((a, b) => a[0] - b[0]);
  let union = 0;
  let reach = -Infinity;
  for (const [lo, hi] of sorted) {
    if (hi <= reach) continue;
    union += hi - Math.max(lo, reach);
    reach = hi;
  }
  return union;
}
