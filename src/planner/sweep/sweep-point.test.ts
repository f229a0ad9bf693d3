import { describe, expect, it } from 'vitest';
import type { InferredModel } from '../../model/inferred';
import { planModel } from '../plan';
import { testTarget, tinyGraph } from '../testing/tiny-graph';
import { sweepPoint } from './sweep-point';

describe('sweepPoint', () => {
  it("quotes the first tensor of unknown size, so an exporter's numeric name ('466') does not read as a number", () => {
    const g = tinyGraph().input('x', [1, 64]);
    g.node('Relu', ['x'], { '466': undefined }, { name: 'relu' });
    g.node('Sigmoid', ['466'], { y: [1, 64] }, { name: 'sigmoid' });
    const model = g.output('y').model();
    const point = sweepPoint(1, model, planModel(model, testTarget()));
    expect(point.complete).toBe(false);
    expect(point.unknown).toMatch(/^'466': /);
  });
});

describe('sweepPoint of a tensor known to pass 2^53 − 1 bytes', () => {
  // x: 2^51 float32 = 2^53 bytes, past 2^53 − 1: no exact size, flagged as inference flags it
  function pastModel(): InferredModel {
    const g = tinyGraph().input('x', [1, 2 ** 51]);
    g.node('ReduceMax', ['x'], { y: [1, 1] }, { name: 'rmax' });
    const model = g.output('y').model();
    const past = { bytes: undefined, unknownReason: 'it needs more than 2^53 − 1 bytes', pastLimit: true as const };
    return { ...model, values: model.values.map((v) => (v.name === 'x' ? { ...v, ...past } : v)) };
  }

  it('fits as `plan` says on a target with no size limit: no limit to be over, and no budget here', () => {
    const model = pastModel();
    const plan = planModel(model, testTarget());
    expect(plan.fits).toBe(true);
    const point = sweepPoint(1, model, plan);
    expect(point).toMatchObject({ fits: true, complete: false, pastLimit: 'x' });
  });

  it('does not fit where a region with a size limit holds it, and the region names it', () => {
    const model = pastModel();
    const plan = planModel(model, testTarget({ regions: [{ name: 'ram', alignment: 1, sizeLimit: 2 ** 30 }] }));
    const point = sweepPoint(1, model, plan);
    expect(point).toMatchObject({ fits: false, pastLimit: 'x' });
    expect(point.regions[0]!.pastLimit).toEqual(['x']);
  });
});
