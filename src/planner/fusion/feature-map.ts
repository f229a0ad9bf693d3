// Feature-map fitting of a template fusion unit (METHODS.md M2, step 1): which
// rows and columns of every tensor of the unit one output tile needs (halos
// from kernel, stride, pads and dilation), what a tile costs on chip, and the
// search for the on-chip tile. Depends only on the planner's fusion layer view.
//
// - A tile is (maps, rows, cols) of the unit's output. Walking the unit's
//   layers backwards, an output row range [a, b) of a layer needs input rows
//   [a*s - pad, (b-1)*s - pad + (k-1)*d + 1), clipped to the map (a Resize by
//   factor u: [floor(a/u) - halo, floor((b-1)/u) + 1 + halo)); a tensor read
//   by several layers needs the hull of their ranges; a scalar is read whole.
// - Element sizes: a tensor that stays on chip is held as stored-sizes.ts
//   says (int8 where a quantized graph folds its float copy away); the
//   unit's inputs and output are as large as in DRAM.
// - H and W are independent, so a tensor's largest tile is (largest row range)
//   × (largest column range), and the rows loaded over all tiles is the sum of
//   the row ranges times the sum of the column ranges (exact halo traffic).
// - Small-map mode: one whole map fits, so whole maps are loaded, as many per
//   tile as fit (at most maxSmallMaps). Large-map mode: split N (one map per
//   tile), then H, then W, until a tile fits.
// - Large-to-small: halve until it fits, then refine from the last size that
//   failed by 3/4, 4/5, 5/6, ... keeping the largest that fits. Small-to-large:
//   grow 1, 2, 3, ... until the next size no longer fits.

import type { InferredValue } from '../../model/inferred';
import { elementBytes, nchw, type AxisWindow, type Layer } from './layer-geometry';

/** The layers of a unit, in execution order, and its boundary tensors. */
export interface UnitShape {
  readonly layers: readonly Layer[];
  readonly inputs: readonly InferredValue[]; // read from DRAM, in order of first use
  readonly output: InferredValue; // written to DRAM
  readonly internal: readonly InferredValue[]; // stay on chip
  readonly onChipElement?: ReadonlyMap<string, number>; // bytes per element of internal tensors held in another type than the file's
}

/** Bytes per element of a tensor of the unit: its on-chip type's if it stays on chip, else the file's. */
export function unitElementBytes(unit: UnitShape, v: InferredValue): number {
  return unit.onChipElement?.get(v.name) ?? elementBytes(v);
}

/** How a unit's feature map is brought on chip. */
export type MapMode = 'small-map' | 'large-map';

/** A tile of the unit's output. */
export interface Tile {
  readonly mode: MapMode;
  readonly maps: number; // N per tile
  readonly rows: number; // output rows per tile
  readonly cols: number; // output columns per tile
}

/** Per-tensor extent of a tile along one axis. */
export interface AxisExtent {
  readonly tiles: number;
  readonly maxLength: ReadonlyMap<string, number>; // largest range over tiles
  readonly sumLength: ReadonlyMap<string, number>; // ranges summed over tiles
}

/** One tensor's tile and when it is live inside the unit (layer positions, inclusive). */
export interface TileBuffer {
  readonly name: string;
  readonly bytes: number;
  readonly first: number;
  readonly last: number;
}

/** The input range one layer needs for an output range, clipped to [0, extent). */
export function inputRange(win: AxisWindow, lo: number, hi: number, extent: number): [number, number] {
  if (win.upscale !== undefined) {
    const halo = win.halo ?? 0;
    const [a, b] = [Math.floor(lo / win.upscale) - halo, Math.floor((hi - 1) / win.upscale) + 1 + halo];
    return [Math.max(0, Math.min(extent, a)), Math.max(0, Math.min(extent, b))];
  }
  const from = lo * win.stride - win.padBegin;
  const to = (hi - 1) * win.stride - win.padBegin + (win.kernel - 1) * win.dilation + 1;
  return [Math.max(0, Math.min(extent, from)), Math.max(0, Math.min(extent, to))];
}

/** Ranges every tensor of the unit needs for output range [lo, hi) along `axis` (2: H, 3: W). */
export function unitRanges(unit: UnitShape, axis: 2 | 3, lo: number, hi: number): Map<string, [number, number]> {
  const ranges = new Map<string, [number, number]>([[unit.output.name, [lo, hi]]]);
  for (let i = unit.layers.length - 1; i >= 0; i--) {
    const layer = unit.layers[i]!;
    const out = ranges.get(layer.output!.name);
    if (out === undefined) continue;
    const win = axis === 2 ? layer.h : layer.w;
    for (const input of layer.inputs) {
      const extent = input.shape?.[axis] ?? 1;
      const [a, b] = extent === 1 ? [0, 1] : inputRange(win, out[0], out[1], extent);
      const known = ranges.get(input.name);
      ranges.set(input.name, known === undefined ? [a, b] : [Math.min(known[0], a), Math.max(known[1], b)]);
    }
  }
  return ranges;
}

/** Extents already computed, per unit shape (the search asks for the same ones many times). */
const extents = new WeakMap<UnitShape, Map<number, AxisExtent>>();

/** Extents of every tensor over the tiles of `size` output rows (or columns). */
export function axisExtent(unit: UnitShape, axis: 2 | 3, size: number): AxisExtent {
  let known = extents.get(unit);
  if (known === undefined) extents.set(unit, (known = new Map()));
  const key = size * 4 + axis;
  const hit = known.get(key);
  if (hit !== undefined) return hit;
  const extent = computeExtent(unit, axis, size);
  known.set(key, extent);
  return extent;
}

/**
 * Tiles along one axis past which a tiling is not examined: each tile is
 * walked layer by layer, so a huge dim (a 2^30-row map) would cost work per
 * element. Such a tiling counts as never fitting.
 */
export const MAX_AXIS_TILES = 8192;

function computeExtent(unit: UnitShape, axis: 2 | 3, size: number): AxisExtent {
  const total = unit.output.shape![axis]!;
  if (!(size >= 1) || Math.ceil(total / size) > MAX_AXIS_TILES) {
    const never = new Map([...unit.inputs, ...unit.internal, unit.output].map((v) => [v.name, Infinity] as const));
    return { tiles: Infinity, maxLength: never, sumLength: never };
  }
  // unitRanges tile by tile, over numbered tensors instead of a map per tile
  const walk = rangeWalk(unit, axis);
  const count = walk.names.length;
  const lo = new Float64Array(count);
  const hi = new Float64Array(count);
  const most = new Float64Array(count);
  const sum = new Float64Array(count);
  let tiles = 0;
  for (let start = 0; start < total; start += size, tiles++) {
    lo[0] = start;
    hi[0] = Math.min(total, start + size);
    for (const step of walk.steps) {
      for (const input of step.inputs) {
        const [a, b] = input.extent === 1 ? [0, 1] : inputRange(step.win, lo[step.out]!, hi[step.out]!, input.extent);
        if (input.known) {
          lo[input.slot] = Math.min(lo[input.slot]!, a);
          hi[input.slot] = Math.max(hi[input.slot]!, b);
        } else {
          lo[input.slot] = a;
          hi[input.slot] = b;
        }
      }
    }
    for (let k = 0; k < count; k++) {
      const length = hi[k]! - lo[k]!;
      most[k] = Math.max(most[k]!, length);
      sum[k] = sum[k]! + length;
    }
  }
  const maxLength = new Map<string, number>();
  const sumLength = new Map<string, number>();
  walk.names.forEach((name, k) => {
    maxLength.set(name, most[k]!);
    sumLength.set(name, sum[k]!);
  });
  return { tiles, maxLength, sumLength };
}

/** The layer walk of unitRanges with tensors numbered in the order it meets them (0: the unit's output). */
interface RangeWalk {
  readonly names: readonly string[];
  readonly steps: readonly { readonly out: number; readonly win: AxisWindow; readonly inputs: readonly { readonly slot: number; readonly extent: number; readonly known: boolean }[] }[];
}

function rangeWalk(unit: UnitShape, axis: 2 | 3): RangeWalk {
  const slots = new Map<string, number>([[unit.output.name, 0]]);
  const steps: RangeWalk['steps'][number][] = [];
  for (let i = unit.layers.length - 1; i >= 0; i--) {
    const layer = unit.layers[i]!;
    const out = slots.get(layer.output!.name);
    if (out === undefined) continue;
    const inputs = layer.inputs.map((input) => {
      const known = slots.get(input.name);
      const slot = known ?? slots.size;
      if (known === undefined) slots.set(input.name, slot);
      return { slot, extent: input.shape?.[axis] ?? 1, known: known !== undefined };
    });
    steps.push({ out, win: axis === 2 ? layer.h : layer.w, inputs });
  }
  return { names: [...slots.keys()], steps };
}

/** Where each tensor of a unit is written and last read (layer positions), per unit shape. */
const lifetimes = new WeakMap<UnitShape, { readonly position: ReadonlyMap<string, number>; readonly lastUse: ReadonlyMap<string, number> }>();

function lifetimesOf(unit: UnitShape): { readonly position: ReadonlyMap<string, number>; readonly lastUse: ReadonlyMap<string, number> } {
  let known = lifetimes.get(unit);
  if (known === undefined) {
    const position = new Map<string, number>();
    const lastUse = new Map<string, number>();
    unit.layers.forEach((l, i) => {
      position.set(l.output!.name, i);
      for (const v of l.sideOutputs) position.set(v.name, i);
      for (const v of l.inputs) lastUse.set(v.name, i);
    });
    lifetimes.set(unit, (known = { position, lastUse }));
  }
  return known;
}

/** Tile buffers already computed, per unit shape and tile (every capacity rule asks for them). */
const buffersKnown = new WeakMap<UnitShape, Map<string, readonly TileBuffer[]>>();

/** The tile buffers of a unit: each tensor's largest tile and its live layer positions. */
export function tileBuffers(unit: UnitShape, tile: Tile): readonly TileBuffer[] {
  let known = buffersKnown.get(unit);
  if (known === undefined) buffersKnown.set(unit, (known = new Map()));
  const key = `${tile.maps}:${tile.rows}:${tile.cols}`;
  const hit = known.get(key);
  if (hit !== undefined) return hit;
  const rows = axisExtent(unit, 2, tile.rows);
  const cols = axisExtent(unit, 3, tile.cols);
  const { position, lastUse } = lifetimesOf(unit);
  const last = unit.layers.length - 1;
  const buffers = [...unit.inputs, ...unit.internal, unit.output].map((v) => {
    const [, c] = nchw(v);
    const bytes = tile.maps * c * (rows.maxLength.get(v.name) ?? 0) * (cols.maxLength.get(v.name) ?? 0) * unitElementBytes(unit, v);
    const first = position.get(v.name) ?? 0;
    return { name: v.name, bytes: Math.ceil(bytes), first, last: v === unit.output ? last : lastUse.get(v.name) ?? first };
  });
  known.set(key, buffers);
  return buffers;
}

/** Most tile bytes live at one layer of the unit (no two tiles share bytes). */
export function liveTileBytes(buffers: readonly TileBuffer[], layers: number): number {
  // Sizes that are not finite (a tiling too fine to examine) would turn the sweep's differences into NaN.
  if (!buffers.every((b) => Number.isFinite(b.bytes))) return liveTileBytesByLayer(buffers, layers);
  // A sweep over layer positions: whole bytes, so the running sums are exactly the per-layer sums.
  const change = new Float64Array(layers + 1);
  for (const b of buffers) {
    const from = Math.max(0, b.first);
    const to = Math.min(layers - 1, b.last);
    if (from > to) continue;
    change[from] = change[from]! + b.bytes;
    change[to + 1] = change[to + 1]! - b.bytes;
  }
  let peak = 0;
  let live = 0;
  for (let i = 0; i < layers; i++) {
    live += change[i]!;
    peak = Math.max(peak, live);
  }
  return peak;
}

/** liveTileBytes layer by layer, for sizes that are not all finite. */
function liveTileBytesByLayer(buffers: readonly TileBuffer[], layers: number): number {
  let peak = 0;
  for (let i = 0; i < layers; i++) {
    peak = Math.max(peak, buffers.filter((b) => b.first <= i && i <= b.last).reduce((s, b) => s + b.bytes, 0));
  }
  return peak;
}

/** DRAM bytes the unit's inputs cost when loaded tile by tile (halos included). */
export function tiledInputBytes(unit: UnitShape, tile: Tile): number {
  const rows = axisExtent(unit, 2, tile.rows);
  const cols = axisExtent(unit, 3, tile.cols);
  return unit.inputs.reduce((sum, v) => sum + loadedBytes(v, rows, cols), 0);
}

/** DRAM bytes one input of the unit costs when loaded tile by tile (halos included). */
export function tiledBytesOf(unit: UnitShape, tile: Tile, input: InferredValue): number {
  return Math.round(loadedBytes(input, axisExtent(unit, 2, tile.rows), axisExtent(unit, 3, tile.cols)));
}

function loadedBytes(v: InferredValue, rows: AxisExtent, cols: AxisExtent): number {
  const [n, c] = nchw(v);
  return n * c * (rows.sumLength.get(v.name) ?? 0) * (cols.sumLength.get(v.name) ?? 0) * elementBytes(v);
}

/** Extra input traffic of halo overlap, as a percentage of the unsplit input traffic. */
export function redundancyPercent(unit: UnitShape, tile: Tile): number {
  const unsplit = unit.inputs.reduce((s, v) => s + (v.bytes ?? 0), 0);
  return unsplit === 0 ? 0 : ((tiledInputBytes(unit, tile) - unsplit) / unsplit) * 100;
}

/**
 * Searches the on-chip tile: small-map mode when one whole map fits, else
 * large-map mode splitting N, then H, then W. `fits` is the capacity test.
 * Returns undefined when not even a 1×1 tile of one map fits.
 */
export function searchTile(unit: UnitShape, order: 'large-to-small' | 'small-to-large', maxMaps: number, fits: (tile: Tile) => boolean): Tile | undefined {
  const [n, , h, w] = nchw(unit.output);
  const whole: Tile = { mode: 'small-map', maps: 1, rows: h, cols: w };
  if (fits(whole)) {
    const maps = searchSize(Math.min(n, maxMaps), order, (m) => fits({ ...whole, maps: m }));
    return { ...whole, maps: maps ?? 1 };
  }
  const rows = searchSize(h, order, (r) => fits({ mode: 'large-map', maps: 1, rows: r, cols: w }));
  if (rows !== undefined) return { mode: 'large-map', maps: 1, rows, cols: w };
  const cols = searchSize(w, order, (c) => fits({ mode: 'large-map', maps: 1, rows: 1, cols: c }));
  return cols === undefined ? undefined : { mode: 'large-map', maps: 1, rows: 1, cols };
}

/** Sizes the small-to-large search steps through one by one before it gallops. */
const LINEAR_SEARCH = 4096;

/** Refinement ratios of the large-to-small search, tried from the last size that failed. */
const REFINE = [3 / 4, 4 / 5, 5 / 6, 6 / 7, 7 / 8, 8 / 9, 9 / 10];

/** The largest size in [1, full] the search accepts, or undefined when 1 does not fit. */
export function searchSize(full: number, order: 'large-to-small' | 'small-to-large', fits: (size: number) => boolean): number | undefined {
  // A dim that is not a whole positive number (unknown, NaN) gives no size to search.
  if (!Number.isSafeInteger(full) || full < 1) return undefined;
  if (order === 'small-to-large') {
    if (!fits(1)) return undefined;
    let size = 1;
    while (size < Math.min(full, LINEAR_SEARCH) && fits(size + 1)) size++;
    if (size < LINEAR_SEARCH || size >= full) return size;
    // Past a few thousand, one step at a time would be work per element of the dim: gallop, then halve.
    let fail = full + 1;
    for (let next = size * 2; next <= full; next *= 2) {
      if (!fits(next)) {
        fail = next;
        break;
      }
      size = next;
    }
    if (fail > full && size < full && fits(full)) return full;
    if (fail > full) fail = full;
    while (fail - size > 1) {
      const mid = Math.floor((size + fail) / 2);
      if (fits(mid)) size = mid;
      else fail = mid;
    }
    return size;
  }
  let size = full;
  let failed: number | undefined;
  while (!fits(size)) {
    if (size === 1) return undefined;
    failed = size;
    size = Math.ceil(size / 2);
  }
  if (failed === undefined) return size;
  let best = size;
  for (const ratio of REFINE) {
    const candidate = Math.floor(failed * ratio);
    if (candidate > best && candidate < failed && fits(candidate)) best = candidate;
  }
  return best;
}
