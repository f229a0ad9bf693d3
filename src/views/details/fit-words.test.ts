import { describe, expect, it } from 'vitest';
import { atBoundText, fitNeedsText, fitSuggestions } from './fit-words';

describe('fitNeedsText', () => {
  it('names each memory that alone would make the plan fit, as plan prints it', () => {
    expect(fitNeedsText([{ region: 'sram', bytes: 4390912, atLeast: false }])).toBe('To fit needs 4.19 MiB more sram.');
    expect(fitNeedsText([{ region: 'ext-ram', bytes: 1024, atLeast: false }, { region: 'sram', bytes: 1024, atLeast: true }])).toBe('To fit needs 1.00 KiB more ext-ram, or at least 1.00 KiB more sram.');
  });

  it('needs at least so much of every memory when the plan is a lower estimate (a TFLM kernel whose scratch is not known)', () => {
    expect(fitNeedsText([{ region: 'arena', bytes: 13440, atLeast: false }], true)).toBe('To fit needs at least 13.1 KiB more arena.');
  });
});

describe('atBoundText', () => {
  it('bounds the placement of these settings, and points at what may still make a plan over its limits fit', () => {
    expect(atBoundText(true)).toBe('Every region is at its lower bound: no placement of these buffers with these settings can be smaller.');
    expect(atBoundText(false)).toContain('Other settings may still make it fit');
  });

  it('points at What to change only when it lists a change that makes the plan fit', () => {
    // ultraface with its weights copied to sram read "see What to change", where What to change said "No change the planner tried lowers this peak"
    expect(atBoundText(false)).not.toContain('What to change');
    expect(atBoundText(false, false, 'fits')).toContain('Other settings make it fit (see What to change)');
    const none = atBoundText(false, false, 'none');
    expect(none).toBe('Every region is at its lower bound: no placement of these buffers with these settings can be smaller. No other setting the planner tried makes it fit; more memory would.');
    expect(fitSuggestions(false, [{ fits: true }])).toBe('unknown');
    expect([fitSuggestions(true, [{ fits: true }, {}]), fitSuggestions(true, [{}]), fitSuggestions(true, [])]).toEqual(['fits', 'none', 'none']);
  });

  it('does not say more memory would make a model TensorFlow Lite Micro refuses fit', () => {
    const text = atBoundText(false, true);
    expect(text).toBe('Every region is at its lower bound: no placement of these buffers with these settings can be smaller. No memory makes it fit: TensorFlow Lite Micro refuses the model.');
    expect(text).not.toContain('more memory would');
  });
});
