// The rows and columns of every tensor of a template fusion unit that one
// output tile needs (METHODS.md M2, step 1), and their extents over all the
// tiles of one axis; the tiles' bytes and their search are feature-map.ts's.
// Depends only on the planner's fusion layer view.
//
// - Walking the unit's layers backwards, an output row range [a, b) of a
//   layer needs input rows [a*s - pad, (b-1)*s - pad + (k-1)*d + 1), clipped
//   to the map (a Resize by factor u: [floor(a/u) - halo, floor((b-1)/u) + 1
//   + halo)); a tensor read by several layers needs the hull of their ranges;
//   a scalar is read whole.
// - The walk is laid out once per unit and axis with tensors numbered
//   (rangeWalk), then run tile by tile over arrays (walkTile).
// - Axes are named the NCHW way (2: H, 3: W) and read from each shape where
//   the unit's layout keeps them (layout.ts): an NHWC unit's H is dim 1.

import type { InferredValue } from '../../model/inferred';
import type { AxisWindow, Layer } from './layer-geometry';
import { shapeAxis, type Layout } from './layout';

/** The layers of a unit, in execution order, and its boundary tensors. */
export interface UnitShape {
  readonly layers: readonly Layer[];
  readonly inputs: readonly InferredValue[]; // read from DRAM, in order of first use
  readonly output: InferredValue; // written to DRAM
  readonly internal: readonly InferredValue[]; // stay on chip
  readonly onChipElement?: ReadonlyMap<string, number>; // bytes per element of internal tensors held in another type than the file's
}

/** The layout of a unit's feature maps: its layers' (a unit holds layers of one layout; tfu/rules.ts, tileable). */
export function unitLayout(unit: UnitShape): Layout {
  return unit.layers[0]?.layout ?? 'NCHW';
}

/** Per-tensor extent of a tile along one axis. */
export interface AxisExtent {
  readonly tiles: number;
  readonly maxLength: ReadonlyMap<string, number>; // largest range over tiles
  readonly sumLength: ReadonlyMap<string, number>; // ranges summed over tiles
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
  const walk = rangeWalk(unit, axis);
  const from = new Float64Array(walk.names.length);
  const to = new Float64Array(walk.names.length);
  walkTile(walk, lo, hi, from, to);
  return new Map(walk.names.map((name, k): [string, [number, number]] => [name, [from[k]!, to[k]!]]));
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
  const total = unit.output.shape![shapeAxis(unitLayout(unit), axis)]!;
  if (!(size >= 1) || Math.ceil(total / size) > MAX_AXIS_TILES) {
    const never = new Map([...unit.inputs, ...unit.internal, unit.output].map((v) => [v.name, Infinity] as const));
    return { tiles: Infinity, maxLength: never, sumLength: never };
  }
  const walk = rangeWalk(unit, axis);
  const count = walk.names.length;
  const lo = new Float64Array(count);
  const hi = new Float64Array(count);
  const most = new Float64Array(count);
  const sum = new Float64Array(count);
  let tiles = 0;
  for (let start = 0; start < total; start += size, tiles++) {
    walkTile(walk, start, Math.min(total, start + size), lo, hi);
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

/** The unit's layers walked backwards from its output, with tensors numbered in the order the walk meets them (0: the unit's output). */
interface RangeWalk {
  readonly names: readonly string[];
  readonly steps: readonly { readonly out: number; readonly win: AxisWindow; readonly inputs: readonly { readonly slot: number; readonly extent: number; readonly known: boolean }[] }[];
}

function rangeWalk(unit: UnitShape, axis: 2 | 3): RangeWalk {
  const dim = shapeAxis(unitLayout(unit), axis);
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
      return { slot, extent: input.shape?.[dim] ?? 1, known: known !== undefined };
    });
    steps.push({ out, win: axis === 2 ? layer.h : layer.w, inputs });
  }
  return { names: [...slots.keys()], steps };
}

/** Runs `walk` for output range [from, to): leaves each tensor's range in `lo` and `hi`, by its number. */
function walkTile(walk: RangeWalk, from: number, to: number, lo: Float64Array, hi: Float64Array): void {
  lo[0] = from;
  hi[0] = to;
  for (const step of walk.steps) {
    for (const input of step.inputs) {
      const [a, b] = input.extent === 1 ? [0, 1] : inputRange(step.win, lo[step.out]!, hi[step.out]!, input.extent);
      // The walk's first reader of a tensor sets its range, later ones widen it to the hull.
      if (input.known) {
        lo[input.slot] = Math.min(lo[input.slot]!, a);
        hi[input.slot] = Math.max(hi[input.slot]!, b);
      } else {
        lo[input.slot] = a;
        hi[input.slot] = b;
      }
    }
  }
}
