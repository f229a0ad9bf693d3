// The state of MiniMalloc's search (minimalloc-search.ts): per item its
// minimum offset and offset, per section of time the bytes still to place
// there and its unplaced items, per boundary between sections the unplaced items that
// cross it; every change is logged so that a branch undoes to a mark.
// Depends only on the planner engine.
//
// - Alignment and fixed offsets, as MiniMalloc has them: an item's minimum
//   offset is rounded up to a multiple of its alignment; a fixed item's
//   starts at its offset, and a placement that would raise it past that is
//   refused.

import type { PreparedRegion } from '../../engine/prepared';
import { countWork } from '../../engine/work-clock';
import { RangeArgMax } from '../../../shared/range-arg-max';
import { countAtOrBelow } from '../../../shared/sorted-search';

const OFFSET = 0;
const MIN_OFFSET = 1;
const CUT = 2;

/** The most bytes left in a section of some range, and the first such section. */
export interface MostLeft {
  readonly bytes: number;
  readonly section: number;
}

export class MiniMallocState {
  readonly n: number;
  readonly size: Float64Array; // per local item, bytes
  readonly start: Int32Array; // per local item, steps (half-open)
  readonly end: Int32Array;
  readonly from: Int32Array; // first section
  readonly to: Int32Array; // past the last section
  readonly sectionCount: number;
  readonly offset: Float64Array; // NaN while unplaced
  readonly minOffset: Float64Array; // highest top of the placed items live with it, rounded up to its alignment (a fixed item: its offset)
  readonly modulus: Float64Array; // per local item, its alignment (1: any offset)
  readonly fixed: Float64Array; // per local item, its fixed offset, NaN when free
  area = 0; // bytes × steps placed
  private readonly overlaps: Int32Array[]; // per item: the items live with it
  // per section s, the items live in it: memberList[memberStart[s] ...], the
  // unplaced ones first (memberCount[s] of them); an item's place in the
  // list of its section s is memberPos[posBase[k] + s - from[k]]
  private readonly memberList: Int32Array;
  private readonly memberStart: Int32Array;
  private readonly memberCount: Int32Array;
  private readonly memberPos: Int32Array;
  private readonly posBase: Int32Array;
  private readonly sum: Float64Array; // per section: bytes still to place there
  private readonly cut: Int32Array; // per boundary s|s+1: unplaced items live on both sides
  private readonly log: number[] = []; // (kind, index, old value) triples
  private readonly rangeMax = new RangeArgMax(); // fillMostLive's table, rebuilt in place
  private changedFrom = 0; // the sections where the last placement took bytes or raised a minimum offset
  private changedTo = 0;
  /** Whether the last placement raised some unplaced item's minimum offset (false: nothing unplaced has to go above it, it has no "hat"). */
  raisedAny = false;

  constructor(
    prep: PreparedRegion,
    items: readonly number[],
    readonly target: number,
    floors?: Float64Array, // per local item, the lowest offset it may take (the top of fixed items below it); 0 when absent
  ) {
    const n = (this.n = items.length);
    this.start = Int32Array.from(items, (i) => prep.itemStart[i]!);
    this.end = Int32Array.from(items, (i) => prep.itemEnd[i]!);
    this.size = Float64Array.from(items, (i) => prep.itemExtent[i]!);
    // section s: what is live just before the s-th distinct end; an item covers the ends in (start, end]
    const ends = [...new Set(this.end)].sort((a, b) => a - b);
    this.from = Int32Array.from(this.start, (t) => countAtOrBelow(ends, t));
    this.to = Int32Array.from(this.end, (t) => countAtOrBelow(ends, t));
    const count = (this.sectionCount = ends.length);
    this.offset = new Float64Array(n).fill(NaN);
    this.modulus = Float64Array.from(items, (i) => prep.itemModulus[i]!);
    this.fixed = Float64Array.from(items, (i) => prep.itemFixed[i]!);
    this.minOffset = Float64Array.from(items, (_, k) => (Number.isNaN(this.fixed[k]!) ? alignUp(floors?.[k] ?? 0, this.modulus[k]!) : this.fixed[k]!));
    this.sum = new Float64Array(count);
    this.cut = new Int32Array(Math.max(0, count - 1));
    this.memberStart = new Int32Array(count + 1);
    this.memberCount = new Int32Array(count);
    this.posBase = new Int32Array(n + 1);
    for (let k = 0; k < n; k++) {
      this.posBase[k + 1] = this.posBase[k]! + this.to[k]! - this.from[k]!;
      for (let s = this.from[k]!; s < this.to[k]!; s++) {
        this.sum[s]! += this.size[k]!;
        this.memberCount[s]!++;
      }
      for (let s = this.from[k]!; s + 1 < this.to[k]!; s++) this.cut[s]!++;
    }
    for (let s = 0; s < count; s++) this.memberStart[s + 1] = this.memberStart[s]! + this.memberCount[s]!;
    this.memberList = new Int32Array(this.memberStart[count]!);
    this.memberPos = new Int32Array(this.posBase[n]!);
    const filled = new Int32Array(count);
    for (let k = 0; k < n; k++) {
      for (let s = this.from[k]!; s < this.to[k]!; s++) {
        const at = this.memberStart[s]! + filled[s]!++;
        this.memberList[at] = k;
        this.memberPos[this.posBase[k]! + s - this.from[k]!] = at;
      }
    }
    this.overlaps = liveLists(this.start, this.end);
    countWork(n + this.posBase[n]! + 47 * this.overlaps.reduce((sum, list) => sum + list.length, 0));
  }

  /**
   * For each of `items` (all within sections [from, to)), the most bytes
   * left in any of its sections now, into `out` by item: one range-max table
   * over [from, to), then O(1) per item (a part re-ranked after each split
   * has hundreds of items, each spanning hundreds of sections).
   */
  fillMostLive(items: ArrayLike<number>, from: number, to: number, out: Float64Array): void {
    if (to <= from) return;
    const table = this.rangeMax.build(this.sum.subarray(from, to));
    for (let i = 0; i < items.length; i++) {
      const k = items[i]!;
      out[k] = this.to[k]! > this.from[k]! ? table.max(this.from[k]! - from, this.to[k]! - 1 - from) : 0;
    }
  }

  /** False when some section, or some item, is over the target before anything is placed. */
  feasibleAtStart(): boolean {
    for (let s = 0; s < this.sectionCount; s++) if (this.sum[s]! > this.target) return false;
    for (let k = 0; k < this.n; k++) if (this.minOffset[k]! + this.size[k]! > this.target) return false;
    return true;
  }

  mark(): number {
    return this.log.length;
  }

  /** Places item k at `at`: takes its bytes off its sections and raises the minimum offsets live with it. */
  place(k: number, at: number): boolean {
    const { size, minOffset, offset, sum, log } = this;
    const height = at + size[k]!;
    log.push(OFFSET, k, NaN);
    offset[k] = at;
    this.area += size[k]! * (this.end[k]! - this.start[k]!);
    for (let s = this.from[k]!; s < this.to[k]!; s++) {
      sum[s]! -= size[k]!;
      this.dropMember(k, s);
    }
    let low = this.from[k]!;
    let high = this.to[k]!;
    this.raisedAny = false;
    let fits = height <= this.target;
    for (const j of this.overlaps[k]!) {
      if (!Number.isNaN(offset[j]!)) continue;
      const raised = alignUp(height, this.modulus[j]!);
      if (minOffset[j]! >= raised) continue;
      if (!Number.isNaN(this.fixed[j]!)) fits = false; // a fixed item would have to move up
      this.raisedAny = true;
      log.push(MIN_OFFSET, j, minOffset[j]!);
      minOffset[j] = raised;
      if (this.from[j]! < low) low = this.from[j]!;
      if (this.to[j]! > high) high = this.to[j]!;
    }
    this.changedFrom = low;
    this.changedTo = high;
    countWork(140 + 87 * (this.to[k]! - this.from[k]!) + 13 * this.overlaps[k]!.length); // with its cuts released
    return fits;
  }

  /**
   * Whether placing item k at `at` leaves every section of [from, to) room
   * for what is left in it (the part of cross-section inference that fails
   * most), without placing it: everything placed later goes at `at` or
   * above, and in k's own sections above k's top (it is live with k), so
   * `at` plus the bytes left there, k's included, must stay within the
   * target wherever anything besides k is left. `most`: the most bytes left
   * in a section of [from, to) and one such section (see `mostLeft`); an
   * item that does not cover it fails as soon as `at` plus that is over
   * the target.
   */
  roomAbove(k: number, at: number, from: number, to: number, most: MostLeft): boolean {
    const room = this.target - at;
    if (most.bytes <= room) return true;
    const [first, past] = [this.from[k]!, this.to[k]!];
    if (most.section < first || most.section >= past) return false;
    const { sum, size } = this;
    for (let s = from; s < to; s++) {
      if (sum[s]! > room && !(s >= first && s < past && sum[s] === size[k])) return false;
    }
    return true;
  }

  /**
   * The rest of cross-section inference after placing at `last` (with
   * `roomAbove` true): what is left in a section stacks above the lowest
   * minimum offset of its unplaced items. Only the sections the placement
   * changed need a look (elsewhere nothing moved since the state before,
   * which passed), and only as far as the first item low enough.
   */
  sectionsFit(from: number, to: number): boolean {
    const { sum, target, memberList, memberStart, memberCount, minOffset } = this;
    const [low, high] = [Math.max(from, this.changedFrom), Math.min(to, this.changedTo)];
    for (let s = low; s < high; s++) {
      if (sum[s] === 0) continue;
      const room = target - sum[s]!; // the lowest minimum offset must be at most this
      let j = memberStart[s]!;
      const end = j + memberCount[s]!;
      while (j < end && minOffset[memberList[j]!]! > room) j++;
      if (j === end) return false;
    }
    return true;
  }

  /** The most bytes left to place in a section of [from, to), and the first section with that many. */
  mostLeft(from: number, to: number): MostLeft {
    let section = from;
    for (let s = from + 1; s < to; s++) if (this.sum[s]! > this.sum[section]!) section = s;
    return { bytes: from < to ? this.sum[section]! : 0, section };
  }

  /** Item k no longer crosses its boundaries; returns the sections that now start an independent part. */
  releaseCuts(k: number): number[] {
    const parts: number[] = [];
    for (let s = this.from[k]!; s + 1 < this.to[k]!; s++) {
      this.log.push(CUT, s, this.cut[s]!);
      if (--this.cut[s]! === 0) parts.push(s + 1);
    }
    return parts;
  }

  /** Moves item k past the unplaced members of section s (undone, last first, by counting it in again). */
  private dropMember(k: number, s: number): void {
    const { memberList, memberPos } = this;
    const last = this.memberStart[s]! + --this.memberCount[s]!;
    const here = memberPos[this.posBase[k]! + s - this.from[k]!]!;
    const other = memberList[last]!;
    memberList[here] = other;
    memberPos[this.posBase[other]! + s - this.from[other]!] = here;
    memberList[last] = k;
    memberPos[this.posBase[k]! + s - this.from[k]!] = last;
  }

  private unplace(k: number): void {
    const size = this.size[k]!;
    this.area -= size * (this.end[k]! - this.start[k]!);
    this.offset[k] = NaN;
    for (let s = this.from[k]!; s < this.to[k]!; s++) {
      this.sum[s]! += size;
      this.memberCount[s]!++;
    }
  }

  /** Undoes every change since `mark`. */
  undoTo(mark: number): void {
    const { log } = this;
    while (log.length > mark) {
      const old = log.pop()!;
      const index = log.pop()!;
      const kind = log.pop()!;
      if (kind === OFFSET) this.unplace(index);
      else if (kind === MIN_OFFSET) this.minOffset[index] = old;
      else this.cut[index] = old;
    }
  }
}

/** For each item, the items whose lifetimes overlap its own (half-open). */
function liveLists(start: Int32Array, end: Int32Array): Int32Array[] {
  const n = start.length;
  const byStart = [...Array(n).keys()].sort((a, b) => start[a]! - start[b]!);
  const lists: number[][] = Array.from({ length: n }, () => []);
  for (let x = 0; x < n; x++) {
    const a = byStart[x]!;
    for (let y = x + 1; y < n && start[byStart[y]!]! < end[a]!; y++) {
      const b = byStart[y]!;
      if (start[b]! < end[b]!) {
        lists[a]!.push(b);
        lists[b]!.push(a);
      }
    }
  }
  return lists.map((l) => Int32Array.from(l));
}

/** The least multiple of `modulus` at or above `value`. */
function alignUp(value: number, modulus: number): number {
  return modulus <= 1 ? value : Math.ceil(value / modulus) * modulus;
}
