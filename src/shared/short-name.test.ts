import { describe, expect, it } from 'vitest';
import { boundedMessage, cutLongWords, isCut, MESSAGE_CHARS, SHOWN_CHARS, shortName, titleText, TITLE_CHARS } from './short-name';

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

  it('cuts a scope by dropping whole leading path segments, so a layer number is never cut short', () => {
    expect(shortName('/model/layers.40/mlp/act_fn/Sigmoid', 32, 'scope')).toBe('…/layers.40/mlp/act_fn/Sigmoid');
    expect(shortName('/model/layers.40/mlp/act_fn/Sigmoid', 20, 'scope')).toBe('…/mlp/act_fn/Sigmoid');
    expect(shortName('/model/layers.40/mlp/act_fn/Sigmoid', 19, 'scope')).toBe('…/act_fn/Sigmoid');
    expect(shortName('/model/layers.40/mlp/act_fn/Sigmoid', 35, 'scope')).toBe('/model/layers.40/mlp/act_fn/Sigmoid');
    expect(shortName('model/encoder/layer_11/attention/self/query/MatMul', 20, 'scope')).toBe('…/self/query/MatMul');
  });

  it('cuts a scope whose last segment is too long at a piece break, and a name without one outside its digits', () => {
    expect(shortName('a/model.layers.40.mlp.down_proj.weight', 24, 'scope')).toBe('….mlp.down_proj.weight');
    expect(shortName('scale_v1.5_and_more_words', 12, 'scope')).toBe('…_more_words');
    expect(shortName('block1234567890tail', 10, 'scope')).toBe('bloc…tail');
    expect(shortName('abc1234567890xyz', 9, 'scope')).toBe('abc…xyz');
    expect(shortName('x'.repeat(1 << 20), 32, 'scope')).toHaveLength(32);
  });

  it('never splits a number in a scope cut', () => {
    const names = ['/model/layers.40/mlp/act_fn/Sigmoid', 'layers.123.self_attn.q_proj.MatMul_4567', 'tensor12345678901234567890', '/a/b.77/c_88/d-99/e:1234'];
    const numbers = (s: string): string[] => s.match(/\d+/g) ?? [];
    for (const name of names) {
      const whole = new Set(numbers(name));
      for (let max = 4; max <= name.length; max += 1) {
        const cut = shortName(name, max, 'scope');
        expect(cut.length).toBeLessThanOrEqual(max);
        // Each number shown is a whole number of the name: none is cut short.
        for (const n of numbers(cut)) expect(whole.has(n), `${name} at ${max}: ${cut}`).toBe(true);
      }
    }
  });

  it('never splits a surrogate pair', () => {
    const name = `${'a'.repeat(9)}😀${'b'.repeat(20)}😀${'c'.repeat(9)}`;
    for (const at of ['end', 'middle', 'scope'] as const) {
      for (let max = 4; max < 30; max += 1) {
        const cut = shortName(name, max, at);
        expect(cut.length).toBeLessThanOrEqual(max + 1);
        expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      }
    }
  });
});

describe('cutLongWords and boundedMessage', () => {
  it('cut a long name inside a sentence in its middle and keep the words around it', () => {
    const name = `head${'x'.repeat(1 << 20)}tail`;
    const cut = cutLongWords(`line 3: id "${name}" already used on line 2`);
    expect(cut).toMatch(/^line 3: id "headx+…x+tail" already used on line 2$/);
    expect(cut.length).toBeLessThan(SHOWN_CHARS + 40);
  });

  it('leave a name shortName already cut as it is', () => {
    const once = `tensor '${shortName('n'.repeat(100_000))}' and 'b'`;
    expect(cutLongWords(once)).toBe(once);
  });

  it('bound the whole sentence, its end kept', () => {
    const message = boundedMessage(`id "${'x '.repeat(500_000)}" already used on line 2`);
    expect(message.length).toBeLessThanOrEqual(MESSAGE_CHARS);
    expect(message).toMatch(/already used on line 2$/);
  });
});
