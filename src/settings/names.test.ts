import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../planner/targets/presets';
import { DEFAULT_BUDGET_MS as PLANNER_BUDGET_MS } from '../planner/strategies/search-budget';
import { STRATEGIES } from '../planner/strategies/registry';
import { BUDGET_CHOICES, DEFAULT_BUDGET_MS, DEFAULT_SETTINGS, STRATEGY_CHOICES, TARGET_NAMES, defaultStrategyOf, isBudgetMs } from './names';

describe('plan names', () => {
  it('offers exactly the planner registry strategies, in its order', () => {
    expect(STRATEGY_CHOICES).toEqual(Object.keys(STRATEGIES));
  });

  it('offers every target preset and starts on a preset', () => {
    expect(TARGET_NAMES).toEqual(PRESET_NAMES);
    expect(TARGET_NAMES).toContain(DEFAULT_SETTINGS.target);
    expect(defaultStrategyOf('cpu')).toBe('best');
    expect(defaultStrategyOf('no-such-target')).toBeUndefined();
  });

  it('states the planner\'s default search budget and offers larger ones the planner takes', () => {
    expect(DEFAULT_BUDGET_MS).toBe(PLANNER_BUDGET_MS);
    for (const ms of BUDGET_CHOICES) expect([isBudgetMs(ms), ms > DEFAULT_BUDGET_MS]).toEqual([true, true]);
    for (const bad of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(isBudgetMs(bad)).toBe(false);
  });
});
