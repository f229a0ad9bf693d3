import { describe, expect, it } from 'vitest';
import { changeSettings } from './change';

describe('the settings a change leads to', () => {
  const mcuNoSpill = { target: 'mcu', strategy: undefined, edits: { spill: 'off' as const } };

  it('drops the edits on another target: they name fields of the old preset', () => {
    // cpu has one region and refuses a spill edit; phone has no region named sram.
    expect(changeSettings(mcuNoSpill, { target: 'cpu', strategy: undefined })).toEqual({ target: 'cpu', strategy: undefined });
    expect(changeSettings({ target: 'mcu', strategy: undefined, edits: { regions: { sram: { sizeLimit: 1024 } } } }, { target: 'phone' }).edits).toBeUndefined();
  });

  it("keeps them on the same target, and takes the change's own edits, or none, when it names them", () => {
    expect(changeSettings(mcuNoSpill, { strategy: 'tflm' })).toEqual({ ...mcuNoSpill, strategy: 'tflm' });
    expect(changeSettings(mcuNoSpill, { target: 'mcu', edits: undefined })).toEqual({ target: 'mcu', strategy: undefined });
    expect(changeSettings(mcuNoSpill, { target: 'accelerator', edits: { fusion: false } }).edits).toEqual({ fusion: false });
    expect(changeSettings(mcuNoSpill, { edits: {} }).edits).toBeUndefined();
  });

  it('keeps a budget unless the change clears it', () => {
    expect(changeSettings({ ...mcuNoSpill, budgetMs: 300 }, { strategy: 'best' }).budgetMs).toBe(300);
    expect('budgetMs' in changeSettings({ ...mcuNoSpill, budgetMs: 300 }, { budgetMs: undefined })).toBe(false);
  });
});
