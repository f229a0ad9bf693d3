import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';

describe('formatBytes', () => {
  it('moves past TiB to PiB and EiB instead of writing thousands of TiB', () => {
    expect(formatBytes(1540 * 2 ** 40)).toBe('1.50 PiB');
    expect(formatBytes(3080 * 2 ** 40)).toBe('3.01 PiB');
    expect(formatBytes(2 ** 53 - 1)).toBe('8.00 PiB');
    expect(formatBytes(2 ** 60 * 3)).toBe('3.00 EiB');
    expect(formatBytes(1023 * 2 ** 40)).toBe('1023 TiB');
  });
});
