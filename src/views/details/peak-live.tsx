// The peak step of the plan and every buffer live there, largest first, each
// with the bytes it adds (aliased and in-place buffers included), linked to
// its buffer, its producing op and its fusion unit; the list adds up.

import type { ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { peakText } from '../plan-words';
import { shortName, titleText } from '../../shared/short-name';
import type { Selection } from '../../store/state';
import { countedBytes, LiveList } from './live-list';
import { aboveLiveWords, peakTop } from './peak-words';
import { emptyPeakWords } from '../../planner/explain/empty-peak';

/** Props of PeakLive. */
export interface PeakLiveProps {
  readonly plan: ModelPlan;
  readonly complete: boolean; // see LiveList
  readonly onSelect: (selection: Selection) => void;
}

/** The peak step and its live buffers. */
export function PeakLive({ plan, complete, onSelect }: PeakLiveProps) {
  const empty = emptyPeakWords(plan);
  if (empty !== undefined) {
    return (
      <section className="explain-block" aria-label="Peak step" data-testid="peak-live" data-total={0}>
        <h4 className="explain-heading">At the peak</h4>
        <p className="explanation-line" data-testid="peak-empty">
          {empty.charAt(0).toUpperCase() + empty.slice(1)}.
        </p>
      </section>
    );
  }
  const step = plan.peakStep;
  if (step === undefined) return null;
  const info = plan.steps[step];
  const live = plan.liveAtPeak;
  const total = live.reduce((sum, b) => sum + countedBytes(b), 0);
  const region = plan.regions.find((r) => r.name === plan.peakRegion);
  const above = region === undefined ? 0 : region.peak - total;
  // above the bound, the most is live at one step and the peak's top is reached at another: both are named
  const top = region === undefined || above <= 0 ? undefined : peakTop(plan, region);
  return (
    <section className="explain-block" aria-label="Peak step" data-testid="peak-live" data-step={step} data-region={plan.peakRegion} data-total={total}>
      <h4 className="explain-heading">At the peak</h4>
      <p className="explanation-line">
        {top === undefined ? `The ${plan.peakRegion} peak is reached at` : `The most is live in ${plan.peakRegion} at`}{' '}
        <button type="button" className="link-button" onClick={() => onSelect({ kind: 'step', step })} data-testid="peak-step">
          step {step}
        </button>{' '}
        ({shortName(info?.opType ?? '')}{' '}
        {info?.node !== undefined && (
          <button type="button" className="link-button mono" onClick={() => onSelect({ kind: 'node', node: info.node })} title={titleText(info.node)}>
            {shortName(info.node)}
          </button>
        )}
        ); {live.length === 1 ? '1 buffer is live there:' : `${live.length} buffers live there, largest first:`}
      </p>
      <LiveList plan={plan} live={live} label="Buffers live at the peak, largest first" rowTestId="peak-buffer" complete={complete} onSelect={onSelect} />
      {region !== undefined && above > 0 && (
        <p className="muted" data-testid="peak-above-live">
          The {region.name} peak, {peakText(region.peak, complete)}, is {formatBytes(above)} above what is live at this step: {aboveLiveWords(above, region.waste)}.
          {top !== undefined && (
            <span data-testid="peak-top">
              {' '}
              It is reached at{' '}
              <button type="button" className="link-button" onClick={() => onSelect({ kind: 'step', step: top.start })}>
                step {top.start}
              </button>
              , where{' '}
              <button type="button" className="link-button mono" onClick={() => onSelect({ kind: 'buffer', buffer: top.id })} title={titleText(top.name)}>
                {shortName(top.name)}
              </button>{' '}
              ends at it.
            </span>
          )}
        </p>
      )}
    </section>
  );
}
