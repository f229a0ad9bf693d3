// The words for memory regions that hold nothing, so none is drawn: one
// wording for the heap on screen, its live-bytes chart and the heap's SVG/PNG
// export, so a region left out is named the same way in each. Plain strings;
// no DOM.

import type { ModelPlan } from '../../planner/plan';
import { shortName } from '../../shared/short-name';

/**
 * "ext-ram holds nothing, so it has no lane" for the plan's regions not in `drawn` ("sram and ext-ram hold nothing:
 * no buffer to draw" when none is drawn); "… of known size" where a buffer of unknown size is planned there;
 * undefined when every region is drawn. `what` names what a drawn region has: a lane of the heap, a chart.
 */
export function emptyRegionsText(plan: Pick<ModelPlan, 'regions' | 'buffers'>, drawn: readonly string[], what = 'lane'): string | undefined {
  const names = plan.regions.map((r) => r.name).filter((name) => !drawn.includes(name));
  if (names.length === 0) return undefined;
  const unknown = plan.buffers.some((b) => b.unknownSize === true && names.includes(b.region));
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
  const holds = `${names.length === 1 ? 'holds' : 'hold'} nothing${unknown ? ' of known size' : ''}`;
  const missing = drawn.length === 0 ? 'no buffer to draw' : `so ${names.length === 1 ? 'it has' : 'they have'} no ${what}`;
  return `${shortName(list)} ${holds}${drawn.length === 0 ? ': ' : ', '}${missing}`;
}
