// The bytes-moved side of diffPlans: per region totals, and the buffers that
// changed region ranked by the bytes they move, on small chains built here
// and on the sample planned with spilling off and on.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { planModel } from '../plan';
import { readPlanFile, toPlanFile, writePlanFile, type PlanFile } from '../assembly/plan-file';
import { parseTarget } from '../targets/parse';
import { presetTarget } from '../targets/presets';
import type { TargetProfile } from '../targets/target';
import { tinyGraph } from '../testing/tiny-graph';
import { diffPlans } from './diff-plans';

const SAMPLE = readFileSync(join(__dirname, '../../../public/sample.onnx'));

function planned(model: InferredModel, target: TargetProfile): PlanFile {
  return toPlanFile(model, planModel(model, target), { model: 'm.onnx', target: target.name, targetProfile: target });
}

/** SRAM of `limit` bytes, then unlimited external RAM. */
function twoRegions(limit: number, spill: 'on' | 'off'): TargetProfile {
  return parseTarget({
    name: 't',
    regions: [{ name: 'sram', alignment: 4, fast: true, sizeLimit: limit }, { name: 'ext', alignment: 4, fast: false }],
    planning: { activationRegion: 'sram', spill },
  });
}

/** x (4 KiB) -> Relu a -> Sigmoid b -> Add(a, b) y: a is read twice, so it moves 3 × 4 KiB; b moves 2 × 4 KiB. */
function fork(): InferredModel {
  const g = tinyGraph().input('x', [1024]);
  g.node('Relu', ['x'], { a: [1024] }).node('Sigmoid', ['a'], { b: [1024] }).node('Add', ['a', 'b'], { y: [1024] });
  return g.output('y').model();
}

describe('diffPlans bytes moved', () => {
  it('ranks the buffers that left the fast region by the bytes they move, and totals each region', () => {
    const model = fork();
    const a = planned(model, twoRegions(1 << 20, 'on')); // everything fits the SRAM
    const b = planned(model, twoRegions(4096, 'on')); // one 4 KiB buffer at a time: x and b go, a (read twice) stays
    const moved = diffPlans(a, b).moved!;
    const byName = new Map(b.plan.buffers.map((x) => [x.name, x]));
    expect(byName.get('a')!.moved).toBe(3 * 4096);
    expect(byName.get('b')!.moved).toBe(2 * 4096);
    expect(moved.buffers.map((m) => m.name)).toEqual(['b', 'x']); // 8 KiB each, ranked by name when equal
    expect(byName.get('a')!.region).toBe('sram');
    for (const m of moved.buffers) {
      expect(m).toMatchObject({ regionA: 'sram', regionB: 'ext', direction: 'to-slow' });
      expect(m.movedB).toBe(byName.get(m.name)!.moved);
    }
    const changed = b.plan.buffers.filter((x) => x.region !== a.plan.buffers.find((y) => y.name === x.name)!.region);
    expect(moved.buffers.map((m) => m.name).sort()).toEqual(changed.map((x) => x.name).sort());
    const most = moved.buffers.map((m) => Math.max(m.movedA, m.movedB));
    expect(most).toEqual([...most].sort((p, q) => q - p));
    // Region totals are the plans' own, and what left the SRAM arrives in the external RAM.
    for (const r of moved.regions) {
      const total = (f: PlanFile) => { const m = f.plan.regions.find((x) => x.name === r.name)!.moved!; return m.written + m.read; };
      expect([r.movedA, r.movedB, r.delta]).toEqual([total(a), total(b), total(b) - total(a)]);
    }
    const shifted = moved.buffers.reduce((sum, m) => sum + m.movedB, 0);
    expect(moved.regions.find((r) => r.name === 'ext')!.delta).toBe(shifted);
    expect(moved.regions.find((r) => r.name === 'sram')!.delta).toBe(-shifted);
  });

  it('compares a spilled plan with --spill off, also through saved plan files', () => {
    const model = inferShapes(decodeOnnx(new Uint8Array(SAMPLE)), { dims: {} });
    const mcu = presetTarget('mcu');
    const off = planned(model, { ...mcu, planning: { ...mcu.planning, spill: 'off' } });
    const on = planned(model, mcu);
    expect(off.plan.regions.every((r) => r.moved !== undefined)).toBe(true); // spill off still gives bytes moved
    const diff = diffPlans(readPlanFile(writePlanFile(off), 'a.json'), readPlanFile(writePlanFile(on), 'b.json'));
    const toSlow = diff.moved!.buffers.filter((m) => m.direction === 'to-slow');
    expect(toSlow.length).toBeGreaterThan(0);
    for (const m of toSlow) expect([m.regionA, m.regionB]).toEqual(['sram', 'ext-ram']);
  });

  it('is absent when a side gives no bytes moved (one region)', () => {
    const model = fork();
    const cpu = presetTarget('cpu');
    expect(planned(model, cpu).plan.regions[0]!.moved).toBeUndefined();
    expect(diffPlans(planned(model, cpu), planned(model, twoRegions(1 << 20, 'on'))).moved).toBeUndefined();
  });
});
