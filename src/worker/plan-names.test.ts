import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../planner/targets/presets';
import { STRATEGY_NAMES } from '../planner/strategies/registry';
import { DEFAULT_SETTINGS, STRATEGY_CHOICES, TARGET_NAMES, defaultStrategyOf } from './plan-names';

describe('plan names', () => {
  it('offers exactly the planner registry strategies, in its order', () => {
    expect(STRATEGY_CHOICES).toEqual([...STRATEGY_NAMES]);
  });

  it('offers every target preset and starts on a preset', () => {
    expect(TARGET_NAMES).toEqual(PRESET_NAMES);
    expect(TARGET_NAMES).toContain(DEFAULT_SETTINGS.target);
    expect(defaultStrategyOf('cpu')).toBe('best');
    expect(defaultStrategyOf('no-such-target')).toBeUndefined();
  });
});
