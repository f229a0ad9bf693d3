import { describe, expect, it } from 'vitest';
import { atBoundText, fitNeedsText } from './fit-words';

describe('fitNeedsText', () => {
  it('names each memory that alone would make the plan fit, as plan prints it', () => {
    expect(fitNeedsText([{ region: 'sram', bytes: 4390912, atLeast: false }])).toBe('To fit needs 4.19 MiB more sram.');
    expect(fitNeedsText([{ region: 'ext-ram', bytes: 1024, atLeast: false }, { region: 'sram', bytes: 1024, atLeast: true }])).toBe('To fit needs 1.00 KiB more ext-ram, or at least 1.00 KiB more sram.');
  });
});

describe('atBoundText', () => {
  it('bounds the placement of these settings, and points at what may still make a plan over its limits fit', () => {
    expect(atBoundText(true)).toBe('Every region is at its lower bound: no placement of these buffers with these settings can be smaller.');
    expect(atBoundText(false)).toContain('Other settings may still make it fit (see What to change)');
  });
});
