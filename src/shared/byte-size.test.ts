import { describe, expect, it } from 'vitest';
import { exactBytesText, readByteSize } from './byte-size';

describe('readByteSize', () => {
  it.each([
    ['65536', 65536],
    ['300K', 300 * 1024],
    ['300k', 300 * 1024],
    ['300 KiB', 300 * 1024],
    ['300KB', 300_000],
    ['300 kb', 300_000],
    ['4M', 4 * 2 ** 20],
    ['4 MiB', 4 * 2 ** 20],
    ['1.5MB', 1_500_000],
    ['1.5 mib', 1.5 * 2 ** 20],
    ['2 G', 2 * 2 ** 30],
    ['2 gb', 2e9],
    ['1.1 MB', 1_100_000],
    ['12 B', 12],
    ['0', 0],
  ])('reads %s as %d bytes', (text, bytes) => expect(readByteSize(text)).toEqual({ ok: true, bytes }));

  it('refuses an unknown unit and a fraction of a byte', () => {
    expect(readByteSize('3 MiBs')).toEqual({ ok: false, why: 'form' });
    expect(readByteSize('lots')).toEqual({ ok: false, why: 'form' });
    expect(readByteSize('-3K')).toEqual({ ok: false, why: 'form' });
    expect(readByteSize('0.5')).toMatchObject({ ok: false, why: 'fraction' });
    expect(readByteSize('1.1 MiB')).toMatchObject({ ok: false, why: 'fraction' });
  });

  it('multiplies the decimal out exactly: a size a hair off a whole byte is refused, never rounded to it', () => {
    expect(readByteSize('1.0000001KiB')).toMatchObject({ ok: false, why: 'fraction', exact: '1024.0001024' });
    expect(readByteSize('0.999999999999999999KiB')).toMatchObject({ ok: false, why: 'fraction', exact: '1023.999999999999998976' });
    expect(readByteSize('1.0001KiB')).toMatchObject({ ok: false, why: 'fraction', exact: '1024.1024' });
    expect(readByteSize('1.000000000000000000000KiB')).toEqual({ ok: true, bytes: 1024 });
    expect(readByteSize('0.001 KB')).toEqual({ ok: true, bytes: 1 });
    expect(readByteSize('9007199254740991')).toEqual({ ok: true, bytes: Number.MAX_SAFE_INTEGER });
    expect(readByteSize('9007199254740991.5')).toMatchObject({ ok: false, why: 'large' });
    expect(readByteSize('9007199254740992')).toMatchObject({ ok: false, why: 'large' });
    expect(readByteSize('8388608 GiB')).toMatchObject({ ok: false, why: 'large' });
  });
});

describe('exactBytesText', () => {
  it('shows a size in the largest binary unit that keeps it exact, and reads back to the same bytes', () => {
    expect(exactBytesText(524288)).toBe('512 KiB');
    expect(exactBytesText(8388608)).toBe('8 MiB');
    expect(exactBytesText(1.5 * 2 ** 20)).toBe('1.5 MiB');
    expect(exactBytesText(2 ** 30)).toBe('1 GiB');
    expect(exactBytesText(16)).toBe('16 B');
    expect(exactBytesText(1536)).toBe('1.5 KiB');
    expect(exactBytesText(1234567)).toBe('1234567 B');
    for (const n of [524288, 8388608, 300_000, 16, 1.5 * 2 ** 20, 1234567, 3 * 2 ** 20 + 512, 2_000_000, 1_100_000, 4e9]) expect(readByteSize(exactBytesText(n))).toEqual({ ok: true, bytes: n });
  });

  it('shows a size typed in a decimal unit back in that unit, not as a long count of bytes', () => {
    expect(exactBytesText(readByteSize('2MB').bytes!)).toBe('2 MB');
    expect(exactBytesText(readByteSize('300KB').bytes!)).toBe('300 KB');
    expect(exactBytesText(readByteSize('1.1 MB').bytes!)).toBe('1.1 MB');
    expect(exactBytesText(readByteSize('4GB').bytes!)).toBe('4 GB');
  });
});
