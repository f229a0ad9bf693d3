import { describe, expect, it } from 'vitest';
import { atBoundText, fitNeedsText } from './fit-words';

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
    expect(atBoundText(false)).toContain('Other settings may still make it fit (see What to change)');
  });

  it('does not say more memory would make a model TensorFlow Lite Micro refuses fit', () => {
    const text = atBoundText(false, true);
    expect(text).toBe('Every region is at its lower bound: no placement of these buffers with these settings can be smaller. No memory makes it fit: TensorFlow Lite Micro refuses the model.');
    expect(text).not.toContain('more memory would');
  });
});
