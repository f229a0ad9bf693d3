// The interface every placement strategy implements, and the run of one greedy
// order shared by the simple strategies. Depends only on the planner engine.

import type { PreparedRegion } from '../engine/prepared';
import { Placer, type Fit } from '../engine/placer';
import type { StopReason } from '../problem/problem';

/** Knobs of `assignOffsets`; the simple strategies ignore them. */
export interface PlanOptions {
  /**
   * Wall-clock budget of best's searches after the baselines (its orders, the
   * local search, the anytime exact search), per region, in ms. Absent, they
   * stop by counted work instead (`workBudget`), so that the plan is the same
   * on any machine and under any load. On regions large enough for the scale
   * path, a budget also buys greedy passes.
   */
  readonly budgetMs?: number;
  /**
   * Counted work per region that those searches may spend when no budgetMs
   * is given, in work-clock units (engine/work-clock.ts: about a nanosecond
   * each on the reference machine); default: DEFAULT_BUDGET_MS worth (search-budget.ts).
   */
  readonly workBudget?: number;
  /** The local search around the peak (local/local-search.ts). */
  readonly local?: LocalSearchOptions;
  /** The exact stage (search/exact-plan.ts) and the small branch and bound (search/exact-search.ts). */
  readonly exact?: ExactOptions;
  /** Asked now and then during the searches: true stops them, keeping the best plan found. */
  readonly shouldStop?: () => boolean;
  /** Told the best peak so far, the proven bound and the share of the budget used, as the exact search starts and after every improvement or proof. */
  readonly onProgress?: (p: { peak: number; bound: number; fraction: number }) => void;
  /** Milliseconds clock of budgetMs, for tests; Date.now by default. Never read without budgetMs. */
  readonly clock?: () => number;
}

/** Limits of best's local search, per region. */
export interface LocalSearchOptions {
  /** Lift-and-reinsert iterations (default 3,000; 0 turns the local search off). */
  readonly iterations?: number;
  /** Effort, in adjacency entries scanned plus items visited (default 3 million). */
  readonly work?: number;
}

/** Limits of best's exact stage, per region. */
export interface ExactOptions {
  /** True turns the whole exact stage off: the probe at the bound, the anytime exact search and the small branch and bound. */
  readonly off?: boolean;
  /** Search nodes of the probe and of the anytime exact search (default: none beyond the budget; 1,000,000 when the budget is unbounded). */
  readonly nodes?: number;
  /** Most free items a region may have for the small branch and bound, which runs where the anytime search does not apply (default 20). */
  readonly smallItems?: number;
  /** Search nodes of the small branch and bound (default 200,000). */
  readonly smallNodes?: number;
}

/**
 * `options` without the caller's search budget and its progress and stop
 * callbacks (undefined when nothing else is left): for plans made after the
 * caller's, such as the evaluation of suggestions.
 */
export function withoutSearchBudget(options: PlanOptions | undefined): PlanOptions | undefined {
  if (options === undefined) return undefined;
  const { budgetMs: _budget, onProgress: _progress, shouldStop: _stop, ...rest } = options;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** What a strategy knows about the region it plans. */
export interface RegionContext {
  readonly lowerBound: number; // no placement of the region peaks lower
  readonly peakStep?: number; // the first step where the lower bound is reached, when the caller has it
  readonly options: PlanOptions;
  /**
   * A portfolio running this strategy as a baseline already holds a plan
   * peaking here: a greedy pass may stop once its own peak reaches it (its
   * peak only grows as it places, and the earlier plan wins a tie), and
   * report `dropped`. Absent: every strategy runs in full.
   */
  readonly dropAt?: number;
}

/** A strategy's plan for one region: a base offset per item, and how it got there. */
export interface StrategyOutcome {
  readonly offsets: Float64Array; // by item
  readonly placements: number;
  readonly attempts: number;
  readonly improvements: number;
  readonly stoppedBy: StopReason;
  readonly proven: boolean; // an exhaustive search showed no lower peak exists
  readonly winner?: string; // a portfolio's kept candidate: a strategy's name, or its own name
  readonly dropped?: boolean; // stopped once its peak reached context.dropAt: offsets incomplete, and the plan could not have won
}

/** A placement strategy, as listed in STRATEGIES. */
export interface Strategy {
  readonly name: string;
  readonly title: string; // one line for menus and --help
  plan(prep: PreparedRegion, context: RegionContext): StrategyOutcome;
}

/**
 * Places the items in `order` one by one with `fit`; the whole of the simple
 * strategies. Stops, dropped, once the peak reaches `dropAt` (see RegionContext).
 */
export function runGreedy(prep: PreparedRegion, order: Int32Array, fit: Fit, dropAt = Number.POSITIVE_INFINITY): StrategyOutcome {
  const placer = new Placer(prep);
  return placeInOrder(placer, order, (item) => placer.place(item, fit), dropAt);
}

/**
 * Puts every item of `order` where `place` says (it must also set it on
 * `placer`), one by one, as long as the peak stays below `dropAt`; the
 * outcome of a greedy pass.
 */
export function placeInOrder(placer: Placer, order: Int32Array, place: (item: number) => number, dropAt: number): StrategyOutcome {
  const { itemExtent } = placer.prep;
  let top = placer.peak(); // the fixed items
  const outcome = (placements: number, dropped: boolean): StrategyOutcome => ({
    offsets: placer.offsets,
    placements,
    attempts: 1,
    improvements: 0,
    stoppedBy: 'done',
    proven: false,
    ...(dropped && { dropped }),
  });
  if (top >= dropAt) return outcome(0, true);
  for (let k = 0; k < order.length; k++) {
    const item = order[k]!;
    const end = place(item) + itemExtent[item]!;
    if (itemExtent[item]! > 0 && end > top) {
      top = end;
      if (top >= dropAt) return outcome(k + 1, true);
    }
  }
  return outcome(order.length, false);
}
