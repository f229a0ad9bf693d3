import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { planModel } from '../plan';
import { toPlanFile } from '../assembly/plan-file';
import { presetTarget } from '../targets/presets';
import { diffPlans } from './diff-plans';

const SAMPLE = readFileSync(join(__dirname, '../../../public/sample.onnx'));

describe('a scratch buffer given free space', () => {
  it('the sample on cpu against mcu: a workspace given the free space at its step is listed with what it asks, the free space beside it', () => {
    const model = inferShapes(decodeOnnx(new Uint8Array(SAMPLE)));
    const [a, b] = (['cpu', 'mcu'] as const).map((name) => {
      const target = presetTarget(name);
      return toPlanFile(model, planModel(model, target), { model: 'sample.onnx', target: name, targetProfile: target, dims: {} });
    });
    const diff = diffPlans(a!, b!);
    const workspace = diff.buffers.find((c) => c.nameB === 'stem/conv:workspace')!;
    const planned = b!.plan.buffers.find((x) => x.name === 'stem/conv:workspace')!;
    expect(planned.scratch?.variable).toBe(true);
    expect(planned.size).toBeGreaterThan(planned.scratch!.size);
    expect(workspace).toMatchObject({ status: 'new', sizeB: planned.size, requestedB: planned.scratch!.size });
    // only a buffer given more than it asks carries what it asks
    for (const c of diff.buffers) {
      const buffer = c.idB === undefined ? undefined : b!.plan.buffers.find((x) => x.id === c.idB);
      const given = buffer?.scratch?.variable === true && buffer.size > buffer.scratch.size;
      expect(c.requestedB).toBe(given ? buffer!.scratch!.size : undefined);
    }
  });
});
