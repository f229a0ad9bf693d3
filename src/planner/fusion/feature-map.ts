// Feature-map fitting of a template fusion unit (METHODS.md M2, step 1): what
// an output tile costs on chip and in DRAM traffic, and the search for the
// on-chip tile; the rows and columns each tensor needs are unit-ranges.ts's.
// Depends only on the planner's fusion layer view.
//
// - A tile is (maps, rows, cols) of the unit's output.
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
import { elementBytes } from './layer-geometry';
import { nchw, type Layout } from './layout';
import { axisExtent, unitLayout, type AxisExtent, type UnitShape } from './unit-ranges';

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

/** One tensor's tile and when it is live inside the unit (layer positions, inclusive). */
export interface TileBuffer {
  readonly name: string;
  readonly bytes: number;
  readonly first: number;
  readonly last: number;
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

/** A tile as a cache key ("maps:rows:cols"), with any further parts (an alignment, a core count) after it. */
export function tileKey(tile: Tile, ...more: readonly number[]): string {
  return [tile.maps, tile.rows, tile.cols, ...more].join(':');
}

/** The value kept in `cache` for `unit` and `key`, computed and kept first when there is none. */
export function memoPerUnit<V>(cache: WeakMap<UnitShape, Map<string, V>>, unit: UnitShape, key: string, compute: () => V): V {
  let known = cache.get(unit);
  if (known === undefined) cache.set(unit, (known = new Map()));
  const hit = known.get(key);
  if (hit !== undefined) return hit;
  const value = compute();
  known.set(key, value);
  return value;
}

/** The tile buffers of a unit: each tensor's largest tile and its live layer positions. */
export function tileBuffers(unit: UnitShape, tile: Tile): readonly TileBuffer[] {
  return memoPerUnit(buffersKnown, unit, tileKey(tile), () => computeTileBuffers(unit, tile));
}

function computeTileBuffers(unit: UnitShape, tile: Tile): readonly TileBuffer[] {
  const rows = axisExtent(unit, 2, tile.rows);
  const cols = axisExtent(unit, 3, tile.cols);
  const { position, lastUse } = lifetimesOf(unit);
  const last = unit.layers.length - 1;
  const layout = unitLayout(unit);
  const buffers = [...unit.inputs, ...unit.internal, unit.output].map((v) => {
    const [, c] = nchw(v, layout);
    const bytes = tile.maps * c * (rows.maxLength.get(v.name) ?? 0) * (cols.maxLength.get(v.name) ?? 0) * unitElementBytes(unit, v);
    const first = position.get(v.name) ?? 0;
    return { name: v.name, bytes: Math.ceil(bytes), first, last: v === unit.output ? last : lastUse.get(v.name) ?? first };
  });
  return buffers;
}

/** Most tile bytes live at one layer of the unit (no two tiles share bytes); Infinity when some size is not finite. */
export function liveTileBytes(buffers: readonly TileBuffer[], layers: number): number {
  // A size that is not finite (a tiling too fine to examine) would turn the sweep's differences into NaN; such a tile never fits.
  if (!buffers.every((b) => Number.isFinite(b.bytes))) return Infinity;
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

/** DRAM bytes the unit's inputs cost when loaded tile by tile (halos included). */
export function tiledInputBytes(unit: UnitShape, tile: Tile): number {
  const rows = axisExtent(unit, 2, tile.rows);
  const cols = axisExtent(unit, 3, tile.cols);
  return unit.inputs.reduce((sum, v) => sum + loadedBytes(v, rows, cols, unitLayout(unit)), 0);
}

/** DRAM bytes one input of the unit costs when loaded tile by tile (halos included). */
export function tiledBytesOf(unit: UnitShape, tile: Tile, input: InferredValue): number {
  return Math.round(loadedBytes(input, axisExtent(unit, 2, tile.rows), axisExtent(unit, 3, tile.cols), unitLayout(unit)));
}

function loadedBytes(v: InferredValue, rows: AxisExtent, cols: AxisExtent, layout: Layout): number {
  const [n, c] = nchw(v, layout);
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
  const [n, , h, w] = nchw(unit.output, unitLayout(unit));
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
