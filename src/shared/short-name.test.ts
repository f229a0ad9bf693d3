import { describe, expect, it } from 'vitest';
import { isCut, SHOWN_CHARS, shortName, titleText, TITLE_CHARS } from './short-name';

describe('shortName', () => {
  it('keeps a name that fits', () => {
    expect(shortName('conv1/Relu')).toBe('conv1/Relu');
    expect(shortName('x'.repeat(SHOWN_CHARS))).toBe('x'.repeat(SHOWN_CHARS));
    expect(isCut('x'.repeat(SHOWN_CHARS))).toBe(false);
  });

  it('cuts a long name at its end to the limit plus an ellipsis', () => {
    const name = 'a'.repeat(1 << 20);
    expect(shortName(name)).toBe(`${'a'.repeat(SHOWN_CHARS)}…`);
    expect(titleText(name)).toHaveLength(TITLE_CHARS + 1);
    expect(isCut(name)).toBe(true);
  });

  it('cuts in the middle, keeping the last part of a scoped name', () => {
    expect(shortName('model/encoder/layer_11/attention/self/query/MatMul', 20, 'middle')).toBe('model/enc…ery/MatMul');
    expect(shortName('short', 20, 'middle')).toBe('short');
  });

  it('never splits a surrogate pair', () => {
    const name = `${'a'.repeat(9)}😀${'b'.repeat(20)}😀${'c'.repeat(9)}`;
    for (const at of ['end', 'middle'] as const) {
      for (let max = 4; max < 30; max += 1) {
        const cut = shortName(name, max, at);
        expect(cut.length).toBeLessThanOrEqual(max + 1);
        expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      }
    }
  });
});
