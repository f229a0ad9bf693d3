// The heap pane's figures: the peak (labelled a lower estimate when some size
// is unknown), the bound, the strategy and its own bound, TensorFlow Lite
// Micro's tensor arena to declare, and every region over its size limit, in
// human units, where the eye is.

import type { ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { fitVerdict } from '../../store/fit-words';
import { peakText, regionsPeakText, strategyBoundText, withRegionsPeak } from '../plan-words';
import { PeakSumMark, RegionsPeakNote } from '../regions-peak-note';
import { ownBoundTitle } from '../bound-words';
import './assumptions.css';
import { isStrategyName, STRATEGY_TITLES } from '../../planner/strategies/strategy-names';
import { portfolioKept } from '../../planner/explain/portfolio-words';
import { declaredArenaFigure } from '../details/runtime-plan-words';

/**
 * The figures of `plan`, for the heap pane's toolbar: one line when the pane
 * has room; a narrower pane wraps them between figures, never inside a label
 * and its value, and never cuts a number (heap.css). The whole text is in the
 * title too.
 */
export function HeapNumbers({ plan }: { readonly plan: ModelPlan }) {
  const { complete } = plan;
  const own = ownBoundText(plan);
  const strategy = plan.portfolio !== undefined && plan.portfolio.winner !== plan.strategy ? `${plan.strategy} (${plan.portfolio.winner})` : plan.strategy;
  const sum = regionsPeakText(plan, complete);
  const arena = declaredArenaFigure(plan);
  const whole = [
    withRegionsPeak(`peak ${peakText(plan.peak, complete)}${complete ? '' : ' (lower estimate)'}`, plan, complete),
    `bound ${formatBytes(plan.lowerBound)}`,
    ...(own === undefined ? [] : [strategyBoundText(plan)!]),
    strategy,
    ...(arena === undefined ? [] : [`arena to declare ${arena.shown}`]),
  ].join(' · ');
  return (
    <span className="heap-numbers" data-testid="heap-peak" data-peak={plan.peak} data-complete={complete} title={whole}>
      <span className="heap-figures">
        <span className="heap-pair">
          <PeakSumMark plan={plan} complete={complete} />
          peak <strong title={`${plan.peak.toLocaleString('en-US')} bytes${sum === undefined ? '' : `, ${sum}`}`}>{peakText(plan.peak, complete)}</strong>
        </span>
        <RegionsPeakNote plan={plan} complete={complete} className="heap-pair heap-sum-note" />
        {!complete && (
          <span className="tag tag-warning" title="Some run-time tensors have an unknown size and count as 0 bytes" data-testid="lower-estimate">
            lower estimate
          </span>
        )}{' '}
        <span className="heap-pair">· bound {formatBytes(plan.lowerBound)}</span>
        {own !== undefined && (
          <span data-testid="strategy-bound" className="heap-own" title={ownBoundTitle(plan)}>
            {' '}
            <span className="heap-pair">
              · <span className="heap-own-text">{own}</span>
            </span>
          </span>
        )}
      </span>{' '}
      <span className="heap-pair heap-strategy">
        {'· '}
        <span data-testid="heap-strategy" title={strategyTitle(plan)}>
          {strategy}
        </span>
      </span>
      {arena !== undefined && (
        <>
          {' '}
          <span className="heap-pair heap-arena" data-testid="heap-arena" data-bytes={arena.bytes} title={`The tensor arena to declare to TensorFlow Lite Micro: ${arena.text}`}>
            · arena to declare <strong>{arena.shown}</strong>
          </span>
        </>
      )}
    </span>
  );
}

/**
 * What the strategy's name, and the winner's in brackets, stand for: "best: portfolio of …; best kept tflm's plan
 * (TFLite Micro's greedy planner: …)", or, where best kept its winner's placement of its own split, that and the
 * winner's own plan, in the words the text says it with.
 */
function strategyTitle(plan: ModelPlan): string {
  const title = (name: string): string => (isStrategyName(name) ? `${name}: ${STRATEGY_TITLES[name]}` : name);
  const words = plan.portfolio?.winner === plan.strategy ? undefined : portfolioKept(plan, (winner) => (isStrategyName(winner) ? ` (${STRATEGY_TITLES[winner]})` : ''));
  if (words === undefined) return title(plan.strategy);
  return [title(plan.strategy), words.kept, ...(words.alone === undefined ? [] : [words.alone])].join('; ');
}

/** "own 5.30 MiB": the strategy's own bound in the few words the toolbar has room for, after the bound and before the strategy it belongs to (its pair's title says it whole). */
function ownBoundText(plan: ModelPlan): string | undefined {
  return strategyBoundText(plan) === undefined ? undefined : `own ${formatBytes(plan.strategyBound!)}`;
}

/** One line per region over its size limit; nothing when the plan fits. */
export function OverLimit({ plan }: { readonly plan: ModelPlan }) {
  const verdict = fitVerdict(plan);
  if (verdict === undefined) return null;
  return (
    <p className="heap-over" role="status" data-testid="heap-over" data-fits="false">
      <svg viewBox="0 0 16 16" aria-hidden="true" className="heap-over-icon">
        <path d="M8 1.5 15 14H1L8 1.5Z M8 6v4 M8 11.6v.4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" strokeLinecap="round" />
      </svg>
      {verdict}
    </p>
  );
}
