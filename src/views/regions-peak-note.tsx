// The note after a one-line peak of several memories, "(sum of 2 memories)",
// whose title gives each memory's own peak (plan-words.ts), for the heap
// header, the settings' summary and the embed caption.

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
