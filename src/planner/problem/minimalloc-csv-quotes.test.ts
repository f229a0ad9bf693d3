// MiniMalloc CSV: quoted ids holding line breaks, commas and quotes round-trip,
// and ids a spreadsheet would run as formulas are written inert and read back the same.

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

describe('names a spreadsheet would run as formulas', () => {
  const NAMES = ["=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(A1)', '\t=x', '\r=x', "'=already", "''@twice", "'plain", 'plain', '-'];

  it('are written behind an apostrophe, so no cell starts a formula', () => {
    const problem = { buffers: NAMES.map((name, id) => ({ id, name, size: 8, start: 0, end: 1 })) };
    const text = writeMinimallocCsv(problem, undefined);
    const cells = parseCells(text);
    for (const cell of cells) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('read back to the same ids, so solve re-solves the same problem', () => {
    const problem = { buffers: NAMES.map((name, id) => ({ id, name, size: 8 + id, start: id, end: id + 2 })) };
    const back = parseMinimallocCsv(writeMinimallocCsv(problem, undefined));
    expect(back.buffers.map((b) => [b.name, b.size, b.start, b.end])).toEqual(problem.buffers.map((b) => [b.name, b.size, b.start, b.end]));
  });
});

/** The first cell of every data row, as a spreadsheet sees it (quotes removed). */
function parseCells(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => (line.startsWith('"') ? line.slice(1, line.indexOf('"', 1)) : line.split(',')[0]!));
}
