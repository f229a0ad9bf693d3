// One level of the layered layout (layered.ts): boxes of known size and
// the edges between them, placed top to bottom. Every step has a bound, so no
// input makes it slow or large:
// - layers: longest path from the sources in the boxes' order (a model's order
//   is topological; an edge pointing back is drawn upward and not layered);
// - long edges: a dummy per layer crossed, shortest edges first, until the
//   shared dummy budget is spent; the rest are drawn straight;
// - crossings: barycentre sweeps down and up, as many as the work budget allows
//   (at most maxSweeps);
// - x: each layer packed left to right, then pulled towards the mean of its
//   neighbours in a few alternating passes, real boxes before dummies; y: layer by layer.
// No DOM, no UI libraries.

/** Bounds on the work of a layered layout. */
export interface LayeredLimits {
  readonly maxDummies: number; // over the whole layout
  readonly sweepWork: number; // (nodes + dummies + segments) × sweeps, per level
  readonly maxSweeps: number;
}

/** What a layout spent, to check its bounds. */
export interface LayeredStats {
  dummies: number;
  straight: number; // long edges drawn without dummies
  sweeps: number; // the most sweeps of any level
}

/** A box of a level. */
export interface LevelNode {
  readonly width: number;
  readonly height: number;
}

/** A level's result: positions (top-left, relative), its size, and each edge's interior points. */
export interface LevelPlacement {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly width: number;
  readonly height: number;
  readonly routes: readonly (readonly number[])[]; // by edge: x, y of each dummy
}

const GAP_X = 28;
const GAP_Y = 46;
const DUMMY = 10;
const PULL_PASSES = 4;
/** Rows up to this many slots are placed by priority (quadratic in the worst case); longer ones are squeezed. */
const PRIORITY_ROW = 400;

interface Slot {
  readonly node: number; // index into nodes, or -1 for a dummy
  readonly width: number;
  readonly height: number;
  up: number[]; // slots in the layer above joined to this one
  down: number[];
  x: number;
  pos: number;
}

/** Lays out one level; `stats` is shared across levels (the dummy budget is over all of them). See the module header. */
export function layoutLevel(nodes: readonly LevelNode[], edges: readonly (readonly [number, number])[], limits: LayeredLimits, stats: LayeredStats): LevelPlacement {
  const layer = new Int32Array(nodes.length);
  // Relaxing edges in order of their target is a longest path, since every source comes before its target.
  for (const [s, t] of [...edges].sort((a, b) => a[1] - b[1])) if (s < t) layer[t] = Math.max(layer[t]!, layer[s]! + 1);
  const slots: Slot[] = nodes.map((n, i) => ({ node: i, width: n.width, height: n.height, up: [], down: [], x: 0, pos: i }));
  const layerOf: number[] = Array.from(layer);
  const chains = longEdges(edges, layer, slots, layerOf, limits, stats);
  const layers: number[][] = [];
  slots.forEach((_, k) => (layers[layerOf[k]!] ??= []).push(k));
  const rows = layers.map((l) => l ?? []);
  rows.forEach((row) => row.forEach((k, p) => (slots[k]!.pos = p)));
  const size = slots.length + slots.reduce((n, s) => n + s.down.length, 0);
  const sweeps = Math.max(1, Math.min(limits.maxSweeps, Math.floor(limits.sweepWork / Math.max(1, size))));
  stats.sweeps = Math.max(stats.sweeps, sweeps);
  for (let k = 0; k < sweeps; k += 1) {
    for (let l = 1; l < rows.length; l += 1) reorder(rows[l]!, slots, 'up');
    for (let l = rows.length - 2; l >= 0; l -= 1) reorder(rows[l]!, slots, 'down');
  }
  placeX(rows, slots);
  return finish(rows, slots, nodes.length, chains);
}

/** Splits edges spanning several layers into dummy chains, shortest first, within the dummy budget. */
function longEdges(edges: readonly (readonly [number, number])[], layer: Int32Array, slots: Slot[], layerOf: number[], limits: LayeredLimits, stats: LayeredStats): number[][] {
  const chains: number[][] = edges.map(() => []);
  const order = edges.map((_, i) => i).sort((a, b) => span(edges[a]!, layer) - span(edges[b]!, layer));
  for (const e of order) {
    const [s, t] = edges[e]!;
    const length = span(edges[e]!, layer);
    if (length <= 0) continue;
    if (length > 1 && stats.dummies + length - 1 > limits.maxDummies) {
      stats.straight += 1;
      join(slots, s, t);
      continue;
    }
    let from = s;
    for (let l = layer[s]! + 1; l < layer[t]!; l += 1) {
      const k = slots.length;
      slots.push({ node: -1, width: DUMMY, height: 0, up: [], down: [], x: 0, pos: 0 });
      layerOf.push(l);
      chains[e]!.push(k);
      join(slots, from, k);
      from = k;
      stats.dummies += 1;
    }
    join(slots, from, t);
  }
  return chains;
}

function span([s, t]: readonly [number, number], layer: Int32Array): number {
  return s < t ? layer[t]! - layer[s]! : 0;
}

function join(slots: Slot[], a: number, b: number): void {
  slots[a]!.down.push(b);
  slots[b]!.up.push(a);
}

/** Orders a layer by the mean position of its neighbours on `side` (a slot without any keeps its place). */
function reorder(row: number[], slots: readonly Slot[], side: 'up' | 'down'): void {
  const key = new Map<number, number>();
  for (const k of row) {
    const near = slots[k]![side];
    key.set(k, near.length === 0 ? slots[k]!.pos : near.reduce((a, n) => a + slots[n]!.pos, 0) / near.length);
  }
  row.sort((a, b) => key.get(a)! - key.get(b)!);
  row.forEach((k, p) => (slots[k]!.pos = p));
}

/** Packs each layer, then pulls each slot towards its neighbours' centres, keeping order and gaps. */
function placeX(rows: readonly number[][], slots: Slot[]): void {
  for (const row of rows) {
    let x = 0;
    for (const k of row) {
      slots[k]!.x = x;
      x += slots[k]!.width + gap(slots[k]!);
    }
  }
  const widest = Math.max(0, ...rows.map((r) => (r.length === 0 ? 0 : slots[r.at(-1)!]!.x + slots[r.at(-1)!]!.width)));
  for (const row of rows) {
    const w = row.length === 0 ? 0 : slots[row.at(-1)!]!.x + slots[row.at(-1)!]!.width;
    for (const k of row) slots[k]!.x += (widest - w) / 2;
  }
  for (let pass = 0; pass < PULL_PASSES; pass += 1) {
    const side = pass % 2 === 0 ? 'up' : 'down';
    const order = side === 'up' ? rows : [...rows].reverse();
    for (const row of order) pull(row, slots, side);
  }
}

function gap(slot: Slot): number {
  return slot.node < 0 ? DUMMY : GAP_X;
}

function pull(row: readonly number[], slots: Slot[], side: 'up' | 'down'): void {
  const centre = (k: number): number => slots[k]!.x + slots[k]!.width / 2;
  const want = row.map((k) => {
    // A box follows its real neighbours and ignores the dummies of long edges beside it, so a
    // column with skip edges (DenseNet, residuals) stays straight rather than drifting sideways.
    const all = slots[k]![side];
    const real = all.filter((n) => slots[n]!.node >= 0);
    const near = real.length > 0 ? real : all;
    return near.length === 0 ? slots[k]!.x : near.reduce((a, n) => a + centre(n), 0) / near.length - slots[k]!.width / 2;
  });
  const x = row.length <= PRIORITY_ROW ? byPriority(row, slots, want) : squeezed(row, slots, want);
  row.forEach((k, i) => (slots[k]!.x = x[i]!));
}

/**
 * Real boxes first, most connected first, each as near as wanted between the
 * ones already placed (leaving room for those between): the dummies of long
 * edges give way, so they cannot push a column of boxes sideways layer after layer.
 */
function byPriority(row: readonly number[], slots: readonly Slot[], want: readonly number[]): number[] {
  const before = [0]; // room taken by row[0..i-1]
  row.forEach((k, i) => before.push(before[i]! + slots[k]!.width + gap(slots[k]!)));
  const degree = (k: number): number => (slots[k]!.node < 0 ? -1 : slots[k]!.up.length + slots[k]!.down.length);
  const order = row.map((_, i) => i).sort((a, b) => degree(row[b]!) - degree(row[a]!) || a - b);
  const x = want.slice();
  const placed = new Array<boolean>(row.length).fill(false);
  for (const i of order) {
    let lo = -Infinity;
    let hi = Infinity;
    for (let j = i - 1; j >= 0; j -= 1) if (placed[j]) { lo = x[j]! + before[i]! - before[j]!; break; }
    for (let j = i + 1; j < row.length; j += 1) if (placed[j]) { hi = x[j]! - (before[j]! - before[i]!); break; }
    x[i] = Math.max(lo, Math.min(hi, want[i]!));
    placed[i] = true;
  }
  return x;
}

/** Left to right: as near as wanted without overlapping the left neighbour; then right to left the same. */
function squeezed(row: readonly number[], slots: readonly Slot[], want: readonly number[]): number[] {
  const x = want.slice();
  for (let i = 1; i < row.length; i += 1) x[i] = Math.max(x[i]!, x[i - 1]! + slots[row[i - 1]!]!.width + gap(slots[row[i - 1]!]!));
  for (let i = row.length - 2; i >= 0; i -= 1) x[i] = Math.min(x[i]!, x[i + 1]! - slots[row[i]!]!.width - gap(slots[row[i]!]!));
  return x;
}

function finish(rows: readonly number[][], slots: readonly Slot[], count: number, chains: readonly number[][]): LevelPlacement {
  let minX = Infinity;
  let maxX = 0;
  for (const s of slots) {
    minX = Math.min(minX, s.x);
    maxX = Math.max(maxX, s.x + s.width);
  }
  if (!Number.isFinite(minX)) minX = 0;
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  const slotY = new Float64Array(slots.length);
  let top = 0;
  for (const row of rows) {
    const height = Math.max(0, ...row.map((k) => slots[k]!.height));
    for (const k of row) {
      slotY[k] = top + (height - slots[k]!.height) / 2;
      if (slots[k]!.node >= 0) {
        x[slots[k]!.node] = slots[k]!.x - minX;
        y[slots[k]!.node] = slotY[k]!;
      }
    }
    top += height + (row.length > 0 ? GAP_Y : 0);
  }
  const routes = chains.map((chain) => chain.flatMap((k) => [slots[k]!.x - minX + DUMMY / 2, slotY[k]!]));
  return { x, y, width: maxX - minX, height: Math.max(0, top - GAP_Y), routes };
}
