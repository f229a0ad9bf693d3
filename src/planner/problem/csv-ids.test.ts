// CSV ids: the writer's escaping is one-to-one (every name reads back as
// itself, distinct names stay distinct), a file the writer could not have
// written is read as it stands, and no written cell starts a formula.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMinimallocCsv, writeMinimallocCsv } from './minimalloc-csv';

const idsOf = (text: string): string[] => parseMinimallocCsv(text).buffers.map((b) => b.name);
const problemOf = (ids: readonly string[]): string => `id,lower,upper,size\n${ids.map((id) => `${id},0,1,4`).join('\n')}\n`;

// Characters the escaping has to think about, mixed with any unicode.
const tricky = fc.constantFrom('\\u0007', '\\u001b', '\\u005c', '\\u202e', "'", '=', '+', '-', '@', '\\', 'u', '0', '7', '5', 'c', '\x07', '\t', '\r', '\n', '\x1b', '\u202e', '\u0085', '"', ',', ' ', 'é', '🙂');
const name = fc.array(fc.oneof(tricky, fc.string({ unit: 'grapheme', maxLength: 2 }), fc.string({ unit: 'binary', maxLength: 2 })), { minLength: 1, maxLength: 10 })
  .map((parts) => parts.join(''))
  .filter((s) => s !== '');

/** The first cell of every data row, as a spreadsheet sees it (quotes removed). */
function firstCells(text: string): string[] {
  return text.split('\n').slice(1).filter((line) => line !== '')
    .map((line) => (line.startsWith('"') ? line.slice(1, line.lastIndexOf('"')).replace(/""/g, '"') : line.split(',')[0]!));
}

describe('CSV ids read back as the ids written', () => {
  it('for any names: export then read back gives the same ids, and distinct ids stay distinct', () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 8 }), (names) => {
        const buffers = names.map((n, id) => ({ id, name: n, size: 4, start: 0, end: 1 }));
        const text = writeMinimallocCsv({ buffers }, undefined);
        expect(idsOf(text)).toEqual(names);
        // eslint-disable-next-line no-control-regex
        for (const cell of firstCells(text)) expect(cell).not.toMatch(/^[=+\-@\t\r]|[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }),
      { numRuns: 500, seed: 61 },
    );
  });

  it('writes a literal \\u0007 apart from a bell, and a guarded name apart from the name', () => {
    const names = ['\\u0007', '\x07', '=x', "'=x", "''=x", "'plain", 'a\\b', '\\u005c'];
    const text = writeMinimallocCsv({ buffers: names.map((n, id) => ({ id, name: n, size: 4, start: 0, end: 1 })) }, undefined);
    expect(new Set(firstCells(text)).size).toBe(names.length);
    expect(idsOf(text)).toEqual(names);
  });
});

describe('a problem the writer could not have written is read as it stands', () => {
  it('accepts =x and \'=x as two ids', () => {
    expect(idsOf(problemOf(['=x', "'=x"]))).toEqual(['=x', "'=x"]);
  });

  it('accepts the text \\u0007 and a real bell as two ids', () => {
    expect(idsOf(problemOf(['\\u0007', '\x07']))).toEqual(['\\u0007', '\x07']);
  });

  it("keeps a genuine 'plain as 'plain", () => {
    expect(idsOf(problemOf(["'plain", 'plain']))).toEqual(["'plain", 'plain']);
  });

  it('keeps the spaces of an unquoted id: " a" and "a" are two ids, the numbers beside them read trimmed', () => {
    const problem = parseMinimallocCsv('id,lower,upper,size\n a,0,1,4\na,0,1,4\nb , 2 , 5 , 8 \n');
    expect(problem.buffers.map((b) => b.name)).toEqual([' a', 'a', 'b ']);
    expect(problem.buffers[2]).toMatchObject({ start: 2, end: 5, size: 8 });
  });
});
