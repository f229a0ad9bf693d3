import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { assignOffsets } from '../assembly/assign-offsets';
import { parseMinimallocCsv } from '../problem/minimalloc-csv';
import { planCsv, planFileCsv } from './plan-csv';
import { planModel, type ModelPlan } from '../plan';
import { readPlanFile, toPlanFile, writePlanFile, type PlanFile } from '../assembly/plan-file';
import { presetTarget } from '../targets/presets';
import { validatePlan } from '../assembly/validate-plan';
import { occupiedRects } from './occupied-rects';

const SAMPLE = join(__dirname, '../../../public/sample.onnx');
const MODELS = join(__dirname, '../../../../shared/models');
const models = [SAMPLE, ...(existsSync(MODELS) ? readdirSync(MODELS).filter((f) => f.endsWith('.onnx')).map((f) => join(MODELS, f)) : [])];

interface Saved {
  readonly file: PlanFile;
  readonly plan: ModelPlan;
  readonly alignmentOf: (region: string) => number;
}

const plans = new Map<string, Saved>();

/** The saved plan of a model for a preset (planned once per test file); the preset's strategy unless one is named. */
function planOf(path: string, targetName: string, strategy?: string): Saved {
  const key = `${path}|${targetName}|${strategy ?? ''}`;
  if (!plans.has(key)) plans.set(key, savedPlan(path, targetName, strategy));
  return plans.get(key)!;
}

function savedPlan(path: string, targetName: string, strategy: string | undefined): Saved {
  const target = presetTarget(targetName);
  const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(path))));
  // The plan goes through its saved file, as a user would reopen it.
  const file = readPlanFile(writePlanFile(toPlanFile(model, planModel(model, target, strategy === undefined ? {} : { strategy }), { model: path, target: targetName, targetProfile: target })), path);
  return { file, plan: file.plan, alignmentOf: (region) => target.regions.find((r) => r.name === region)!.alignment };
}

const usedRegions = (plan: ModelPlan) => plan.regions.filter((r) => plan.buffers.some((b) => b.region === r.name));

describe('planCsv', () => {
  it.each(['cpu', 'mcu', 'accelerator', 'phone'])('writes a solution that re-solves to every region peak of the saved plan (%s)', (targetName) => {
    for (const file of models) {
      const saved = planOf(file, targetName);
      const { plan } = saved;
      for (const region of usedRegions(plan)) {
        const problem = parseMinimallocCsv(planFileCsv(saved.file, region.name, true));
        expect(problem.buffers.every((b) => b.fixedOffset !== undefined)).toBe(true);
        const solved = assignOffsets(problem, plan.strategy);
        expect(validatePlan(problem, solved).valid).toBe(true);
        expect([file, region.name, solved.peak]).toEqual([file, region.name, region.peak]);
      }
    }
  });

  // m1 reproduces its peak from the CSV; the portfolio, searching the re-read problem afresh, may find a lower one.
  it.each(['cpu', 'accelerator', 'phone'])('writes a problem that the same strategy solves to the same peak (%s: no M4 scratch)', (targetName) => {
    for (const file of models) {
      const { plan, alignmentOf } = planOf(file, targetName, 'm1');
      for (const region of usedRegions(plan)) {
        const text = planCsv(plan, region.name, false, alignmentOf(region.name));
        expect(text.split('\n')[0]).not.toContain('offset');
        const problem = parseMinimallocCsv(text);
        const solved = assignOffsets(problem, plan.strategy);
        expect(validatePlan(problem, solved).valid).toBe(true);
        expect([file, region.name, solved.peak]).toEqual([file, region.name, region.peak]);
      }
    }
  });

  it('defaults to the peak region and refuses a region the plan lacks', () => {
    const { plan, file } = planOf(SAMPLE, 'mcu');
    expect(planCsv(plan, undefined, true)).toBe(planCsv(plan, plan.peakRegion, true));
    expect(planFileCsv(file, undefined, false)).toBe(planCsv(plan, plan.peakRegion, false, 16));
    expect(planFileCsv(file, undefined, false).split('\n')[0]).toBe('id,lower,upper,size,alignment');
    expect(() => planCsv(plan, 'flash', true)).toThrow(/the plan has no region "flash" \(regions: sram, ext-ram\)/);
  });
});

describe('occupiedRects', () => {
  const buffer = (id: number, name: string, start: number, end: number, offset: number, size: number, parent?: number) => ({
    id,
    name,
    kind: 'activation' as const,
    size,
    bytes: size,
    start,
    end,
    offset,
    region: 'ram',
    ...(parent !== undefined && { alias: { parent, offset: offset, rule: 'concat' as const } }),
  });

  it('keeps a plain buffer and folds a Reshape-like alias into one rectangle', () => {
    const rects = occupiedRects([buffer(0, 'x', 0, 2, 0, 64), buffer(1, 'y', 1, 4, 64, 32), buffer(2, 'y2', 3, 6, 64, 32, 1)]);
    expect(rects).toEqual([
      { name: 'x', start: 0, end: 2, offset: 0, size: 64 },
      { name: 'y', start: 1, end: 6, offset: 64, size: 32 },
    ]);
  });

  it('cuts a Concat group into the pieces its members cover', () => {
    // Two inputs written into halves of the output at steps 0 and 1; the output lives [2, 4).
    const rects = occupiedRects([buffer(0, 'out', 2, 4, 100, 20), buffer(1, 'in0', 0, 3, 100, 10, 0), buffer(2, 'in1', 1, 3, 110, 10, 0)]);
    expect(rects).toEqual([
      { name: 'out@0', start: 0, end: 1, offset: 100, size: 10 },
      { name: 'out@1', start: 1, end: 4, offset: 100, size: 20 },
    ]);
  });
});
