// The anytime exact stage of `best`: improves the portfolio's plan with
// MiniMalloc's search (minimalloc-search.ts) and the skyline search
// (skyline-search.ts) until it is proven optimal, the budget runs out or the
// caller stops it. The budget is a deadline on a clock: the wall clock, or
// the work clock when the caller gave no time (search-budget.ts). Depends
// only on the planner engine.
//
// - Temporal decomposition: time is cut wherever no buffer is live across
//   the cut; the spans between cuts are independent, and the region's peak is
//   the highest span's. Only the span that makes the peak is searched, again
//   and again, until it is proven or no longer the highest.
// - Five turns, each with a share of the nodes and of the budget (a turn
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
// - Capacity from the bound upward: a span is first asked for its bound:
//   the most bytes live at one of its steps, or at one step of any span if
//   more (lower than that would not lower the region's peak, and a span's
//   own bound can be far harder to reach); when that is exhausted its proven
//   bound rises past it, then the search asks for anything below the span's
//   best plan, each success lowering it, until exhausted (optimal).
// - Where the highest span has exactly its bound live at every step (a
//   packing at the bound leaves no byte free), a turn before these five
//   takes nine tenths of the budget: the search for packings that straight cuts
//   and pinwheels take apart (guillotine-split.ts), which finds such
//   packings far sooner where they exist and refutes nothing; the five
//   share the rest.
// - A better plan from a failed search: a search cut short (or refuted)
//   still placed most of the span below its target on its deepest path; that
//   placement, completed first fit (largest first), replaces the span's plan
//   when it peaks lower. Deterministic under node caps.
// - Progress goes to `onProgress` once as the search starts (the portfolio's
//   peak and the bound it starts from) and after every improvement and proof;
//   the best plan so far is always what is returned.

import { liveLevels } from '../../engine/live-bytes';
import type { PreparedRegion } from '../../engine/prepared';
import { Allowance, descend, diveAtBound, highest, restack, searchSkyline, solveAtBound, spanPeak, splitAtBound, type Span, type Turn } from './exact-turns';
import { guillotineApplies } from '../guillotine/guillotine-split';
import { minimallocApplies } from './minimalloc-search';
import { skylineApplies } from './skyline-search';

/** Limits and callbacks of one exact stage. */
export interface ExactLimits {
  readonly deadline: number; // on `clock`
  readonly clock: () => number; // the wall clock, or the work clock (engine/work-clock.ts)
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
  readonly nodes: number; // search nodes the turns took
}

/** The turns of the stage in order (see the module header), each with its share; the last takes what is left. */
const TURNS: readonly [Turn, number][] = [
  [solveAtBound, 0.2],
  [searchSkyline, 0.2],
  [descend, 0.2],
  [restack, 0.3],
  [searchSkyline, 0.1],
  [restack, 0], // what the skyline search leaves when it stops short of the deadline
];

/**
 * The turns where the highest span has exactly its bound live at every
 * step: the search for packings that straight cuts and pinwheels take
 * apart goes first, with nine tenths of the time (it places all our
 * tilings of 150-500 buffers, the slowest in 2.2-2.7 s, and all our
 * pinwheel sets, the slowest in about 1.1 s, where the other turns end
 * 0.04-1.1 % and 10-18 % above the optimum after 3 s; it stops early on
 * spans it cannot take apart, leaving its time to the others); the others
 * share the rest as in TURNS. Anywhere else, TURNS as they are.
 */
const TURNS_NO_BYTE_FREE: readonly [Turn, number][] = [[splitAtBound, 0.9], ...TURNS.map(([turn, part]) => [turn, part * 0.1] as [Turn, number])];

/**
 * The probe after best's baselines: the dive from the bottom (bottom-dive.ts,
 * any number of items, no nodes), then MiniMalloc's search at the bound,
 * once over every item in its first order of preference, with nodes for
 * twice the items. On real traces one of them often places the whole region
 * at the bound (MindSpore's Tiny-BERT: the dive; its ResNet-50: the search,
 * 1,042 nodes for 1,042 buffers), which proves the plan optimal before the
 * orders, the local search and the turns above spend the time; where both
 * fail, they have cost a few milliseconds.
 */
const BOUND_PROBE: readonly [Turn, number][] = [
  [diveAtBound, 0.5],
  [solveAtBound, 0.5],
];

/** How many nodes the probe at the bound may take: twice the items. */
const BOUND_PROBE_NODES_PER_ITEM = 2;

/** Improves `offsets` (the portfolio's plan, peak `peak`) as far as the limits allow. */
export function improveExactly(prep: PreparedRegion, offsets: Float64Array, peak: number, lowerBound: number, limits: ExactLimits): ExactResult {
  return runTurns(prep, offsets, peak, lowerBound, limits, TURNS);
}

/** The probe at the bound (see BOUND_PROBE): a proof of optimality when it places the region there; never a worse plan. */
export function probeAtBound(prep: PreparedRegion, offsets: Float64Array, peak: number, lowerBound: number, limits: ExactLimits): ExactResult {
  const nodes = Math.min(limits.maxNodes, BOUND_PROBE_NODES_PER_ITEM * prep.itemCount);
  return runTurns(prep, offsets, peak, lowerBound, { ...limits, maxNodes: nodes }, BOUND_PROBE);
}

/**
 * The turns that apply to the region: all of them when its items are plain
 * (free, any offset); only MiniMalloc's (`MINIMALLOC_TURNS`) where some are
 * aligned on more than the unit or fixed, which the other searches do not
 * model; none where MiniMalloc's search cannot either.
 */
function applicableTurns(prep: PreparedRegion, items: readonly number[], turns: readonly [Turn, number][]): readonly [Turn, number][] {
  if (prep.freeItems.length === prep.itemCount && skylineApplies(prep, items)) return turns;
  if (!minimallocApplies(prep, items)) return [];
  const kept = turns.filter(([turn]) => MINIMALLOC_TURNS.includes(turn));
  const total = kept.reduce((sum, [, part]) => sum + part, 0);
  return kept.map(([turn, part]) => [turn, total > 0 ? part / total : 0]);
}

/** The turns that rest on MiniMalloc's search alone, which handles alignment and fixed offsets as MiniMalloc does. */
const MINIMALLOC_TURNS: readonly Turn[] = [solveAtBound, descend];

function runTurns(prep: PreparedRegion, offsets: Float64Array, peak: number, lowerBound: number, limits: ExactLimits, all: readonly [Turn, number][]): ExactResult {
  const items = Array.from({ length: prep.itemCount }, (_, i) => i).filter((i) => prep.itemExtent[i]! > 0);
  const current = offsets.slice();
  const spans = splitSpans(prep, items).map((s) => ({ items: s, peak: spanPeak(prep, current, s), bound: spanBound(prep, s), proven: false }));
  const first = highest(spans);
  const full = all === TURNS && first !== undefined && guillotineApplies(prep, first.items, first.bound);
  const turns = applicableTurns(prep, items, full ? TURNS_NO_BYTE_FREE : all);
  if (turns.length === 0) return { offsets: current, peak, proven: false, bound: lowerBound, applied: false, nodes: 0 };
  const started = limits.clock();
  const report = () => {
    const total = Math.max(1, limits.deadline - started);
    limits.onProgress?.({ peak: regionPeak(spans), bound: regionBound(spans, lowerBound), fraction: Math.min(1, (limits.clock() - started) / total) });
  };
  report();
  let spent = 0;
  let shared = 0;
  turns.forEach(([turn, part], t) => {
    shared += part;
    const last = t === turns.length - 1;
    const deadline = last ? limits.deadline : Math.min(limits.deadline, started + (limits.deadline - started) * shared);
    const allow = new Allowance(last ? limits.maxNodes - spent : Math.min(limits.maxNodes, limits.maxNodes * shared) - spent, deadline, limits.clock, limits.shouldStop);
    turn(prep, current, spans, allow, report);
    spent += allow.nodes;
  });
  const final = regionPeak(spans);
  const top = highest(spans);
  const proven = top === undefined || top.proven;
  return { offsets: current, peak: final, proven, bound: proven ? final : regionBound(spans, lowerBound), applied: true, nodes: spent };
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

/** The most bytes of the span's items live at one step. */
function spanBound(prep: PreparedRegion, items: readonly number[]): number {
  return liveLevels(prep, items).reduce((most, live) => Math.max(most, live), 0);
}

function regionPeak(spans: readonly Span[]): number {
  return spans.reduce((m, s) => Math.max(m, s.peak), 0);
}

function regionBound(spans: readonly Span[], lowerBound: number): number {
  return spans.reduce((m, s) => Math.max(m, s.bound), lowerBound);
}
