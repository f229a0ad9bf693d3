import { describe, expect, it } from 'vitest';
import { formatBytes, formatBytesExact } from './format';

describe('formatBytes', () => {
  it('moves past TiB to PiB and EiB instead of writing thousands of TiB', () => {
    expect(formatBytes(1540 * 2 ** 40)).toBe('1.50 PiB');
    expect(formatBytes(3080 * 2 ** 40)).toBe('3.01 PiB');
    expect(formatBytes(2 ** 53 - 1)).toBe('8.00 PiB');
    expect(formatBytes(2 ** 60 * 3)).toBe('3.00 EiB');
    expect(formatBytes(1023 * 2 ** 40)).toBe('1023 TiB');
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
