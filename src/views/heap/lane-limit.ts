// Where a region's size limit sits in its heap lane, for the heap on screen
// and its SVG export alike. A lane's addresses are the arena's (buffer offsets
// from the arena's start, as plan --json and the C header give them); weights
// the target keeps at the region's base sit below the arena, so activations
// run out of room at the limit less the weights (and, with TFLite Micro, less
// the runtime's tail the tensor arena also holds). The line goes there, its
// label says so ("limit 60.0 KiB − 26.4 KiB tail and planning = 33.6 KiB"), and the bytes the
// plan uses above it are the region's overBy, as plan --json says.

import type { RegionPlan } from '../../planner/plan';
import { formatBytes, MINUS } from '../../shared/format';
import { regionOverBy } from '../../store/fit-words';

/** A lane's size limit on its address axis. */
export interface LaneLimit {
  readonly sizeLimit: number; // the region's limit, weights included
  readonly weights: number; // bytes of weights at the region's base, below the arena
  readonly tail: number; // bytes of the runtime's tail (TFLite Micro's persistent section) the arena also holds
  readonly arena: number; // bytes left to the plan below the limit: sizeLimit - weights - tail, never below 0; where the line is drawn
  readonly overBy: number; // bytes the region holds above its limit (plan --json's overBy)
  readonly written?: number; // with TensorFlow Lite Micro, the head of the plan written into the file when it is not the plan drawn: the limit holds that one
}

/** The limit of `region`'s lane; undefined when the region has no size limit (or the plan does not list it). */
export function laneLimit(region: RegionPlan | undefined): LaneLimit | undefined {
  if (region?.sizeLimit === undefined) return undefined;
  const weights = region.weights ?? 0;
  const tail = region.runtimeTail ?? 0;
  const written = region.runtimeHead !== undefined && region.runtimeHead !== region.peak ? region.runtimeHead : undefined;
  return { sizeLimit: region.sizeLimit, weights, tail, arena: Math.max(0, region.sizeLimit - weights - tail), overBy: regionOverBy(region), ...(written !== undefined && { written }) };
}

/**
 * "limit 512 KiB − 232 KiB weights = 280 KiB", "limit 60.0 KiB − 26.4 KiB tail and planning = 33.6 KiB": the limit and,
 * when the region holds more than the plan, what it leaves the plan, where the line is drawn. TFLite Micro's part is its
 * tail and planning (the plan text's words); `tailWord` 'tail' is the shorter form a narrow lane falls back to.
 */
function limitNamed(limit: LaneLimit, tailWord = 'tail and planning'): { named: string; less: string } {
  const named = `limit ${formatBytes(limit.sizeLimit)}`;
  const parts = [limit.weights > 0 ? `${formatBytes(limit.weights)} weights` : '', limit.tail > 0 ? `${formatBytes(limit.tail)} ${tailWord}` : ''].filter((t) => t !== '');
  // weights larger than the limit leave less than nothing: the sum says by how much (the banner's "over"), not "= 0 B"
  const room = roomLeft(limit);
  return { named, less: parts.length === 0 ? '' : ` − ${parts.join(' − ')} = ${room < 0 ? `${MINUS}${formatBytes(-room)}` : formatBytes(room)}` };
}

/** What the limit leaves the plan: sizeLimit - weights - tail, below 0 when the weights and tail alone pass the limit (the line is then drawn at 0). */
function roomLeft(limit: LaneLimit): number {
  return limit.sizeLimit - limit.weights - limit.tail;
}

/** " · over by 12 KiB", or nothing for a region within its limit. */
function overText(limit: LaneLimit): string {
  return limit.overBy > 0 ? ` · over by ${formatBytes(limit.overBy)}` : '';
}

/**
 * "limit 512 KiB", "limit 512 KiB − 232 KiB weights = 280 KiB for the activations · over by 12 KiB", "limit 512 KiB −
 * 1.15 MiB weights = −662 KiB, no room for the activations · over by 662 KiB": the words at the end of the limit line;
 * `short`, for a narrow lane: "over by 12 KiB" or "limit 512 KiB".
 */
export function laneLimitText(limit: LaneLimit, short = false): string {
  if (short) return limit.overBy > 0 ? `over by ${formatBytes(limit.overBy)}` : `limit ${formatBytes(limit.sizeLimit)}`;
  const { named, less } = limitNamed(limit);
  const what = limit.tail > 0 ? 'arena head' : 'activations';
  const leftFor = less === '' ? '' : roomLeft(limit) < 0 ? `, no room for the ${what}` : ` for the ${what}`;
  const written = limit.written === undefined ? '' : ` · the plan written peaks at ${formatBytes(limit.written)}`;
  return `${named}${less}${leftFor}${overText(limit)}${written}`;
}

/**
 * The middle wordings of a lane's limit, each naming the limit: "limit 60.0 KiB − 26.4 KiB tail and planning = 33.6 KiB
 * · over by 20.4 KiB", the same with "tail" alone, each without how far over (the banner says it), then "limit 60.0 KiB
 * · over by 20.4 KiB".
 */
function namedLimitTexts(limit: LaneLimit): string[] {
  const over = overText(limit);
  const explained = (limit.tail > 0 ? ['tail and planning', 'tail'] : ['tail and planning']).flatMap((word) => {
    const { named, less } = limitNamed(limit, word);
    return less === '' ? [] : [`${named}${less}${over}`, ...(over === '' ? [] : [`${named}${less}`])];
  });
  return [...explained, ...(over === '' ? [] : [`limit ${formatBytes(limit.sizeLimit)}${over}`])];
}

/** True when `text` says where the line is drawn: it names the limit and, when the line sits below it, by what ("− 26.4 KiB tail and planning = 33.6 KiB"). */
function saysTheLine(limit: LaneLimit, text: string): boolean {
  return text.startsWith('limit ') && (limitNamed(limit).less === '' || text.includes(' = '));
}

/**
 * The wordings of a lane's limit label, longest first: laneLimitText, then
 * its short form. When TensorFlow Lite Micro runs the file's own plan rather
 * than the one drawn, the shorter wordings say so: the drawing is heapscope's
 * placement, and the file's plan peaks elsewhere (Vela's person detector:
 * drawn at 154 KiB over a 100 KiB limit line, run at 72.7 KiB); the shorter
 * ones name the limit and the file's peak, and leave the placement to the
 * lane's title (laneTitles).
 */
export function laneLimitTexts(limit: LaneLimit): readonly string[] {
  const short = laneLimitText(limit, true);
  if (limit.written === undefined) return [laneLimitText(limit), ...namedLimitTexts(limit), short];
  const peak = formatBytes(limit.written);
  return [laneLimitText(limit), `${short} · drawn: heapscope's placement; the file's plan peaks at ${peak}`, `${short} · the file's plan peaks at ${peak}`, `${short} · file's plan ${peak}`, `${short} · file's ${peak}`];
}

/** The longest of laneLimitTexts that `measure` finds no wider than `width`; the shortest when none is. */
export function fitLaneLimitText(limit: LaneLimit, width: number, measure: (text: string) => number): string {
  const texts = laneLimitTexts(limit);
  return texts.find((t) => measure(t) <= width) ?? texts.at(-1)!;
}

/** Height of the limit label's box in a lane's title row, in CSS pixels. */
export const LIMIT_LABEL_HEIGHT = 13;

/** A box on the heap, CSS pixels. */
export interface PxBox {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** The box the peak marker (a triangle pointing down at the peak line) takes at `x`, over a peak line at `y`. */
export function peakMarkerBox(x: number, y: number): PxBox {
  return { left: x - 6, top: y - 9, right: x + 6, bottom: y - 1 };
}

/** Space between a lane's title and its limit label in the title row, CSS pixels. */
export const LIMIT_GAP = 12;

/**
 * Where the limit label goes, `textWidth` wide, for a lane whose top edge is
 * at `laneTop` in a plot whose right edge is at `right`: in the lane's title
 * row, at its right end, its bottom on the lane's top edge. Buffers are drawn
 * inside their lane, so the label covers none and no buffer's name runs into
 * it, wherever the limit line is (in the lane it sat on the buffers under the
 * line's right end: ultraface's "scores" on mcu).
 */
export function limitLabelBox(laneTop: number, right: number, textWidth: number): PxBox {
  const bottom = Math.round(laneTop) - 1;
  return { left: right - textWidth, top: bottom - LIMIT_LABEL_HEIGHT, right, bottom };
}

/**
 * The wordings of a title row shared by a lane's title and its limit label:
 * the limit label's longest wording that leaves the title `titleMin` pixels;
 * when none that says where the line is does, the longest that leaves the
 * title `nameMin` (the region's name alone: the heap's header gives the peak),
 * so person_detect's arena under 60 KiB at 1280×720 reads "arena" and "limit
 * 60.0 KiB − 26.4 KiB tail and planning = 33.6 KiB", not "over by 20.4 KiB" beside a line
 * no word explains; else the short one ("limit 100 KiB", "over by 12 KiB"),
 * so a narrow lane's title keeps its facts (Vela's person detector at
 * 1280×720: "arena · heapscope's placement" and "limit 100 KiB"). The title
 * takes what is left.
 */
export function splitTitleRow(limit: LaneLimit, rowWidth: number, titleMin: number, measure: (text: string) => number, nameMin = titleMin): { readonly limitText: string; readonly titleWidth: number } {
  const texts = laneLimitTexts(limit);
  const within = (min: number): string | undefined => texts.find((t) => measure(t) <= rowWidth - min - LIMIT_GAP);
  const first = within(titleMin);
  const byName = limit.written !== undefined || (first !== undefined && saysTheLine(limit, first)) ? undefined : within(nameMin);
  const limitText = (byName !== undefined && saysTheLine(limit, byName) ? byName : first) ?? laneLimitText(limit, true);
  return { limitText, titleWidth: Math.max(0, rowWidth - measure(limitText) - LIMIT_GAP) };
}
