// The feature-map tiling rule of Resize and Upsample (METHODS.md M2, step 1):
// nearest or linear resampling by an integer factor on H and W maps output
// row r to input row floor(r / factor), give or take a halo of one row where
// the coordinate mode or the interpolation reads a neighbour. Depends only on
// the model's IR types.
//
// - The factor per axis is read from the shapes (output / input): a Resize
//   given sizes or scales that are not an integer factor has no rule; N and C
//   must keep their size.
// - Halo 0: nearest with half_pixel or pytorch_half_pixel coordinates and
//   round_prefer_floor or round_prefer_ceil rounding (output row r reads
//   floor(r / factor) exactly for integer factors), nearest with asymmetric
//   coordinates and floor rounding, and Upsample's nearest (asymmetric, floor).
// - Halo 1 (one row before and after each tile): linear interpolation, which
//   reads two neighbouring rows, and nearest with any other coordinate mode or
//   rounding. Cubic and tf_crop_and_resize have no rule.

import type { InferredNode, InferredValue } from '../../model/inferred';

/** How one spatial axis of a resampling op maps output rows to input rows. */
export interface ResampleAxis {
  readonly factor: number; // output rows per input row (an integer >= 1)
  readonly halo: number; // extra input rows read on each side of a tile
}

/** The rule for both spatial axes [H, W], or why the op has none. */
export type ResampleRule = { readonly axes: readonly [ResampleAxis, ResampleAxis] } | { readonly reason: string };

const EXACT_NEAREST = new Set(['half_pixel:round_prefer_floor', 'half_pixel:round_prefer_ceil', 'pytorch_half_pixel:round_prefer_floor', 'pytorch_half_pixel:round_prefer_ceil', 'asymmetric:floor']);

/** True for the ops this rule covers. */
export function isResample(opType: string): boolean {
  return opType === 'Resize' || opType === 'Upsample';
}

function text(node: InferredNode, key: string, fallback: string): string {
  const value = node.attributes?.[key];
  return typeof value === 'string' ? value : fallback;
}

/** The resampling rule of a Resize or Upsample node from its attributes and its input and output shapes. */
export function resampleRule(node: InferredNode, input: InferredValue | undefined, output: InferredValue | undefined): ResampleRule {
  const mode = text(node, 'mode', 'nearest');
  if (mode !== 'nearest' && mode !== 'linear' && mode !== 'bilinear') return { reason: `${node.opType} mode '${mode}' has no tiling rule (nearest and linear only)` };
  const coordinates = node.opType === 'Upsample' ? 'asymmetric' : text(node, 'coordinate_transformation_mode', 'half_pixel');
  if (coordinates === 'tf_crop_and_resize') return { reason: `${node.opType} with tf_crop_and_resize coordinates has no tiling rule` };
  const a = input?.shape;
  const b = output?.shape;
  if (a === undefined || b === undefined || a.length !== 4 || b.length !== 4) return { reason: `${node.opType} does not resample a known 4-D feature map` };
  if (a[0] !== b[0] || a[1] !== b[1]) return { reason: `${node.opType} changes N or C, not only H and W` };
  const rounding = node.opType === 'Upsample' ? 'floor' : text(node, 'nearest_mode', 'round_prefer_floor');
  const halo = mode === 'nearest' && EXACT_NEAREST.has(`${coordinates}:${rounding}`) ? 0 : 1;
  const axes: ResampleAxis[] = [];
  for (const axis of [2, 3]) {
    const factor = b[axis]! / a[axis]!;
    if (!Number.isInteger(factor) || factor < 1) {
      return { reason: `${node.opType} scales ${axis === 2 ? 'H' : 'W'} by ${Number.isFinite(factor) ? +factor.toFixed(3) : factor}: only integer factors tile` };
    }
    axes.push({ factor, halo: factor === 1 && mode === 'nearest' ? 0 : halo });
  }
  return { axes: [axes[0]!, axes[1]!] };
}
