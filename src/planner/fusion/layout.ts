// Where N, C, H and W sit in a feature map's shape, by the format of the
// model the layer comes from: ONNX maps are NCHW, TensorFlow Lite maps NHWC.
// The fusion planners (M2, M5) number axes the NCHW way (0 N, 1 C, 2 H, 3 W)
// and look each one up here. Depends only on the model's IR types and the
// planner's op tables.

import type { InferredValue } from '../../model/inferred';
import { isTfliteNode } from '../problem/tflite-ops';

/** The order of a feature map's axes in memory. */
export type Layout = 'NCHW' | 'NHWC';

/** An axis of a feature map, numbered the NCHW way whatever the layout: 0 N, 1 C, 2 H, 3 W. */
export type MapAxis = 0 | 1 | 2 | 3;

/** Position in the shape of N, C, H and W, per layout. */
const POSITIONS: Readonly<Record<Layout, readonly [number, number, number, number]>> = {
  NCHW: [0, 1, 2, 3],
  NHWC: [0, 3, 1, 2],
};

/** The layout of a node's feature maps: NHWC for a TFLite op (builtin or custom), NCHW otherwise. */
export function layoutOf(node: { readonly opType: string; readonly domain: string }): Layout {
  return isTfliteNode(node) ? 'NHWC' : 'NCHW';
}

/** Position in a 4-D shape of `axis` (0 N, 1 C, 2 H, 3 W) under `layout`. */
export function shapeAxis(layout: Layout, axis: MapAxis): number {
  return POSITIONS[layout][axis];
}

/** Dims [N, C, H, W] of a 4-D value stored in `layout` (1 for a dim it lacks). */
export function nchw(value: InferredValue, layout: Layout = 'NCHW'): readonly [number, number, number, number] {
  const s = value.shape ?? [1, 1, 1, 1];
  const [n, c, h, w] = POSITIONS[layout];
  return [s[n] ?? 1, s[c] ?? 1, s[h] ?? 1, s[w] ?? 1];
}
