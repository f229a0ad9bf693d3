// The note after a one-line peak of several memories, "(sum of 2 memories)",
// whose title gives each memory's own peak (plan-words.ts), for the heap
// header, the settings' summary and the embed caption; and the "Σ" before such
// a peak where a line has no room for the note (Compare's figures).

import type { ModelPlan } from '../planner/plan';
import { regionsPeakNote, regionsPeakText } from './plan-words';

/** " (sum of 2 memories)" after a peak, titled with each memory's peak; nothing when one memory holds bytes. */
export function RegionsPeakNote({ plan, complete, className }: { readonly plan: Pick<ModelPlan, 'regions'>; readonly complete: boolean; readonly className?: string }) {
  const note = regionsPeakNote(plan);
  if (note === undefined) return null;
  return (
    <>
      {' '}
      <span className={className} data-testid="peak-regions" title={regionsPeakText(plan, complete)}>
        {note}
      </span>
    </>
  );
}

/** "Σ " before a peak of several memories, titled with each memory's peak; nothing when one memory holds bytes. */
export function PeakSumMark({ plan, complete }: { readonly plan: Pick<ModelPlan, 'regions'>; readonly complete: boolean }) {
  const sum = regionsPeakText(plan, complete);
  if (sum === undefined) return null;
  return (
    <span className="heap-sum-mark" data-testid="peak-sum-mark" title={sum} aria-label={`${sum}:`}>
      Σ{' '}
    </span>
  );
}
