import { describe, expect, it } from 'vitest';
import { counted, formatBytes, formatBytesApart, formatBytesExact, formatLargeCount, formatSignedBytes, wholeFigures } from './format';

describe('formatBytes', () => {
  it('moves past TiB to PiB and EiB instead of writing thousands of TiB', () => {
    expect(formatBytes(1540 * 2 ** 40)).toBe('1.50 PiB');
    expect(formatBytes(3080 * 2 ** 40)).toBe('3.01 PiB');
    expect(formatBytes(2 ** 53 - 1)).toBe('8.00 PiB');
    expect(formatBytes(2 ** 60 * 3)).toBe('3.00 EiB');
    expect(formatBytes(1023 * 2 ** 40)).toBe('1023 TiB');
  });

  it('writes a figure that rounds to 1024 of a unit as 1.00 of the next', () => {
    expect(formatBytes(2 ** 50 - 2 ** 20)).toBe('1.00 PiB');
    expect(formatBytes(1023.9 * 1024)).toBe('1.00 MiB');
    expect(formatBytes(1023.4 * 1024)).toBe('1023 KiB');
    expect(formatBytes(1023)).toBe('1023 B');
  });
});

describe('counted and formatBytesExact', () => {
  it('say one thing in the singular and add the exact figure only where units hide it', () => {
    expect([counted(1, 'value'), counted(2, 'value'), counted(1536, 'buffer')]).toEqual(['1 value', '2 values', '1,536 buffers']);
    expect([formatBytesExact(33), formatBytesExact(31360)]).toEqual(['33 B', '30.6 KiB (31,360 B)']);
  });
});

describe('formatBytesApart', () => {
  it('writes two figures in binary units, or both in bytes when those would read alike', () => {
    expect(formatBytesApart(1050112, 1048576)).toEqual(['1,050,112 B', '1,048,576 B']);
    expect(formatBytesApart(74880, 61440)).toEqual(['73.1 KiB', '60.0 KiB']);
    expect(formatBytesApart(2 ** 20, 2 ** 20)).toEqual(['1.00 MiB', '1.00 MiB']);
  });
});

describe('formatLargeCount', () => {
  it('writes digits with separators while exact, a power of ten past 2^53', () => {
    expect(formatLargeCount(784)).toBe('784');
    expect(formatLargeCount(12_345_678)).toBe('12,345,678');
    expect(formatLargeCount(4.444442444444535e22)).toBe('about 4.44 × 10^22');
  });
});

describe('formatBytesExact', () => {
  it('gives the exact figure beside a rounded one, and one figure where the two are the same', () => {
    expect(formatBytesExact(158_160)).toBe('154 KiB (158,160 B)');
    expect(formatBytesExact(1024)).toBe('1.00 KiB (1,024 B)');
    expect(formatBytesExact(404)).toBe('404 B');
    expect(formatBytesExact(0)).toBe('0 B');
  });
});

describe('formatSignedBytes', () => {
  it('signs a change of bytes with + or the minus sign U+2212, and ± for none', () => {
    expect([formatSignedBytes(1536), formatSignedBytes(-300 * 1024), formatSignedBytes(0)]).toEqual(['+1.50 KiB', '\u2212300 KiB', '±0 B']);
  });
});

describe('wholeFigures', () => {
  it('keeps a figure with its unit and its bound sign, and leaves other spaces', () => {
    expect(wholeFigures('arena ≥ 4.05 MiB as it is · ≥ 3.55 MiB (head 3.50 MiB + 12 B)')).toBe(
      'arena ≥\u00a04.05\u00a0MiB as it is · ≥\u00a03.55\u00a0MiB (head 3.50\u00a0MiB + 12\u00a0B)',
    );
    expect(wholeFigures('≤ −1 KiB, 3 Bytes')).toBe('≤\u00a0−1\u00a0KiB, 3 Bytes');
  });
});
