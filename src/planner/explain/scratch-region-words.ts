// Why scratch is in a slow memory, for the text and the page alike: M4 places
// a scratch buffer whose rule is not latency-critical in the target's slow
// region (scratch-requests.ts), so a plan that spilled nothing still moves
// those bytes there. A kept M4 variant that tries the fast region first
// (`scratch.variant.preferFast`, the retries' most-fast choice) sends there
// only the fixed-size ones the fast region had no free area for at their
// step; variable-size scratch takes the slow region's largest free areas
// either way. Loads no placement code.

import { counted, formatBytes } from '../../shared/format';
import type { PlannedBuffer, RegionPlan } from '../plan-types';

type Buffer = Pick<PlannedBuffer, 'kind' | 'region' | 'scratch' | 'moved'>;
type Region = Pick<RegionPlan, 'name' | 'fast'>;
/** What the words read of a plan: M4's kept variant, when the plan has scratch. */
interface ScratchPlan {
  readonly regions: readonly Region[];
  readonly scratch?: { readonly variant: { readonly preferFast: boolean } };
}

/** Whether `b` is scratch the target's rule sent to a slow region: its rule is not latency-critical. */
function slowByRule(b: Buffer, slow: ReadonlySet<string>): boolean {
  return b.kind === 'scratch' && b.scratch?.latencyCritical === false && slow.has(b.region);
}

/** Why such a buffer is there: the rule alone, or no free area in the fast region at its step (fixed size, fast tried first). */
function slowReason(plan: ScratchPlan, b: Buffer): 'rule' | 'no-room' {
  return plan.scratch?.variant.preferFast === true && b.scratch?.variable === false ? 'no-room' : 'rule';
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
export function ruleScratchTexts(plan: ScratchPlan & { readonly buffers: readonly Buffer[] }): { readonly region: string; readonly text: string }[] {
  const slow = slowRegions(plan.regions);
  const fast = plan.regions.find((r) => r.fast)!;
  return [...slow].flatMap((region) => {
    const inRegion = plan.buffers.filter((b) => b.region === region && slowByRule(b, slow));
    const texts = (['rule', 'no-room'] as const).flatMap((reason) => {
      const held = inRegion.filter((b) => slowReason(plan, b) === reason);
      if (held.length === 0) return [];
      // bytes moved are given only where activations may take more than one region: never counted as 0 when absent
      const moved = held.every((b) => b.moved !== undefined) ? `; ${held.length === 1 ? 'it moves' : 'they move'} ${formatBytes(held.reduce((sum, b) => sum + b.moved!, 0))} there per inference (written and read)` : '';
      const are = held.length === 1 ? 'is' : 'are';
      const lead = `${counted(held.length, 'scratch buffer')} ${are} in ${region}`;
      if (reason === 'no-room') return [`${lead}, not spilled: M4 tried ${fast.name} first for scratch that is not latency-critical, and ${fast.name} had no free area for ${held.length === 1 ? 'it at its step' : 'them at their steps'}${moved}`];
      const their = held.length === 1 ? 'its rule is' : 'their rules are';
      const them = held.length === 1 ? 'it' : 'them';
      return [`${lead} by the target's scratch rules, not spilled: ${their} not latency-critical, so M4 places ${them} in the slow memory and leaves ${fast.name} to activations and latency-critical scratch${moved}`];
    });
    return texts.length === 0 ? [] : [{ region, text: texts.join('; ') }];
  });
}

/** Why scratch buffer `b` is in its region, when the target's rule put it in a slow one; undefined otherwise. */
export function scratchRegionText(plan: ScratchPlan, b: Buffer): string | undefined {
  const slow = slowRegions(plan.regions);
  if (!slowByRule(b, slow)) return undefined;
  const fast = plan.regions.find((r) => r.fast)!;
  const moved = b.moved === undefined ? '' : `; it moves ${formatBytes(b.moved)} there per inference (written and read)`;
  if (slowReason(plan, b) === 'no-room') return `in ${b.region}, a slow memory, not spilled: ${b.scratch!.rule} is not latency-critical, and M4 tried ${fast.name} first but it had no free area for it at its step${moved}`;
  return `in ${b.region}, a slow memory, by its rule, not spilled: ${b.scratch!.rule} is not latency-critical, so M4 places it in the target's slow memory and leaves ${fast.name} to activations and latency-critical scratch${moved}`;
}
