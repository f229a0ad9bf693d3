// explainPlan: why a plan has the size it has. Per region: peak, lower bound,
// gap, the optimal label (peak == bound), and the waste split into holes,
// alignment padding and scratch growth; for the plan: the peak step and the
// buffers live there, largest first, each with the bytes it adds (live-at.ts). Depends only on the planner.
//
// Waste is measured against the bound on data bytes (no padding):
//   peak - rawBound = alignment padding (bound - rawBound)
//                   + scratch growth (heap bytes M4 added above the activation
//                     plan, at most the gap)
//                   + holes (the rest of the gap: free bytes under the peak).

import type { BufferInfo } from '../problem/build-problem';
import { liveAtStep, type LiveBuffer } from './live-at';
import { regionOf, type PlacementProblem } from '../problem/problem';
import type { RegionBound } from '../scratch/bound';

export type { LiveBuffer };

/** The waste of a region or plan, in bytes. */
export interface Waste {
  readonly total: number; // peak - bound on data bytes
  readonly holes: number;
  readonly alignmentPadding: number;
  readonly scratchGrowth: number;
}

/** The explanation of one region. */
export interface RegionExplanation {
  readonly name: string;
  readonly peak: number;
  readonly lowerBound: number;
  readonly optimal: boolean; // peak == lower bound
  readonly peakStep: number | undefined;
  readonly waste: Waste;
}

/** The explanation of a whole plan. */
export interface PlanExplanation {
  readonly peak: number; // sum of the region peaks
  readonly lowerBound: number; // sum of the region bounds
  readonly gap: number; // peak / lowerBound - 1 (0 when both are 0)
  readonly optimal: boolean; // every region at its bound
  readonly peakStep: number | undefined; // where the largest region's bound is reached
  readonly peakRegion: string | undefined;
  readonly liveAtPeak: readonly LiveBuffer[]; // in that region at that step, largest first
  readonly waste: Waste;
  readonly regions: readonly RegionExplanation[];
}

/** What explainPlan reads. */
export interface ExplainInput {
  readonly problem: PlacementProblem; // every buffer of the plan
  readonly offsets: readonly number[];
  readonly info: readonly BufferInfo[];
  readonly bounds: readonly RegionBound[]; // one per region, in report order
  readonly activationPeaks: ReadonlyMap<string, number>; // region peaks before scratch was placed (M4)
}

/** Explains a valid plan; see the module header. */
export function explainPlan(input: ExplainInput): PlanExplanation {
  const peaks = regionPeaks(input.problem, input.offsets);
  const regions = input.bounds.map((bound) => explainRegion(bound, peaks.get(bound.name) ?? 0, input.activationPeaks.get(bound.name)));
  const peak = regions.reduce((sum, r) => sum + r.peak, 0);
  const lowerBound = regions.reduce((sum, r) => sum + r.lowerBound, 0);
  let top: RegionExplanation | undefined;
  for (const r of regions) if (top === undefined || r.lowerBound > top.lowerBound) top = r;
  const peakStep = top?.peakStep;
  return {
    peak,
    lowerBound,
    gap: lowerBound > 0 ? peak / lowerBound - 1 : 0,
    optimal: regions.every((r) => r.optimal),
    peakStep,
    peakRegion: top?.name,
    liveAtPeak: top === undefined || peakStep === undefined ? [] : liveAt(input, top.name, peakStep),
    waste: {
      total: sum(regions, (r) => r.waste.total),
      holes: sum(regions, (r) => r.waste.holes),
      alignmentPadding: sum(regions, (r) => r.waste.alignmentPadding),
      scratchGrowth: sum(regions, (r) => r.waste.scratchGrowth),
    },
    regions,
  };
}

function explainRegion(bound: RegionBound, peak: number, activationPeak: number | undefined): RegionExplanation {
  const gap = Math.max(0, peak - bound.lowerBound);
  const scratchGrowth = activationPeak === undefined ? 0 : Math.min(gap, Math.max(0, peak - activationPeak));
  return {
    name: bound.name,
    peak,
    lowerBound: bound.lowerBound,
    optimal: peak === bound.lowerBound,
    peakStep: bound.peakStep,
    waste: {
      total: peak - bound.rawLowerBound,
      holes: gap - scratchGrowth,
      alignmentPadding: bound.lowerBound - bound.rawLowerBound,
      scratchGrowth,
    },
  };
}

/** max(offset + size) per region. */
export function regionPeaks(problem: PlacementProblem, offsets: readonly number[]): Map<string, number> {
  const peaks = new Map<string, number>();
  for (const b of problem.buffers) {
    const region = regionOf(b);
    peaks.set(region, Math.max(peaks.get(region) ?? 0, offsets[b.id]! + b.size));
  }
  return peaks;
}

function liveAt(input: ExplainInput, region: string, step: number): LiveBuffer[] {
  const records = input.problem.buffers.map((b) => {
    const info = input.info[b.id]!;
    return {
      id: b.id,
      name: b.name,
      kind: info.kind,
      size: b.size,
      start: b.start,
      end: b.end,
      region: regionOf(b),
      ...(info.node !== undefined && { node: info.node }),
      ...(info.alias !== undefined && { alias: info.alias }),
    };
  });
  return liveAtStep(records, step, region);
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0);
}
