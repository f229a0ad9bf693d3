import { describe, expect, it } from 'vitest';
import { asciiChart, type ChartPlan } from './ascii-chart';
import { planModel } from '../plan';
import { testTarget, tinyGraph } from '../testing/tiny-graph';

describe('asciiChart', () => {
  it('draws one line per step across the address range, with the live bytes', () => {
    const model = tinyGraph('uint8').input('x', [10]).node('Conv', ['x'], { a: [20] }, { name: 'conv_a' }).node('Conv', ['a'], { b: [5] }, { name: 'conv_b' }).output('b').model();
    const plan = planModel(model, testTarget({ alignment: 16 }));
    expect(asciiChart(plan, 12)).toBe(
      [
        'region ram: peak 48 B, lower bound 48 B, one character = 4 B',
        '0: 111111110000 48 B  conv_a',
        '1: 111111112222 48 B  conv_b',
        'legend:  0 x  1 a  2 b',
        '',
      ].join('\n'),
    );
  });

  it('draws buffers that share bytes with one character and crowded cells with +', () => {
    const plan: ChartPlan = {
      regions: [{ name: 'r', peak: 16, lowerBound: 12 }],
      buffers: [
        { id: 0, name: 'in', size: 8, start: 0, end: 2, offset: 0, region: 'r' },
        { id: 1, name: 'view', size: 8, start: 1, end: 3, offset: 0, region: 'r', alias: { parent: 0 } },
        { id: 2, name: 'tiny', size: 1, start: 2, end: 3, offset: 8, region: 'r' },
        { id: 3, name: 'next', size: 3, start: 2, end: 3, offset: 9, region: 'r' },
      ],
    };
    expect(asciiChart(plan, 4).split('\n').slice(1, 5)).toEqual([
      '0: 00.. 8 B',
      '1: 00.. 8 B',
      '2: 00+. 12 B',
      'legend:  0 in (+1 sharing)  1 tiny  2 next',
    ]);
  });

  it('skips empty regions', () => {
    expect(asciiChart({ regions: [{ name: 'r', peak: 0, lowerBound: 0 }], buffers: [] })).toBe('');
  });
});
