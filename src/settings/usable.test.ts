import { describe, expect, it } from 'vitest';
import { refusalOf, usableSettings } from './usable';

describe('the usable part of settings from a link', () => {
  it('keeps every setting that makes a plan', () => {
    const wanted = { target: 'mcu', strategy: 'tflm', budgetMs: 1000, edits: { regions: { sram: { sizeLimit: 4096, alignment: 32 } }, spill: 'off' as const } };
    expect(usableSettings(wanted)).toEqual({ settings: wanted, leftOut: [] });
    expect(usableSettings({})).toEqual({ settings: {}, leftOut: [] });
  });

  it('leaves out an unknown target or strategy alone, naming it', () => {
    const { settings, leftOut } = usableSettings({ target: 'gpu', strategy: 'quantum', budgetMs: 1000 });
    expect(settings).toEqual({ budgetMs: 1000 });
    expect(leftOut.map((l) => l.part)).toEqual([{ target: 'gpu' }, { strategy: 'quantum' }]);
    expect(leftOut[0]!.reason).toContain('unknown target preset "gpu"');
    expect(leftOut[1]!.reason).toContain('unknown strategy "quantum"');
  });

  it('leaves out each field edit the target refuses and keeps the target and the other edits', () => {
    const { settings, leftOut } = usableSettings({
      target: 'mcu',
      edits: { regions: { nope: { sizeLimit: 5 }, sram: { alignment: 3, sizeLimit: 8192 } }, weights: { region: 'nowhere', copied: false }, spill: 'off' },
    });
    expect(settings).toEqual({ target: 'mcu', edits: { regions: { sram: { sizeLimit: 8192 } }, spill: 'off' } });
    expect(leftOut.map((l) => l.part)).toEqual([
      { edits: { regions: { nope: { sizeLimit: 5 } } } },
      { edits: { regions: { sram: { alignment: 3 } } } },
      { edits: { weights: { region: 'nowhere', copied: false } } },
    ]);
    expect(leftOut.map((l) => l.reason)).toEqual([
      expect.stringContaining('has no region "nope"'),
      'sram alignment must be a power of two, got 3',
      expect.stringContaining('no region "nowhere"'),
    ]);
  });

  it('checks the edits against the default target when the wanted one is left out', () => {
    const { settings, leftOut } = usableSettings({ target: 'gpu', edits: { regions: { sram: { sizeLimit: 4096 } } } });
    expect(settings).toEqual({});
    expect(leftOut.map((l) => l.part)).toEqual([{ target: 'gpu' }, { edits: { regions: { sram: { sizeLimit: 4096 } } } }]);
  });

  it('takes a region named __proto__ as a name like any other, and leaves it out', () => {
    const regions = JSON.parse('{"__proto__": {"sizeLimit": 5}}') as Record<string, { sizeLimit: number }>;
    const { settings, leftOut } = usableSettings({ target: 'mcu', edits: { regions } });
    expect(settings).toEqual({ target: 'mcu' });
    expect(leftOut[0]!.reason).toContain('has no region "__proto__"');
  });
});

describe('a refusal of a target field', () => {
  it("names a field of the settings panel, never a path of another document such as a profile's", () => {
    expect(refusalOf({ message: 'sram alignment must be a power of two, got 48', field: 'regions.sram.alignment' })).toEqual({ message: 'sram alignment must be a power of two, got 48', field: 'regions.sram.alignment' });
    expect(refusalOf({ message: 'too small', field: 'sramBytes' }).field).toBe('sramBytes');
    expect(refusalOf({ message: 'regions[0].alignment must be a power of two, got 48', field: 'regions[0].alignment' })).toEqual({ message: 'regions[0].alignment must be a power of two, got 48' });
    expect(refusalOf({ message: 'x', field: 'fusion.sramBytes' }).field).toBeUndefined();
    expect(refusalOf({ message: 'x', field: 'regions' }).field).toBeUndefined();
  });
});
