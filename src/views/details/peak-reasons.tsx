// Why each buffer live at the peak is alive: its producer, its last reader,
// how many steps it lives and the reason in words (explain/peak-live.ts),
// as lines the reader takes in without hovering.

import type { ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { isCut, MESSAGE_CHARS, shortName, titleText } from '../../shared/short-name';
import { LongName } from '../long-name';

/** Reasons shown, largest buffers first. */
const SHOWN = 8;

/** The reasons of the buffers live at the peak. */
export function PeakReasons({ plan }: { readonly plan: ModelPlan }) {
  const records = plan.explanation?.peakLive ?? [];
  if (records.length === 0) return null;
  return (
    <ul className="peak-reasons" aria-label="Why each buffer is live at the peak" data-testid="peak-reasons">
      {records.slice(0, SHOWN).map((r) => (
        <li key={r.id} data-testid="peak-reason" data-buffer={r.name} data-causes={r.causes.join(' ')}>
          <span className="mono" title={isCut(r.name) ? titleText(r.name) : undefined}>{shortName(r.name)}</span> ({formatBytes(r.size)}, {r.span.steps} {r.span.steps === 1 ? 'step' : 'steps'}
          {r.producer !== undefined && <>, from {shortName(r.producer.opType)}</>}
          {r.lastReader !== undefined && <> to {shortName(r.lastReader.opType)}</>}): <LongName text={r.reason} max={MESSAGE_CHARS} />
        </li>
      ))}
      {records.length > SHOWN && <li className="muted">and {records.length - SHOWN} smaller</li>}
    </ul>
  );
}
