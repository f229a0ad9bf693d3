// What B − A's change can claim when a side's peak (some size unknown, planned
// as 0 B) or TensorFlow Lite Micro arena (a kernel's scratch not known) is a
// lower estimate: at least the figure when only B is one, at most when only A
// is, neither when both are; the change as a share of A's figure; and an arena
// to declare as every view and the CLI write it (an estimate, a lower estimate,
// or none works). Depends only on the shared formatting.

import { formatBytes, formatSignedBytes, MINUS } from '../../shared/format';

/** How the true change relates to the planned one. */
export type DeltaBound = 'exact' | 'at-least' | 'at-most' | 'unbounded';

/** The bound of B − A given whether each side's peak is complete. */
export function deltaBound(completeA: boolean, completeB: boolean): DeltaBound {
  if (completeA && completeB) return 'exact';
  if (completeA) return 'at-least';
  if (completeB) return 'at-most';
  return 'unbounded';
}

/** "at least " / "at most " before the figure; '' when it is exact or has no bound either way. */
export function deltaPrefix(bound: DeltaBound): string {
  return bound === 'at-least' ? 'at least ' : bound === 'at-most' ? 'at most ' : '';
}

/** Why the figure is not exact, for after it; undefined when it is. */
export function deltaNote(bound: DeltaBound): string | undefined {
  if (bound === 'at-least') return "B's peak is a lower estimate: some sizes are unknown in B";
  if (bound === 'at-most') return "A's peak is a lower estimate: some sizes are unknown in A";
  if (bound === 'unbounded') return 'both peaks are lower estimates: some sizes are unknown, so the true change may be larger or smaller';
  return undefined;
}

/**
 * Why the change of two TensorFlow Lite Micro arenas to declare is not exact,
 * for after it; undefined when it is. An arena is a lower estimate when a
 * kernel's scratch requests are not known (none are assumed). `sides` names
 * A and B as the caller writes them ("a"/"b" in the command line's text).
 */
export function arenaDeltaNote(bound: DeltaBound, sides: readonly [string, string] = ['a', 'b']): string | undefined {
  const why = "a kernel's scratch requests are not known, none assumed";
  if (bound === 'at-least') return `${sides[1]}'s arena is a lower estimate: ${why}`;
  if (bound === 'at-most') return `${sides[0]}'s arena is a lower estimate: ${why}`;
  if (bound === 'unbounded') return `both arenas are lower estimates: ${why}, so the true change may be larger or smaller`;
  return undefined;
}

/** An arena to declare, "≥ 3.55 MiB" when it is a lower estimate. */
export function arenaBytes(n: number, lowerEstimate: boolean): string {
  return `${lowerEstimate ? '≥ ' : ''}${formatBytes(n)}`;
}

/** How far an arena to declare can be taken at its word: an estimate (some part of the tail estimated), a lower estimate (a kernel's scratch requests not known, none assumed), or none at all (TFLite Micro refuses the model). */
export interface ArenaStanding {
  readonly estimate: boolean;
  readonly lowerEstimate: boolean;
  readonly refused: boolean;
}

/** The words every view shows in place of an arena to declare TFLite Micro refuses: no arena works. */
export const NO_ARENA_WORKS = 'none works';

/**
 * An arena to declare as every view shows it (Details, the memory map, the heap's header and export): "3.55 MiB",
 * "3.55 MiB (estimate)" when it rests on the tail's estimated parts, "≥ 3.55 MiB" when it is a lower estimate, and
 * where TFLite Micro refuses the model "none works" (`acceptedToo`: "none works (≥ 3.55 MiB were it accepted)").
 */
export function declaredArenaText(bytes: number, standing: ArenaStanding, acceptedToo = false): string {
  const figure = arenaBytes(bytes, standing.lowerEstimate);
  const estimate = standing.estimate && !standing.lowerEstimate;
  if (!standing.refused) return estimate ? `${figure} (estimate)` : figure;
  return acceptedToo ? `${NO_ARENA_WORKS} (${figure}${estimate ? ', an estimate,' : ''} were it accepted)` : NO_ARENA_WORKS;
}

/** What noArenaReason reads of a side's settings: its target's name and whether that target plans as a runtime. */
export interface NoArenaSettings {
  readonly target: string;
  readonly targetProfile: { readonly planning: { readonly runtime?: string } };
}

/**
 * Why a side declares no arena when the other is a TensorFlow Lite Micro plan, as diff and Compare say it: "target
 * cpu", or "not a .tflite model" for a model TFLM does not read planned on a tflm target all the same.
 */
export function noArenaReason(settings: NoArenaSettings): string {
  return settings.targetProfile.planning.runtime === 'tflm' ? 'not a .tflite model' : `target ${settings.target}`;
}

/** " (+10.0 %)": `delta` as a share of A's figure `base`; empty when `base` is 0. */
export function percentChange(delta: number, base: number): string {
  return base > 0 ? ` (${delta >= 0 ? '+' : MINUS}${((Math.abs(delta) / base) * 100).toFixed(1)} %)` : '';
}

/**
 * "region dram: 499 KiB → 1.87 MiB (+1.39 MiB)" for each region when the
 * plans have more than one (one region's line would repeat the peak's), a
 * peak that is a lower estimate marked "≥" and the change bounded as B − A is.
 */
export function regionChangeLines(
  diff: { readonly regions: readonly { readonly name: string; readonly peakA: number; readonly peakB: number; readonly delta: number }[]; readonly completeA: boolean; readonly completeB: boolean },
  arrow = '→',
): string[] {
  if (diff.regions.length < 2) return [];
  const least = deltaPrefix(deltaBound(diff.completeA, diff.completeB));
  const peak = (n: number, complete: boolean) => `${complete ? '' : '≥ '}${formatBytes(n)}`;
  return diff.regions.map((r) => `region ${r.name}: ${peak(r.peakA, diff.completeA)} ${arrow} ${peak(r.peakB, diff.completeB)} (${least}${formatSignedBytes(r.delta)})`);
}
