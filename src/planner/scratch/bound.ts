// The lower bound of a model plan with scratch: per region and step, the
// activations' honest live bytes (an alias group counts the union of its live
// members) plus the least bytes the step's scratch can take. Depends only on
// the planner.
//
// Scratch of one op that may overlay takes at least its largest buffer, and
// at least the sum of the buffers that may not: max(sum(non-overlay),
// max(overlay)). A variable-size buffer counts its minimum. No placement of
// either kind (M4 or planned with the activations) can go below the bound.

import { groupsByRegion, resolveAliasGroups } from '../problem/alias-groups';
import type { ScratchRequest } from './scratch-requests';
import { liveProfile, type LiveProfile } from '../problem/lower-bound';
import type { PlacementProblem } from '../problem/problem';

/** The bound of one region. */
export interface RegionBound {
  readonly name: string;
  readonly lowerBound: number; // with sizes as planned (alignment padding included)
  readonly rawLowerBound: number; // with bytes of data only
  readonly peakStep: number | undefined; // first step where the bound is reached
}

/**
 * Bounds of `regions`: `problem` holds the activations with planned sizes,
 * `raw` the same buffers with their data bytes.
 */
export function boundsWithScratch(
  problem: PlacementProblem,
  raw: PlacementProblem,
  requests: readonly ScratchRequest[],
  regions: readonly string[],
): RegionBound[] {
  const profiles = regionProfiles(problem);
  const rawProfiles = regionProfiles(raw);
  return regions.map((name) => {
    const sized = regionMax(profiles.get(name), scratchByStep(requests, name, (q) => q.size));
    const data = regionMax(rawProfiles.get(name), scratchByStep(requests, name, (q) => q.bytes));
    return { name, lowerBound: sized.max, rawLowerBound: data.max, peakStep: sized.step };
  });
}

function regionProfiles(problem: PlacementProblem): Map<string, LiveProfile> {
  const groups = resolveAliasGroups(problem).groups;
  return new Map(groupsByRegion(problem, groups).map((r) => [r.name, liveProfile(problem, r.groups)]));
}

/** Least scratch bytes per step in one region. */
function scratchByStep(requests: readonly ScratchRequest[], region: string, size: (q: ScratchRequest) => number): Map<number, number> {
  const plain = new Map<number, number>();
  const overlay = new Map<number, number>();
  for (const q of requests) {
    if (q.region !== region) continue;
    if (q.overlay) overlay.set(q.step, Math.max(overlay.get(q.step) ?? 0, size(q)));
    else plain.set(q.step, (plain.get(q.step) ?? 0) + size(q));
  }
  const least = new Map<number, number>();
  for (const step of new Set([...plain.keys(), ...overlay.keys()])) {
    least.set(step, Math.max(plain.get(step) ?? 0, overlay.get(step) ?? 0));
  }
  return least;
}

/** The most bytes live at one step: activations' step function plus scratch. */
function regionMax(profile: LiveProfile | undefined, scratch: Map<number, number>): { max: number; step: number | undefined } {
  const times = profile?.times ?? new Float64Array(0);
  const live = profile?.live ?? new Float64Array(0);
  const steps = [...new Set([...times, ...scratch.keys()])].sort((a, b) => a - b);
  let max = 0;
  let step: number | undefined;
  let i = -1;
  for (const s of steps) {
    while (i + 1 < times.length && times[i + 1]! <= s) i++;
    const total = (i >= 0 ? live[i]! : 0) + (scratch.get(s) ?? 0);
    if (total > max) {
      max = total;
      step = s;
    }
  }
  return { max, step: step ?? steps[0] };
}
