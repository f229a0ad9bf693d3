// Which buffers a fast region keeps: a knapsack over time (the unsplittable
// flow problem on a path). Pure; depends on nothing.
//
// The problem: items (alias groups) with a size, a half-open lifetime and a
// value (the bytes read and written while they live, buffer-traffic.ts); a
// residual capacity per step (the region's limit minus what is pinned there).
// Choose the items to keep so that at every step the kept items live there
// fit in the residual capacity, and the kept value is the largest: the most
// traffic served by the fast memory. It is NP-hard (knapsack is the case of
// one step), so:
// - Time is compressed to the points where some item or pinned load starts:
//   between two such points live bytes only fall, so checking them suffices.
// - Items that cannot fit alone somewhere in their lifetime are left out.
// - Greedy by density (value per byte-step: bytes read and written per byte
//   of fast-memory time; a buffer read by three ops over two steps beats one
//   that waits 300 steps for a skip connection) gives a first solution; a
//   fill pass then adds any left-out item that still fits.
// - A depth-first branch and bound over the items in density order (keep
//   first, then leave) improves it. Its bound at a node: the value so far plus,
//   for the tightest point p, the remaining items not live at p plus a
//   fractional knapsack of those live at p in p's residual capacity; a node
//   whose bound is no better than the best found is cut.
// - The search counts its work (item-point visits) and stops at `workBudget`:
//   results never depend on the clock. When it finishes, the split is proven
//   the best of what it optimizes (`proven`); when it stops, the split is the
//   best found, never worse than greedy, and maximal (no left-out item fits).

/** One item of the knapsack over time. */
export interface TimedItem {
  readonly size: number; // bytes
  readonly start: number; // first step live
  readonly end: number; // first step no longer live
  readonly value: number; // what keeping it earns (bytes moved while it lives)
}

/** A step function of bytes already taken: `bytes` from `start` (inclusive) to `end` (exclusive). */
export interface PinnedLoad {
  readonly start: number;
  readonly end: number;
  readonly bytes: number;
}

/** The chosen split. */
export interface FastChoice {
  readonly kept: readonly boolean[]; // by item index
  readonly value: number; // sum of the kept items' values
  readonly proven: boolean; // the search finished: no split of these items earns more
  readonly work: number; // item-point visits spent
}

/** Work units (item-point visits) the search spends at most by default. */
export const DEFAULT_WORK_BUDGET = 20_000_000;

/** Value per byte-step: the greedy order. */
export function densityOf(item: TimedItem): number {
  const area = Math.max(1, item.size) * Math.max(1, item.end - item.start);
  return item.value / area;
}

/** Chooses the items a region of `capacity` bytes keeps; see the module header. */
export function chooseFast(items: readonly TimedItem[], pinned: readonly PinnedLoad[], capacity: number, workBudget = DEFAULT_WORK_BUDGET): FastChoice {
  const points = [...new Set([...items.map((i) => i.start), ...pinned.map((p) => p.start)])].sort((a, b) => a - b);
  const residual = points.map((t) => capacity - pinned.reduce((sum, p) => (p.start <= t && t < p.end ? sum + p.bytes : sum), 0));
  const spans = items.map((i) => spanOf(points, i));
  const order = items
    .map((_, k) => k)
    .filter((k) => items[k]!.size === 0 || fitsAlone(residual, spans[k]!, items[k]!.size))
    .sort((a, b) => densityOf(items[b]!) - densityOf(items[a]!) || items[b]!.value - items[a]!.value || a - b);
  const search = new Search(items, spans, residual, order, workBudget);
  search.run();
  return { kept: search.bestKept, value: search.bestValue, proven: !search.stopped, work: search.work };
}

/** The point indices [lo, hi) an item covers. */
function spanOf(points: readonly number[], item: TimedItem): readonly [number, number] {
  let lo = 0;
  while (lo < points.length && points[lo]! < item.start) lo++;
  let hi = lo;
  while (hi < points.length && points[hi]! < item.end) hi++;
  return [lo, hi];
}

function fitsAlone(residual: readonly number[], [lo, hi]: readonly [number, number], size: number): boolean {
  for (let p = lo; p < hi; p++) if (residual[p]! < size) return false;
  return true;
}

/** The branch and bound; state is mutated as it descends and restored as it returns. */
class Search {
  bestKept: boolean[];
  bestValue = 0;
  work = 0;
  stopped = false;
  private readonly kept: boolean[];
  private readonly free: number[];

  constructor(
    private readonly items: readonly TimedItem[],
    private readonly spans: readonly (readonly [number, number])[],
    residual: readonly number[],
    private readonly order: readonly number[],
    private readonly budget: number,
  ) {
    this.kept = items.map(() => false);
    this.free = [...residual];
    this.bestKept = [...this.kept];
  }

  run(): void {
    this.greedy();
    this.descend(0, 0);
  }

  /** Greedy by density, then kept as the first best. */
  private greedy(): void {
    let value = 0;
    const kept = this.items.map(() => false);
    const free = [...this.free];
    for (const k of this.order) {
      const [lo, hi] = this.spans[k]!;
      const size = this.items[k]!.size;
      if (!fitsAlone(free, [lo, hi], size)) continue;
      for (let p = lo; p < hi; p++) free[p]! -= size;
      kept[k] = true;
      value += this.items[k]!.value;
    }
    this.bestKept = kept;
    this.bestValue = value;
  }

  private descend(depth: number, value: number): void {
    if (this.stopped) return;
    if (value > this.bestValue) {
      this.bestValue = value;
      this.bestKept = [...this.kept];
    }
    if (depth === this.order.length) return;
    if (this.bound(depth, value) <= this.bestValue) return;
    const k = this.order[depth]!;
    const [lo, hi] = this.spans[k]!;
    const size = this.items[k]!.size;
    if (fitsAlone(this.free, [lo, hi], size)) {
      for (let p = lo; p < hi; p++) this.free[p]! -= size;
      this.kept[k] = true;
      this.descend(depth + 1, value + this.items[k]!.value);
      this.kept[k] = false;
      for (let p = lo; p < hi; p++) this.free[p]! += size;
    }
    this.descend(depth + 1, value);
  }

  /** value + the least, over points, of (remaining items not live there + fractional knapsack of those live there). */
  private bound(depth: number, value: number): number {
    const rest = this.order.slice(depth).filter((k) => fitsAlone(this.free, this.spans[k]!, this.items[k]!.size));
    const total = rest.reduce((sum, k) => sum + this.items[k]!.value, 0);
    let best = total;
    for (let p = 0; p < this.free.length && best > 0; p++) {
      this.work += rest.length;
      const live = rest.filter((k) => this.spans[k]![0] <= p && p < this.spans[k]![1]);
      const demand = live.reduce((sum, k) => sum + this.items[k]!.size, 0);
      if (demand <= this.free[p]!) continue;
      const outside = total - live.reduce((sum, k) => sum + this.items[k]!.value, 0);
      best = Math.min(best, outside + fractional(this.items, live, this.free[p]!));
    }
    if (this.work > this.budget) this.stopped = true;
    return value + best;
  }
}

/** The fractional knapsack of `live` in `room` bytes: by value per byte, the last one cut. */
function fractional(items: readonly TimedItem[], live: readonly number[], room: number): number {
  const byRatio = [...live].sort((a, b) => items[b]!.value / Math.max(1, items[b]!.size) - items[a]!.value / Math.max(1, items[a]!.size));
  let left = room;
  let value = 0;
  for (const k of byRatio) {
    const { size, value: v } = items[k]!;
    if (size <= left) {
      left -= size;
      value += v;
    } else {
      value += size === 0 ? v : (v * left) / size;
      break;
    }
  }
  return value;
}
