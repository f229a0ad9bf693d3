// Pinwheel cuts for the guillotine split (guillotine-split.ts): a part that
// no straight cut takes apart may still be five rectangles around a centre,
// each packed on its own. Depends only on the planner engine and
// subset-sums.ts.
//
// - Blocks on a skyline: the part is filled bottom-up a rectangle block at a
//   time, each resting at the first section of the lowest run of the floor
//   (the leftmost lowest section and those right of it at the same floor).
//   A block is a set of unplaced buffers inside the run that starts at its
//   first section, whose bytes live are the same, y, at every step until
//   they have all ended.
// - A pinwheel's five pieces come out as such blocks in a fixed pattern,
//   whichever way it turns: the first and third end inside their run (a
//   bottom corner, then a top corner or the centre), the second, fourth and
//   fifth span theirs. From the third on, each reaches the part's ceiling
//   or a neighbour's floor; where the pinwheel lies under a block spanning
//   the part, one of them reaches the pinwheel's own top instead, which then
//   bounds the others, and the rest above a flat floor is one more block.
//   The search places at most five blocks so (a single buffer is a block
//   too: more would make it the skyline search over again).
// - Blocks are packed only once their sets fill the part, each by the split
//   (which remembers the sets it cannot pack), smallest first: listing sets
//   by exact sums is cheap, packing them is not.
// - Candidates: subsets of the buffers starting at the corner (every one up
//   to ALL_SUBSETS buffers, else those of at most SMALL_SIDE buffers or
//   leaving out at most SMALL_SIDE: a pinwheel's corner column is two
//   blocks' buffers, one of them mostly few), grown one boundary at a time:
//   buffers that end there are replaced by buffers starting there with
//   exactly their bytes, and where all have ended the block may stop.
//   Longer blocks first, then taller, then fewer buffers: a pinwheel's
//   corner block is its longest.
// - It finds placements, it does not refute them.

import type { PreparedRegion } from '../../engine/prepared';
import { countWork } from '../../engine/work-clock';
import type { Part } from './lowest-blocks';
import { exactSums } from './subset-sums';

/** What the block search asks of the split it serves. */
export interface BlockHost {
  readonly prep: PreparedRegion;
  readonly aborted: boolean;
  /** Counts a node; true once the search must stop. */
  tick(): boolean;
  /** Offsets (from 0) of `items` packed into `height` with no byte free, or undefined. */
  solve(items: readonly number[], height: number): Map<number, number> | undefined;
}

/** Blocks placed at most: the five pieces of a pinwheel. */
const MAX_BLOCKS = 5;
/** Buffers starting at a corner whose every subset seeds a block, at most. */
const ALL_SUBSETS = 16;
/** Of more buffers at a corner, the seeds are the sets of at most this many and those leaving out at most this many. */
const SMALL_SIDE = 5;
/** Seeds visited per corner at most (memory and time stay bounded where a corner has many buffers). */
const MAX_SEEDS = 1 << 16;
/** Blocks listed per corner at most. */
const MAX_BLOCKS_LISTED = 4_096;
/** Completions of one boundary listed at most. */
const MAX_CHOICES = 64;

/** A candidate block: local buffers, its bytes per step and the section after its last. */
interface Block {
  readonly members: readonly number[];
  readonly y: number;
  readonly end: number;
  readonly partial?: boolean; // listed from some of its corner's subsets only: taller blocks of its span may be missing
}

/**
 * Packs `items` into `height` with no byte free as at most five blocks on a
 * skyline (see the module header); `part` gives their sections (read before
 * any block is packed). Undefined when none is found.
 */
export function placeByBlocks(host: BlockHost, items: readonly number[], height: number, part: Part): Map<number, number> | undefined {
  return new BlockSkyline(host, items, height, part).run();
}

class BlockSkyline {
  readonly size: Float64Array; // by local buffer
  readonly after: Int32Array; // section after the last
  readonly startingAt: number[][]; // local buffers by first section, largest first
  private readonly floor: Float64Array; // per section
  private readonly placed: Uint8Array;
  private readonly offset: Float64Array;
  private readonly chosen: (Block & { readonly level: number; readonly start: number })[] = []; // the blocks on the current path, with the floor and first section of each
  private ceiling: number | undefined; // the top a block from the third on set below the part's, if any

  constructor(
    readonly host: BlockHost,
    private readonly items: readonly number[],
    private readonly height: number,
    part: Part,
  ) {
    const n = items.length;
    this.size = Float64Array.from(items, (i) => host.prep.itemExtent[i]!);
    this.after = Int32Array.from(items, (i) => part.to[i]!);
    this.startingAt = Array.from({ length: part.sections }, () => []);
    items.forEach((i, k) => this.startingAt[part.from[i]!]!.push(k));
    for (const list of this.startingAt) list.sort((a, b) => this.size[b]! - this.size[a]! || a - b);
    this.floor = new Float64Array(part.sections);
    this.placed = new Uint8Array(n);
    this.offset = new Float64Array(n);
  }

  run(): Map<number, number> | undefined {
    if (!this.descend(0)) return undefined;
    return new Map(this.items.map((i, k) => [i, this.offset[k]!]));
  }

  /**
   * Fills the part from the current floor with at most MAX_BLOCKS - `depth`
   * more blocks; once the blocks' sets fill it, each block is packed (the
   * split's memory keeps those that cannot be).
   */
  private descend(depth: number): boolean {
    const { floor, height, host, chosen } = this;
    if (host.tick()) return false;
    countWork(470 * floor.length);
    let low = -1;
    for (let s = 0; s < floor.length; s++) if (floor[s]! < height && (low < 0 || floor[s]! < floor[low]!)) low = s;
    if (low < 0) return this.packBlocks(); // every section full: with no byte free, every buffer is in a block
    const level = floor[low]!;
    let runEnd = low + 1;
    while (runEnd < floor.length && floor[runEnd] === level) runEnd++;
    if (depth > 0 && low === 0 && runEnd === floor.length) {
      // a flat floor: the rest is a rectangle
      chosen.push({ members: this.unplaced(), y: height - level, end: runEnd, level, start: 0 });
      const done = this.packBlocks();
      chosen.pop();
      return done;
    }
    if (this.stacksOn(low, runEnd, level)) {
      // the run is the top of a block of the same span: a block over all of it joins that one's stack, uncounted
      for (const block of this.blocksAt(low, runEnd, height - level, false, undefined)) {
        if (this.tryBlock(block, low, level, depth)) return true;
        if (host.aborted) return false;
      }
    }
    if (depth === MAX_BLOCKS) return false;
    const prefix = depth === 0 || depth === 2; // a pinwheel's first and third blocks end inside their run, the others span it
    const flush = [height, ...[floor[low - 1], floor[runEnd]].filter((f) => f !== undefined && f > level)].map((f) => f! - level);
    const tops = this.topsAt(depth, flush, level, low === 0, runEnd === floor.length);
    for (const block of this.blocksAt(low, runEnd, height - level, prefix, tops)) {
      if (block.members.length === this.items.length) continue; // the part itself: the split is solving it
      const ceiling = this.ceiling;
      if (depth >= 2 && !flush.includes(block.y)) {
        if (level + block.y < floor.reduce((top, f) => Math.max(top, f), 0)) continue; // the pinwheel's top is above all of it
        this.ceiling = level + block.y;
      }
      const done = this.tryBlock(block, low, level, depth + 1);
      this.ceiling = ceiling;
      if (done) return true;
      if (host.aborted) return false;
    }
    return false;
  }

  /**
   * True when a chosen block listed from some of its corner's subsets only
   * spans exactly [start, end) and its top is `level`: the taller block of
   * its span may not have been listed, so it is built as a stack.
   */
  private stacksOn(start: number, end: number, level: number): boolean {
    return this.chosen.some((c) => c.partial === true && c.start === start && c.end === end && c.level + c.y === level);
  }

  /** Places `block` at section `start` on `level`, and fills the rest with the blocks `depth` leaves. */
  private tryBlock(block: Block, start: number, level: number, depth: number): boolean {
    this.setBlock(block, start, 1);
    this.chosen.push({ ...block, level, start });
    const done = this.descend(depth);
    this.chosen.pop();
    this.setBlock(block, start, -1);
    return done;
  }

  /**
   * The heights a block may have at `depth` (undefined: any). From the
   * third on, a pinwheel's blocks reach the part's ceiling or a neighbour's
   * floor (`flush`). Where the pinwheel lies under a block spanning the
   * part, one of them reaches the pinwheel's own top instead, which then
   * bounds the others: the third if it starts at the part's start (one
   * turning), or the fourth if it ends at the part's end (the other).
   */
  private topsAt(depth: number, flush: readonly number[], level: number, atStart: boolean, atEnd: boolean): readonly number[] | undefined {
    if (depth < 2) return undefined;
    if (this.ceiling !== undefined) return [...flush, this.ceiling - level];
    return (depth === 2 && atStart) || (depth === 3 && atEnd) ? undefined : flush;
  }

  private unplaced(): number[] {
    const left: number[] = [];
    for (let k = 0; k < this.items.length; k++) if (this.placed[k] === 0) left.push(k);
    return left;
  }

  /** Packs each chosen block, smallest first, recording offsets; false when one cannot be packed. */
  private packBlocks(): boolean {
    const blocks = this.chosen.slice().sort((a, b) => a.members.length - b.members.length);
    for (const block of blocks) {
      const packed = this.host.solve(
        block.members.map((k) => this.items[k]!),
        block.y,
      );
      if (packed === undefined) return false;
      for (const k of block.members) this.offset[k] = block.level + packed.get(this.items[k]!)!;
    }
    return true;
  }

  /** Places (sign 1) or removes (-1) a block resting at section `start`. */
  private setBlock(block: Block, start: number, sign: 1 | -1): void {
    for (let s = start; s < block.end; s++) this.floor[s]! += sign * block.y;
    for (const k of block.members) this.placed[k] = sign === 1 ? 1 : 0;
  }

  /**
   * The blocks that can rest at section `start` inside the run [start,
   * runEnd), at most `room` bytes tall (and of one of the heights `tops`
   * when given), longest first: those ending inside the run when `prefix`,
   * else those spanning all of it.
   */
  private blocksAt(start: number, runEnd: number, room: number, prefix: boolean, tops: readonly number[] | undefined): Block[] {
    const fits = (k: number) => this.placed[k] === 0 && this.after[k]! <= runEnd;
    const corner = this.startingAt[start]!.filter((k) => fits(k) && this.size[k]! <= room);
    const lister = new BlockLister(this, runEnd, prefix, fits);
    forEachCornerSet(corner.length, (chosen) => {
      let y = 0;
      countWork(7 * (1 + chosen.length));
      for (const k of chosen) y += this.size[corner[k]!]!;
      if (y <= room && (tops === undefined || tops.includes(y))) lister.list(chosen.map((k) => corner[k]!), start + 1, y);
      return lister.full || this.host.aborted;
    });
    const partial = corner.length > ALL_SUBSETS || lister.full; // some seeds, or some blocks, never listed
    return lister.blocks.map((block) => ({ ...block, partial })).sort((a, b) => b.end - a.end || b.y - a.y || a.members.length - b.members.length);
  }
}

/** Lists the blocks grown from seeds at one corner (see the module header). */
class BlockLister {
  readonly blocks: Block[] = [];
  private readonly members: number[] = [];

  constructor(
    private readonly board: BlockSkyline,
    private readonly runEnd: number,
    private readonly prefix: boolean, // blocks end inside the run (else they span it)
    private readonly fits: (k: number) => boolean, // unplaced and inside the run
  ) {}

  get full(): boolean {
    return this.blocks.length >= MAX_BLOCKS_LISTED;
  }

  /** Lists the blocks whose first section's members are `seed`, `y` bytes, growing from boundary `next`. */
  list(seed: readonly number[], next: number, y: number): void {
    this.members.push(...seed);
    this.grow(next, y);
    this.members.length = 0;
  }

  private grow(s: number, y: number): void {
    const { board, members, runEnd } = this;
    if (this.full || board.host.tick()) return;
    countWork(7 * members.length);
    let need = 0; // bytes of the members ending at s
    for (const k of members) if (board.after[k] === s) need += board.size[k]!;
    if (need === y && this.prefix === (s < runEnd)) this.blocks.push({ members: members.slice(), y, end: s }); // all have ended: the block may stop here
    if (s === runEnd) return;
    if (need === 0) return this.grow(s + 1, y);
    for (const chosen of exactSums(board.startingAt[s]!.filter(this.fits), board.size, need, MAX_CHOICES)) {
      members.push(...chosen);
      this.grow(s + 1, y);
      members.length -= chosen.length;
    }
  }
}

/**
 * Visits the sets of indices below `count` that seed blocks at a corner of
 * `count` buffers, until `visit` returns true or MAX_SEEDS were visited:
 * every nonempty subset up to ALL_SUBSETS buffers, else those of at most
 * SMALL_SIDE buffers and those leaving out at most SMALL_SIDE (a pinwheel's
 * corner column is two blocks' buffers, and one of them is mostly few).
 */
function forEachCornerSet(count: number, visit: (set: readonly number[]) => boolean): void {
  let seeds = 0;
  const chosen: number[] = [];
  if (count <= ALL_SUBSETS) {
    for (let mask = 1; mask < 1 << count && seeds++ < MAX_SEEDS; mask++) {
      chosen.length = 0;
      for (let k = 0; k < count; k++) if ((mask >> k) & 1) chosen.push(k);
      if (visit(chosen)) return;
    }
    return;
  }
  const left: number[] = [];
  const pick = (from: number, leaveOut: boolean): boolean => {
    if (chosen.length > 0) {
      if (seeds++ >= MAX_SEEDS) return true;
      if (!leaveOut) {
        if (visit(chosen)) return true;
      } else {
        left.length = 0;
        for (let k = 0; k < count; k++) if (!chosen.includes(k)) left.push(k);
        if (visit(left)) return true;
      }
    }
    if (chosen.length === SMALL_SIDE) return false;
    for (let k = from; k < count; k++) {
      chosen.push(k);
      const done = pick(k + 1, leaveOut);
      chosen.pop();
      if (done) return true;
    }
    return false;
  };
  if (pick(0, false)) return;
  chosen.length = 0;
  left.length = 0;
  for (let k = 0; k < count; k++) left.push(k);
  if (visit(left)) return;
  pick(0, true);
}
