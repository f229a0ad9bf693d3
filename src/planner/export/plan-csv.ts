// A plan's region as a MiniMalloc CSV (the problem, or the solution with
// offsets): what `plan --csv` and the page's CSV export write, and what
// `solve` reads back to the region's peak. The format itself (reading,
// writing, formula-guarded names) is problem/minimalloc-csv.ts's.

import { InputError } from '../../shared/errors';
import type { PlanFile } from '../assembly/plan-file';
import type { ModelPlan } from '../plan-types';
import { quoteCell, writeMinimallocCsv } from '../problem/minimalloc-csv';
import type { PlanBuffer } from '../problem/problem';
import { occupiedRects } from './occupied-rects';

/**
 * The MiniMalloc CSV of one region of a plan (default: the peak region, else
 * the first region with buffers): the problem, or with `withOffsets` the
 * solution. An alias group is written as the rectangles its members cover
 * together (`name@k` pieces when it is not one rectangle), so the solution
 * re-solves to the region's peak. `alignment` (the region's) goes into the
 * alignment column, lowered for a piece whose offset it does not divide.
 */
export function planCsv(plan: ModelPlan, region: string | undefined, withOffsets: boolean, alignment = 1): string {
  const { buffers, offsets } = regionProblem(plan, region, alignment);
  return writeMinimallocCsv({ buffers }, withOffsets ? offsets : undefined);
}

/** The buffers of one region as planCsv writes them, and their offsets. */
function regionProblem(plan: ModelPlan, region: string | undefined, alignment: number): { buffers: PlanBuffer[]; offsets: number[] } {
  const name = csvRegion(plan, region);
  if (name === undefined) throw new InputError('bad-argument', 'the plan has no region to write');
  if (!plan.regions.some((r) => r.name === name)) {
    throw new InputError('bad-argument', `the plan has no region "${name}" (regions: ${plan.regions.map((r) => r.name).join(', ')})`);
  }
  const rects = occupiedRects(plan.buffers.filter((b) => b.region === name));
  const buffers: PlanBuffer[] = rects.map((r, id) => {
    let align = 1;
    while (align < alignment && r.offset % (align * 2) === 0) align *= 2;
    return { id, name: r.name, size: r.size, start: r.start, end: r.end, ...(align > 1 && { alignment: align }) };
  });
  return { buffers, offsets: rects.map((r) => r.offset) };
}

/**
 * Several regions of a saved plan as one table, for a stream (a pipe, a
 * terminal) that cannot take a file per region: a `region` column first, then
 * the columns planFileCsv writes (alignment 1 for a region that has none).
 * Offsets count from each region's own start. `solve` reads one region's CSV,
 * not this table.
 */
export function planFileCsvRegions(file: PlanFile, regions: readonly string[], withOffsets: boolean): string {
  const parts = regions.map((name) => {
    const alignment = file.settings.targetProfile.regions.find((r) => r.name === name)?.alignment ?? 1;
    return { name, ...regionProblem(file.plan, name, alignment) };
  });
  const buffers = parts.flatMap((p) => p.buffers).map((b, id) => ({ ...b, id }));
  const offsets = parts.flatMap((p) => p.offsets);
  const regionOfRow = parts.flatMap((p) => p.buffers.map(() => quoteCell(p.name)));
  const lines = writeMinimallocCsv({ buffers }, withOffsets ? offsets : undefined).split('\n');
  // Ids are escaped and quoted by the writer, so each buffer is one line.
  return lines.map((line, i) => (line === '' ? line : `${i === 0 ? 'region' : regionOfRow[i - 1]},${line}`)).join('\n');
}

/** planCsv of a saved plan, with the region's alignment from the target profile it was planned for. */
export function planFileCsv(file: PlanFile, region: string | undefined, withOffsets: boolean): string {
  const name = csvRegion(file.plan, region);
  const alignment = file.settings.targetProfile.regions.find((r) => r.name === name)?.alignment ?? 1;
  return planCsv(file.plan, region, withOffsets, alignment);
}

/** The region planCsv writes: the one asked for, else the peak region, else the first with buffers. */
function csvRegion(plan: ModelPlan, region: string | undefined): string | undefined {
  return region ?? plan.peakRegion ?? plan.buffers[0]?.region ?? plan.regions[0]?.name;
}
