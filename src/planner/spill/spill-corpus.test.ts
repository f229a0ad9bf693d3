// The memory map on the real models (../shared/models/, skipped with a notice
// when absent), mcu preset: every model whose lower bound fits SRAM plus
// external RAM fits after spilling, with SRAM holding every buffer or no
// spilled buffer fitting a hole of SRAM over its lifetime; --spill off gives
// the plan of the problem placed in the activation region alone, as before
// spilling existed; every plan revalidates and keeps its bound; best is at or
// below every baseline planned alone, and the plan it says it kept is that
// baseline's, or it says what that baseline plans chosen.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { placeAll } from '../assembly/placement';
import { buildStage } from '../assembly/stages';
import { planModel, type ModelPlan, type PlannedBuffer } from '../plan';
import { STRATEGY_NAMES } from '../strategies/strategy-names';
import { presetTarget } from '../targets/presets';
import { revalidatePlan } from '../testing/model-plan-check';

const MODELS = join(__dirname, '../../../../shared/models');
const files = existsSync(MODELS) ? readdirSync(MODELS).filter((f) => f.endsWith('.onnx')) : [];
if (files.length === 0) console.log(`notice: ${MODELS} is absent; the memory map on real models is skipped`);

const mcu = presetTarget('mcu');
const off = { ...mcu, planning: { ...mcu.planning, spill: 'off' as const } };
const model = (file: string) => inferShapes(decodeOnnx(readFileSync(join(MODELS, file))));

/** True when `b` fits a gap of `region` below `limit` over its lifetime, beside the plan's buffers there. */
function fitsAHole(plan: ModelPlan, b: PlannedBuffer, region: string, limit: number, alignment: number): boolean {
  const taken = plan.buffers
    .filter((x) => x.region === region && x.size > 0 && x.start < b.end && b.start < x.end)
    .map((x) => [x.offset, x.offset + x.size] as const)
    .sort((x, y) => x[0] - y[0]);
  let base = 0;
  for (const [lo, hi] of taken) {
    if (base + b.size <= lo) break;
    if (hi > base) base = Math.ceil(hi / alignment) * alignment;
  }
  return base + b.size <= limit;
}

describe.skipIf(files.length === 0)('the memory map on real models (mcu)', () => {
  it.each(files)('%s: fits when its bound fits SRAM plus ext-ram, SRAM full for what spilled, valid', (file) => {
    const plan = planModel(model(file), mcu);
    expect(revalidatePlan(plan, new Map(mcu.regions.map((r) => [r.name, r.alignment]))).violations).toEqual([]);
    expect(plan.peak).toBeGreaterThanOrEqual(plan.lowerBound);
    for (const r of plan.regions) expect(r.peak).toBeGreaterThanOrEqual(r.lowerBound);
    const [sram, ext] = mcu.regions;
    if (plan.lowerBound > sram!.sizeLimit! + ext!.sizeLimit!) return;
    expect(plan.fits).toBe(true);
    const aliased = new Set(plan.buffers.flatMap((b) => (b.alias === undefined ? [] : [b.id, b.alias.parent])));
    const spilled = plan.buffers.filter((b) => b.wanted === 'sram' && !aliased.has(b.id));
    for (const b of spilled) expect(fitsAHole(plan, b, 'sram', sram!.sizeLimit!, sram!.alignment), b.name).toBe(false);
    // An alias group counts once, by its extent: at most the sum of its members' sizes.
    const spilledBytes = plan.buffers.filter((b) => b.wanted === 'sram').reduce((sum, b) => sum + b.size, 0);
    const reported = plan.regions.find((r) => r.name === 'ext-ram')!.spilled!;
    expect(reported).toBeLessThanOrEqual(spilledBytes);
    expect(reported > 0).toBe(spilledBytes > 0);
  });

  it.each(files)("%s: best is at or below every baseline's whole plan, its M1 figure is M1's plan, and a plan with every region at its bound is proven", (file) => {
    // the split, the fill-back and M4's scratch follow the placement, so a strategy's placement inside best's spill is
    // not its plan: M1 measured there read below the M1 plan (squeezenet: 5.22 MiB for 5.30 MiB), and M1 planned alone
    // ended 1,936 B below best on FastestDet (its scratch grown less)
    const m = model(file);
    const plan = planModel(m, mcu);
    for (const strategy of STRATEGY_NAMES.filter((s) => s !== 'best')) {
      const alone = planModel(m, mcu, { strategy, suggest: false });
      if (alone.peak < plan.peak) expect.fail(`${strategy} alone peaks at ${alone.peak}, best at ${plan.peak}`);
      if (strategy === 'm1') expect(plan.portfolio?.m1Peak).toBe(alone.peak);
      // 'best kept X's plan' is X's plan; a placement of best's own split says what X chosen plans (SqueezeNet fp16:
      // 'best kept tvm-conflicts's plan' at 2.63 MiB, where tvm-conflicts chosen plans 3.20 MiB)
      if (plan.portfolio?.winner === strategy) expect(plan.portfolio.winnerPeak ?? plan.peak, `${strategy} chosen`).toBe(alone.peak);
    }
    if (plan.regions.every((r) => r.peak === r.lowerBound)) expect(plan.search).toMatchObject({ proven: true, stoppedBy: 'optimal' });
    // a plan not proven optimal never says its search stopped there (light_resnet50: M4's scratch around activations
    // placed at their own bound read `{proven: false, stoppedBy: 'optimal'}`)
    if (plan.search?.proven !== true) expect(plan.search?.stoppedBy).not.toBe('optimal');
  });

  it.each(files)('%s: --spill off keeps every activation where the plan without a memory map put it', (file) => {
    const m = model(file);
    const plan = planModel(m, off);
    const placed = placeAll(buildStage(m, off, { strategy: off.planning.strategy }).built, off, off.planning.strategy);
    expect(plan.buffers.map((b) => b.offset)).toEqual([...placed.offsets]);
    expect(plan.buffers.map((b) => b.region)).toEqual(placed.full.problem.buffers.map((b) => b.region ?? ''));
    expect(plan.spill).toBeUndefined();
    expect(plan.buffers.some((b) => b.wanted !== undefined)).toBe(false);
  });
});

describe.skipIf(files.length === 0)('memory maps of three regions with mixed alignments, on real models', () => {
  // Each region asks its own alignment. Before, a spilled buffer kept the first region's padding, a group filled back
  // into a region of larger alignment kept the padding it had (inception: 'the best plan is invalid: buffer 19 (r18)
  // … is not a multiple of 1024'), a concat part could not meet a larger alignment (FastestDet: 'invalid placement
  // problem'), and a level below an unproven split was never split (regions over their limits with the last one free).
  const [sram, ext] = mcu.regions;
  const maps = [
    [{ ...sram!, sizeLimit: 256 * 1024, alignment: 8 }, { ...sram!, name: 'mid', sizeLimit: 2 ** 20, alignment: 512 }, { ...ext!, alignment: 64, sizeLimit: 2 ** 30 }],
    [{ ...sram!, sizeLimit: 256 * 1024, alignment: 1024 }, { ...sram!, name: 'mid', sizeLimit: 2 ** 20, alignment: 32 }, { ...ext!, alignment: 4, sizeLimit: 2 ** 30 }],
  ];
  it.each(files)('%s: plans validly, every region aligned as it asks and within its limit, the bound below the peak', (file) => {
    const m = model(file);
    for (const regions of maps) {
      const target = { ...mcu, name: 'three', regions, planning: { ...mcu.planning, memoryMap: regions.map((r) => r.name) } };
      const plan = planModel(m, target, { suggest: false });
      expect(revalidatePlan(plan, new Map(regions.map((r) => [r.name, r.alignment]))).violations).toEqual([]);
      expect(plan.lowerBound).toBeLessThanOrEqual(plan.peak);
      expect(plan.fits).toBe(true);
      for (const r of plan.regions) expect(r.peak, r.name).toBeLessThanOrEqual(r.sizeLimit!);
    }
  });
});
