// The explanation's sentences that must agree with its waste table: what the
// bytes above the live buffers at the peak step are made of, and what an
// empty list of suggestions leaves out (a narrowing the peak reasons offer
// that the planner tried and that moved nothing). Pure; tested in
// peak-words.test.ts.

import type { ModelPlan, PeakLiveRecord, Waste } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { shortName } from '../../shared/short-name';

/** The buffer whose top is a region's peak, live first (lowest id on ties): where the peak is reached; undefined when no buffer reaches it. */
export function peakTop(plan: Pick<ModelPlan, 'buffers'>, region: { readonly name: string; readonly peak: number }): ModelPlan['buffers'][number] | undefined {
  let top: ModelPlan['buffers'][number] | undefined;
  for (const b of plan.buffers) {
    if (b.region !== region.name || b.size === 0 || b.offset + b.size !== region.peak) continue;
    if (top === undefined || b.start < top.start) top = b;
  }
  return top;
}

/**
 * What `above` bytes (a region's peak minus what is live at its peak step)
 * are, split as the region's waste splits them: scratch growth first (bytes
 * M4's scratch added above the activations), then alignment padding, then
 * holes. Parts that are zero are left out; "holes and alignment padding of
 * the layout" when the waste says nothing more specific.
 */
export function aboveLiveWords(above: number, waste: Waste | undefined): string {
  if (waste === undefined) return 'holes and alignment padding of the layout';
  const scratch = Math.min(above, Math.max(0, waste.scratchGrowth));
  const padding = Math.min(above - scratch, Math.max(0, waste.alignmentPadding));
  const holes = above - scratch - padding;
  const parts = [
    ...(scratch > 0 ? [`${formatBytes(scratch)} of scratch growth (scratch buffers placed above the activations)`] : []),
    ...(padding > 0 ? [`${formatBytes(padding)} of alignment padding`] : []),
    ...(holes > 0 ? [`${formatBytes(holes)} of holes in the layout`] : []),
  ];
  if (parts.length === 0) return 'holes and alignment padding of the layout';
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]!}`;
}

/**
 * The sentence for an empty list of suggestions. The model edits try the
 * largest buffer at the peak that a Cast narrows right after (the first such
 * record, as the planner lists them); when the peak reasons offer that
 * narrowing, the sentence says it was tried and left the peak as it is, so
 * "stored as float16 it would take …" above it does not read as a saving.
 */
export function noSuggestionWords(peakLive: readonly PeakLiveRecord[]): string {
  const base = 'No change the planner tried lowers this peak.';
  const narrow = peakLive.find((r) => r.narrowTo !== undefined && r.counted > 0);
  if (narrow?.narrowTo === undefined) return base;
  return `${base} Keeping ${shortName(narrow.name)} in ${narrow.narrowTo.dtype} (${formatBytes(narrow.narrowTo.size)} instead of ${formatBytes(narrow.size)}) was tried too and leaves the peak where it is.`;
}
