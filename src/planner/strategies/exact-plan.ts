// The anytime exact stage of `best`: improves the portfolio's plan with
// MiniMalloc's search (minimalloc-search.ts) and the skyline search
// (skyline-search.ts) until it is proven optimal, the budget runs out or the
// caller stops it. Depends only on the planner engine.
//
// - Temporal decomposition: time is cut wherever no buffer is live across
//   the cut; the spans between cuts are independent, and the region's peak is
//   the highest span's. Only the span that makes the peak is searched, again
//   and again, until it is proven or no longer the highest.
// - Five turns, each with a share of the nodes and of the time (a turn
//   that finishes early leaves the rest to the next):
//   1. MiniMalloc's own schedule, at the bound (20 %): its search asks for
//      the highest span at its bound in each order of preference in turn,
//      the node limit doubling each round (twice the span's items at
//      first), with restarts in shuffled orders between rounds. Found: the
//      span is optimal; exhausted: its bound rises.
//   2. The skyline search (20 %), which solves packings that leave no byte
//      free far sooner.
//   3. A descent (20 %): probes by MiniMalloc's search, each order of
//      preference for a few nodes and then shuffled restarts, lower the
//      span's peak to three quarters of the way from what is known. Its
//      dives find placements some way above the bound that the search at
//      the bound, spending its nodes right there, never gets near.
//   4. Re-stacking (30 %, restack.ts): a layer of the plan's highest items
//      or a column where it peaks (or, upside down, its lowest) is stacked
//      again below the peak on the floor the others make, a neighbourhood
//      growing while it is refuted and shrinking while its searches are
//      cut short.
//   5. The skyline search again, for what is left; when it stops short of
//      the deadline (a search it cannot go on with), re-stacking again.
// - Capacity from the bound upward: a span is first asked for its own lower
//   bound (the most bytes live at one of its steps); when that is exhausted
//   its proven bound rises past it, then the search asks for anything below
//   the span's best plan, each success lowering it, until exhausted (optimal).
// - A better plan from a failed search: a search cut short (or refuted)
//   still placed most of the span below its target on its deepest path; that
//   placement, completed first fit (largest first), replaces the span's plan
//   when it peaks lower. Deterministic under node caps.
// - Progress goes to `onProgress` once as the search starts (the portfolio's
//   peak and the bound it starts from) and after every improvement and proof;
//   the best plan so far is always what is returned.

import { seededRandom } from '../../shared/random';
import { Placer } from '../engine/placer';
import type { PreparedRegion } from '../engine/prepared';
import { MINIMALLOC_MAX_ITEMS, MINIMALLOC_PREFERENCES, minimallocSearch } from './minimalloc-search';
import { restackTop } from './restack';
import { skylineApplies, skylineSearch, type SkylineOutcome } from './skyline-search';

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

/** Limits and callbacks of one exact stage. */
export interface ExactLimits {
  readonly deadline: number;
  readonly clock: () => number;
  readonly maxNodes: number;
  readonly shouldStop?: () => boolean;
  readonly onProgress?: (p: { peak: number; bound: number; fraction: number }) => void;
}

/** Result of the exact stage. */
export interface ExactResult {
  readonly offsets: Float64Array;
  readonly peak: number;
  readonly proven: boolean;
  readonly bound: number; // no plan of the region peaks lower
  readonly applied: boolean;
}

interface Span {
  readonly items: number[];
  peak: number;
  bound: number;
  proven: boolean;
}

/** The nodes and time one turn may spend, and what it has spent. */
class Allowance {
  nodes = 0;
  constructor(
    private readonly maxNodes: number,
    private readonly deadline: number,
    private readonly limits: ExactLimits,
  ) {}

  readonly stop = (): boolean => this.nodes >= this.maxNodes || this.limits.clock() >= this.deadline || (this.limits.shouldStop?.() ?? false);

  /** `cap` nodes, or fewer when fewer are left. */
  upTo(cap: number): number {
    return Math.max(0, Math.min(cap, this.maxNodes - this.nodes));
  }
}

type Turn = (prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void) => void;

/** The turns of the stage in order (see the module header), each with its share; the last takes what is left. */
const TURNS: readonly [Turn, number][] = [
  [solveAtBound, 0.2],
  [searchSkyline, 0.2],
  [descend, 0.2],
  [restack, 0.3],
  [searchSkyline, 0.1],
  [restack, 0], // what the skyline search leaves when it stops short of the deadline
];

/** Improves `offsets` (the portfolio's plan, peak `peak`) as far as the limits allow. */
export function improveExactly(prep: PreparedRegion, offsets: Float64Array, peak: number, lowerBound: number, limits: ExactLimits): ExactResult {
  const items = Array.from(prep.freeItems).filter((i) => prep.itemExtent[i]! > 0);
  const current = offsets.slice();
  if (prep.freeItems.length !== prep.itemCount || !skylineApplies(prep, items)) {
    return { offsets: current, peak, proven: false, bound: lowerBound, applied: false };
  }
  const spans = splitSpans(prep, items).map((s) => ({ items: s, peak: spanPeak(prep, current, s), bound: spanBound(prep, s), proven: false }));
  const started = limits.clock();
  const report = () => {
    const total = Math.max(1, limits.deadline - started);
    limits.onProgress?.({ peak: regionPeak(spans), bound: regionBound(spans, lowerBound), fraction: Math.min(1, (limits.clock() - started) / total) });
  };
  report();
  let spent = 0;
  let shared = 0;
  TURNS.forEach(([turn, part], t) => {
    shared += part;
    const last = t === TURNS.length - 1;
    const deadline = last ? limits.deadline : Math.min(limits.deadline, started + (limits.deadline - started) * shared);
    const allow = new Allowance(last ? limits.maxNodes - spent : Math.min(limits.maxNodes, limits.maxNodes * shared) - spent, deadline, limits);
    turn(prep, current, spans, allow, report);
    spent += allow.nodes;
  });
  const final = regionPeak(spans);
  const top = highest(spans);
  const proven = top === undefined || top.proven;
  return { offsets: current, peak: final, proven, bound: proven ? final : regionBound(spans, lowerBound), applied: true };
}

/**
 * MiniMalloc's own schedule, at the bound: asks MiniMalloc's search
 * (minimalloc-search.ts) for a placement of the highest span at its bound,
 * in each order of preference in turn, with a node limit that starts at
 * twice the span's items and doubles each round; after each order, as many
 * nodes again go to restarts in shuffled orders. A placement found proves
 * the span optimal; an exhausted search, in whatever order, raises its
 * bound (shuffling changes only which canonical placement comes first).
 */
function solveAtBound(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
  const random = seededRandom(0x6d6d ^ prep.itemCount);
  let top = highest(spans);
  let limit = 0;
  while (top !== undefined && !top.proven && top.items.length <= MINIMALLOC_MAX_ITEMS && !allow.stop()) {
    const span = top;
    limit = limit === 0 ? 2 * span.items.length : 2 * limit;
    const runs = MINIMALLOC_PREFERENCES * (1 + Math.floor(limit / RESTART_NODES));
    for (let run = 0; run < runs && !span.proven && !allow.stop(); run++) {
      const shuffled = run >= MINIMALLOC_PREFERENCES;
      const nodes = allow.upTo(shuffled ? RESTART_NODES : limit);
      const outcome = minimallocSearch(prep, span.items, span.bound, nodes, allow.stop, run % MINIMALLOC_PREFERENCES, shuffled ? random : undefined);
      allow.nodes += outcome.nodes;
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
 * Lowers the highest span's peak by probes: each asks MiniMalloc's search
 * (minimalloc-search.ts), in each order of preference for a few nodes and
 * then in shuffled orders, for a placement at or below a target three
 * quarters of the way from what is known to the span's peak. One found
 * lowers the peak; an exhausted probe is a proof and raises the bound; a
 * probe cut short raises only the next target.
 */
function descend(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
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
      const shuffled = run >= MINIMALLOC_PREFERENCES;
      const nodes = allow.upTo(shuffled ? RESTART_NODES : PROBE_NODES);
      const outcome = minimallocSearch(prep, top.items, target, nodes, allow.stop, run % MINIMALLOC_PREFERENCES, shuffled ? random : undefined);
      allow.nodes += outcome.nodes;
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
 * 10 % fewer after a search cut short.
 */
function restack(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
  const random = seededRandom(0x7273 ^ prep.itemCount);
  let free = RESTACK_ITEMS;
  while (!allow.stop()) {
    const top = highest(spans);
    if (top === undefined || top.proven || top.items.length > MINIMALLOC_MAX_ITEMS) break;
    const target = top.peak - 1 - Math.floor((top.peak - top.bound) * RESTACK_AIM);
    const count = Math.min(top.items.length, Math.max(2, Math.round(free * (0.5 + random()))));
    const outcome = restackTop(prep, current, top.items, top.peak, target, count, allow.upTo(RESTACK_NODES), allow.stop, random);
    allow.nodes += outcome.nodes;
    if (outcome.peak !== undefined) {
      const lower = outcome.peak < top.peak;
      top.peak = outcome.peak;
      if (lower) report();
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
function searchSkyline(prep: PreparedRegion, current: Float64Array, spans: Span[], allow: Allowance, report: () => void): void {
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
  for (const i of span.items) start[i] = partial[i]!;
  placer.load(start);
  const rest = span.items.filter((i) => Number.isNaN(partial[i]!)).sort((a, b) => prep.itemExtent[b]! - prep.itemExtent[a]! || a - b);
  for (const i of rest) placer.place(i, 'first');
  const peak = spanPeak(prep, placer.offsets, span.items);
  if (peak >= span.peak) return;
  for (const i of span.items) current[i] = placer.offsets[i]!;
  span.peak = peak;
}

/** Groups items into spans of time that no item crosses, each span's items by start. */
function splitSpans(prep: PreparedRegion, items: readonly number[]): number[][] {
  const sorted = items.slice().sort((a, b) => prep.itemStart[a]! - prep.itemStart[b]! || a - b);
  const spans: number[][] = [];
  let reach = -Infinity;
  for (const i of sorted) {
    if (prep.itemStart[i]! >= reach) spans.push([]);
    spans[spans.length - 1]!.push(i);
    reach = Math.max(reach, prep.itemEnd[i]!);
  }
  return spans;
}

function spanPeak(prep: PreparedRegion, offsets: Float64Array, items: readonly number[]): number {
  let peak = 0;
  for (const i of items) peak = Math.max(peak, offsets[i]! + prep.itemExtent[i]!);
  return peak;
}

/** The most bytes of the span's items live at one step. */
function spanBound(prep: PreparedRegion, items: readonly number[]): number {
  const events = items.flatMap((i) => [
    [prep.itemStart[i]!, prep.itemExtent[i]!],
    [prep.itemEnd[i]!, -prep.itemExtent[i]!],
  ]);
  events.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let live = 0;
  let most = 0;
  for (const [, delta] of events) {
    live += delta!;
    most = Math.max(most, live);
  }
  return most;
}

function highest(spans: readonly Span[]): Span | undefined {
  let top: Span | undefined;
  for (const s of spans) if (top === undefined || s.peak > top.peak) top = s;
  return top;
}

function regionPeak(spans: readonly Span[]): number {
  return spans.reduce((m, s) => Math.max(m, s.peak), 0);
}

function regionBound(spans: readonly Span[], lowerBound: number): number {
  return spans.reduce((m, s) => Math.max(m, s.bound), lowerBound);
}
