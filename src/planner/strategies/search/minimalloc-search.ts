// A second exact search beside the skyline search: MiniMalloc's branching
// (Moffitt, ASPLOS 2023) over buffers at their lowest possible offsets; finds
// a placement below a given peak or proves that none exists. Depends only on
// the planner engine; its state lives in minimalloc-state.ts.
//
// - State: the buffers placed so far; each unplaced buffer has a minimum
//   offset, the highest top of the placed buffers live with it (where it
//   would go if placed now).
// - Canonical solutions: of the placements below the target, take one whose
//   offsets sum least and list its buffers by (offset, rank). Each buffer,
//   when its turn comes, sits exactly at its minimum offset; and no buffer
//   still to place could fit entirely below the offset being placed (it
//   would drop there, lowering the sum). So the search places buffers at
//   their minimum offsets, offsets never decrease along a path (ties in
//   rank order), and a buffer is tried only below the lowest top any
//   unplaced buffer could reach. A state where some unplaced buffer's
//   lowest top is at or below the offset last placed is dead.
// - Ranks: one of MiniMalloc's static orders of preference (by lifetime,
//   area and the most bytes live in any of the buffer's sections, in three
//   priorities), earliest start, or largest first; then id. A part split off
//   by decomposition is ranked again by the bytes left in its sections (as
//   MiniMalloc's SubSolve does), ties in the order before. Shuffled, each
//   rank moves by a random amount of up to 3 % of the items, so that near
//   ties fall another way (restarts in other orders). Candidates are tried
//   by minimum offset, then rank. Of identical buffers (same size, lifetime
//   and floor) the lower rank goes first.
// - Nothing overhead (MiniMalloc's hatless pruning): when a candidate at its
//   minimum offset raises no unplaced buffer's minimum offset, nothing has
//   to go above it; if its branch fails, the later candidates are not tried:
//   any placement they lead to still holds with it moved down to that
//   offset and placed first, which its branch has searched.
// - Floors: a caller that keeps some buffers where they are (restack.ts)
//   gives each of the others the lowest offset it may take; the search
//   starts from them as minimum offsets.
// - Cross-section inference: time is cut into sections, one per distinct
//   end, holding what is live just before it (as MiniMalloc's sweep does:
//   what is live at any moment is also live just before the next end, so
//   finer cuts add nothing). In each, the bytes still to place there stack
//   above the offset last placed (no later placement goes lower) and above
//   the lowest minimum offset of its unplaced buffers (at least the highest
//   top placed there), and must stay below the target. A candidate that
//   fails the first of these, or whose own sections could not hold what is
//   left above its top, is dropped before it is placed (minimalloc-state.ts).
// - Dynamic decomposition: each boundary between two sections counts the
//   unplaced buffers that cross it. When a placement brings a count to zero,
//   the buffers left on either side no longer interact: each side is solved
//   on its own (from offset 0 again), and the state fails as soon as one
//   side does.
// - Every canonical solution stays reachable, so an exhausted search is a
//   proof. A failed search hands back the placement of its path that placed
//   the most area, for the caller to complete on top. A path deeper than
//   its counted limit (../search-depth.ts: 1,100 buffers placed on one
//   path, so the stack's size never decides) ends the search as a cut would:
//   unproven, with that placement.
// - Alignment and fixed offsets as MiniMalloc has them (minimalloc-state.ts):
//   a minimum offset is rounded up to the item's alignment, and a fixed
//   item's is its offset, which no placement may raise; so the canonical
//   argument holds as it is. Handles items of one rectangle at phase 0
//   (where `minimallocApplies`); deterministic under node caps.

import type { PreparedRegion } from '../../engine/prepared';
import { countWork } from '../../engine/work-clock';
import { MiniMallocState } from './minimalloc-state';
import type { SkylineOutcome } from './skyline-search';
import { SEARCH_DEPTH, SearchDepth } from '../search-depth';

/** True when MiniMalloc's search can handle these items: one rectangle each, aligned at phase 0, a fixed offset on its alignment. */
export function minimallocApplies(prep: PreparedRegion, items: readonly number[]): boolean {
  for (const i of items) {
    if (prep.itemRectStart[i + 1]! - prep.itemRectStart[i]! !== 1 || prep.itemPhase[i] !== 0) return false;
    const fixed = prep.itemFixed[i]!;
    if (!Number.isNaN(fixed) && fixed % prep.itemModulus[i]! !== 0) return false;
  }
  return true;
}

/** Items in one search at most: the buffers live together are listed pairwise. */
export const MINIMALLOC_MAX_ITEMS = 3_000;

/** Per local item, what its rank is ordered by (filled in for the items being ranked). */
class RankKeys {
  readonly start: Float64Array; // first step live
  readonly width: Float64Array; // steps live
  readonly area: Float64Array; // bytes × steps
  readonly total: Float64Array; // the most bytes live in any of its sections
  readonly size: Float64Array;

  constructor(n: number) {
    this.start = new Float64Array(n);
    this.width = new Float64Array(n);
    this.area = new Float64Array(n);
    this.total = new Float64Array(n);
    this.size = new Float64Array(n);
  }
}

type Preference = (keys: RankKeys, a: number, b: number) => number;

/** MiniMalloc's three orders of preference (width, area, total in turn), earliest start and largest first. */
const PREFERENCES: readonly Preference[] = [
  ({ width, area, total }, a, b) => width[b]! - width[a]! || area[b]! - area[a]! || total[b]! - total[a]!,
  ({ width, area, total }, a, b) => total[b]! - total[a]! || area[b]! - area[a]! || width[b]! - width[a]!,
  ({ width, area, total }, a, b) => total[b]! - total[a]! || width[b]! - width[a]! || area[b]! - area[a]!,
  ({ start, width }, a, b) => start[a]! - start[b]! || width[b]! - width[a]!,
  ({ size, width, total }, a, b) => size[b]! - size[a]! || width[b]! - width[a]! || total[b]! - total[a]!,
];

/** How far a shuffled order moves an item, as a share of the items. */
const JITTER = 0.03;

/** How many orders of preference `minimallocSearch` takes. */
export const MINIMALLOC_PREFERENCES = PREFERENCES.length;

const NOT_FOUND = 0;
const FOUND = 1;
const STOPPED = 2;
type Status = typeof NOT_FOUND | typeof FOUND | typeof STOPPED;

/**
 * Searches for a placement of `items` whose peak is at most `target`; stops
 * after `nodeLimit` nodes or when `stop()` says so (checked every 128 nodes:
 * on traces of a thousand buffers and more, a node costs tens of microseconds).
 */
export function minimallocSearch(
  prep: PreparedRegion,
  items: readonly number[],
  target: number,
  nodeLimit: number,
  stop: () => boolean,
  preference = 0, // which of the MINIMALLOC_PREFERENCES orders ranks the items
  jitter?: () => number, // when given, near ties of that order fall at random (see shuffledNear)
  floors?: Float64Array, // per entry of `items`, the lowest offset it may take; 0 when absent
): SkylineOutcome {
  const search = new MiniMalloc(new MiniMallocState(prep, items, target, floors), nodeLimit, stop, PREFERENCES[preference]!, jitter);
  let status: Status;
  try {
    status = search.run();
  } catch (error) {
    // a path deeper than its limit (search-depth.ts) or, failing that, the call stack: this search gives up, unproven, keeping its deepest placement
    if (!(error instanceof RangeError)) throw error;
    status = STOPPED;
  }
  const { state } = search;
  const offsets = new Float64Array(prep.itemCount).fill(NaN);
  if (status === FOUND) {
    let peak = 0;
    for (let k = 0; k < state.n; k++) {
      offsets[items[k]!] = state.offset[k]!;
      peak = Math.max(peak, state.offset[k]! + state.size[k]!);
    }
    return { offsets, peak, exhausted: true, nodes: search.nodes, partial: undefined };
  }
  let partial: Float64Array | undefined;
  if (search.deepestArea > 0) {
    partial = offsets;
    for (let k = 0; k < state.n; k++) offsets[items[k]!] = search.deepest[k]!;
  }
  return { offsets: undefined, peak: target, exhausted: status === NOT_FOUND, nodes: search.nodes, partial };
}

/**
 * `order` with each entry moved by a random amount of up to JITTER of its
 * length: the order of preference still decides, but its near ties fall
 * another way.
 */
function shuffledNear(order: readonly number[], random: () => number): number[] {
  const reach = JITTER * order.length;
  const key = new Map<number, number>();
  order.forEach((k, r) => key.set(k, r + random() * reach));
  return order.slice().sort((x, y) => key.get(x)! - key.get(y)! || x - y);
}

/** Fills `keys` for each item of `items` (all within sections [from, to)), with the bytes of its sections as they are left now. */
function fillRankKeys(state: MiniMallocState, items: ArrayLike<number>, from: number, to: number, keys: RankKeys): void {
  for (let j = 0; j < items.length; j++) {
    const k = items[j]!;
    const width = state.end[k]! - state.start[k]!;
    keys.start[k] = state.start[k]!;
    keys.width[k] = width;
    keys.area[k] = width * state.size[k]!;
    keys.size[k] = state.size[k]!;
  }
  state.fillMostLive(items, from, to, keys.total);
}

/** Swaps two entries of `list`. */
function swap(list: Int32Array | number[], a: number, b: number): void {
  const held = list[a]!;
  list[a] = list[b]!;
  list[b] = held;
}

/**
 * A set of unplaced items that no unplaced item outside it crosses, and the
 * sections it spans. Its first `count` items are those still unplaced: an
 * item placed is swapped past them, and back when its branch is undone.
 */
interface Part {
  readonly items: Int32Array;
  count: number;
  readonly from: number;
  readonly to: number;
}

class MiniMalloc {
  private readonly depth = new SearchDepth(SEARCH_DEPTH.minimalloc); // past it, `run` throws TooDeep
  private readonly rank: Int32Array; // place in the preference order
  private readonly twin: Int32Array; // the identical item of the next lower rank, or -1
  private readonly keys: RankKeys;
  private readonly byRank: Int32Array; // scratch of solveRanked: item by rank, -1 where none
  readonly deepest: Float64Array; // offsets of the path that placed the most area (NaN: unplaced)
  deepestArea = 0;
  nodes = 0;

  constructor(
    readonly state: MiniMallocState,
    private readonly nodeLimit: number,
    private readonly stop: () => boolean,
    private readonly prefer: Preference,
    private readonly jitter?: () => number,
  ) {
    const { n, size, from, to } = state;
    this.rank = new Int32Array(n);
    this.keys = new RankKeys(n);
    this.byRank = new Int32Array(n).fill(-1);
    const order = this.ranked([...Array(n).keys()], 0, state.sectionCount, (x, y) => x - y);
    order.forEach((k, r) => (this.rank[k] = r));
    this.twin = new Int32Array(n).fill(-1);
    for (let r = 1; r < n; r++) {
      const [a, b] = [order[r - 1]!, order[r]!];
      const floorsMatch = state.minOffset[a] === state.minOffset[b]; // nothing is placed yet: these are the floors (or fixed offsets)
      const free = Number.isNaN(state.fixed[a]!) && Number.isNaN(state.fixed[b]!);
      if (from[a] === from[b] && to[a] === to[b] && size[a] === size[b] && floorsMatch && state.modulus[a] === state.modulus[b] && free) this.twin[b] = a;
    }
    this.deepest = new Float64Array(n).fill(NaN);
  }

  run(): Status {
    const { state } = this;
    if (!state.feasibleAtStart()) return NOT_FOUND;
    const all = Int32Array.from({ length: state.n }, (_, k) => k);
    return this.solve({ items: all, count: all.length, from: 0, to: state.sectionCount });
  }

  /** Solves `part` on its own: canonical order starts again at offset 0. */
  private solve(part: Part): Status {
    return this.descend(part, 0, -1);
  }

  /**
   * How it works: see the module header. `last` and `lastRank` are the
   * offset and rank of the item placed last in this part. On FOUND every
   * item of the part is placed (offsets in `state.offset`); otherwise the
   * state is as it was.
   */
  private descend(part: Part, last: number, lastRank: number): Status {
    this.depth.enter();
    try {
      return this.descendHere(part, last, lastRank);
    } finally {
      this.depth.leave();
    }
  }

  /** One level of `descend`. */
  private descendHere(part: Part, last: number, lastRank: number): Status {
    if ((++this.nodes & 127) === 0 && this.stop()) return STOPPED;
    if (this.nodes > this.nodeLimit) return STOPPED;
    const { state, rank, twin } = this;
    const { minOffset, size, target } = state;
    const { items, count } = part;
    if (count === 0) return FOUND;
    countWork(830 + 6.5 * count);
    let lowestTop = Infinity;
    for (let i = 0; i < count; i++) {
      const k = items[i]!;
      const reach = minOffset[k]! + size[k]!;
      if (reach <= last || reach > target) return NOT_FOUND;
      if (reach < lowestTop) lowestTop = reach;
    }
    const most = state.mostLeft(part.from, part.to);
    const candidates: number[] = []; // positions in `items`, which every branch leaves as it found them
    for (let i = 0; i < count; i++) {
      const k = items[i]!;
      const at = minOffset[k]!;
      if (at >= lowestTop || at < last || (at === last && rank[k]! < lastRank)) continue;
      if (twin[k]! >= 0 && Number.isNaN(state.offset[twin[k]!]!)) continue;
      if (!state.roomAbove(k, at, part.from, part.to, most)) continue;
      candidates.push(i);
    }
    // by minimum offset, then rank: the first by a scan, the others sorted only when the search gets to them (on a placement found without backtracking, never)
    const before = (x: number, y: number) => minOffset[items[x]!]! - minOffset[items[y]!]! || rank[items[x]!]! - rank[items[y]!]!;
    let first = 0;
    for (let c = 1; c < candidates.length; c++) if (before(candidates[c]!, candidates[first]!) < 0) first = c;
    if (first > 0) swap(candidates, 0, first);
    for (let c = 0; c < candidates.length; c++) {
      if (c === 1) for (const rest of candidates.splice(1).sort(before)) candidates.push(rest);
      const i = candidates[c]!;
      const k = items[i]!;
      const at = minOffset[k]!;
      const mark = state.mark();
      let status: Status = NOT_FOUND;
      const placed = state.place(k, at);
      const hatless = !state.raisedAny;
      if (placed && state.sectionsFit(part.from, part.to)) {
        this.recordDeepest();
        const cuts = state.releaseCuts(k);
        swap(items, i, count - 1);
        part.count = count - 1;
        status = cuts.length === 0 ? this.descend(part, at, rank[k]!) : this.split(part, cuts);
        if (status === FOUND) return FOUND;
        part.count = count;
        swap(items, i, count - 1);
      }
      state.undoTo(mark);
      if (status === STOPPED) return STOPPED;
      // nothing unplaced had to go above k (see the module header): the later candidates fail as well
      if (hatless) break;
    }
    return NOT_FOUND;
  }

  /** Solves the parts of `part` between the boundaries at `cuts` (ascending sections where a new part starts), one after another. */
  private split(part: Part, cuts: number[]): Status {
    const { state } = this;
    const bounds = [part.from, ...cuts, part.to]; // cuts lie inside the placed item's span, ascending
    const open = Array.from(part.items.subarray(0, part.count));
    for (let b = 1; b < bounds.length; b++) {
      const [from, to] = [bounds[b - 1]!, bounds[b]!];
      const items = Int32Array.from(open.filter((k) => state.from[k]! < to && state.to[k]! > from));
      if (items.length === 0) continue;
      const status = this.solveRanked({ items, count: items.length, from, to });
      if (status !== FOUND) return status;
    }
    return FOUND;
  }

  /**
   * Solves a part split off by decomposition in an order of its own, as
   * MiniMalloc does: the same preference over the bytes left in its
   * sections now (ties as before); the ranks come back when it returns.
   */
  private solveRanked(part: Part): Status {
    const { rank } = this;
    const members = Array.from(part.items); // the search reorders part.items, and leaves them so when it finds a placement
    const before = members.map((k) => rank[k]!);
    // in the order before (their ranks are distinct): the sort below then mostly finds runs already in order
    const { byRank } = this;
    countWork(51 * (byRank.length + members.length));
    for (const k of members) byRank[rank[k]!] = k;
    const previous: number[] = [];
    for (let r = 0; r < byRank.length && previous.length < members.length; r++) {
      if (byRank[r]! >= 0) previous.push(byRank[r]!);
      byRank[r] = -1;
    }
    this.ranked(previous, part.from, part.to, (x, y) => rank[x]! - rank[y]!).forEach((k, r) => (rank[k] = r));
    const status = this.solve(part);
    members.forEach((k, j) => (rank[k] = before[j]!));
    return status;
  }

  /** `items` by the order of preference over their keys now (`tie` after it), shuffled near when a random source was given. */
  private ranked(items: number[], from: number, to: number, tie: (x: number, y: number) => number): number[] {
    const { keys, prefer } = this;
    countWork(51 * (to - from + items.length * Math.log2(items.length + 1)));
    fillRankKeys(this.state, items, from, to, keys);
    const order = items.sort((x, y) => prefer(keys, x, y) || tie(x, y));
    return this.jitter === undefined ? order : shuffledNear(order, this.jitter);
  }

  private recordDeepest(): void {
    if (this.state.area <= this.deepestArea) return;
    this.deepestArea = this.state.area;
    this.deepest.set(this.state.offset);
  }
}
