// The unions of address intervals that the occupancy tree (occupancy-tree.ts)
// keeps per node, and the one array that holds all of a tree's lists. No
// dependencies.
//
// - A union is sorted disjoint intervals [a0, b0, a1, b1, ...], touching ones
//   merged. Most nodes hold one piece, kept in typed arrays; a node gets a
//   list only for a second piece.
// - Every list of a tree lives in one shared typed array (`PieceArena`), at
//   its own start with room for a power of two of entries: 32-bit entries
//   until an address does not fit in them (at or past 2^32, below 0, or not
//   whole), then 64-bit floats, the single pieces widened with them. A list that
//   outgrows its room moves to a block of twice as much, one a list left
//   or else at the arena's end, and leaves its old block to the next list
//   of that room; the arena doubles when full. A crowded pass makes about
//   100k lists: one array each cost tens of milliseconds of garbage
//   collection per pass, and shifting a plain array's pieces took an
//   element-by-element loop where the arena's `copyWithin` is a memmove.
//   Reusing the blocks left behind keeps the arena to about the room the
//   lists hold (on a 62k training trace, leaving them unused made it 1.6
//   times that, and a best-fit pass slower for the memory it touched).
// - Emptying the unions keeps every list's block, so a pass that refills
//   them reuses the arena without growing it.

/** Entries (two per piece) a new list has room for: the two pieces that make it. */
const FIRST_ROOM = 4;

/** The entries of a `PieceArena`: 32-bit while every address stored fits, else 64-bit floats. */
export type Pieces = Uint32Array | Float64Array;

/** The pieces of every list of one occupancy tree. */
export class PieceArena {
  /** The entries; replaced by a longer or wider copy, so read it again after an addition. */
  data: Pieces = new Uint32Array(1 << 12);
  /** Whether `data` is the 64-bit float form, taken once an address outside [0, 2^32) is added. */
  wide = false;
  used = 0; // entries handed out to lists
  // by log2 of a room, the start of the last block of that room a list left (-1: none); its first entry holds the one
  // before it
  private readonly left = new Int32Array(32).fill(-1);

  /** Hands out room for `entries` entries, a power of two: a block some list left, else at the end; returns its start. */
  reserve(entries: number): number {
    const size = 31 - Math.clz32(entries);
    const reused = this.left[size]!;
    if (reused >= 0) {
      this.left[size] = this.data[reused]!;
      return reused;
    }
    const start = this.used;
    this.used += entries;
    if (this.used > this.data.length) {
      let length = this.data.length;
      while (length < this.used) length *= 2;
      const grown = this.wide ? new Float64Array(length) : new Uint32Array(length);
      grown.set(this.data);
      this.data = grown;
    }
    return start;
  }

  /** Moves the entries to 64-bit floats, which hold every address exactly; the lists keep their places. */
  widen(): void {
    const wide = new Float64Array(this.data.length);
    wide.set(this.data);
    this.data = wide;
    this.wide = true;
  }

  /**
   * Takes back the room of `entries` entries at `start` that `reserve` handed
   * out, for a later list. The link to the block before it is written into
   * the entries, -1 for none: 32-bit entries keep that as 2^32 - 1, which
   * `left` (32-bit signed) reads back as -1.
   */
  release(start: number, entries: number): void {
    const size = 31 - Math.clz32(entries);
    this.data[start] = this.left[size]!;
    this.left[size] = start;
  }
}

/** One union per tree node: a single piece in the typed arrays, or a list in the arena once there are two. */
export class NodeUnions {
  /** By node, its single piece [solo[2n], solo[2n + 1]) (equal ends: none, empty or see `listStart`); as wide as the arena's entries. */
  solo: Pieces;
  readonly arena: PieceArena;
  readonly listStart: Int32Array; // where the node's list begins in the arena; -1: none
  readonly listLength: Int32Array; // its entries (two per piece)
  private readonly listRoom: Int32Array; // the entries it has room for at listStart

  constructor(nodes: number, arena: PieceArena) {
    this.solo = new Uint32Array(2 * nodes);
    this.arena = arena;
    this.listStart = new Int32Array(nodes).fill(-1);
    this.listLength = new Int32Array(nodes);
    this.listRoom = new Int32Array(nodes);
  }

  /** Empties every union; lists keep their room for the next pass, which then reuses the arena as it is. */
  clear(): void {
    this.solo.fill(0);
    this.listLength.fill(0);
  }

  /** Adds [a, b) to `node`'s union; returns whether the union held it already (and is unchanged). */
  add(node: number, a: number, b: number): boolean {
    // an address 32 bits cannot hold (at or past 2^32, below 0, or not whole) widens the single pieces and the arena first
    if (((a >>> 0) !== a || (b >>> 0) !== b) && this.solo instanceof Uint32Array) this.widen();
    // a list, once made, holds the node's union from then on (an emptied one too)
    if (this.listStart[node]! >= 0) return this.addToList(node, a, b);
    const solo = this.solo;
    const x = solo[2 * node]!;
    const y = solo[2 * node + 1]!;
    if (x === y) {
      solo[2 * node] = a;
      solo[2 * node + 1] = b;
      return false;
    }
    if (a <= y && x <= b) {
      // overlapping or touching: one piece still
      if (x <= a && b <= y) return true;
      if (a < x) solo[2 * node] = a;
      if (b > y) solo[2 * node + 1] = b;
      return false;
    }
    const start = this.arena.reserve(FIRST_ROOM);
    const data = this.arena.data;
    this.listStart[node] = start;
    this.listRoom[node] = FIRST_ROOM;
    this.listLength[node] = 4;
    data[start] = Math.min(a, x);
    data[start + 1] = a < x ? b : y;
    data[start + 2] = Math.max(a, x);
    data[start + 3] = a < x ? y : b;
    solo[2 * node] = 0;
    solo[2 * node + 1] = 0;
    return false;
  }

  /** Moves the single pieces, and the arena if no other unions did, to 64-bit floats. */
  private widen(): void {
    const wide = new Float64Array(this.solo.length);
    wide.set(this.solo);
    this.solo = wide;
    if (!this.arena.wide) this.arena.widen();
  }

  /**
   * Adds [a, b) to `node`'s list, merging the pieces it overlaps or touches;
   * returns whether the list held it already. The search for the first piece
   * it meets looks at the top piece, then bisects: a best fit mostly adds in
   * gaps low in long lists, where galloping down from the top costs up to
   * twice the comparisons of a bisection (a best-fit pass on a 62k-buffer
   * crowded trace took about 1.18 times as long).
   */
  private addToList(node: number, a: number, b: number): boolean {
    const length = this.listLength[node]!;
    const start = this.listStart[node]!;
    let data = this.arena.data;
    let end = start + length;
    // the first piece that ends at or after a (`end`: none): it and the ones after it that start at or before b
    // merge with [a, b); found by bisecting, after a look at the top
    let high = end; // every piece from here up ends at or after a
    let low = start - 2; // every piece from here down ends before a
    if (length > 0 && data[end - 1]! < a) low = end - 2; // above the top piece, where a greedy pass mostly adds
    while (high - low > 2) {
      const mid = low + (((high - low) >>> 2) << 1);
      if (data[mid + 1]! < a) low = mid;
      else high = mid;
    }
    let first = high;
    if (first < end && data[first]! <= a && b <= data[first + 1]!) return true; // already held
    let after = first;
    while (after < end && data[after]! <= b) after += 2;
    if (after === first) {
      // a new piece before `first`, or at the top
      if (length + 2 > this.listRoom[node]!) {
        this.move(node);
        data = this.arena.data;
        const moved = this.listStart[node]! - start;
        first += moved;
        end += moved;
      }
      if (first < end) data.copyWithin(first + 2, first, end);
      data[first] = a;
      data[first + 1] = b;
      this.listLength[node] = length + 2;
      return false;
    }
    // pieces first .. after - 2 merge into one: keep it at `first`, close the gap after it
    if (a < data[first]!) data[first] = a;
    data[first + 1] = Math.max(b, data[after - 1]!);
    if (after > first + 2) {
      data.copyWithin(first + 2, after, end);
      this.listLength[node] = length - (after - first - 2);
    }
    return false;
  }

  /** Moves `node`'s list to a block of twice its room (one a list left, else at the arena's end). */
  private move(node: number): void {
    const room = 2 * this.listRoom[node]!;
    const to = this.arena.reserve(room);
    const from = this.listStart[node]!;
    this.arena.data.copyWithin(to, from, from + this.listLength[node]!);
    this.arena.release(from, room / 2);
    this.listStart[node] = to;
    this.listRoom[node] = room;
  }
}
