// Which memory regions get a lane, and the words for those that do not: one
// predicate and one wording for the heap on screen, its live-bytes chart and
// the heap's SVG/PNG export, so a region left out is left out and named the
// same way in each. Plain strings; no DOM.

import type { ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import { regionOverBy } from '../../store/fit-words';

type LanePlan = Pick<ModelPlan, 'regions' | 'buffers'>;

/**
 * The regions drawn as a lane (or a chart), in the target's order, then regions of buffers the plan does not list:
 * those holding a buffer of some bytes or a peak above 0. A region holding only weights gets none, over its size limit
 * too: a lane of no buffer would read "peak 0 B", and emptyRegionsText says what it holds and how far over it is.
 */
export function laneRegions(plan: LanePlan): string[] {
  const used = new Set(plan.buffers.filter((b) => b.size > 0).map((b) => b.region));
  const names = plan.regions.filter((r) => used.has(r.name) || r.peak > 0).map((r) => r.name);
  for (const name of used) if (!names.includes(name)) names.push(name);
  return names;
}

/**
 * "ext-ram holds nothing, so it has no lane" for the plan's regions not in `drawn` ("sram and ext-ram hold nothing:
 * no buffer to draw" when none is drawn); "… of known size" where a buffer of unknown size is planned there; a region
 * that holds weights but no planned buffer says so with its bytes ("ext-ram holds no planned buffer (its 256 KiB are
 * weights)"), and how far over its size limit they take it ("…, 158 KiB over its 97.7 KiB limit)"): "nothing" only of a
 * region that holds no byte. Undefined when every region is drawn. `what` names what a drawn region has: a lane of the
 * heap, a chart.
 */
export function emptyRegionsText(plan: LanePlan, drawn: readonly string[], what = 'lane'): string | undefined {
  const left = plan.regions.filter((r) => !drawn.includes(r.name));
  if (left.length === 0) return undefined;
  const held = (r: (typeof left)[number]) => Math.max(r.used ?? 0, r.weights ?? 0, r.peak);
  const bare = left.filter((r) => held(r) === 0).map((r) => r.name);
  const clauses: string[] = [];
  if (bare.length > 0) {
    const unknown = plan.buffers.some((b) => b.unknownSize === true && bare.includes(b.region));
    clauses.push(`${shortName(listText(bare))} ${bare.length === 1 ? 'holds' : 'hold'} nothing${unknown ? ' of known size' : ''}`);
  }
  for (const r of left.filter((r) => held(r) > 0)) clauses.push(`${shortName(r.name)} holds no planned buffer (${heldText(held(r), r.weights ?? 0)}${overText(r)})`);
  const missing = drawn.length === 0 ? 'no buffer to draw' : `so ${left.length === 1 ? 'it has' : 'they have'} no ${what}`;
  return `${listText(clauses)}${drawn.length === 0 ? ': ' : ', '}${missing}`;
}

/** ", 158 KiB over its 97.7 KiB limit" for a region over its size limit (plan --json's overBy), as the banner says it; else empty. */
function overText(region: LanePlan['regions'][number]): string {
  const over = regionOverBy(region);
  return over > 0 && region.sizeLimit !== undefined ? `, ${formatBytes(over)} over its ${formatBytes(region.sizeLimit)} limit` : '';
}

/** "its 256 KiB are weights", or the bytes held and how many of them are weights. */
function heldText(bytes: number, weights: number): string {
  if (weights === bytes) return `its ${formatBytes(bytes)} are weights`;
  return weights > 0 ? `it holds ${formatBytes(bytes)}, ${formatBytes(weights)} of them weights` : `it holds ${formatBytes(bytes)} that are not buffers of the plan`;
}

/** "a", "a and b", "a, b and c". */
function listText(items: readonly string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/**
 * "ext-ram not shown: too little room — choose it in the region menu or enlarge the pane" for the regions holding
 * buffers (`regions`) that a chart beside a diagram of `region` alone leaves out; `auto` when the diagram's height
 * chose that region rather than the user ("… not shown: sram chosen — choose All regions to see every one"). Undefined
 * when every region is drawn.
 */
export function regionsNotShownText(regions: readonly string[], region: string | undefined, auto: boolean): string | undefined {
  if (region === undefined || region === 'all') return undefined;
  const left = regions.filter((r) => r !== region);
  if (left.length === 0) return undefined;
  const names = shortName(listText(left));
  const them = left.length === 1 ? 'it' : 'them';
  return auto
    ? `${names} not shown: too little room — choose ${them} in the region menu or enlarge the pane`
    : `${names} not shown: ${shortName(region)} chosen — choose All regions in the region menu to see every one`;
}
