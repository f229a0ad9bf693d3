// A saved plan's memory as MiniMalloc CSV, one document per region: the problem
// (lifetimes and sizes, already padded to the region's alignment) and the
// solution (the same rows with the plan's offsets). Alias groups become the
// rectangles they cover (planner/export/occupied-rects.ts), since the format
// has no aliases; their pieces may sit at any byte, so no alignment column.

import { occupiedRects } from '../../planner/export/occupied-rects';
import { writeMinimallocCsv } from '../../planner/problem/minimalloc-csv';
import type { PlanFile } from '../../planner/assembly/plan-file';
import type { PlacementProblem } from '../../planner/problem/problem';

/** The CSV of one region. */
export interface RegionCsv {
  readonly region: string;
  readonly peak: number; // the region's peak in the plan
  readonly problem: string; // id,lower,upper,size,offset with empty offsets
  readonly solution: string; // the same with the plan's offsets
}

/** One CSV pair per region with buffers, in the plan's region order. */
export function planCsv(file: PlanFile): RegionCsv[] {
  const out: RegionCsv[] = [];
  for (const region of file.plan.regions) {
    const buffers = file.plan.buffers.filter((b) => b.region === region.name);
    const rects = occupiedRects(buffers);
    if (rects.length === 0) continue;
    const problem: PlacementProblem = { buffers: rects.map((r, id) => ({ id, name: r.name, size: r.size, start: r.start, end: r.end })) };
    out.push({
      region: region.name,
      peak: region.peak,
      problem: writeMinimallocCsv(problem, []),
      solution: writeMinimallocCsv(problem, rects.map((r) => r.offset)),
    });
  }
  return out;
}
