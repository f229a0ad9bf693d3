import { describe, expect, it } from 'vitest';
import { closeNames, didYouMean, editDistance } from './close-names';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions up to the limit', () => {
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBeUndefined();
    expect(editDistance('abc', 'abc', 1)).toBe(0);
    expect(editDistance('abc', 'abcdef', 2)).toBeUndefined();
    expect(editDistance('', 'ab', 2)).toBe(2);
    expect(editDistance('btach', 'batch', 1)).toBe(1);
  });
});

describe('closeNames', () => {
  it('finds a name that differs in case or separators, then a few edits apart, closest first', () => {
    const names = ['seq_len', 'batch', 'past_seq_len', 'sequence', 'Seqlen2'];
    expect(closeNames('seqlen', names)).toEqual(['seq_len', 'Seqlen2']);
    expect(closeNames('btach', names)).toEqual(['batch']);
    expect(closeNames('image', names)).toEqual([]);
  });

  it('never suggests the name itself, and skips names too long to compare', () => {
    expect(closeNames('x', ['x', 'y'])).toEqual(['y']);
    const long = 'a'.repeat(1_000_000);
    expect(closeNames(long, [long.slice(1)])).toEqual([]);
    expect(closeNames('aaa', [long])).toEqual([]);
  });

  it('reads at most 100,000 candidates, so a model with millions of values answers quickly', () => {
    const filler = Array.from({ length: 100_000 }, (_, i) => `filler_${i}`);
    expect(closeNames('attention_mask', ['attention_mas', ...filler])).toEqual(['attention_mas']);
    expect(closeNames('attention_mask', [...filler, 'attention_mas'])).toEqual([]);
  });
});

describe('didYouMean', () => {
  it('lists up to three names, cut to 120 characters, or says nothing', () => {
    expect(didYouMean('nope', ['x'])).toBe('');
    expect(didYouMean('inputs', ['input'])).toBe(" (did you mean 'input'?)");
    expect(didYouMean('abc', ['abd', 'abe', 'xbc', 'abf'])).toBe(" (did you mean 'abd', 'abe' or 'abf'?)");
    const long = 'n'.repeat(150);
    expect(didYouMean(`${long}x`, [long])).toBe(` (did you mean '${'n'.repeat(120)}…'?)`);
  });
});
