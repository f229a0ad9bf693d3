// One region at a time: when a heap diagram is too short for every region's
// lane to be readable, it shows a single region, chosen with a switcher
// (region-switcher.tsx). This module holds the plan of one region (built once
// per plan and region) and the arithmetic of whether all lanes fit.

import type { ModelPlan } from '../../planner/plan';
import { curveHeight, MARGIN } from './heap-geometry';

/** The least height of a lane, in CSS pixels, at which its buffers can be read. */
export const READABLE_LANE = 100;

const regionPlans = new WeakMap<ModelPlan, Map<string, ModelPlan>>();

/** `plan` with only region `name`'s buffers and figures, built once per plan and region. */
export function regionPlan(plan: ModelPlan, name: string): ModelPlan {
  let byName = regionPlans.get(plan);
  if (byName === undefined) {
    byName = new Map();
    regionPlans.set(plan, byName);
  }
  let one = byName.get(name);
  if (one === undefined) {
    one = { ...plan, regions: plan.regions.filter((r) => r.name === name), buffers: plan.buffers.filter((b) => b.region === name) };
    byName.set(name, one);
  }
  return one;
}

/** The height each of `lanes` lanes gets in a diagram `height` pixels tall (heap-geometry.ts). */
export function laneHeight(height: number, lanes: number): number {
  const n = Math.max(1, lanes);
  const plot = height - MARGIN.top - curveHeight(height) - MARGIN.curveGap - MARGIN.axis;
  return (plot - (n - 1) * MARGIN.laneGap - n * MARGIN.laneLabel) / n;
}

/** The regions of `plan` that hold buffers, in the target's order. */
export function drawnRegions(plan: ModelPlan): string[] {
  const used = new Set(plan.buffers.filter((b) => b.size > 0).map((b) => b.region));
  return plan.regions.map((r) => r.name).filter((name) => used.has(name));
}
