// Why scratch is in a slow memory, for the text and the page alike: M4 places
// a scratch buffer whose rule is not latency-critical in the target's slow
// region (scratch-requests.ts), whether or not the fast one has room, so a
// plan that spilled nothing still moves those bytes there. Loads no
// placement code.

import { counted, formatBytes } from '../../shared/format';
import type { PlannedBuffer, RegionPlan } from '../plan-types';

type Buffer = Pick<PlannedBuffer, 'kind' | 'region' | 'scratch' | 'moved'>;
type Region = Pick<RegionPlan, 'name' | 'fast'>;

/** Whether `b` is scratch the target's rule sent to a slow region: its rule is not latency-critical. */
function byRule(b: Buffer, slow: ReadonlySet<string>): boolean {
  return b.kind === 'scratch' && b.scratch?.latencyCritical === false && slow.has(b.region);
}

/** The regions of the plan that are slow, when it has a fast one beside them (else scratch has nowhere else to go). */
function slowRegions(regions: readonly Region[]): Set<string> {
  if (!regions.some((r) => r.fast)) return new Set();
  return new Set(regions.filter((r) => !r.fast).map((r) => r.name));
}

/**
 * "29 scratch buffers are in ext-ram by the target's scratch rules, not
 * spilled: their rules are not latency-critical, so M4 places them in the
 * slow memory and leaves sram to activations and latency-critical scratch;
 * they move 114 KiB there per inference", per slow region holding any;
 * empty when none does.
 */
export function ruleScratchTexts(plan: { readonly regions: readonly Region[]; readonly buffers: readonly Buffer[] }): { readonly region: string; readonly text: string }[] {
  const slow = slowRegions(plan.regions);
  const fast = plan.regions.find((r) => r.fast)!;
  return [...slow].flatMap((region) => {
    const held = plan.buffers.filter((b) => b.region === region && byRule(b, slow));
    if (held.length === 0) return [];
    // bytes moved are given only where activations may take more than one region: never counted as 0 when absent
    const moved = held.every((b) => b.moved !== undefined) ? `; ${held.length === 1 ? 'it moves' : 'they move'} ${formatBytes(held.reduce((sum, b) => sum + b.moved!, 0))} there per inference (written and read)` : '';
    const are = held.length === 1 ? 'is' : 'are';
    const their = held.length === 1 ? 'its rule is' : 'their rules are';
    const them = held.length === 1 ? 'it' : 'them';
    return [{ region, text: `${counted(held.length, 'scratch buffer')} ${are} in ${region} by the target's scratch rules, not spilled: ${their} not latency-critical, so M4 places ${them} in the slow memory and leaves ${fast.name} to activations and latency-critical scratch${moved}` }];
  });
}

/** Why scratch buffer `b` is in its region, when the target's rule put it in a slow one; undefined otherwise. */
export function scratchRegionText(plan: { readonly regions: readonly Region[] }, b: Buffer): string | undefined {
  const slow = slowRegions(plan.regions);
  if (!byRule(b, slow)) return undefined;
  const fast = plan.regions.find((r) => r.fast)!;
  return `in ${b.region}, a slow memory, by its rule, not spilled: ${b.scratch!.rule} is not latency-critical, so M4 places it in the target's slow memory and leaves ${fast.name} to activations and latency-critical scratch${b.moved === undefined ? '' : `; it moves ${formatBytes(b.moved)} there per inference (written and read)`}`;
}
