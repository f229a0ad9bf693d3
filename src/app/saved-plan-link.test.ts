import { describe, expect, it } from 'vitest';
import { notForSavedPlan } from './startup';
import { parseUrlParams } from './url-params';

describe('a link whose model= is a saved plan', () => {
  it('names each of its settings as not applying to the plan, which keeps its own, quoted as the link wrote it', () => {
    const params = parseUrlParams('?model=/m.plan.json&dim.batch=2&strategy=naive&target=mcu&region.sram.limit=100KiB');
    expect(notForSavedPlan(params)).toEqual([
      'target=mcu: does not apply to a saved plan, which keeps the settings it was saved with',
      'strategy=naive: does not apply to a saved plan, which keeps the settings it was saved with',
      'dim.batch=2: does not apply to a saved plan, which keeps the settings it was saved with',
      'region.sram.limit=100KiB: does not apply to a saved plan, which keeps the settings it was saved with',
    ]);
  });

  it('names nothing when the link carries only the plan', () => {
    expect(notForSavedPlan(parseUrlParams('?model=/m.plan.json'))).toEqual([]);
    expect(notForSavedPlan(parseUrlParams('?model=/m.plan.json&panes=heap'))).toEqual([]);
  });
});
