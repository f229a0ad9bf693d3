// The spill suggestion: a plan kept in its first region (spill off) that does
// not fit, while the memory map has slower regions beside it. Spilling does
// not lower the peak (the spilled bytes still count, in the slower region), so
// it is judged by fit, not by bytes saved. Depends only on the planner.

import { formatBytes } from '../../shared/format';
import { memoryMapOf, spillsOn } from '../spill/memory-map';
import type { TargetProfile } from '../targets/target';
import { applyTargetChange, changeArgs, type TargetChange } from './target-change';

/** A plan made with one setting changed, as far as fit goes. */
export interface FitReplan {
  readonly peak: number;
  readonly overBy: number; // bytes over the size limits, summed over the regions
  readonly spilledBuffers: number; // buffers placed in a slower region than they wanted
  readonly regions: readonly { readonly name: string; readonly peak: number; readonly sizeLimit?: number; readonly spilled?: number }[];
}

/** What spillSuggestion reads about the plan. */
export interface SpillInput {
  readonly target: TargetProfile;
  readonly peak: number;
  readonly overBy: number; // bytes over the size limits, summed over the regions
  readonly replanFit?: (target: TargetProfile) => FitReplan; // the plan with the changed target, in full
}

/** The change that turns spilling on. */
const SPILL_ON: TargetChange = { spill: 'on' };

/** True when spilling is off, the plan is over a limit and turning it on would spill along a map of two regions or more. */
export function spillMayHelp({ target, overBy, replanFit }: SpillInput): boolean {
  return replanFit !== undefined && overBy > 0 && target.planning.spill === 'off' && memoryMapOf(target).length > 1 && spillsOn(applyTargetChange(target, SPILL_ON));
}

/**
 * The suggestion to spill to the next region, when the plan with spilling on
 * is over its limits by fewer bytes (fits, or comes closer): what it spills
 * where, that region's peak against its limit, and the total peak (`saves` is
 * the peak it lowers, negative when spilling raises it).
 */
export function spillSuggestion(input: SpillInput): SpillSuggestion[] {
  if (!spillMayHelp(input)) return [];
  const after = input.replanFit!(applyTargetChange(input.target, SPILL_ON));
  if (after.overBy >= input.overBy) return [];
  const fits = after.overBy === 0;
  const into = after.regions.filter((r) => (r.spilled ?? 0) > 0);
  const where = into.map((r) => `${formatBytes(r.spilled!)} over the run to ${r.name}, which peaks at ${formatBytes(r.peak)}${r.sizeLimit === undefined ? '' : ` of its ${formatBytes(r.sizeLimit)}`}`).join('; ');
  const moved = `${after.spilledBuffers} buffer${after.spilledBuffers === 1 ? '' : 's'} spill${after.spilledBuffers === 1 ? 's' : ''} (${where})`;
  const verdict = fits ? 'the plan fits' : `the plan is ${formatBytes(after.overBy)} over its limits instead of ${formatBytes(input.overBy)}`;
  const total = after.peak === input.peak ? '' : `; the total peak ${after.peak > input.peak ? 'rises' : 'falls'} to ${formatBytes(after.peak)}`;
  return [
    {
      kind: 'spill',
      action: `turn spilling to the next region on: ${verdict}; ${moved}${total}`,
      saves: input.peak - after.peak,
      args: changeArgs(SPILL_ON),
      change: SPILL_ON,
      fits,
    },
  ];
}

/** The fields of a spill suggestion (a Suggestion of kind 'spill'). */
export interface SpillSuggestion {
  readonly kind: 'spill';
  readonly action: string;
  readonly saves: number;
  readonly args: readonly string[];
  readonly change: TargetChange;
  readonly fits: boolean;
}
