// The reader's row fast paths (rows without quotes split at commas, plain
// digits, plain ids) read what the general paths read: random problems with
// plain and hostile ids written and read back, and rows with spaces and
// quotes read as the same problem.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlanBuffer } from './problem';
import { parseMinimallocCsv, writeMinimallocCsv } from './minimalloc-csv';

const id = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9_.]{0,8}$/),
  fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom('a', ' ', ',', '"', '\\', '=', "'", '-', '\n', '\u0007', 'é', '\u202e') }),
);
const row = fc.record({ name: id, start: fc.nat(1_000), length: fc.integer({ min: 1, max: 50 }), size: fc.nat(1 << 30), alignment: fc.constantFrom(undefined, 1, 16) });

describe('parseMinimallocCsv reads every row as written', () => {
  it('reads back what writeMinimallocCsv wrote, ids and numbers alike', () => {
    fc.assert(
      fc.property(fc.uniqueArray(row, { minLength: 1, maxLength: 30, selector: (r) => r.name }), (rows) => {
        const buffers: PlanBuffer[] = rows.map((r, i) => ({ id: i, name: r.name, start: r.start, end: r.start + r.length, size: r.size, ...(r.alignment !== undefined && { alignment: r.alignment }) }));
        const offsets = buffers.map((_, i) => i * 16);
        const text = writeMinimallocCsv({ buffers }, offsets);
        const read = parseMinimallocCsv(text);
        expect(read.buffers.map((b) => b.name)).toEqual(rows.map((r) => r.name));
        expect(read.buffers.map((b) => [b.start, b.end, b.size, b.fixedOffset])).toEqual(buffers.map((b, i) => [b.start, b.end, b.size, offsets[i]]));
        expect(writeMinimallocCsv(read, offsets)).toBe(text);
      }),
      { seed: 5, numRuns: 300 },
    );
  });

  it('reads a row with quotes and spaces as the same row without them', () => {
    const plain = parseMinimallocCsv('id,lower,upper,size,offset\nx,0,3,4,\ny,1,2,8,16\n');
    const quoted = parseMinimallocCsv('id,lower,upper,size,offset\r\n "x" , 0,3 ,4,\n\n  \ny,"1", 2 ,8, 16\n');
    expect(quoted).toEqual(plain);
  });
});
