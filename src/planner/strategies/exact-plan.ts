// The anytime exact stage of `best`: improves the portfolio's plan with
// MiniMalloc's search (minimalloc-search.ts) and the skyline search
// (skyline-search.ts) until it is proven optimal, the budget runs out or the
// caller stops it. Depends only on the planner engine.
//
// - Temporal decomposition: time is cut wherever no buffer is live across
//   the cut; the spans between cuts are independent, and the region's peak is
//   the highest span's. Only the span that makes the peak is searched, again
//   and again, until it is proven or no longer the highest.
// - MiniMalloc's own schedule first, at the bound: for up to 60 % of the
//   nodes and of the time, its search asks for the highest span at its
//   bound in each order of preference in turn, the node limit doubling each
//   round (twice the span's items at first). Found: the span is optimal;
//   exhausted: its bound rises.
// - Then a descent: for 20 % more, probes by MiniMalloc's search, a few
//   nodes in each of its orders, bisect between what is known and the
//   highest span's peak. Its dives find placements some way above the
//   bound that the search from the bound, spending its nodes right at the
//   bound, never gets near.
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

import { Placer } from '../engine/placer';
import type { PreparedRegion } from '../engine/prepared';
import { MINIMALLOC_MAX_ITEMS, MINIMALLOC_PREFERENCES, minimallocSearch } from './minimalloc-search';
import { skylineApplies, skylineSearch, type SkylineOutcome } from './skyline-search';

/** The share of the nodes and of the time that MiniMalloc's search at the bound may take. */
const BOUND_SHARE = 0.6;
/** The share that the descent by MiniMalloc's search may take, after that. */
const DESCENT_SHARE = 0.2;
/** Nodes of each of its probes, per order of preference. */
const PROBE_NODES = 2_000;

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

/** Improves `offsets` (the portfolio's plan, peak `peak`) as far as the limits allow. */
export function improveExactly(prep: PreparedRegion, offsets: Float64Array, peak: number, lowerBound: number, limits: ExactLimits): ExactResult {
  const items = Array.from(prep.freeItems).filter((i) => prep.itemExtent[i]! > 0);
  const current = offsets.slice();
  if (prep.freeItems.length !== prep.itemCount || !skylineApplies(prep, items)) {
    return { offsets: current, peak, proven: false, bound: lowerBound, applied: false };
  }
  const spans = splitSpans(prep, items).map((s) => ({ items: s, peak: spanPeak(prep, current, s), bound: spanBound(prep, s), proven: false }));
  const started = limits.clock();
  let nodes = 0;
  const stop = () => nodes >= limits.maxNodes || limits.clock() >= limits.deadline || (limits.shouldStop?.() ?? false);
  const report = () => {
    const total = Math.max(1, limits.deadline - started);
    limits.onProgress?.({ peak: regionPeak(spans), bound: regionBound(spans, lowerBound), fraction: Math.min(1, (limits.clock() - started) / total) });
  };
  report();
  const share = (part: number) => started + (limits.deadline - started) * part;
  nodes += solveAtBound(prep, current, spans, limits.maxNodes * BOUND_SHARE, share(BOUND_SHARE), limits, report);
  nodes += descendFirst(prep, current, spans, limits.maxNodes * DESCENT_SHARE, share(BOUND_SHARE + DESCENT_SHARE), limits, report);
  for (;;) {
    const top = highest(spans);
    if (top === undefined || top.proven || stop()) break;
    const target = top.bound < top.peak ? top.bound : top.peak - 1;
    const askedBound = target === top.bound;
    const outcome = skylineSearch(prep, top.items, target, limits.maxNodes - nodes, stop);
    nodes += outcome.nodes;
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
  const final = regionPeak(spans);
  const top = highest(spans);
  const proven = top === undefined || top.proven;
  return { offsets: current, peak: final, proven, bound: proven ? final : regionBound(spans, lowerBound), applied: true };
}

/**
 * MiniMalloc's own schedule, at the bound: asks MiniMalloc's search
 * (minimalloc-search.ts) for a placement of the highest span at its bound,
 * in each order of preference in turn, with a node limit that starts at
 * twice the span's items and doubles each round. A placement found proves
 * the span optimal; an exhausted search raises its bound. Returns the nodes
 * spent.
 */
function solveAtBound(prep: PreparedRegion, current: Float64Array, spans: Span[], maxNodes: number, deadline: number, limits: ExactLimits, report: () => void): number {
  let nodes = 0;
  const stop = () => nodes >= maxNodes || limits.clock() >= deadline || (limits.shouldStop?.() ?? false);
  let top = highest(spans);
  let limit = 0;
  while (top !== undefined && !top.proven && top.items.length <= MINIMALLOC_MAX_ITEMS && !stop()) {
    const span = top;
    limit = limit === 0 ? 2 * span.items.length : 2 * limit;
    for (let preference = 0; preference < MINIMALLOC_PREFERENCES && !span.proven && !stop(); preference++) {
      const used = nodes;
      const outcome = minimallocSearch(prep, span.items, span.bound, Math.min(limit, maxNodes - nodes), stop, preference);
      nodes = used + outcome.nodes;
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
  return nodes;
}

/**
 * Lowers the highest span's peak by bisection before the search from the
 * bound: each probe asks MiniMalloc's search (minimalloc-search.ts), in
 * each order of preference for a few nodes, for a placement at or below
 * the midpoint between what is known and the span's peak. One found lowers
 * the peak; an exhausted probe is a proof and raises the bound; a probe cut
 * short raises only the next midpoint. Returns the nodes spent.
 */
function descendFirst(prep: PreparedRegion, current: Float64Array, spans: Span[], maxNodes: number, deadline: number, limits: ExactLimits, report: () => void): number {
  let nodes = 0;
  const stop = () => nodes >= maxNodes || limits.clock() >= deadline || (limits.shouldStop?.() ?? false);
  const tried = new Map<Span, number>(); // per span: the lowest target not yet probed in vain
  while (!stop()) {
    const top = highest(spans);
    if (top === undefined || top.proven || top.items.length > MINIMALLOC_MAX_ITEMS) break;
    const low = Math.max(top.bound, tried.get(top) ?? 0);
    if (low >= top.peak) break;
    const target = Math.floor((low + top.peak - 1) / 2);
    let settled = false;
    let found = false;
    for (let preference = 0; preference < MINIMALLOC_PREFERENCES && !settled && !stop(); preference++) {
      const used = nodes;
      const outcome = minimallocSearch(prep, top.items, target, Math.min(PROBE_NODES, maxNodes - nodes), () => stop(), preference);
      nodes = used + outcome.nodes;
      if (outcome.partial !== undefined) adoptCompleted(prep, current, top, outcome.partial);
      if (keepFound(current, top, outcome)) {
        found = true;
      } else if (outcome.exhausted) {
        top.bound = target + 1;
      }
      settled = outcome.exhausted;
    }
    if (top.bound >= top.peak) top.proven = true;
    if (!found) tried.set(top, target + 1);
    report();
  }
  return nodes;
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
