import { describe, expect, it } from 'vitest';
import { parseBytesField } from './field-text';

describe('parseBytesField', () => {
  it('reads plain bytes and binary or decimal units', () => {
    expect(parseBytesField('sram size limit', '65536')).toEqual({ ok: true, value: 65536 });
    expect(parseBytesField('sram size limit', '512 KiB')).toEqual({ ok: true, value: 512 * 1024 });
    expect(parseBytesField('sram size limit', '1.5mib')).toEqual({ ok: true, value: 1.5 * 1024 * 1024 });
    expect(parseBytesField('sram size limit', '2 MB')).toEqual({ ok: true, value: 2e6 });
  });

  it('treats an empty optional field as no value, and an empty required one as an error', () => {
    expect(parseBytesField('sram size limit', '  ', true)).toEqual({ ok: true, value: undefined });
    expect(parseBytesField('dw-pw cache bytes', '')).toEqual({ ok: false, error: 'dw-pw cache bytes needs a value' });
  });

  it('names the field and the text it refuses', () => {
    const words = parseBytesField('sram size limit', 'lots');
    expect(words.ok).toBe(false);
    if (!words.ok) expect(words.error).toMatch(/^sram size limit must be a number of bytes .*got "lots"$/);
    const unit = parseBytesField('sram size limit', '4 parsecs');
    if (!unit.ok) expect(unit.error).toContain('got "4 parsecs"');
    const fraction = parseBytesField('sram alignment', '0.5');
    expect(fraction).toEqual({ ok: false, error: 'sram alignment must be a whole number of bytes above 0, got "0.5"' });
    expect(parseBytesField('x', '0').ok).toBe(false);
  });
});
