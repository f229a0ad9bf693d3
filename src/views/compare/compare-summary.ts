// The comparison as window.heapscope.summary().compare gives it: both peaks (and
// each arena to declare of a side that is a TensorFlow Lite Micro plan, with
// the plan written and for the files as they are, and whether each is a lower estimate),
// B's strategy and target, and B's settings in the form of summary().settings,
// so a reopened link can be checked to give the same B.

import { settingsOf, type PageSettings } from '../../store/page-settings';
import type { CompareState } from '../../store/compare-store';

/** An open comparison of two plans. */
export interface CompareSummary {
  readonly peakA: number; // bytes
  readonly peakB: number; // bytes
  readonly strategy: string; // B's plan's strategy
  readonly target: string; // B's plan's target
  readonly settings: PageSettings | null; // what B was planned with; null when B is another file or a saved plan
  readonly arenaA?: number; // A is a TensorFlow Lite Micro plan: its tensor arena to declare, what B − A compares when B is one too
  readonly arenaB?: number;
  readonly arenaAsIsA?: number; // with the arenas: what TFLM plans for each file as it is, flashed unchanged (diff --json's runtime arenaAsIs)
  readonly arenaAsIsB?: number;
  readonly arenaLowerEstimateA?: boolean; // with the arenas: the side's arenas are lower estimates, a kernel's scratch requests not known (diff --json's runtime lowerEstimate)
  readonly arenaLowerEstimateB?: boolean;
}

/** The comparison on screen; null while there is none (or a saved plan is shown alone). */
export function compareSummary(state: Pick<CompareState, 'a' | 'b' | 'sideB' | 'diff'>): CompareSummary | null {
  const { a, b, sideB } = state;
  if (a === undefined || b === undefined) return null;
  // the diff's own arenas, not worked out again: both sides', or the one side's that is a TFLM plan (runtimeA, runtimeB)
  const figuresA = state.diff?.runtime?.a ?? state.diff?.runtimeA;
  const figuresB = state.diff?.runtime?.b ?? state.diff?.runtimeB;
  return {
    peakA: a.file.plan.peak,
    peakB: b.file.plan.peak,
    strategy: b.file.plan.strategy,
    target: b.file.plan.target,
    settings: sideB === undefined ? null : settingsOf(sideB.settings, sideB),
    ...(figuresA !== undefined && { arenaA: figuresA.arena, arenaAsIsA: figuresA.arenaAsIs, arenaLowerEstimateA: figuresA.lowerEstimate }),
    ...(figuresB !== undefined && { arenaB: figuresB.arena, arenaAsIsB: figuresB.arenaAsIs, arenaLowerEstimateB: figuresB.lowerEstimate }),
  };
}
