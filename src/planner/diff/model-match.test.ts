import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { planModel } from '../plan';
import { toPlanFile, type PlanFile } from '../assembly/plan-file';
import { presetTarget } from '../targets/presets';
import { testTarget, tinyGraph } from '../testing/tiny-graph';
import { diffPlans, type PlanDiff } from './diff-plans';

const MODELS = join(__dirname, '../../../../shared/models');

/** A chain of `ops` from `input` to `output`, each tensor `rows` × 256, named with `prefix`. */
function opChain(ops: readonly string[], rows: number, prefix: string): InferredModel {
  const g = tinyGraph().input(`${prefix}in`, [rows, 256]);
  ops.forEach((op, k) => {
    const from = k === 0 ? `${prefix}in` : `${prefix}t${k - 1}`;
    const to = k === ops.length - 1 ? `${prefix}out` : `${prefix}t${k}`;
    g.node(op, [from], { [to]: [rows, 256] }, { name: `${prefix}${op.toLowerCase()}${k}` });
  });
  return g.output(`${prefix}out`).model();
}

function planned(model: InferredModel, name: string): PlanFile {
  const target = testTarget();
  return toPlanFile(model, planModel(model, target), { model: `models/${name}`, target: target.name, targetProfile: target });
}

/** What a reader of a comparison of two different models must see: one cause saying so, and no tensor of one said to have grown into one of the other. */
function expectModelsDiffer(diff: PlanDiff): void {
  expect(diff.modelsDiffer).toBe(true);
  expect(diff.causes).toHaveLength(1);
  expect(diff.causes[0]).toMatchObject({ kind: 'models-differ', bytes: diff.delta });
  expect(diff.causes[0]!.summary).toMatch(/^A and B are different models \(/);
  expect(diff.buffers.filter((b) => b.matchedBy === 'producer')).toEqual([]);
  for (const b of diff.buffers) if (b.status === 'grown' || b.status === 'shrunk') expect(b.nameA).toBe(b.nameB);
}

describe('plans of different models', () => {
  it('says the models differ as the one cause and pairs no tensors by position', () => {
    const a = planned(opChain(['Relu', 'Sigmoid', 'Tanh'], 4, 'a_'), 'a.onnx');
    const b = planned(opChain(['Sigmoid', 'Relu', 'Tanh', 'Relu', 'Sigmoid'], 16, 'b_'), 'b.onnx');
    const diff = diffPlans(a, b);
    expect(diff.delta).toBeGreaterThan(0);
    expectModelsDiffer(diff);
    expect(diff.causes[0]!.summary).toContain('(a.onnx, b.onnx: no tensor names in common, little op order)');
    expect(diff.buffers.filter((x) => x.status === 'new')).toHaveLength(b.plan.buffers.length);
    expect(diff.buffers.filter((x) => x.status === 'gone')).toHaveLength(a.plan.buffers.length);
  });

  it('still pairs a renamed export of one model by producer and position', () => {
    const ops = ['Relu', 'Sigmoid', 'Tanh', 'Relu'];
    const diff = diffPlans(planned(opChain(ops, 4, 'a_'), 'a.onnx'), planned(opChain(ops, 8, 'v2_'), 'b.onnx'));
    expect(diff.modelsDiffer).toBeUndefined();
    expect(diff.buffers.every((x) => x.status === 'grown' && x.matchedBy === 'producer')).toBe(true);
    expect(diff.causes.some((c) => c.kind === 'models-differ')).toBe(false);
  });

  const [det, face] = ['FastestDet.onnx', 'ultraface_RFB-320.onnx'].map((f) => join(MODELS, f));
  it.skipIf(!existsSync(det!) || !existsSync(face!))('FastestDet against ultraface: the models differ, no tensor of one grew into the other', () => {
    const target = presetTarget('cpu');
    const file = (path: string) => {
      const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(path))), { dims: {} });
      return toPlanFile(model, planModel(model, target), { model: path, target: 'cpu', targetProfile: target });
    };
    const diff = diffPlans(file(det!), file(face!));
    expectModelsDiffer(diff);
    expect(diff.causes[0]!.summary).toContain('(FastestDet.onnx, ultraface_RFB-320.onnx:');
    expect(diff.causes[0]!.summary).not.toMatch(/tensor '252'/);
  });
});
