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
//   its sections.
// - Branching: take the leftmost run of sections at the lowest floor where
//   buffers remain. Either one of the remaining buffers that fit inside the
//   run goes there (one branch per such buffer, identical buffers tried
//   once), or nothing rests in the run and it is raised to its lower
//   neighbour: every buffer over it then reaches past it, so it sits at least
//   that high. This keeps every canonical solution reachable, so an
//   exhausted search is a proof.
// - Left to right within a level: the buffers resting at one level are
//   placed in the order of their first sections. Floors only rise and the
//   leftmost lowest run goes first, so each solution is reached once, not
//   once per order of the buffers side by side on one level; a run left of
//   the last buffer placed at its level can then only be left empty.
// - Failed states are remembered: a node whose placed set, floors and
//   leftmost allowed section match one searched to the end before is cut
//   (placed set and floors hashed, 128 bits in all).
// - Cross-section inference: in every section, the floor plus the bytes of
//   the buffers still to place there must stay below the target; a branch
//   where one section cannot is cut. Where a section has no slack left, a
//   buffer must rest right on its floor, starting or ending at a higher
//   neighbour (skyline-edges.ts).
// - Capacity from the bound upward: the caller first asks for the lower
//   bound itself, where inference cuts hardest, then for anything below its
//   best plan (see exact-plan.ts, which also splits time into independent spans).
// - Handles items of one rectangle with alignment 1 and no fixed offset.

import type { PreparedRegion } from '../engine/prepared';
import { edgeIndex, edgesClosable, type EdgeIndex } from './skyline-edges';

/** States remembered as failed, at most (memory stays bounded on long searches). */
const MAX_FAILED = 1_000_000;

/** How a search ended. */
export interface SkylineOutcome {
  readonly offsets: Float64Array | undefined; // by item, when a placement below the target was found
  readonly peak: number; // its peak, or the target when none was found
  readonly exhausted: boolean; // the whole space was searched: nothing lower than `peak` exists
  readonly nodes: number;
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
  const search: Skyline = new Skyline(prep, items, target, (): boolean => search.nodes > nodeLimit || stop());
  search.run();
  return { offsets: search.found, peak: search.found === undefined ? target : search.foundPeak, exhausted: !search.stopped, nodes: search.nodes };
}

class Skyline {
  readonly n: number;
  readonly size: Float64Array; // per local item
  readonly from: Int32Array; // first section
  readonly to: Int32Array; // section after the last
  readonly floor: Float64Array; // per section
  readonly remaining: Float64Array; // per section: bytes of unplaced items live there
  readonly liveCount: Int32Array; // per section: unplaced items live there
  readonly placed: Uint8Array;
  readonly offset: Float64Array;
  readonly twin: Int32Array; // previous local item with the same span and size, or -1
  readonly key1: Int32Array; // per local item: random bits for the hash of the placed set
  readonly key2: Int32Array;
  placedHash1 = 0;
  placedHash2 = 0;
  readonly failed = new Set<string>(); // states searched to the end without a placement
  readonly edges: EdgeIndex;
  readonly wallRight: Int32Array; // scratch of the edge inference, per section
  readonly wallLeft: Int32Array;
  found: Float64Array | undefined;
  foundPeak = Infinity;
  nodes = 0;
  stopped = false;

  constructor(
    readonly prep: PreparedRegion,
    readonly items: readonly number[],
    readonly target: number,
    readonly stop: () => boolean,
  ) {
    const times = [...new Set(items.flatMap((i) => [prep.itemStart[i]!, prep.itemEnd[i]!]))].sort((a, b) => a - b);
    const section = new Map(times.map((t, k) => [t, k]));
    this.n = items.length;
    // larger, longer items first: they are the hardest to fit late
    const local = items.slice().sort((a, b) => prep.itemExtent[b]! * (prep.itemEnd[b]! - prep.itemStart[b]!) - prep.itemExtent[a]! * (prep.itemEnd[a]! - prep.itemStart[a]!) || a - b);
    this.items = local;
    this.size = Float64Array.from(local, (i) => prep.itemExtent[i]!);
    this.from = Int32Array.from(local, (i) => section.get(prep.itemStart[i]!)!);
    this.to = Int32Array.from(local, (i) => section.get(prep.itemEnd[i]!)!);
    const sections = Math.max(0, times.length - 1);
    this.floor = new Float64Array(sections);
    this.remaining = new Float64Array(sections);
    this.liveCount = new Int32Array(sections);
    this.placed = new Uint8Array(this.n);
    this.offset = new Float64Array(this.n);
    this.twin = new Int32Array(this.n).fill(-1);
    let seed = 0x2545f491;
    const next = () => (seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) ^ Math.imul(seed ^ (seed >>> 12), 0x297a2d39)) | 0;
    this.key1 = Int32Array.from(local, next);
    this.key2 = Int32Array.from(local, next);
    this.edges = edgeIndex(this.from, this.to, sections);
    this.wallRight = new Int32Array(sections);
    this.wallLeft = new Int32Array(sections);
    const seen = new Map<string, number>();
    for (let k = 0; k < this.n; k++) {
      const key = `${this.from[k]},${this.to[k]},${this.size[k]}`;
      if (seen.has(key)) this.twin[k] = seen.get(key)!;
      seen.set(key, k);
      for (let s = this.from[k]!; s < this.to[k]!; s++) {
        this.remaining[s]! += this.size[k]!;
        this.liveCount[s]!++;
      }
    }
  }

  run(): void {
    this.descend(0, -1, -1);
  }

  /**
   * How it works: see the module header. `lastLevel` and `lastFrom` are the
   * level and first section of the buffer placed last. Returns true once a
   * placement is found.
   */
  private descend(placedCount: number, lastLevel: number, lastFrom: number): boolean {
    if ((++this.nodes & 1023) === 0 && this.stop()) this.stopped = true;
    if (this.stopped) return false;
    if (placedCount === this.n) return this.record();
    const { floor, remaining, liveCount } = this;
    let low = -1;
    for (let s = 0; s < floor.length; s++) {
      if (liveCount[s] === 0) continue;
      if (floor[s]! + remaining[s]! > this.target) return false; // cross-section inference
      if (low < 0 || floor[s]! < floor[low]!) low = s;
    }
    if (!edgesClosable(this, this.edges, this.wallRight, this.wallLeft)) return false;
    const level = floor[low]!;
    const key = this.stateKey(level === lastLevel ? lastFrom : -1);
    if (this.failed.has(key)) return false;
    const done = this.branch(placedCount, low, level, lastLevel, lastFrom);
    if (!done && !this.stopped && this.failed.size < MAX_FAILED) this.failed.add(key);
    return done;
  }

  /** Tries every buffer that may rest on the lowest run, then leaving it empty. */
  private branch(placedCount: number, low: number, level: number, lastLevel: number, lastFrom: number): boolean {
    const [a, b] = this.runAround(low, level);
    for (let k = 0; k < this.n; k++) {
      if (this.placed[k] === 1 || this.from[k]! < a || this.to[k]! > b) continue;
      if (this.twin[k]! >= 0 && this.placed[this.twin[k]!] === 0) continue; // identical buffers: the first one goes first
      if (level === lastLevel && this.from[k]! <= lastFrom) continue; // one level is filled left to right
      if (!this.restsAt(k, level)) continue;
      this.place(k, level);
      const done = this.descend(placedCount + 1, level, this.from[k]!);
      this.unplace(k, level);
      if (done || this.stopped) return done;
    }
    return this.leaveEmpty(a, b, level, placedCount, lastLevel, lastFrom);
  }

  /**
   * The state a search node starts from: the placed set (two independent
   * 32-bit hashes), the floors where buffers remain, and the first section
   * the next buffer on the lowest level may take.
   */
  private stateKey(leftmost: number): string {
    const { floor, liveCount } = this;
    let h1 = 0x811c9dc5;
    let h2 = 0x1b873593;
    for (let s = 0; s < floor.length; s++) {
      const f = liveCount[s] === 0 ? -1 : floor[s]!;
      const lo = f | 0;
      const hi = (f / 4294967296) | 0;
      h1 = Math.imul(h1 ^ lo, 0x01000193) ^ Math.imul(hi, 0x5bd1e995);
      h2 = Math.imul(h2 ^ hi, 0x85ebca6b) ^ Math.imul(lo, 0xc2b2ae35);
    }
    return `${this.placedHash1},${this.placedHash2},${h1},${h2},${leftmost}`;
  }

  /** The run of sections [a, b) around `low` whose floor is `level` and where buffers remain. */
  private runAround(low: number, level: number): [number, number] {
    const { floor, liveCount } = this;
    let a = low;
    while (a > 0 && liveCount[a - 1]! > 0 && floor[a - 1] === level) a--;
    let b = low + 1;
    while (b < floor.length && liveCount[b]! > 0 && floor[b] === level) b++;
    return [a, b];
  }

  /** Raises the run [a, b) at `level` to its lower neighbour (nothing rests there), then searches on. */
  private leaveEmpty(a: number, b: number, level: number, placedCount: number, lastLevel: number, lastFrom: number): boolean {
    const { floor, liveCount } = this;
    const left = a > 0 && liveCount[a - 1]! > 0 ? floor[a - 1]! : Infinity;
    const right = b < floor.length && liveCount[b]! > 0 ? floor[b]! : Infinity;
    const raised = Math.min(left, right);
    if (raised === Infinity) return false; // an island nothing can rest in: a dead end
    for (let s = a; s < b; s++) floor[s] = raised;
    const done = this.descend(placedCount, lastLevel, lastFrom);
    for (let s = a; s < b; s++) floor[s] = level;
    return done;
  }

  private restsAt(k: number, level: number): boolean {
    for (let s = this.from[k]!; s < this.to[k]!; s++) if (this.floor[s] !== level) return false;
    return level + this.size[k]! <= this.target;
  }

  private place(k: number, level: number): void {
    this.placed[k] = 1;
    this.placedHash1 ^= this.key1[k]!;
    this.placedHash2 ^= this.key2[k]!;
    this.offset[k] = level;
    for (let s = this.from[k]!; s < this.to[k]!; s++) {
      this.floor[s] = level + this.size[k]!;
      this.remaining[s]! -= this.size[k]!;
      this.liveCount[s]!--;
    }
  }

  private unplace(k: number, level: number): void {
    this.placed[k] = 0;
    this.placedHash1 ^= this.key1[k]!;
    this.placedHash2 ^= this.key2[k]!;
    for (let s = this.from[k]!; s < this.to[k]!; s++) {
      this.floor[s] = level;
      this.remaining[s]! += this.size[k]!;
      this.liveCount[s]!++;
    }
  }

  private record(): boolean {
    const offsets = new Float64Array(this.prep.itemCount).fill(NaN);
    let peak = 0;
    for (let k = 0; k < this.n; k++) {
      offsets[this.items[k]!] = this.offset[k]!;
      peak = Math.max(peak, this.offset[k]! + this.size[k]!);
    }
    this.found = offsets;
    this.foundPeak = peak;
    return true;
  }
}
