import { describe, expect, it } from 'vitest';
import { growthLegendItems } from './growth-legend';
import type { GrowthChartInput } from './growth-geometry';
import { growthExport } from './growth-svg';

const regions = [{ name: 'ram', sizeLimit: undefined }];
const points: GrowthChartInput['points'] = [];

function labels(input: GrowthChartInput, limited = false): string[] {
  return growthLegendItems(input, limited).map((item) => item.label);
}

describe('the growth legend', () => {
  it('names the plan on screen when its peak is drawn on the curve', () => {
    const input: GrowthChartInput = { points, regions, current: { value: 0, regions: [{ name: 'ram', peak: 100 }] } };
    expect(labels(input)).toEqual(['peak', 'lower bound', 'on screen', 'lower estimate']);
    expect(labels(input, true)).toEqual(['peak', 'lower bound', 'size limit', 'on screen', 'lower estimate']);
  });

  it('on a decode step, where the plan on screen is of another sequence length, names only its value, not its plan', () => {
    const input: GrowthChartInput = { points, regions, current: { value: 0, regions: [] } };
    const items = growthLegendItems(input, false);
    const current = items.find((item) => item.key === 'current')!;
    expect(current.label).toBe('value on screen (its plan is not on the curve)');
    expect(current.title).toMatch(/its peak is not on the curve/);
    expect(items.map((item) => item.label)).not.toContain('on screen');
  });

  it('lists no value on screen when none is drawn', () => {
    expect(labels({ points, regions, current: undefined })).toEqual(['peak', 'lower bound', 'lower estimate']);
  });

  it('says a hollow dot marks a size too large as well as one unknown, as the verdict names both', () => {
    const estimate = growthLegendItems({ points, regions, current: undefined }, false).find((item) => item.key === 'estimate')!;
    expect(estimate.title).toMatch(/unknown/);
    expect(estimate.title).toMatch(/too large \(past 2\^53 − 1 bytes/);
  });

  it("the exported chart's legend says the same as the pane's", () => {
    const decode = growthExport({ points, regions, current: { value: 0, regions: [] } }, 'past_sequence_length', 960).document('curve');
    expect(decode).toContain('>value on screen (its plan is not on the curve)</text>');
    expect(decode).not.toContain('>on screen</text>');
    const shown = growthExport({ points, regions, current: { value: 0, regions: [{ name: 'ram', peak: 100 }] } }, 'batch', 960).document('curve');
    expect(shown).toContain('>on screen</text>');
  });
});
