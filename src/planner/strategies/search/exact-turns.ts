// The turns of best's exact stage (exact-plan.ts, which says what each is
// for and how long it runs): MiniMalloc's schedule at the bound, a descent
// by probes, re-stacking and the skyline search, each improving the plan of
// the highest span of time in place. Depends only on the planner engine.

import { seededRandom } from '../../../shared/random';
import { Placer } from '../../engine/placer';
import type { PreparedRegion } from '../../engine/prepared';
import { bottomDive, type DiveTie } from './bottom-dive';
import { guillotineSplit } from '../guillotine/guillotine-split';
import { MINIMALLOC_MAX_ITEMS, MINIMALLOC_PREFERENCES, minimallocSearch } from './minimalloc-search';
import { restackTop } from './restack';
import { skylineSearch, type SkylineOutcome } from './skyline-search';

/** The dive's tie-breaks, in the order tried. */
const DIVE_TIES: readonly DiveTie[] = ['size', 'area'];
/** Nodes of each of the descent's probes, per order of preference. */
const PROBE_NODES = 2_000;
/** Nodes of each restart in a shuffled order of preference. */
const RESTART_NODES = 1_000;
/** Searches of each probe of the descent: each order of preference, then shuffled restarts. */
const PROBE_RUNS = MINIMALLOC_PREFERENCES + 40;
/** How far each probe of the descent aims from what is known towards the peak. */
const PROBE_AIM = 0.75;
/** Items re-stacked at first, nodes of each re-stacking, and how far below the peak it aims (share of the gap to the bound). */
const RESTACK_ITEMS = 40;
const RESTACK_NODES = 2_000;
const RESTACK_AIM = 0.1;

/**
 * A span of time that no item crosses: its items, the peak of its plan so far
 * and what is proven about it. `bound`: no plan of the span peaks lower, or
 * none that would lower the region's peak (another span needs that much);
 * `proven`: its peak is at that bound, or no lower one exists.
 */
export interface Span {
  readonly items: number[];
  peak: number;
  bound: number;
  proven: boolean;
}

/** The nodes and time one turn may spend, and what it has spent. */
export class Allowance {
  nodes = 0;
  constructor(
    private readonly maxNodes: number,
    private readonly deadline: number,
    private readonly clock: () => number,
    private readonly shouldStop?: () => boolean,
  ) {}

  readonly stop = (): boolean => this.nodes >= this.maxNodes || this.clock() >= this.deadline || (this.shouldStop?.() ?? false);

  /** `cap` nodes, or fewer when fewer are left. */
  upTo(cap: number): number {
    return Math.max(0, Math.min(cap, this.maxNodes - this.nodes));
  }
}

/** One turn: improves `current` and `spans` in place within `allow`, calling `report` after each improvement or proof. */
export type Turn = (prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void) => void;

/**
 * MiniMalloc's own schedule, at the bound: asks MiniMalloc's search
 * (minimalloc-search.ts) for a placement of the highest span at its bound,
 * in each order of preference in turn, with a node limit that starts at
 * twice the span's items and doubles each round; after each order, as many
 * nodes again go to restarts in shuffled orders. A placement found proves
 * the span optimal; an exhausted search, in whatever order, raises its
 * bound (shuffling changes only which canonical placement comes first).
 */
export function solveAtBound(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
  const random = seededRandom(0x6d6d ^ prep.itemCount);
  let top = highest(spans);
  let limit = 0;
  while (top !== undefined && !top.proven && top.items.length <= MINIMALLOC_MAX_ITEMS && !allow.stop()) {
    const span = top;
    limit = limit === 0 ? 2 * span.items.length : 2 * limit;
    const runs = MINIMALLOC_PREFERENCES * (1 + Math.floor(limit / RESTART_NODES));
    for (let run = 0; run < runs && !span.proven && !allow.stop(); run++) {
      const outcome = searchRun(prep, span.items, span.bound, run, limit, allow, random);
      if (keepFound(current, span, outcome)) {
        span.proven = true;
      } else if (outcome.exhausted) {
        span.bound++;
        if (span.bound >= span.peak) span.proven = true;
      }
    }
    if (span.proven) {
      report();
      top = highest(spans);
      limit = 0;
    }
  }
}

/**
 * The dive from the bottom (bottom-dive.ts), by size and then by area, on
 * the highest span, then on the next highest while each is placed at its
 * bound: a placement at the bound proves the span optimal and replaces its
 * plan; any other is dropped, so a probe that proves nothing changes
 * nothing. It takes no nodes (its cost is one walk over the conflicts) and
 * has no limit on the items, so spans too large for MiniMalloc's search get
 * it too.
 */
export function diveAtBound(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
  for (let top = highest(spans); top !== undefined && !top.proven && !allow.stop(); top = highest(spans)) {
    for (const tie of DIVE_TIES) {
      const offsets = bottomDive(prep, top.items, tie);
      const peak = spanPeak(prep, offsets, top.items);
      // only a placement at the bound is kept: otherwise best goes on from its portfolio's plan as it would without the probe
      if (peak > top.bound) continue;
      for (const i of top.items) current[i] = offsets[i]!;
      top.peak = peak;
      top.proven = true;
      report();
      break;
    }
    if (!top.proven) return;
  }
}

/**
 * Lowers the highest span's peak by probes: each asks MiniMalloc's search
 * (minimalloc-search.ts), in each order of preference for a few nodes and
 * then in shuffled orders, for a placement at or below a target three
 * quarters of the way from what is known to the span's peak. One found
 * lowers the peak; an exhausted probe is a proof and raises the bound; a
 * probe cut short raises only the next target.
 */
export function descend(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
  const tried = new Map<Span, number>(); // per span: the lowest target not yet probed in vain
  const random = seededRandom(0x6465 ^ prep.itemCount);
  while (!allow.stop()) {
    const top = highest(spans);
    if (top === undefined || top.proven || top.items.length > MINIMALLOC_MAX_ITEMS) break;
    const low = Math.max(top.bound, tried.get(top) ?? 0);
    if (low >= top.peak) break;
    const target = Math.floor(low + (top.peak - 1 - low) * PROBE_AIM);
    let settled = false;
    let found = false;
    for (let run = 0; run < PROBE_RUNS && !settled && !found && !allow.stop(); run++) {
      const outcome = searchRun(prep, top.items, target, run, PROBE_NODES, allow, random);
      if (outcome.partial !== undefined) adoptCompleted(prep, current, top, outcome.partial);
      found = keepFound(current, top, outcome);
      settled = outcome.exhausted && !found;
      if (settled) top.bound = target + 1;
    }
    if (top.bound >= top.peak) top.proven = true;
    if (!found) tried.set(top, target + 1);
    report();
  }
}

/**
 * Re-stacks the highest span's top (or bottom) items below its peak
 * (restack.ts), over and over: about RESTACK_ITEMS items at first, half as
 * many to half again at random each time, 10 % more after a refutation and
 * 10 % fewer after a search cut short. A refutation of the whole span (no
 * item kept as a floor) is a proof and raises its bound, so a span the
 * neighbourhoods cannot lower ends the turn instead of being refuted again
 * and again.
 */
export function restack(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
  const random = seededRandom(0x7273 ^ prep.itemCount);
  let free = RESTACK_ITEMS;
  while (!allow.stop()) {
    const top = highest(spans);
    if (top === undefined || top.proven || top.items.length > MINIMALLOC_MAX_ITEMS) break;
    const target = top.peak - 1 - Math.floor((top.peak - top.bound) * RESTACK_AIM);
    const count = Math.min(top.items.length, Math.max(2, Math.round(free * (0.5 + random()))));
    const outcome = restackTop(prep, current, top.items, top.peak, target, count, allow.upTo(RESTACK_NODES), allow.stop, random);
    allow.nodes += Math.max(1, outcome.nodes); // a neighbourhood refuted before its first node still cost a pass over the span
    if (outcome.peak !== undefined) {
      const lower = outcome.peak < top.peak;
      top.peak = outcome.peak;
      if (lower) report();
    } else if (outcome.exhausted && outcome.whole) {
      // the whole span, with no floor, cannot go below the target: a proof, as the descent's
      top.bound = target + 1;
      if (top.bound >= top.peak) top.proven = true;
      report();
    } else {
      free = outcome.exhausted ? Math.min(top.items.length, free * 1.1) : Math.max(4, free * 0.9);
    }
  }
}

/**
 * The skyline search (skyline-search.ts) on the highest span: at its bound
 * until that is placed or refuted, then below its peak, each success
 * lowering it, until exhausted (optimal) or cut short.
 */
export function searchSkyline(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
  for (;;) {
    const top = highest(spans);
    if (top === undefined || top.proven || allow.stop()) break;
    const target = top.bound < top.peak ? top.bound : top.peak - 1;
    const askedBound = target === top.bound;
    const outcome = skylineSearch(prep, top.items, target, allow.upTo(Number.POSITIVE_INFINITY), allow.stop);
    allow.nodes += outcome.nodes;
    if (outcome.partial !== undefined) adoptCompleted(prep, current, top, outcome.partial);
    if (keepFound(current, top, outcome)) {
      if (askedBound) top.proven = true;
    } else if (outcome.exhausted) {
      if (askedBound) top.bound = target + 1;
      else top.proven = true;
      if (top.bound >= top.peak) top.proven = true;
    } else {
      break;
    }
    report();
  }
}

/**
 * The search for packings that straight cuts and pinwheels take apart (guillotine-split.ts)
 * on the highest span, at its bound, while every step of that span has
 * exactly its bound live (the search declines any other span): a placement
 * found there is optimal. It refutes nothing, so a span it cannot place is
 * left to the other turns.
 */
export function splitAtBound(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
  for (let top = highest(spans); top !== undefined && !top.proven && !allow.stop(); top = highest(spans)) {
    const outcome = guillotineSplit(prep, top.items, top.bound, allow.upTo(Number.POSITIVE_INFINITY), allow.stop);
    allow.nodes += outcome.nodes;
    const { offsets } = outcome;
    if (offsets === undefined || !placedApart(prep, offsets, top.items, top.bound)) return;
    for (const i of top.items) current[i] = offsets[i]!;
    top.peak = spanPeak(prep, current, top.items);
    top.proven = true;
    report();
  }
}

/** True when `items` sit within [0, target) and no two live at one step share a byte. */
function placedApart(prep: PreparedRegion, offsets: Float64Array, items: readonly number[], target: number): boolean {
  const sorted = items.slice().sort((a, b) => prep.itemStart[a]! - prep.itemStart[b]!);
  let live: number[] = [];
  for (const i of sorted) {
    const low = offsets[i]!;
    const high = low + prep.itemExtent[i]!;
    if (!(low >= 0 && high <= target)) return false;
    live = live.filter((j) => prep.itemEnd[j]! > prep.itemStart[i]!);
    for (const j of live) if (offsets[j]! < high && low < offsets[j]! + prep.itemExtent[j]!) return false;
    live.push(i);
  }
  return true;
}

/**
 * The `run`-th search of a series by MiniMalloc's search: each order of
 * preference once, for `nodes`, then restarts in shuffled orders for
 * RESTART_NODES each; counts its nodes in `allow`.
 */
function searchRun(prep: PreparedRegion, items: readonly number[], target: number, run: number, nodes: number, allow: Allowance, random: () => number): SkylineOutcome {
  const shuffled = run >= MINIMALLOC_PREFERENCES;
  const limit = allow.upTo(shuffled ? RESTART_NODES : nodes);
  const outcome = minimallocSearch(prep, items, target, limit, allow.stop, run % MINIMALLOC_PREFERENCES, shuffled ? random : undefined);
  allow.nodes += outcome.nodes;
  return outcome;
}

/** Takes a search's placement of the span into `current` when it found one; says whether it did. */
function keepFound(current: Float64Array, span: Span, outcome: SkylineOutcome): boolean {
  if (outcome.offsets === undefined) return false;
  for (const i of span.items) current[i] = outcome.offsets[i]!;
  span.peak = outcome.peak;
  return true;
}

/**
 * Completes the deepest partial placement of a failed search (the items it
 * placed below the target) by placing the others first fit, largest first;
 * keeps it when it beats the span's plan. The search under the bound places
 * most of the area where it belongs, which greedy orders do not.
 */
function adoptCompleted(prep: PreparedRegion, current: Float64Array, span: Span, partial: Float64Array): void {
  const placer = new Placer(prep);
  const start = current.slice();
  for (const i of span.items) start[i] = Number.isNaN(prep.itemFixed[i]!) ? partial[i]! : prep.itemFixed[i]!; // a fixed item stays where it is, placed or not
  placer.load(start);
  const rest = span.items.filter((i) => Number.isNaN(partial[i]!) && Number.isNaN(prep.itemFixed[i]!)).sort((a, b) => prep.itemExtent[b]! - prep.itemExtent[a]! || a - b);
  for (const i of rest) placer.place(i, 'first');
  const peak = spanPeak(prep, placer.offsets, span.items);
  if (peak >= span.peak) return;
  for (const i of span.items) current[i] = placer.offsets[i]!;
  span.peak = peak;
}

export function spanPeak(prep: PreparedRegion, offsets: Float64Array, items: readonly number[]): number {
  let peak = 0;
  for (const i of items) peak = Math.max(peak, offsets[i]! + prep.itemExtent[i]!);
  return peak;
}

/**
 * The span with the highest peak, the one to search next. First lifts every
 * span's bound to the highest bound of any span: the region cannot peak
 * below it, so a span placed that low is done, and searching a span for its
 * own lower bound would spend the time on a placement no better for the
 * region (MiniMalloc's E: 1,044,480 bytes for one span where the other
 * needs 1 MiB; at 1 MiB the search places it in 5,405 nodes).
 */
export function highest(spans: readonly Span[]): Span | undefined {
  let floor = 0;
  for (const s of spans) floor = Math.max(floor, s.bound);
  let top: Span | undefined;
  for (const s of spans) {
    if (s.bound < floor) s.bound = floor;
    if (s.peak <= s.bound) s.proven = true;
    if (top === undefined || s.peak > top.peak) top = s;
  }
  return top;
}
