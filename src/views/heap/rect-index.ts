// A static spatial index of axis-aligned rectangles: a packed R-tree built by
// sort-tile-recursive (STR) packing. Hover hit tests on the heap diagram query
// it instead of scanning every buffer, so a mousemove over 50,000 buffers
// touches a few dozen boxes. Written here because the index must live in
// typed arrays beside the diagram's columns and needs only build and query.
//
// - Leaves: every rectangle's box, sorted into vertical slices by x centre,
//   each slice sorted by y centre, then cut into runs of NODE_SIZE.
// - Each level above packs the boxes of the level below the same way, until one
//   root box remains; levels are stored one after another in flat arrays.
// - A query descends from the root into every box that intersects it.

/** Children per node of the tree. */
const NODE_SIZE = 16;

/** Fills `box` with [minX, minY, maxX, maxY] of item `k`. */
export type BoxOf = (k: number, box: Float64Array) => void;

/** A packed R-tree over items numbered 0..n-1; queries report each item's id. */
export class RectIndex {
  private constructor(
    private readonly boxes: Float64Array, // 4 per entry: leaves first, then each level up
    private readonly refs: Int32Array, // per entry: an item id (leaves) or the first child's entry
    private readonly levelEnds: readonly number[], // entry index where each level ends
  ) {}

  /** Number of items. */
  get size(): number {
    return this.levelEnds[0] ?? 0;
  }

  /** Builds the index of `n` items; `idOf` maps an item to the id queries report. */
  static build(n: number, boxOf: BoxOf, idOf: (k: number) => number = (k) => k): RectIndex {
    const scratch = new Float64Array(4);
    const boxes: number[] = [];
    const refs: number[] = [];
    const leaf = Array.from({ length: n }, (_, k) => {
      boxOf(k, scratch);
      return { box: [scratch[0]!, scratch[1]!, scratch[2]!, scratch[3]!] as const, ref: idOf(k) };
    });
    const levelEnds: number[] = [];
    let level = pack(leaf);
    let firstOfLevel = 0;
    for (;;) {
      for (const e of level) {
        boxes.push(...e.box);
        refs.push(e.ref);
      }
      levelEnds.push(refs.length);
      if (level.length <= 1) break;
      const parents: { box: readonly [number, number, number, number]; ref: number }[] = [];
      for (let i = 0; i < level.length; i += NODE_SIZE) {
        const run = level.slice(i, i + NODE_SIZE);
        parents.push({ box: union(run.map((e) => e.box)), ref: firstOfLevel + i });
      }
      firstOfLevel = refs.length;
      level = pack(parents, false);
    }
    return new RectIndex(Float64Array.from(boxes), Int32Array.from(refs), levelEnds);
  }

  /** Calls `visit(id)` for every item whose box contains the point (x, y) (edges: min inclusive, max exclusive). */
  queryPoint(x: number, y: number, visit: (id: number) => void): void {
    this.search(x, y, x, y, true, visit);
  }

  /** Calls `visit(id)` for every item whose box intersects [x0, x1] × [y0, y1]. */
  queryRect(x0: number, y0: number, x1: number, y1: number, visit: (id: number) => void): void {
    this.search(x0, y0, x1, y1, false, visit);
  }

  private search(x0: number, y0: number, x1: number, y1: number, point: boolean, visit: (id: number) => void): void {
    const top = this.levelEnds.length - 1;
    if (this.size === 0) return;
    const stack: number[] = [top === 0 ? 0 : this.levelEnds[top - 1]!, top];
    while (stack.length > 0) {
      const level = stack.pop()!;
      const first = stack.pop()!;
      const last = Math.min(first + NODE_SIZE, this.levelEnds[level]!);
      for (let e = first; e < last; e += 1) {
        const b = e * 4;
        const minX = this.boxes[b]!;
        const minY = this.boxes[b + 1]!;
        const maxX = this.boxes[b + 2]!;
        const maxY = this.boxes[b + 3]!;
        const leaf = level === 0;
        const hit = leaf && point ? x0 >= minX && x0 < maxX && y0 >= minY && y0 < maxY : x1 >= minX && x0 <= maxX && y1 >= minY && y0 <= maxY;
        if (!hit) continue;
        if (leaf) visit(this.refs[e]!);
        else stack.push(this.refs[e]!, level - 1);
      }
    }
  }
}

type Entry = { readonly box: readonly [number, number, number, number]; readonly ref: number };

/** STR order: vertical slices by x centre, each slice by y centre. */
function pack<T extends Entry>(entries: T[], sort = true): T[] {
  if (!sort && entries.length <= NODE_SIZE) return entries;
  const nodes = Math.ceil(entries.length / NODE_SIZE);
  const slices = Math.ceil(Math.sqrt(nodes));
  const perSlice = slices * NODE_SIZE;
  const byX = [...entries].sort((a, b) => a.box[0] + a.box[2] - (b.box[0] + b.box[2]));
  const out: T[] = [];
  for (let i = 0; i < byX.length; i += perSlice) {
    out.push(...byX.slice(i, i + perSlice).sort((a, b) => a.box[1] + a.box[3] - (b.box[1] + b.box[3])));
  }
  return out;
}

function union(boxes: readonly (readonly [number, number, number, number])[]): [number, number, number, number] {
  const u: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    u[0] = Math.min(u[0], b[0]);
    u[1] = Math.min(u[1], b[1]);
    u[2] = Math.max(u[2], b[2]);
    u[3] = Math.max(u[3], b[3]);
  }
  return u;
}
