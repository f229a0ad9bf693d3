// MiniMalloc CSV: parsing, errors that name the line and the value, round trips.

import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { assignOffsets } from '../assembly/assign-offsets';
import { parseMinimallocCsv, writeMinimallocCsv } from './minimalloc-csv';
import { validatePlan } from '../assembly/validate-plan';

function parseError(text: string): InputError {
  try {
    parseMinimallocCsv(text);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError');
}

describe('parseMinimallocCsv', () => {
  it('reads the basic columns, half-open lifetimes, ids as names', () => {
    const problem = parseMinimallocCsv('id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\r\n\n');
    expect(problem.buffers).toEqual([
      { id: 0, name: 'b1', start: 0, end: 3, size: 4 },
      { id: 1, name: 'b2', start: 3, end: 9, size: 4 },
    ]);
    const plan = assignOffsets(problem, 'best');
    expect(plan.offsets).toEqual([0, 0]);
    expect(validatePlan(problem, plan).valid).toBe(true);
  });

  it('takes the columns in any order, with alignment and fixed offsets; empty cells mean none', () => {
    const problem = parseMinimallocCsv('size, offset ,id,alignment,upper,lower\n8,,x,4,2,0\n8,16,y,,2,1\n');
    expect(problem.buffers).toEqual([
      { id: 0, name: 'x', start: 0, end: 2, size: 8, alignment: 4 },
      { id: 1, name: 'y', start: 1, end: 2, size: 8, fixedOffset: 16 },
    ]);
    const plan = assignOffsets(problem, 'best');
    expect(plan.offsets).toEqual([0, 16]);
    expect(validatePlan(problem, plan).valid).toBe(true);
  });

  it("reads MiniMalloc's newer header buffer,start,end,size as id,lower,upper,size, and names its columns in errors", () => {
    const problem = parseMinimallocCsv('buffer,start,end,size\n0,0,3,4\n1,3,9,4\n');
    expect(problem.buffers).toEqual([
      { id: 0, name: '0', start: 0, end: 3, size: 4 },
      { id: 1, name: '1', start: 3, end: 9, size: 4 },
    ]);
    expect(parseError('buffer,start,end,size\n0,5,5,4\n').message).toMatch(/line 2: end 5 is not above start 5/);
    expect(parseError('buffer,start,end,size\n0,1,x,4\n').message).toMatch(/line 2: end "x" is not an integer/);
    expect(parseError('buffer,start,end,size\n0,1,2\n').message).toMatch(/expected 4 values \(buffer,start,end,size\)/);
    expect(parseError('buffer,start,end,size\n7,0,1,4\n7,1,2,4\n').message).toMatch(/line 3: buffer "7" already used on line 2/);
  });

  it.each([
    ['', /empty/],
    ['id,buffer,lower,upper,size\n', /line 1: columns "id" and "buffer" both give the id in the header/],
    ['buffer,lower,end,size,upper\n', /columns "end" and "upper" both give the upper/],
    ['id,lower,upper\n', /lacks the column "size"/],
    ['buffer,start,size\n', /lacks the column "upper" \(or "end"\)/],
    ['id,lower,upper,size,colour\n', /line 1: unknown column "colour"/],
    ['id,lower,upper,size,size\n', /column "size" appears twice/],
    ['id,lower,upper,size\na,0,1\n', /line 2: expected 4 values .* found 3/],
    ['id,lower,upper,size\na,0,1,4\nb,0,1.5,4\n', /line 3: upper "1.5" is not an integer/],
    ['id,lower,upper,size\na,0,1,x7\n', /line 2: size "x7" is not an integer/],
    ['id,lower,upper,size\na,0,1,-5\n', /line 2: size -5 is negative/],
    ['id,lower,upper,size\na,3,3,4\n', /line 2: upper 3 is not above lower 3/],
    ['id,lower,upper,size\na,0,1,4\na,1,2,4\n', /line 3: id "a" already used on line 2/],
    ['id,lower,upper,size\na,,1,4\n', /line 2: the lower value is missing/],
    ['id,lower,upper,size,alignment\na,0,1,4,0\n', /line 2: alignment 0 is below 1/],
    ['id,lower,upper,size,alignment,offset\na,0,1,4,8,4\n', /line 2: offset 4 is not a multiple of alignment 8/],
    ['id,lower,upper,size\na,0,99999999999999999999,4\n', /line 2: upper "99999999999999999999" is past 2\^53 − 1 \(9007199254740991\), the largest whole number heapscope can hold exactly/],
    // 2^53 itself is past the cap, which is 2^53 − 1 (it said "past 2^53")
    ['id,lower,upper,size\na,0,9007199254740992,4\n', /line 2: upper "9007199254740992" is past 2\^53 − 1 \(9007199254740991\), the largest whole number/],
    ['id,lower,upper,size\na,0,1,9007199254740992\n', /line 2: size "9007199254740992" is past 2\^53 − 1 \(9007199254740991\), the largest whole number/],
    ['id,lower,upper,size,offset\na,0,1,4,-9007199254740992\n', /line 2: offset "-9007199254740992" is past −\(2\^53 − 1\) \(-9007199254740991\), the most negative whole number/],
    // more digits than a double holds are as past the cap, not "not an integer"
    [`id,lower,upper,size\na,0,1,${'9'.repeat(400)}\n`, /line 2: size "9+…9+" is past 2\^53 − 1/],
  ])('rejects %j with bad-csv', (text, message) => {
    const error = parseError(text);
    expect(error.code).toBe('bad-csv');
    expect(error.message).toMatch(message);
  });
});

describe('writeMinimallocCsv', () => {
  it('writes the offsets, and the result parses back to the same problem with offsets fixed', () => {
    const problem = parseMinimallocCsv('id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n');
    const plan = assignOffsets(problem, 'best');
    expect(validatePlan(problem, plan).valid).toBe(true);
    const text = writeMinimallocCsv(problem, plan.offsets);
    expect(text.split('\n')[0]).toBe('id,lower,upper,size,offset');
    const back = parseMinimallocCsv(text);
    expect(back.buffers.map((b) => b.fixedOffset)).toEqual(plan.offsets);
    expect(back.buffers.map((b) => [b.name, b.start, b.end, b.size])).toEqual(problem.buffers.map((b) => [b.name, b.start, b.end, b.size]));
    // planning the solution again keeps every buffer where it is
    const again = assignOffsets(back, 'best');
    expect([again.offsets, again.peak]).toEqual([plan.offsets, plan.peak]);
    expect(validatePlan(back, again).valid).toBe(true);
  });

  it('adds the alignment column when a buffer needs one, and quotes awkward names', () => {
    const problem = {
      alignment: 16,
      buffers: [{ id: 0, name: 'conv, "out"', start: 0, end: 1, size: 3 }],
    };
    const text = writeMinimallocCsv(problem, [0]);
    expect(text).toBe('id,lower,upper,size,alignment,offset\n"conv, ""out""",0,1,3,16,0\n');
    expect(parseMinimallocCsv(text).buffers).toEqual([
      { id: 0, name: 'conv, "out"', start: 0, end: 1, size: 3, alignment: 16, fixedOffset: 0 },
    ]);
  });
});
