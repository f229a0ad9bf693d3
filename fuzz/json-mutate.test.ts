// The JSON mutations: raw pieces spliced as written, prototype keys kept as
// own keys, every mutation reached, the same seed giving the same text.

import { describe, expect, it } from 'vitest';
import { deepJson, JSON_MUTATIONS, jsonText, mutateJson, RawJson } from './json-mutate';
import { Rng } from './random';

const doc = () => ({ name: 'mcu', regions: [{ name: 'sram', alignment: 16, fast: true }], planning: { strategy: 'best' } });

describe('json mutations', () => {
  it('splices raw text as written: numbers JSON.parse reads as Infinity, nesting too deep to build', () => {
    const text = jsonText({ a: new RawJson('1e999'), b: deepJson(100_000, false) });
    expect(text.startsWith('{"a":1e999,"b":[[[')).toBe(true);
    expect(text.length).toBe('{"a":1e999,"b":}'.length + 200_001);
    expect(JSON.parse(text.slice(0, 10) + '}').a).toBe(Infinity);
  });

  it('keeps a __proto__ key as an own key of the text', () => {
    const value = {};
    Object.defineProperty(value, '__proto__', { value: { polluted: true }, enumerable: true });
    const text = jsonText(value);
    expect(text).toBe('{"__proto__":{"polluted":true}}');
    expect(Object.hasOwn(JSON.parse(text), '__proto__')).toBe(true);
  });

  it('reaches every mutation over a few hundred seeds, the same seed giving the same document', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 300; seed++) for (const name of mutateJson(new Rng(seed), doc())) seen.add(name);
    expect([...seen].sort()).toEqual([...JSON_MUTATIONS].sort());
    const once = (seed: number) => {
      const d = doc();
      mutateJson(new Rng(seed), d);
      return jsonText(d);
    };
    expect(once(7)).toBe(once(7));
    expect(new Set(Array.from({ length: 20 }, (_, i) => once(i))).size).toBeGreaterThan(10);
  });
});
