import { describe, expect, it } from 'vitest';
import type { DimBinding, InferredModel } from '../../model/inferred';
import { planModel } from '../plan';
import { toPlanFile, type PlanFile } from '../assembly/plan-file';
import { testTarget, tinyGraph } from '../testing/tiny-graph';
import { diffPlans } from './diff-plans';

/** A cache of `seq + past` rows, x -> Relu -> Sigmoid -> y, bound as a model with a past cache is: the total follows what the user gave. */
function cached(past: number, totalGiven?: number): PlanFile {
  const seq = 8;
  const total = totalGiven ?? seq + past;
  const g = tinyGraph().input('x', [total, 256]);
  g.node('Relu', ['x'], { a: [total, 256] }, { name: 'relu' });
  g.node('Sigmoid', ['a'], { y: [total, 256] }, { name: 'sigmoid' });
  const dims: DimBinding[] = [
    { name: 'seq', value: seq, source: 'default', axes: [], rule: 'a default' },
    { name: 'past', value: past, source: past === 0 ? 'default' : 'user', axes: [], rule: 'given by the user' },
    { name: 'total', value: total, source: totalGiven !== undefined ? 'user' : past === 0 ? 'default' : 'derived', axes: ['x:0'], rule: 'the sum', sumOf: ['seq', 'past'] },
  ];
  const model: InferredModel = { ...g.output('y').model(), dims };
  const target = testTarget();
  return toPlanFile(model, planModel(model, target), { model: 'kv.onnx', target: target.name, targetProfile: target });
}

describe('a total length that follows its parts', () => {
  it('names the dim the user set as the cause, with the total as its consequence, in words and JSON', () => {
    const diff = diffPlans(cached(0), cached(16));
    const top = diff.causes[0]!;
    expect(top.kind).toBe('dim-changed');
    expect(top.summary).toMatch(/^dim past changed \(past 0 → 16, and with it total 8 → 24\)/);
    expect(top.dim).toBe('total'); // the scaling that matched, as before
    expect(top.setDims).toEqual(['past']);
    expect(diff.dims.find((c) => c.name === 'total')).toEqual({ name: 'total', a: 8, b: 24, follows: ['past'] });
    expect(diff.dims.find((c) => c.name === 'past')).toEqual({ name: 'past', a: 0, b: 16 });
  });

  it('still names the total when the user gave it', () => {
    const top = diffPlans(cached(0), cached(16, 24)).causes[0]!;
    expect(top.summary).toMatch(/^dim total changed \(total 8 → 24; also changed: past 0 → 16\)/);
    expect(top.setDims).toBeUndefined();
  });
});
