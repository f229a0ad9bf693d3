// The independent check of every plan a fuzz campaign sees succeed: the plan's
// buffers (id, size, start, end, region, alias) rebuilt as a placement problem
// and its offsets and peaks run through validatePlan, plus the figures a
// reader trusts (whole numbers, lower bound not above the peak). Works on a
// ModelPlan in memory and on the JSON of `plan --json` or a saved plan alike.
// Depends on the planner's problem types and validator only.

import { validatePlan } from '../src/planner/assembly/validate-plan';
import type { Alias, Placement, PlacementProblem } from '../src/planner/problem/problem';

/** The fields of a plan the check reads, as they appear in JSON. */
export interface PlanLike {
  readonly peak: number;
  readonly lowerBound: number;
  readonly buffers: readonly {
    readonly id: number;
    readonly name: string;
    readonly size: number;
    readonly start: number;
    readonly end: number;
    readonly offset: number;
    readonly region: string;
    readonly alias?: { readonly parent: number; readonly offset: number };
  }[];
  readonly regions: readonly { readonly name: string; readonly peak: number }[];
}

const exact = (n: unknown): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** The plan's buffers as a placement problem and its offsets and peaks, for validatePlan. */
export function placementOf(plan: PlanLike): [PlacementProblem, Placement] {
  const index = new Map(plan.buffers.map((b, i) => [b.id, i]));
  const buffers = plan.buffers.map((b, i) => ({ id: i, name: b.name, size: b.size, start: b.start, end: b.end, region: b.region }));
  const aliases: Alias[] = plan.buffers.flatMap((b, i) => (b.alias === undefined ? [] : [{ buffer: i, parent: index.get(b.alias.parent) ?? -1, offset: b.alias.offset }]));
  const regions = plan.regions.map((r) => ({ name: r.name, peak: r.peak }));
  return [{ buffers, aliases }, { offsets: plan.buffers.map((b) => b.offset), peak: plan.peak, regions }];
}

/**
 * What is wrong with a plan that a command reported as a success: an empty
 * list when it is exact and valid by the independent validator. Never throws:
 * a plan missing the fields it needs is itself a problem.
 */
export function planProblems(value: unknown): string[] {
  const plan = value as PlanLike;
  if (typeof value !== 'object' || value === null || !Array.isArray(plan.buffers) || !Array.isArray(plan.regions)) {
    return ['the plan has no buffers or regions list'];
  }
  const out: string[] = [];
  if (!exact(plan.peak) || !exact(plan.lowerBound)) out.push(`peak ${plan.peak}, lower bound ${plan.lowerBound}`);
  else if (plan.lowerBound > plan.peak) out.push(`lower bound ${plan.lowerBound} above peak ${plan.peak}`);
  const odd = plan.buffers.find((b) => !exact(b.size) || !exact(b.offset) || !exact(b.offset + b.size) || !exact(b.start) || !(b.end > b.start));
  if (odd !== undefined) return [...out, `buffer '${String(odd.name).slice(0, 80)}' size ${odd.size} at ${odd.offset}, steps [${odd.start}, ${odd.end})`];
  const ids = new Set(plan.buffers.map((b) => b.id));
  const lost = plan.buffers.find((b) => b.alias !== undefined && !ids.has(b.alias.parent));
  if (lost !== undefined) return [...out, `buffer '${String(lost.name).slice(0, 80)}' aliases a buffer the plan does not have`];
  const verdict = validatePlan(...placementOf(plan));
  if (!verdict.valid) out.push(verdict.violations.slice(0, 3).map((v) => v.message).join('; '));
  return out;
}
