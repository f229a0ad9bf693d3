import { describe, expect, it } from 'vitest';
import { parseByteSize } from '../../cli/args';
import { parseBytesField, parseShapeField, parseValuesField } from './field-text';

describe('parseBytesField', () => {
  it('reads plain bytes and binary or decimal units', () => {
    expect(parseBytesField('sram size limit', '65536')).toEqual({ ok: true, value: 65536 });
    expect(parseBytesField('sram size limit', '512 KiB')).toEqual({ ok: true, value: 512 * 1024 });
    expect(parseBytesField('sram size limit', '1.5mib')).toEqual({ ok: true, value: 1.5 * 1024 * 1024 });
    expect(parseBytesField('sram size limit', '2 MB')).toEqual({ ok: true, value: 2e6 });
  });

  it('reads the short units a person types as the CLI does: K and KiB binary, KB decimal', () => {
    expect(parseBytesField('sram size limit', '300K')).toEqual({ ok: true, value: 300 * 1024 });
    expect(parseBytesField('sram size limit', '300k')).toEqual({ ok: true, value: 300 * 1024 });
    expect(parseBytesField('sram size limit', '300KB')).toEqual({ ok: true, value: 300_000 });
    expect(parseBytesField('sram size limit', '4M')).toEqual({ ok: true, value: 4 * 2 ** 20 });
    for (const text of ['300K', '300KB', '4M', '1.5MB', '512 KiB']) expect(parseBytesField('sram size limit', text)).toEqual({ ok: true, value: parseByteSize(text, '--sram') });
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

describe('parseShapeField', () => {
  it('reads dims separated by x, × or commas, with or without brackets', () => {
    expect(parseShapeField('Shape of x', '1x3x224x224')).toEqual({ ok: true, value: [1, 3, 224, 224] });
    expect(parseShapeField('Shape of x', ' 1 × 3 × 0 ')).toEqual({ ok: true, value: [1, 3, 0] });
    expect(parseShapeField('Shape of x', '[1, 3, 8]')).toEqual({ ok: true, value: [1, 3, 8] });
  });

  it('reads a scalar, and an empty text as no shape', () => {
    expect(parseShapeField('Shape of x', '[]')).toEqual({ ok: true, value: [] });
    expect(parseShapeField('Shape of x', 'scalar')).toEqual({ ok: true, value: [] });
    expect(parseShapeField('Shape of x', '  ')).toEqual({ ok: true, value: undefined });
  });

  it('names the field and the text it refuses', () => {
    for (const text of ['1x-3', 'ax2', '1xx2', '1.5x2', '99999999999']) {
      const parsed = parseShapeField('Shape of "feat"', text);
      expect(parsed).toEqual({ ok: false, error: expect.stringMatching(/^Shape of "feat" must be whole numbers .*got "/) });
    }
  });
});

describe('parseValuesField', () => {
  it('reads numbers separated by commas or spaces', () => {
    expect(parseValuesField('Value of sr', '16000')).toEqual({ ok: true, value: [16000] });
    expect(parseValuesField('Value of sr', '0.5, -1 2e3')).toEqual({ ok: true, value: [0.5, -1, 2000] });
    expect(parseValuesField('Value of sr', '')).toEqual({ ok: true, value: undefined });
  });

  it("reads true and false for a bool input (an If's condition), and refuses what is neither with a hint in its type's words", () => {
    expect(parseValuesField('Value of "cond"', 'true', true)).toEqual({ ok: true, value: [1] });
    expect(parseValuesField('Value of "cond"', ' FALSE ', true)).toEqual({ ok: true, value: [0] });
    expect(parseValuesField('Value of "cond"', 'true, false, 1, 0', true)).toEqual({ ok: true, value: [1, 0, 1, 0] });
    expect(parseValuesField('Value of "cond"', 'yes', true)).toEqual({ ok: false, error: 'Value of "cond" must be true or false (or 1, 0), separated by commas for several; got "yes"' });
    expect(parseValuesField('Value of "cond"', '2', true)).toMatchObject({ ok: false, error: expect.stringMatching(/must be true or false/) });
    // the CLI's --input reads the words for any input alike
    expect(parseValuesField('Value of sr', 'true')).toEqual({ ok: true, value: [1] });
  });

  it('names the field and the text it refuses', () => {
    const parsed = parseValuesField('Value of sr', '16 kHz');
    expect(parsed).toEqual({ ok: false, error: 'Value of sr must be numbers separated by commas, like 16000 or 0.5, 1; got "16 kHz"' });
  });
});
