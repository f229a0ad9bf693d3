// The state of the skyline search (skyline-search.ts): buffers in a local
// order, time cut into sections, each section's floor and what remains to be
// placed over it, and the keys of its memory of failed states. Depends only
// on the planner engine and skyline-edges.ts.

import type { PreparedRegion } from '../../engine/prepared';
import { countWork } from '../../engine/work-clock';
import { edgeIndex, wallsFor, type EdgeIndex, type Walls } from './skyline-edges';
import type { PartState } from './skyline-wells';

/** Buffers and sections of one search, and the skyline built so far. */
export class SkylineBoard implements PartState {
  readonly n: number;
  readonly items: readonly number[]; // region items, in local order
  readonly size: Float64Array; // per local item
  readonly from: Int32Array; // first section
  readonly to: Int32Array; // section after the last
  readonly floor: Float64Array; // per section: the top of what is placed there
  readonly remaining: Float64Array; // per section: bytes of unplaced items live there
  readonly liveCount: Int32Array; // per section: unplaced items live there
  readonly crossing: Int32Array; // per boundary s | s + 1: unplaced items live on both sides
  readonly placed: Uint8Array;
  readonly offset: Float64Array;
  readonly area: Float64Array; // per local item: bytes × steps
  placedArea = 0; // of the items placed now
  readonly twin: Int32Array; // previous local item with the same span and size, or -1
  readonly sameSpan: readonly (readonly number[])[]; // per local item: the local items with its span
  readonly edges: EdgeIndex;
  readonly walls: Walls;
  private readonly key1: Int32Array; // per local item: random bits for the hash of the unplaced set
  private readonly key2: Int32Array;
  private readonly startKey1: Int32Array; // per section: keys of the unplaced items starting there, xor-ed
  private readonly startKey2: Int32Array;

  constructor(
    prep: PreparedRegion,
    items: readonly number[],
    readonly target: number,
    reversed: boolean, // time runs backwards: a mirror image of the same problem, searched in another order
  ) {
    const start = (i: number) => (reversed ? -prep.itemEnd[i]! : prep.itemStart[i]!);
    const end = (i: number) => (reversed ? -prep.itemStart[i]! : prep.itemEnd[i]!);
    const times = [...new Set(items.flatMap((i) => [start(i), end(i)]))].sort((a, b) => a - b);
    const section = new Map(times.map((t, k) => [t, k]));
    this.n = items.length;
    // larger, longer items first: in a stack of one span, the larger goes lower
    const area = (i: number) => prep.itemExtent[i]! * (prep.itemEnd[i]! - prep.itemStart[i]!);
    this.items = items.slice().sort((a, b) => area(b) - area(a) || prep.itemExtent[b]! - prep.itemExtent[a]! || a - b);
    this.size = Float64Array.from(this.items, (i) => prep.itemExtent[i]!);
    this.from = Int32Array.from(this.items, (i) => section.get(start(i))!);
    this.to = Int32Array.from(this.items, (i) => section.get(end(i))!);
    const sections = Math.max(0, times.length - 1);
    this.floor = new Float64Array(sections);
    this.remaining = new Float64Array(sections);
    this.liveCount = new Int32Array(sections);
    this.crossing = new Int32Array(sections);
    this.placed = new Uint8Array(this.n);
    this.offset = new Float64Array(this.n);
    this.area = Float64Array.from(this.items, area);
    let seed = 0x2545f491;
    const next = () => (seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) ^ Math.imul(seed ^ (seed >>> 12), 0x297a2d39)) | 0;
    this.key1 = Int32Array.from(this.items, next);
    this.key2 = Int32Array.from(this.items, next);
    this.startKey1 = new Int32Array(sections);
    this.startKey2 = new Int32Array(sections);
    this.edges = edgeIndex(this.from, this.to, sections);
    this.walls = wallsFor(sections);
    this.twin = new Int32Array(this.n).fill(-1);
    const seen = new Map<string, number>();
    const spans = new Map<string, number[]>();
    this.sameSpan = Array.from({ length: this.n }, (_, k) => {
      const key = `${this.from[k]},${this.to[k]}`;
      const twinKey = `${key},${this.size[k]}`;
      if (seen.has(twinKey)) this.twin[k] = seen.get(twinKey)!;
      seen.set(twinKey, k);
      if (!spans.has(key)) spans.set(key, []);
      spans.get(key)!.push(k);
      return spans.get(key)!;
    });
    for (let k = 0; k < this.n; k++) this.account(k, 1);
    countWork(1430 * (this.n + sections));
  }

  /** True when k may rest at `level`: it fits under the target, and the rules against mirrored solutions let it. */
  allowed(k: number, level: number): boolean {
    if (level + this.size[k]! > this.target) return false;
    // identical buffers are interchangeable: the first one goes first (lowest)
    if (this.twin[k]! >= 0 && this.placed[this.twin[k]!] === 0) return false;
    // a stack of buffers of one span can be reordered: it is built in local order
    for (const j of this.sameSpan[k]!) if (j > k && this.placed[j] === 1 && this.offset[j]! + this.size[j]! === level) return false;
    return true;
  }

  /** True when every section k spans is at `level` (it rests there) and k is allowed there. */
  restsAt(k: number, level: number): boolean {
    for (let s = this.from[k]!; s < this.to[k]!; s++) if (this.floor[s] !== level) return false;
    return this.allowed(k, level);
  }

  place(k: number, level: number): void {
    this.placed[k] = 1;
    this.offset[k] = level;
    this.placedArea += this.area[k]!;
    for (let s = this.from[k]!; s < this.to[k]!; s++) this.floor[s] = level + this.size[k]!;
    this.account(k, -1);
  }

  unplace(k: number, level: number): void {
    this.placed[k] = 0;
    this.placedArea -= this.area[k]!;
    for (let s = this.from[k]!; s < this.to[k]!; s++) this.floor[s] = level;
    this.account(k, 1);
  }

  /**
   * The state of the window [lo, hi): the floors where buffers remain and
   * the set of unplaced buffers (64 bits each), and the first section the
   * next buffer on the lowest level may take.
   */
  stateKey(lo: number, hi: number, leftmost: number): string {
    const { floor, liveCount } = this;
    let h1 = 0x811c9dc5;
    let h2 = 0x1b873593;
    let set1 = 0;
    let set2 = 0;
    for (let s = lo; s < hi; s++) {
      const f = liveCount[s] === 0 ? -1 : floor[s]!;
      const low = f | 0;
      const high = (f / 4294967296) | 0;
      h1 = Math.imul(h1 ^ low, 0x01000193) ^ Math.imul(high, 0x5bd1e995);
      h2 = Math.imul(h2 ^ high, 0x85ebca6b) ^ Math.imul(low, 0xc2b2ae35);
      set1 ^= this.startKey1[s]!;
      set2 ^= this.startKey2[s]!;
    }
    return `${lo},${hi},${set1},${set2},${h1},${h2},${leftmost}`;
  }

  /** Adds (sign 1) or removes (sign -1) k from what remains to be placed. */
  private account(k: number, sign: 1 | -1): void {
    const from = this.from[k]!;
    const to = this.to[k]!;
    countWork(13 * (1 + to - from));
    for (let s = from; s < to; s++) {
      this.remaining[s]! += sign * this.size[k]!;
      this.liveCount[s]! += sign;
      if (s + 1 < to) this.crossing[s]! += sign;
    }
    if (from < to) {
      this.startKey1[from]! ^= this.key1[k]!;
      this.startKey2[from]! ^= this.key2[k]!;
    }
  }
}
