import { describe, expect, it } from 'vitest';
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
