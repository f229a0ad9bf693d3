// Which buffer is under a point of the heap diagram: the lane under the point,
// then that lane's spatial index at the point's (step, address). Among buffers
// that share bytes, the one drawn on top (a sharer over its owner) wins, then
// the smallest.

import type { ZoomTransform } from 'd3';
import type { HeapData } from './heap-data';
import { laneAt, type HeapLayout, type HeapScales } from './heap-geometry';

/** The buffer under plot point (px, py), in CSS pixels from the plot's top left. */
export function bufferAt(data: HeapData, layout: HeapLayout, scales: HeapScales, t: ZoomTransform, px: number, py: number): number | undefined {
  if (px < 0 || px >= layout.plot.width || py < 0 || py >= layout.plot.height) return undefined;
  const lane = laneAt(layout, py, t);
  if (lane === undefined) return undefined;
  const step = scales.x.invert(px);
  const address = scales.y[lane]!.invert(py);
  // A buffer thinner than a pixel is still hit within half a pixel of it.
  const slack = Math.abs(scales.y[lane]!.invert(py + 1) - address);
  let best: number | undefined;
  data.lanes[lane]!.index.queryRect(step, address - slack, step, address + slack, (i) => {
    if (step < data.start[i]! || step >= data.end[i]!) return;
    if (best === undefined || onTop(data, i, best)) best = i;
  });
  return best;
}

function onTop(data: HeapData, a: number, b: number): boolean {
  if (data.shared[a] !== data.shared[b]) return data.shared[a]! > data.shared[b]!;
  return data.size[a]! < data.size[b]! || (data.size[a] === data.size[b] && a > b);
}
