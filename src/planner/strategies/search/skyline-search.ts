// Anytime exact search in the manner of MiniMalloc (Moffitt, ASPLOS 2023):
// depth-first over canonical placements on a skyline of time sections, with
// cross-section inference; finds a placement below a given peak or proves
// that none exists. Depends only on the planner engine.
//
// - Canonical solutions: any placement can be pushed down, lowest buffer
//   first, until every buffer rests on 0 or on a buffer below it. So the
//   search builds placements bottom-up on a skyline: time is cut into
//   sections at every start and end, each section has a floor (the top of
//   what is placed there), and every buffer goes at the highest floor of
//   its sections (skyline-board.ts holds this state).
// - Cross-section inference: in every section, the floor plus the bytes of
//   the buffers still to place there must stay below the target; a branch
//   where one section cannot is cut. Where a section has no slack left, a
//   buffer must rest right on its floor, starting or ending at a higher
//   neighbour (skyline-edges.ts).
// - Decomposition: sections where nothing remains, and boundaries no
//   unplaced buffer crosses, split the state into parts that share no
//   buffer (skyline-wells.ts). Each part is searched on its own, smallest
//   first; one that fails fails the state, without trying the other parts'
//   alternatives against it. Time spans of the whole region are the first
//   such parts; later ones appear as sections fill up.
// - Branching on tight wells: where a well (a run of sections at one floor,
//   walled on both sides) has no slack at one end, some buffer starting (or
//   ending) there must rest on its floor. The search branches there, at the
//   end with the fewest such buffers, anywhere in time: forced moves first.
// - Otherwise, the leftmost lowest run: either one of the remaining buffers
//   that fit inside it goes there (one branch per buffer), or nothing rests
//   in it and it is raised to its lower neighbour. Buffers resting on one
//   level are placed left to right, so a run left of the last buffer placed
//   at its level can only be left empty. Every canonical solution stays
//   reachable, so an exhausted search is a proof.
// - Mirrored solutions are searched once: of identical buffers the first
//   goes lowest, and a stack of buffers of one span is built in a fixed order.
// - Strips first: on a flat window, a buffer spanning all of it goes right
//   away (it and the block under it can always swap places).
// - Failed states are remembered: a part whose floors, unplaced set and
//   leftmost allowed section match one searched to the end before is cut.
// - Restarts over eight orders: time forwards or backwards, well coverers
//   largest or shortest first, and those spanning the whole well first or
//   not. Each order searches for 2,000 nodes, then the
//   next; every round doubles the runs. A wrong early choice that one order
//   cannot refute in time is often not made by another. Each keeps its own
//   memory of failed states, so a later run skips what an earlier one
//   refuted; the first run that ends without being cut short decides: a
//   placement, or the proof that none exists.
// - Capacity from the bound upward: the caller first asks for the lower
//   bound itself, where inference cuts hardest, then for anything below its
//   best plan (see exact-plan.ts, which also splits time into independent spans).
// - A search that fails hands back its best partial placement below the
//   target: the one whose fullest section has the fewest bytes left to
//   place (parts solved on the path count as placed), for the caller to
//   complete on top.
// - Handles items of one rectangle with alignment 1 and no fixed offset.

import type { PreparedRegion } from '../../engine/prepared';
import { countWork } from '../../engine/work-clock';
import { SkylineBoard } from './skyline-board';
import { edgesClosable } from './skyline-edges';
import { tightestWellEnd, wellCoverers, windowParts, type WellEnd } from './skyline-wells';
import { SEARCH_DEPTH, SearchDepth } from '../search-depth';

/** States remembered as failed per order, at most (memory stays bounded on long searches: a million in all over the eight orders). */
const MAX_FAILED = 125_000;
/** The searches run in turn: [time reversed, well coverers largest first]. */
const ORDERS: readonly (readonly [boolean, boolean, boolean])[] = [[false, true, false], [true, true, false], [false, false, false], [true, false, false], [false, true, true], [true, true, true], [false, false, true], [true, false, true]];
/** Nodes of each search's first run; every round doubles them. */
const FIRST_RUN = 2_000;

/** How a search ended. */
export interface SkylineOutcome {
  readonly offsets: Float64Array | undefined; // by item, when a placement below the target was found
  readonly peak: number; // its peak, or the target when none was found
  readonly exhausted: boolean; // the whole space was searched: nothing lower than `peak` exists
  readonly nodes: number;
  readonly partial: Float64Array | undefined; // by item, when none was found: the most area any path placed below the target (NaN: unplaced)
}

/** The best partial placement seen so far: the least bytes left to place in any section; shared by the searches of one call. */
class Deepest {
  left = Infinity; // of the placement kept: the most bytes still to place in one section
  private board: SkylineBoard | undefined; // whose local order `offset` follows
  private offset: Float64Array | undefined; // per local item, NaN when unplaced

  /**
   * Keeps the board's placed items and the parts already solved on this
   * path (`solved`, offsets in `solution`, bytes per section in
   * `solvedBytes`) when they leave fewer bytes to place in the fullest
   * section than any path before: completed on top, they peak lowest.
   */
  record(board: SkylineBoard, solved: Uint8Array, solution: Float64Array, solvedBytes: Float64Array): void {
    let left = 0;
    countWork(24 * solvedBytes.length);
    for (let s = 0; s < solvedBytes.length; s++) left = Math.max(left, board.remaining[s]! - solvedBytes[s]!);
    if (left >= this.left) return;
    countWork(24 * board.n);
    this.left = left;
    this.board = board;
    const offset = (this.offset ??= new Float64Array(board.n));
    for (let k = 0; k < board.n; k++) offset[k] = board.placed[k] === 1 ? board.offset[k]! : solved[k] === 1 ? solution[k]! : NaN;
  }

  /** The placement kept, by region item (NaN: unplaced), or undefined when nothing was placed. */
  offsets(itemCount: number): Float64Array | undefined {
    const { board, offset } = this;
    if (board === undefined || offset === undefined) return undefined;
    const offsets = new Float64Array(itemCount).fill(NaN);
    for (let k = 0; k < board.n; k++) offsets[board.items[k]!] = offset[k]!;
    return offsets;
  }
}

/** True when the skyline search can handle these items. */
export function skylineApplies(prep: PreparedRegion, items: readonly number[]): boolean {
  for (const i of items) {
    if (prep.itemRectStart[i + 1]! - prep.itemRectStart[i]! !== 1) return false;
    if (prep.itemModulus[i] !== 1 || !Number.isNaN(prep.itemFixed[i]!)) return false;
  }
  return true;
}

/**
 * Searches for a placement of `items` whose peak is at most `target`; stops
 * after `nodeLimit` nodes or when `stop()` says so (checked every 1,024 nodes).
 */
export function skylineSearch(
  prep: PreparedRegion,
  items: readonly number[],
  target: number,
  nodeLimit: number,
  stop: () => boolean,
): SkylineOutcome {
  let nodes = 0; // in the runs before the current one
  let current: Skyline | undefined;
  let runStart = 0;
  const outer = (): boolean => nodes + current!.nodes - runStart > nodeLimit || stop();
  const deepest = new Deepest();
  const searches = ORDERS.map(([reversed, bySize, wholeFirst]) => new Skyline(new SkylineBoard(prep, items, target, reversed), bySize, wholeFirst, outer, deepest));
  for (let round = 0; ; round++) {
    for (const search of searches) {
      current = search;
      runStart = search.nodes;
      let found: boolean;
      try {
        found = search.run(FIRST_RUN * 2 ** round);
      } catch (error) {
        // a path deeper than its limit (search-depth.ts) or, failing that, the call stack: this search gives up, unproven
        if (!(error instanceof RangeError)) throw error;
        return { offsets: undefined, peak: target, exhausted: false, nodes: nodes + search.nodes - runStart, partial: deepest.offsets(prep.itemCount) };
      }
      nodes += search.nodes - runStart;
      if (found) return { offsets: search.offsets(prep), peak: search.peak(), exhausted: true, nodes, partial: undefined };
      if (!search.stopped) return { offsets: undefined, peak: target, exhausted: true, nodes, partial: deepest.offsets(prep.itemCount) };
      if (search.outerStopped) return { offsets: undefined, peak: target, exhausted: false, nodes, partial: deepest.offsets(prep.itemCount) };
    }
  }
}

class Skyline {
  private runLimit = Infinity;
  private readonly depth = new SearchDepth(SEARCH_DEPTH.skyline); // past it, `run` throws TooDeep
  outerStopped = false;
  readonly failed = new Set<string>(); // part states searched to the end without a placement
  readonly solution: Float64Array; // per local item: its offset in the parts solved so far
  private readonly solved: Uint8Array; // per local item: in a part solved on the current path
  private readonly solvedBytes: Float64Array; // per section: bytes of the buffers in parts solved on the current path
  nodes = 0;
  stopped = false;

  constructor(
    readonly board: SkylineBoard,
    readonly bySize: boolean, // well coverers largest first, else shortest first
    readonly wholeFirst: boolean, // well coverers spanning the whole well before the others
    readonly stop: () => boolean,
    readonly deepest: Deepest,
  ) {
    this.solution = new Float64Array(board.n);
    this.solved = new Uint8Array(board.n);
    this.solvedBytes = new Float64Array(board.floor.length);
  }

  /** Searches from the start for at most `limit` more nodes; true once a placement is found. */
  run(limit: number): boolean {
    this.runLimit = this.nodes + limit;
    this.stopped = false;
    return this.descend(0, this.board.floor.length, -1, -1);
  }

  /** The placement found, by region item. */
  offsets(prep: PreparedRegion): Float64Array {
    const offsets = new Float64Array(prep.itemCount).fill(NaN);
    for (let k = 0; k < this.board.n; k++) offsets[this.board.items[k]!] = this.solution[k]!;
    return offsets;
  }

  peak(): number {
    let peak = 0;
    for (let k = 0; k < this.board.n; k++) peak = Math.max(peak, this.solution[k]! + this.board.size[k]!);
    return peak;
  }

  /**
   * How it works: see the module header. Completes the window [lo, hi) of
   * sections, which no unplaced buffer outside it reaches. `lastLevel` and
   * `lastFrom` are the level and first section of the buffer placed last
   * on the lowest level (-1 when unconstrained). Returns true once the
   * window is placed; the buffers placed on the way record their offsets in
   * `solution` as the search returns.
   */
  descend(lo: number, hi: number, lastLevel: number, lastFrom: number): boolean {
    this.depth.enter();
    try {
      return this.descendHere(lo, hi, lastLevel, lastFrom);
    } finally {
      this.depth.leave();
    }
  }

  /** One level of `descend`. */
  private descendHere(lo: number, hi: number, lastLevel: number, lastFrom: number): boolean {
    if ((++this.nodes & 1023) === 0 && this.stop()) this.stopped = this.outerStopped = true;
    if (this.nodes > this.runLimit) this.stopped = true;
    if (this.stopped) return false;
    const { floor, remaining, liveCount, target } = this.board;
    countWork(3650 + 13 * (hi - lo));
    let low = -1;
    for (let s = lo; s < hi; s++) {
      if (liveCount[s] === 0) continue;
      if (floor[s]! + remaining[s]! > target) return false; // cross-section inference
      if (low < 0 || floor[s]! < floor[low]!) low = s;
    }
    if (low < 0) return true; // the window is complete
    const parts = windowParts(this.board, lo, hi);
    if (parts.length > 1) return this.split(lo, hi, parts);
    [lo, hi] = parts[0]!;
    if (!edgesClosable(this.board, this.board.edges, this.board.walls, lo, hi)) return false;
    const level = floor[low]!;
    const strip = this.stripOver(lo, hi, level);
    if (strip >= 0) return this.tryPlace(strip, level, lo, hi, -1, -1);
    const well = tightestWellEnd(this.board, this.board.edges, lo, hi, (k, at) => this.board.allowed(k, at));
    const key = this.board.stateKey(lo, hi, well === undefined && level === lastLevel ? lastFrom : -1);
    if (this.failed.has(key)) return false;
    const done = well !== undefined ? this.cover(lo, hi, well) : this.branch(lo, hi, low, level, lastLevel, lastFrom);
    if (!done && !this.stopped && this.failed.size < MAX_FAILED) this.failed.add(key);
    return done;
  }

  /**
   * On a flat window, an unplaced buffer spanning all of it can go first:
   * in any solution, it and the block under it can swap places. Returns
   * the first such buffer the rules allow, or -1.
   */
  private stripOver(lo: number, hi: number, level: number): number {
    const { floor, edges, to, placed } = this.board;
    for (let s = lo; s < hi; s++) if (floor[s] !== level) return -1;
    for (const k of edges.startingAt[lo]!) if (to[k] === hi && placed[k] === 0 && this.board.allowed(k, level)) return k;
    return -1;
  }

  /** Solves each part on its own, smallest first; all must succeed. */
  private split(lo: number, hi: number, parts: [number, number][]): boolean {
    const { liveCount } = this.board;
    const weight = ([a, b]: [number, number]) => {
      let w = 0;
      for (let s = a; s < b; s++) w += liveCount[s]!;
      return w;
    };
    const sorted = parts.map((p) => [weight(p), p] as const).sort((x, y) => x[0] - y[0] || x[1][0] - y[1][0]);
    const marked: number[] = [];
    let done = true;
    for (const [, [a, b]] of sorted) {
      const members = this.unplacedIn(a, b);
      if (!this.descend(a, b, -1, -1)) {
        done = false;
        break;
      }
      for (const k of members) this.markSolved(k, 1);
      marked.push(...members);
    }
    for (const k of marked) this.markSolved(k, 0);
    return done;
  }

  /** The unplaced buffers of the part [a, b) (no other unplaced buffer reaches it). */
  private unplacedIn(a: number, b: number): number[] {
    const { edges, placed } = this.board;
    const members: number[] = [];
    for (let s = a; s < b; s++) for (const k of edges.startingAt[s]!) if (placed[k] === 0) members.push(k);
    return members;
  }

  /** Marks k as in a part solved on the current path (1) or not (0), for the deepest placement's record. */
  private markSolved(k: number, flag: 0 | 1): void {
    this.solved[k] = flag;
    const { from, to, size } = this.board;
    for (let s = from[k]!; s < to[k]!; s++) this.solvedBytes[s]! += (flag === 1 ? 1 : -1) * size[k]!;
  }

  /** Places k at `level` and completes the window from there; on success k's offset goes to `solution`. */
  private tryPlace(k: number, level: number, lo: number, hi: number, lastLevel: number, lastFrom: number): boolean {
    this.board.place(k, level);
    this.deepest.record(this.board, this.solved, this.solution, this.solvedBytes);
    const done = this.descend(lo, hi, lastLevel, lastFrom);
    this.board.unplace(k, level);
    if (done) this.solution[k] = level;
    return done;
  }

  /** Covers the byte right above the floor at a tight well end: every buffer that can, in turn. */
  private cover(lo: number, hi: number, well: WellEnd): boolean {
    const level = this.board.floor[well.a]!;
    for (const k of wellCoverers(this.board, this.board.edges, well, (j, at) => this.board.allowed(j, at), this.bySize, this.wholeFirst)) {
      const done = this.tryPlace(k, level, lo, hi, -1, -1);
      if (done || this.stopped) return done;
    }
    return false;
  }

  /** Tries every buffer that may rest on the lowest run, then leaving it empty. */
  private branch(lo: number, hi: number, low: number, level: number, lastLevel: number, lastFrom: number): boolean {
    const [a, b] = this.runAround(lo, hi, low, level);
    const { board } = this;
    for (let s = a; s < b; s++) {
      if (level === lastLevel && s <= lastFrom) continue; // one level is filled left to right
      for (const k of board.edges.startingAt[s]!) {
        if (board.to[k]! > b) break;
        if (board.placed[k] === 1 || !board.restsAt(k, level)) continue;
        const done = this.tryPlace(k, level, lo, hi, level, s);
        if (done || this.stopped) return done;
      }
    }
    return this.leaveEmpty(lo, hi, a, b, level, lastLevel, lastFrom);
  }

  /** The run of sections [a, b) around `low` whose floor is `level` and where buffers remain. */
  private runAround(lo: number, hi: number, low: number, level: number): [number, number] {
    const { floor, liveCount } = this.board;
    let a = low;
    while (a > lo && liveCount[a - 1]! > 0 && floor[a - 1] === level) a--;
    let b = low + 1;
    while (b < hi && liveCount[b]! > 0 && floor[b] === level) b++;
    return [a, b];
  }

  /** Raises the run [a, b) at `level` to its lower neighbour (nothing rests there), then searches on. */
  private leaveEmpty(lo: number, hi: number, a: number, b: number, level: number, lastLevel: number, lastFrom: number): boolean {
    const { floor, liveCount } = this.board;
    const left = a > lo && liveCount[a - 1]! > 0 ? floor[a - 1]! : Infinity;
    const right = b < hi && liveCount[b]! > 0 ? floor[b]! : Infinity;
    const raised = Math.min(left, right);
    if (raised === Infinity) return false; // an island nothing can rest in: a dead end
    for (let s = a; s < b; s++) floor[s] = raised;
    const done = this.descend(lo, hi, lastLevel, lastFrom);
    for (let s = a; s < b; s++) floor[s] = level;
    return done;
  }
}
