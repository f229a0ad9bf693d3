// MiniMalloc CSV: quoted ids holding line breaks, commas and quotes round-trip.

import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { parseMinimallocCsv, writeMinimallocCsv } from './minimalloc-csv';

describe('quoted values across line breaks', () => {
  it('reads an id holding a newline as one record', () => {
    const problem = parseMinimallocCsv('id,lower,upper,size\n"a\nb",0,2,8\nc,1,3,4\n');
    expect(problem.buffers.map((b) => b.name)).toEqual(['a\nb', 'c']);
    expect(problem.buffers[1]).toMatchObject({ start: 1, end: 3, size: 4 });
  });

  it('round-trips names with newlines, carriage returns, commas and quotes', () => {
    const names = ['x\ny', 'r\r\nn', 'a,"b"', '\n', 'plain'];
    const buffers = names.map((name, id) => ({ id, name, size: 8 * (id + 1), start: id, end: id + 2 }));
    const text = writeMinimallocCsv({ buffers }, buffers.map((_, b) => b * 64));
    const back = parseMinimallocCsv(text);
    expect(back.buffers.map((b) => b.name)).toEqual(names);
    expect(back.buffers.map((b) => b.fixedOffset)).toEqual([0, 64, 128, 192, 256]);
  });

  it('names the line a record starts on after a multi-line value', () => {
    try {
      parseMinimallocCsv('id,lower,upper,size\n"a\nb",0,2,8\nc,5,3,4\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toMatch(/^line 4: upper 3 is not above lower 5/);
    }
  });

  it('still rejects a quote left open', () => {
    expect(() => parseMinimallocCsv('id,lower,upper,size\n"a,0,2,8\n')).toThrow(/line 2: a quoted value is not closed/);
  });
});
