// The gap between a plan's peak and its bounds, like with like: a plan split
// between memories has two bounds, the least of any split (every memory as
// one) and the sum of each memory's own bound; the gap line names which it uses.

import type { ModelPlan } from '../src/planner/plan';
import { boundOfEverySplit, gapOf, regionBoundSum } from '../src/planner/region-gap';
import { formatBytes, formatBytesExact } from '../src/shared/format';

type GapPlan = Pick<ModelPlan, 'peak' | 'lowerBound' | 'gap' | 'optimal' | 'complete' | 'regions'>;

function percent(gap: number): string {
  return `${(gap * 100).toFixed(2)} %`;
}

/**
 * Fields `plan --json` adds beside `gap`: `regionBounds` (the sum of the region bounds), `regionsGap` (the peak, the sum
 * of the region peaks, against it), `lowerBoundOf` (`regions` when `lowerBound` is that sum, `every-split` when it is
 * the bound of every memory as one, which no split between them goes below) and each region's own `gap`.
 */
export function gapFields(plan: GapPlan): { readonly regionBounds: number; readonly regionsGap: number; readonly lowerBoundOf: 'regions' | 'every-split' } {
  const regionBounds = regionBoundSum(plan);
  return { regionBounds, regionsGap: gapOf(plan.peak, regionBounds), lowerBoundOf: boundOfEverySplit(plan) ? 'every-split' : 'regions' };
}

/** Each region with its own gap: its peak against its bound. */
export function regionsWithGap<R extends { readonly peak: number; readonly lowerBound: number }>(regions: readonly R[]): (R & { readonly gap: number })[] {
  return regions.map((r) => ({ ...r, gap: gapOf(r.peak, r.lowerBound) }));
}

/** The text's lower-bound line, and for a plan split between memories the gap line that compares sums with sums. */
export function gapLines(plan: GapPlan): string[] {
  const optimal = plan.optimal && plan.complete ? ', optimal (peak = lower bound)' : '';
  if (!boundOfEverySplit(plan)) return [`  lower bound   ${formatBytesExact(plan.lowerBound)}; gap ${percent(plan.gap)}${optimal}`];
  const bounds = regionBoundSum(plan);
  const each = plan.regions.map((r) => `${r.name} ${percent(gapOf(r.peak, r.lowerBound))}`).join(', ');
  return [
    `  lower bound   ${formatBytesExact(plan.lowerBound)} with every memory as one, which no split between them goes below; the sum of the memories' peaks is ${percent(plan.gap)} above it${optimal}`,
    `  gap           ${percent(gapOf(plan.peak, bounds))}: the sum of the memories' peaks, ${formatBytes(plan.peak)}, against the sum of their bounds, ${formatBytes(bounds)}; per memory ${each}`,
  ];
}
