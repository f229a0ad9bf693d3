// The two scratch figures of a plan, `freeAreasPeak` and `withActivationsPeak`:
// each the peak `plan` prints with that `--scratch-placement`. Depends only on
// the planner.
//
// The plan's own placement gives its own peak. The other placement is placed
// again from the same stage as planModel places it (placeStage: spilled along
// the memory map with its own split and fill-back, `best` against each
// baseline's whole plan), because scratch placed the other way inside the
// kept plan's split measures neither plan: SqueezeNet fp16 on mcu said 2.54 MiB
// both ways beside plans of 2,761,184 B (M4) and 2,755,536 B (with activations).

import { regionPeaks } from './explain-plan';
import type { PlacedScratch, ScratchSummary } from './placement';
import type { PlanStage } from './stages';
import { placeStage } from '../spill/place-stage';
import type { PlanOptions } from '../strategies/strategy';
import type { ScratchPlacement, TargetProfile } from '../targets/target';

/** What comparedScratch reads: the plan's stage and how it was placed. */
export interface ScratchCompareInput {
  readonly stage: PlanStage;
  readonly target: TargetProfile; // the target the stage was placed for (weights' reserve applied)
  readonly strategy: string;
  readonly planOptions: PlanOptions | undefined;
  readonly peak: number; // the plan's peak
}

/** `placed` with the peak of the plan each scratch placement gives; see the module header. */
export function comparedScratch(placed: PlacedScratch, input: ScratchCompareInput): ScratchSummary {
  const other: ScratchPlacement = placed.placement === 'free-areas' ? 'with-activations' : 'free-areas';
  const otherPeak = placedPeak({ ...input, target: { ...input.target, scratch: { ...input.target.scratch, placement: other } } });
  const freeAreasPeak = other === 'free-areas' ? otherPeak : input.peak;
  const withActivationsPeak = other === 'with-activations' ? otherPeak : input.peak;
  return { ...placed, freeAreasPeak, withActivationsPeak };
}

/** The sum of the region peaks of `input.stage` placed for `input.target`. */
function placedPeak({ stage, target, strategy, planOptions }: ScratchCompareInput): number {
  // the same search budget as the plan's, so the figure is that plan's; the caller hears progress of its own plan only
  const { onProgress: _progress, shouldStop: _stop, ...options } = planOptions ?? {};
  const { placed } = placeStage(stage, target, strategy, Object.keys(options).length > 0 ? options : undefined, false);
  let total = 0;
  for (const peak of regionPeaks(placed.full.problem, placed.offsets).values()) total += peak;
  return total;
}
