// The lowest blocks of the guillotine split (guillotine-split.ts): sets S of
// a part's buffers whose bytes live are the same, y, at every step, listed
// from boundaries and grown one section at a time. Depends only on the
// planner engine, subset-sums.ts and the shared gcd.
//
// - Every packing made of straight cuts has such an S that is itself cut
//   along time at some boundary b (the lowest block over the whole part,
//   once strips are gone): S holds none of the buffers crossing b, and its
//   buffers ending at b and starting at b have the same bytes, y. So the
//   candidates are, at each boundary, the subsets of its smaller side (at
//   most 16 buffers) whose bytes the other side can match (checked up front
//   when that side has at most 10 buffers, else when tried). Candidates
//   with fewer members come first, then the lower (or the taller, as the
//   caller asks: the split alternates).
// - A candidate byte count must be a sum of buffers live at each step; where
//   there are many candidates, that is checked at the steps with the fewest
//   buffers (their subset sums listed, or as bits) before any is tried.
// - From a candidate, S grows one section at a time, forwards and
//   backwards, each section taking buffers starting (or ending) there whose
//   bytes equal those of the members that just ended (or started).

import { gcd } from '../../../shared/integers';
import type { PreparedRegion } from '../../engine/prepared';
import { countWork } from '../../engine/work-clock';
import { allSums, exactSums, subsetSumTest } from './subset-sums';

/** Subsets of a boundary's smaller side are listed up to this many buffers. */
const MAX_SIDE = 16;
/** The other side's sums are listed up front up to this many buffers (else a candidate is matched when tried). */
const MATCHED_SIDE = 10;
/** Candidates listed per part at most (memory stays bounded where many boundaries have many buffers). */
const MAX_CANDIDATES = 300_000;
/** Above this many candidates, their byte counts are checked against the sparsest steps first. */
const FILTER_ABOVE = 200;
/** Steps the check reads (those with the fewest buffers live). */
const FILTER_STEPS = 4;
/** Completions of one section listed at most (a part whose lists were cut short is not remembered as failed). */
const MAX_CHOICES = 256;

/** A candidate lowest block: its first members at boundary `b`, of `y` bytes, on the side that ends there or starts there. */
export interface Candidate {
  readonly b: number;
  readonly y: number;
  readonly side: readonly number[];
  readonly mask: number; // which of `side` are members
  readonly count: number; // how many
  readonly endersSide: boolean;
}

function bitCount(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}

export function membersOf(c: Candidate): number[] {
  return c.side.filter((_, k) => (c.mask & (1 << k)) !== 0);
}

/** The sections of one part: its items' first and after-last sections, and who starts or ends where. */
export interface Part {
  readonly sections: number;
  readonly from: Int32Array; // by region item: first section (valid for this part's items until a part inside it is built)
  readonly to: Int32Array; // by region item: section after the last
  readonly startingAt: number[][]; // by size, largest first
  readonly lastAt: number[][]; // buffers whose last section is s, by size, largest first
}

/**
 * The candidates, fewest members first; `listedAll` is false when a
 * boundary had too many buffers on both sides. Past FILTER_ABOVE of them,
 * those whose bytes are not a sum of buffers live at each of the steps
 * with the fewest buffers are dropped, and from then on not listed.
 */
export function listCandidates(prep: PreparedRegion, items: readonly number[], height: number, part: Part, tallFirst = false): { candidates: Candidate[]; listedAll: boolean } {
  const size = (i: number) => prep.itemExtent[i]!;
  let unit = 0;
  for (const i of items) unit = gcd(unit, size(i));
  const unitKnown = Number.isSafeInteger(unit) && unit > 0;
  let candidates: Candidate[] = [];
  let tests: ((y: number) => boolean)[] | undefined;
  const passes = (y: number) => tests === undefined || tests.every((has) => has(y));
  let listedAll = true;
  for (let b = 1; b < part.sections; b++) {
    if (candidates.length >= MAX_CANDIDATES) {
      listedAll = false;
      break;
    }
    const enders = part.lastAt[b - 1]!;
    const starters = part.startingAt[b]!;
    const endersSide = enders.length <= starters.length;
    const small = endersSide ? enders : starters;
    const large = endersSide ? starters : enders;
    countWork(470 * (1 + small.length + large.length));
    if (small.length > MAX_SIDE) {
      listedAll = false;
      continue;
    }
    // else matched when tried
    const largeHas = unitKnown && large.length <= MATCHED_SIDE ? subsetSumTest(large.map(size), unit, height / unit) : undefined;
    const sums = allSums(small.map(size));
    for (let mask = 1; mask < sums.length; mask++) {
      const y = sums[mask]!;
      if (y >= height || (largeHas !== undefined && !largeHas(y)) || !passes(y)) continue;
      candidates.push({ b, y, side: small, mask, count: bitCount(mask), endersSide });
    }
    if (tests === undefined && unitKnown && candidates.length > FILTER_ABOVE) {
      tests = sparsestStepTests(prep, items, part, unit, height / unit);
      candidates = candidates.filter((c) => passes(c.y));
    }
  }
  candidates.sort((a, b) => a.count - b.count || (tallFirst ? b.y - a.y : a.y - b.y));
  return { candidates, listedAll };
}

/** Tests of whether a byte count (a multiple of `unit`, at most `most` units) is a sum of buffers live at each of the steps with the fewest buffers. */
function sparsestStepTests(prep: PreparedRegion, items: readonly number[], part: Part, unit: number, most: number): ((y: number) => boolean)[] {
  const count = new Int32Array(part.sections + 1); // buffers live per section, by differences
  countWork(470 * (part.sections + items.length * (FILTER_STEPS + 1)));
  for (const i of items) {
    count[part.from[i]!]!++;
    count[part.to[i]!]!--;
  }
  for (let s = 1; s < part.sections; s++) count[s]! += count[s - 1]!;
  const steps = Array.from({ length: part.sections }, (_, s) => s)
    .sort((a, b) => count[a]! - count[b]! || a - b)
    .slice(0, FILTER_STEPS);
  return steps.flatMap((s) => {
    const sizes: number[] = [];
    for (const i of items) if (part.from[i]! <= s && s < part.to[i]!) sizes.push(prep.itemExtent[i]!);
    return subsetSumTest(sizes, unit, most) ?? [];
  });
}

/**
 * Grows S from a candidate one section at a time, forwards from its
 * boundary to the part's end, then backwards to its start. At a section ahead of the
 * boundary, buffers starting there whose bytes equal those of S's members
 * that ended just before; behind it, buffers ending there that equal S's
 * members starting just after. Each call of `next` stops at the next
 * complete S (marked 1 in `inS`, by region item). A depth-first walk kept
 * on its own stack: the parts solved for each S do not sit on top of it.
 */
export class Growth {
  private k = 0; // the level (index into `order`) the walk is at
  private fresh = true; // level k is still to be listed (else its next completion is to be applied)
  private readonly order: number[] = []; // the sections grown, level by level
  private readonly b: number;
  private readonly choices: number[][][];
  private readonly at: Int32Array; // per level: the completion applied, -1 before the first

  constructor(
    private readonly split: { tick(): boolean; readonly aborted: boolean; readonly prep: PreparedRegion },
    private readonly part: Part,
    candidate: Candidate,
    private readonly inS: Uint8Array, // the candidate's members marked 1, by region item
    private readonly complete: { value: boolean },
  ) {
    const { b, endersSide } = candidate;
    // the section on the candidate's own side of b is already decided by its members
    for (let s = endersSide ? b : b + 1; s < part.sections; s++) this.order.push(s);
    for (let s = endersSide ? b - 2 : b - 1; s >= 0; s--) this.order.push(s);
    this.b = b;
    this.choices = new Array<number[][]>(this.order.length);
    this.at = new Int32Array(this.order.length);
  }

  /** True at the next complete S; false when none is left or the search stopped. */
  next(): boolean {
    const { split, part, order, inS, choices, at } = this;
    const { itemExtent } = split.prep;
    for (;;) {
      if (this.fresh) {
        if (split.tick()) return false;
        if (this.k === order.length) {
          this.fresh = false;
          this.k--;
          return true;
        }
        const s = order[this.k]!;
        const forward = s >= this.b;
        let need = 0;
        for (const i of forward ? part.lastAt[s - 1]! : part.startingAt[s + 1]!) if (inS[i] === 1) need += itemExtent[i]!;
        const listed = exactSums(forward ? part.startingAt[s]! : part.lastAt[s]!, itemExtent, need, MAX_CHOICES);
        if (listed.length >= MAX_CHOICES) this.complete.value = false;
        choices[this.k] = listed;
        at[this.k] = -1;
        this.fresh = false;
      }
      const k = this.k;
      if (k < 0) return false;
      if (at[k]! >= 0) for (const i of choices[k]![at[k]!]!) inS[i] = 0;
      if (split.aborted) return false;
      const next = ++at[k]!;
      if (next < choices[k]!.length) {
        for (const i of choices[k]![next]!) inS[i] = 1;
        this.k++;
        this.fresh = true;
      } else this.k--;
    }
  }
}
