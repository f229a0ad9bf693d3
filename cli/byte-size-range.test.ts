// Byte sizes out of range, wherever a size is read: the CLI's byte options, a
// --target profile's sizes, the page's fields. One line naming the option (or
// field), the value, and the range accepted; 0 is refused as a memory's size
// everywhere, as the page and --sram already refused it.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBytesField } from '../src/store/field-text';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const LARGEST = '9007199254740991 bytes (2^53 − 1)';

function profile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-sizes-')), 'target.json');
  writeFileSync(path, text);
  return path;
}

describe('a byte option past 2^53 − 1', () => {
  it.each([
    ['--budget', ['diff', SAMPLE, SAMPLE, '--budget', '99999999999999999999'], '99999999999999999999'],
    ['--budget', ['sweep', SAMPLE, '--dim', 'N=1..4', '--budget', '9007199254740993'], '9007199254740993'],
    ['--sram', ['plan', SAMPLE, '--target', 'accelerator', '--sram', '9000T'], '9000T'],
    ['--dw-pw-cache', ['plan', SAMPLE, '--target', 'phone', '--dw-pw-cache=99999999999999999999 KiB'], '99999999999999999999 KiB'],
  ])('%s: one line naming the option, the value and the largest accepted, exit 2', (option, argv, value) => {
    const { code, out, err } = run(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`heapscope: ${option} is too large: the largest byte size accepted is ${LARGEST}, got "${value}"\n`);
  });
});

describe('a size of 0 bytes', () => {
  it.each([
    ['--budget', ['diff', SAMPLE, SAMPLE, '--budget', '0']],
    ['--budget', ['sweep', SAMPLE, '--dim', 'N=1..4', '--budget', '0K']],
    ['--sram', ['plan', SAMPLE, '--target', 'accelerator', '--sram', '0']],
  ])('%s 0 is refused as the page refuses it, exit 2', (option, argv) => {
    const { code, err } = run(argv);
    expect(code).toBe(2);
    expect(err).toBe(`heapscope: ${option} must be a whole number of bytes above 0, got "${(argv as string[]).at(-1)}"\n`);
  });

  it('a profile region of sizeLimit 0 is refused as --sram 0 and the page field are', () => {
    const path = profile(JSON.stringify({ name: 'x', regions: [{ name: 'r', sizeLimit: 0 }] }));
    const { code, err } = run(['plan', SAMPLE, '--target', path]);
    expect(code).toBe(2);
    expect(err).toMatch(/^heapscope: .*regions\[0\]\.sizeLimit must be at least 1, got 0\n$/);
    expect(parseBytesField('r size limit', '0')).toEqual({ ok: false, error: 'r size limit must be a whole number of bytes above 0, got "0"' });
  });

  it("a profile's fusion sramBytes 0 is refused as --sram 0 is", () => {
    const path = profile(JSON.stringify({ name: 'x', regions: [{ name: 'r' }], fusion: { sramBytes: 0, nramBytes: 0, wramBytes: 0 } }));
    const { code, err } = run(['plan', SAMPLE, '--target', path]);
    expect(code).toBe(2);
    expect(err).toMatch(/^heapscope: .*fusion\.sramBytes must be at least 1, got 0\n$/);
  });
});

describe('a profile size past 2^53 − 1', () => {
  it.each([
    ['regions[0].sizeLimit', { name: 'x', regions: [{ name: 'r', sizeLimit: 1e30 }] }, '1e+30'],
    ['regions[0].sizeLimit', { name: 'x', regions: [{ name: 'r', sizeLimit: 2 ** 53 }] }, '9007199254740992'],
    ['fusion.sramBytes', { name: 'x', regions: [{ name: 'r' }], fusion: { sramBytes: 1e30, nramBytes: 0, wramBytes: 0 } }, '1e+30'],
  ])('%s: one line naming the field, the value and the largest accepted', (field, doc, shown) => {
    const { code, err } = run(['plan', SAMPLE, '--target', profile(JSON.stringify(doc))]);
    expect(code).toBe(2);
    expect(err.split('\n')).toHaveLength(2);
    expect(err).toContain(`${field} must be at most 9007199254740991 (2^53 − 1), got ${shown}\n`);
  });
});

describe("the page's byte field past 2^53 − 1", () => {
  it('names the field, the text and the largest accepted', () => {
    expect(parseBytesField('sram size limit', '99999999999999999999')).toEqual({
      ok: false,
      error: `sram size limit is too large: the largest byte size accepted is ${LARGEST}, got "99999999999999999999"`,
    });
  });
});

describe('a byte size off a whole byte by less than float precision', () => {
  it.each(['1.0000001KiB', '0.999999999999999999KiB', '1.0001KiB'])('diff --budget %s exits 2 with its exact value, as the page field refuses it', (text) => {
    const { code, err } = run(['diff', SAMPLE, SAMPLE, '--budget', text]);
    const exact = { '1.0000001KiB': '1024.0001024', '0.999999999999999999KiB': '1023.999999999999998976', '1.0001KiB': '1024.1024' }[text];
    expect(err).toBe(`heapscope: --budget ${text} is not a whole number of bytes (${exact} bytes)\n`);
    expect(code).toBe(2);
    expect(parseBytesField('size limit', text)).toMatchObject({ ok: false });
  });
});
