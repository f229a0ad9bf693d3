// A saved plan's memory as MiniMalloc CSV, one document per region: the problem
// (lifetimes, sizes and alignments) and the solution (the same rows with the
// plan's offsets), exactly as `plan --csv` writes them
// (planner/export/plan-csv.ts): alias groups become the rectangles they cover,
// and each row carries the region's alignment, lowered where its offset does
// not allow it.

import { planFileCsv } from '../../planner/export/plan-csv';
import type { PlanFile } from '../../planner/assembly/plan-file';

/** The CSV of one region. */
export interface RegionCsv {
  readonly region: string;
  readonly peak: number; // the region's peak in the plan
  readonly problem: string; // id,lower,upper,size[,alignment], no offsets
  readonly solution: string; // the same with the plan's offsets: plan --csv's file
}

/** One CSV pair per region with bytes in buffers, in the plan's region order. */
export function planCsv(file: PlanFile): RegionCsv[] {
  return file.plan.regions
    .filter((region) => file.plan.buffers.some((b) => b.region === region.name && b.size > 0))
    .map((region) => ({
      region: region.name,
      peak: region.peak,
      problem: planFileCsv(file, region.name, false),
      solution: planFileCsv(file, region.name, true),
    }));
}
