import { describe, expect, it } from 'vitest';
import { previewJson } from './json-preview';

describe('previewJson', () => {
  it('shows short values as JSON', () => {
    expect(previewJson({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(previewJson('text')).toBe('"text"');
    expect(previewJson(null)).toBe('null');
  });

  it('cuts long values to the budget', () => {
    const text = previewJson(Array.from({ length: 1000 }, (_, i) => i), 40);
    expect(text).toHaveLength(40);
    expect(text.endsWith('...')).toBe(true);
  });

  it('shows a value nested 100,000 deep without exhausting the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(previewJson(deep)).toBe('[[[[[…]]]]]');
  });

  it('shows 300,000 keys by the first few', () => {
    const wide = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, i]));
    expect(previewJson(wide, 30)).toMatch(/^\{"k0":0,"k1":1,.*\.\.\.$/);
  });
});
