// Documented JSON fields a plan leaves out when they have no value (a region
// with no size limit, bytes moved on a target with one region): `plan --json`
// and `diff --json` print them as null, so a reader finds every field it was
// told of. The plan itself keeps `undefined`, as the code does everywhere.

import type { RegionDelta } from '../src/planner/diff/diff-types';
import type { ModelPlan } from '../src/planner/plan';

/** A plan's regions for --json: `sizeLimit` null without a limit, `moved` null when the plan gives no bytes moved (its target has one activation region). */
export function jsonRegions(regions: ModelPlan['regions']): ModelPlan['regions'] {
  // null is what JSON says for "none": the record type keeps undefined for it, so the cast is only of that
  return regions.map((r) => ({ ...r, sizeLimit: r.sizeLimit ?? null, moved: r.moved ?? null })) as unknown as ModelPlan['regions'];
}

/** A diff's regions for --json: `sizeLimitA` and `sizeLimitB` null where that side's region has no limit. */
export function jsonRegionDeltas(regions: readonly RegionDelta[]): readonly RegionDelta[] {
  return regions.map((r) => ({ ...r, sizeLimitA: r.sizeLimitA ?? null, sizeLimitB: r.sizeLimitB ?? null })) as unknown as readonly RegionDelta[];
}
