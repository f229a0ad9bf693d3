import { describe, expect, it } from 'vitest';
import { offsetChangeText } from './offset-change';

describe("a buffer's place in A and B", () => {
  it('names the regions when the buffer changed region, where the offsets alone read the same', () => {
    expect(offsetChangeText({ status: 'moved', offsetA: 0, offsetB: 0, regionA: 'sram', regionB: 'ext-ram' })).toBe('sram 0 B → ext-ram 0 B');
  });

  it('gives whole bytes when the rounded offsets would read alike, and rounded ones otherwise', () => {
    expect(offsetChangeText({ status: 'moved', offsetA: 32768, offsetB: 32800, regionA: 'ram', regionB: 'ram' })).toBe('32,768 B → 32,800 B');
    expect(offsetChangeText({ status: 'moved', offsetA: 65536, offsetB: 131072, regionA: 'ram', regionB: 'ram' })).toBe('64.0 KiB → 128 KiB');
    expect(offsetChangeText({ status: 'new', offsetB: 0, regionB: 'ram' })).toBe('—');
  });
});
