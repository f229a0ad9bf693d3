// Small hand-made plans for the heap diagram's tests: regions with a given
// peak and buffers placed by hand, so a test can work out every pixel.

import type { ModelPlan, PlannedBuffer } from '../../planner/plan';
import { syntheticPlan } from '../heap/synthetic-plan';

/** A buffer of region `region` live over steps [start, end) at [offset, offset + size). */
export function heapBuffer(id: number, region: string, start: number, end: number, offset: number, size: number, parent?: number): PlannedBuffer {
  return {
    id, name: `b${id}`, kind: 'activation', size, bytes: size, start, end, offset, region,
    ...(parent !== undefined && { alias: { parent, offset: 0, rule: 'window' as const } }),
  };
}

/** A plan of `steps` steps over `regions` (name and peak, in memory-map order) holding `buffers`. */
export function heapPlan(regions: readonly { name: string; peak: number }[], buffers: readonly PlannedBuffer[], steps: number): ModelPlan {
  const base = syntheticPlan(10);
  const region = base.regions[0]!;
  return {
    ...base,
    buffers,
    regions: regions.map((r) => ({ ...region, name: r.name, peak: r.peak, lowerBound: r.peak, peakStep: undefined })),
    steps: Array.from({ length: steps }, (_, s) => ({ node: `n${s}`, opType: 'Synthetic', kind: 'computing' as const })),
  };
}
