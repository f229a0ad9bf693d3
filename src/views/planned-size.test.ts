import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferShapes } from '../model/infer/shapes';
import { decodeOnnx } from '../model/onnx/decode-onnx';
import { planModel } from '../planner/plan';
import { presetTarget } from '../planner/targets/presets';
import { plannedSizeOf, plannedSizeShort, plannedSizeWords } from './planned-size';

const sample = () => inferShapes(decodeOnnx(new Uint8Array(readFileSync(join(__dirname, '../../public/sample.onnx')))), { dims: { batch: 1 } });
const FASTEST_DET = join(__dirname, '../../../shared/models/FastestDet.onnx');

describe('plannedSizeOf', () => {
  const cases: readonly (readonly [string, 'phone' | 'accelerator'])[] = [
    ['the sample', 'phone'],
    ['the sample', 'accelerator'],
    ...(existsSync(FASTEST_DET) ? ([['FastestDet', 'phone'], ['FastestDet', 'accelerator']] as const) : []),
  ];
  it.each(cases)('%s on %s: every tensor planned at another size than its shape × dtype has its reason (a compute unit type or a fusion tile)', (file, target) => {
    const model = file === 'the sample' ? sample() : inferShapes(decodeOnnx(new Uint8Array(readFileSync(FASTEST_DET))));
    const plan = planModel(model, presetTarget(target));
    const values = new Map(model.values.map((v) => [v.name, v]));
    let differing = 0;
    for (const b of plan.buffers) {
      const v = values.get(b.name);
      if (v === undefined || v.bytes === undefined || b.kind === 'scratch' || b.bytes === v.bytes) continue;
      differing += 1;
      const p = plannedSizeOf(plan, v)!;
      expect(p.bytes, b.name).toBe(b.bytes);
      expect(p.full).toBe(v.bytes);
      expect(p.dtype !== undefined || p.tile !== undefined, `${b.name}: ${plannedSizeWords(p)}`).toBe(true);
    }
    expect(differing).toBeGreaterThan(0);
  });

  it('says a tensor stored as int8 on the npu, and a tile of a fusion unit, in words', () => {
    const int8 = { bytes: 371712, full: 1486848, fullDtype: 'float32', dtype: { name: 'int8', unit: 'npu' } };
    expect(plannedSizeWords(int8)).toBe('363 KiB as int8 on npu (1.42 MiB as float32)');
    expect(plannedSizeShort(int8)).toBe('363 KiB int8 on npu');
    const tile = { bytes: 794112, full: 2973696, fullDtype: 'float32', tile: 'tfu0' };
    expect(plannedSizeWords(tile)).toBe('776 KiB: a tile of 2.84 MiB in fusion unit tfu0');
    expect(plannedSizeShort(tile)).toBe('776 KiB tile in tfu0');
  });

  it('says nothing of a tensor planned at its own size, or without a plan', () => {
    const model = sample();
    const plan = planModel(model, presetTarget('cpu'));
    for (const v of model.values) expect(plannedSizeOf(plan, v)).toBeUndefined();
    expect(plannedSizeOf(undefined, model.values[0]!)).toBeUndefined();
  });
});
