// The explanation's first lines: whether the plan fits its target (naming each
// region over its limit and by how much, or only as far as known when the
// figures are lower estimates), the peak (a lower estimate when some
// size is unknown), the strategy that won and by how much it beat M1, and the
// strategy's own bound when its sharing choices (or its split between regions) keep it above the lower bound.

import { splitBetweenRegions } from '../../planner/assembly/plan-records';
import { fitNeedsLine } from './fit-words';
import type { ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { overLimitList } from '../../store/fit-words';
import { peakText, portfolioText, regionsPeakText, strategyBoundText } from '../plan-words';

/** Props of PlanHeadline. */
export interface PlanHeadlineProps {
  readonly plan: ModelPlan;
  readonly complete: boolean;
  readonly fits: boolean;
  readonly lowerEstimate: boolean; // the figures fits is judged on are lower estimates (planLowerEstimate)
  readonly unknownCount: number; // run-time tensors of unknown size
}

/** The first lines of the explanation. */
export function PlanHeadline({ plan, complete, fits, lowerEstimate, unknownCount }: PlanHeadlineProps) {
  const limited = plan.regions.some((r) => r.sizeLimit !== undefined);
  const portfolio = portfolioText(plan);
  const own = strategyBoundText(plan);
  // activations split between regions: each region's bound counts the buffers it holds, the plan's holds for any split
  const split = splitBetweenRegions(plan);
  const sum = regionsPeakText(plan, complete);
  const needs = fitNeedsLine(plan, lowerEstimate);
  return (
    <div className="plan-headline" data-testid="plan-headline" data-fits={fits} data-complete={complete} data-lower-estimate={lowerEstimate}>
      {!fits ? (
        <p className="explanation-line headline-over" data-testid="headline-fit">
          <strong>Does not fit:</strong> {overLimitList(plan)}.
        </p>
      ) : undefined}
      {/* no memory makes a model TensorFlow Lite Micro refuses fit: no "needs … more" for it */}
      {!fits && needs !== undefined ? (
        <p className="explanation-line" data-testid="headline-fit-needs">
          {needs}
        </p>
      ) : undefined}
      {fits && limited ? (
        <p className="explanation-line" data-testid="headline-fit">
          {fitText(complete, lowerEstimate)}
        </p>
      ) : undefined}
      <p className="explanation-line" data-testid="headline-peak">
        Peak <strong>{peakText(plan.peak, complete)}</strong> with {plan.strategy}
        {sum !== undefined && <span data-testid="headline-peak-regions">, {sum}</span>}
        {complete ? (
          '.'
        ) : (
          <>
            , <span className="headline-estimate">a lower estimate</span>: {unknownCount === 1 ? '1 tensor of unknown size counts' : `${unknownCount} tensors of unknown size count`} as 0 bytes.
          </>
        )}
      </p>
      {portfolio !== undefined && (
        <p className="explanation-line" data-testid="headline-portfolio">
          {portfolio}
        </p>
      )}
      {own !== undefined && (
        <p className="explanation-line" data-testid="headline-strategy-bound">
          {own}: {split ? 'its split between the regions and its sharing choices keep it above the lower bound of any split' : 'its sharing choices keep it above the lower bound of every plan'}, {formatBytes(plan.lowerBound)}.
        </p>
      )}
    </div>
  );
}

/** The verdict of a plan within its limits: only as far as known when a size, or a kernel's scratch, is not known. */
export function fitText(complete: boolean, lowerEstimate: boolean): string {
  if (!complete) return 'Fits only as far as known: every region is within its size limit with the sizes known.';
  if (lowerEstimate) return "Fits only as far as known: every region is within its size limit with the scratch requests known; the arena is a lower estimate, a kernel's scratch requests are not known and none are assumed.";
  return 'Fits: every region is within its size limit.';
}
