import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STRATEGIES } from './registry';
import { isStrategyName, STRATEGY_NAMES } from './strategy-names';

describe('strategy names', () => {
  it('are exactly the registered strategies, in the registry\'s order', () => {
    expect(Object.keys(STRATEGIES)).toEqual([...STRATEGY_NAMES]);
    for (const name of STRATEGY_NAMES) expect(STRATEGIES[name].name).toBe(name);
  });

  it('tell a strategy name from anything else', () => {
    expect(STRATEGY_NAMES.every(isStrategyName)).toBe(true);
    for (const other of ['', 'Best', 'fastest', 'toString', '__proto__']) expect(isStrategyName(other)).toBe(false);
  });

  it('import nothing, so the page can list the strategies without loading them', () => {
    const source = readFileSync(new URL('./strategy-names.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export)\s[^;]*\sfrom\s/m);
  });
});
