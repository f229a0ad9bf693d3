// The plan's figures in words, shared by the heap header, the explanation and
// the embed caption: a region over its limit, the peak (a lower estimate when
// some size is unknown), a strategy's own bound and the portfolio's winner.

import type { ModelPlan } from '../planner/plan';
import { formatBytes } from '../shared/format';
import { portfolioKept } from '../planner/explain/portfolio-words';
import { isStrategyName, STRATEGY_TITLES } from '../planner/strategies/strategy-names';

/** The peak as shown: "12 MiB", or "≥ 12 MiB" when it is a lower estimate. */
export function peakText(peak: number, complete: boolean): string {
  return complete ? formatBytes(peak) : `≥ ${formatBytes(peak)}`;
}

/** A plan's memories by their own peaks: a plan's regions, or a growth point's. */
interface RegionPeaks {
  readonly regions: readonly { readonly name: string; readonly peak: number }[];
}

/** The regions whose peaks make up the plan's, when more than one holds bytes (a plan's peak adds the regions' peaks); undefined for one. */
function heldRegions<R extends RegionPeaks>(plan: R): R['regions'] | undefined {
  const held = plan.regions.filter((r) => r.peak > 0);
  return held.length < 2 ? undefined : held;
}

/**
 * What a peak of several memories is made of: "the sum of each memory's own peak, sram 975 KiB + ext-ram 4.69 MiB",
 * when more than one region holds bytes (a plan's peak adds the regions' peaks); undefined for one. Bytes moved from a
 * slow memory to a fast one can raise the sum while no memory's peak grows but the fast one's, so the sum is named.
 */
export function regionsPeakText(plan: RegionPeaks, complete: boolean): string | undefined {
  const held = heldRegions(plan);
  if (held === undefined) return undefined;
  return `the sum of each memory's own peak, ${held.map((r) => `${r.name} ${peakText(r.peak, complete)}`).join(' + ')}`;
}

/**
 * The few words a one-line figure puts after such a peak, "(sum of 2 memories)", under the same rule as
 * regionsPeakText, whose words its title carries; undefined when one memory holds bytes.
 */
export function regionsPeakNote(plan: RegionPeaks): string | undefined {
  const held = heldRegions(plan);
  return held === undefined ? undefined : `(sum of ${held.length} memories)`;
}

/**
 * `peak` followed, when more than one memory holds bytes, by what it is made of under regionsPeakText's rule:
 * "peak 5.65 MiB (the sum of each memory's own peak, sram 975 KiB + ext-ram 4.69 MiB)"; a bare "peak 5.65 MiB" for one.
 */
export function withRegionsPeak(peak: string, plan: RegionPeaks | undefined, complete: boolean): string {
  const sum = plan === undefined ? undefined : regionsPeakText(plan, complete);
  return sum === undefined ? peak : `${peak} (${sum})`;
}

/** "m1's own bound: 13.8 KiB", when the strategy's sharing choices put its bound above the lower bound. */
export function strategyBoundText(plan: ModelPlan): string | undefined {
  if (plan.strategyBound === undefined || plan.strategyBound <= plan.lowerBound) return undefined;
  return `${plan.strategy}'s own bound: ${formatBytes(plan.strategyBound)}`;
}

/** Which candidate the portfolio kept and how it compares with M1, in one sentence. */
export function portfolioText(plan: ModelPlan): string | undefined {
  const p = plan.portfolio;
  // the winner's title says what its name stands for: "tflm" on an ONNX model is TFLite Micro's placement order, not its runtime
  const words = portfolioKept(plan, (winner) => (isStrategyName(winner) ? ` (${STRATEGY_TITLES[winner]})` : ''));
  if (p === undefined || words === undefined) return undefined;
  const { kept } = words;
  const alone = words.alone === undefined ? '' : `; ${words.alone}`;
  if (p.m1Peak === undefined) return `${kept}; m1 was not run beside it: thousands of buffers are live at once, and its placement grows with their square.`;
  const saved = p.m1Peak - plan.peak;
  if (saved === 0) return `${kept}, the same peak as m1 (${formatBytes(p.m1Peak)})${alone}.`;
  // where the problem depends on the strategy (control-flow bodies it sizes), M1 planned alone may end lower
  if (saved < 0) return `${kept}; m1 planned alone ends ${formatBytes(-saved)} lower (${formatBytes(p.m1Peak)}): the problem each plans depends on the strategy (the bodies it sizes)${alone}.`;
  const share = p.m1Peak > 0 ? ` (${((100 * saved) / p.m1Peak).toFixed(1)} %)` : '';
  return `${kept}: ${formatBytes(saved)}${share} below m1's ${formatBytes(p.m1Peak)}${alone}.`;
}
