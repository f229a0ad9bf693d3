import { describe, expect, it } from 'vitest';
import type { DimAssumption } from '../../planner/plan';
import { derivedFrom, dimsToBind, initialDraft, typeDim } from './dims-draft';

const dim = (name: string, value: number, rule: string): DimAssumption => ({ name, value, bound: false, axes: [`x:${name}`], rule });
// As the model layer gives GPT-2 with a past: the CLI plans --dim seq_len=16 with total_seq_len 16.
const gpt2 = [
  dim('batch_size', 1, 'batch axis: one sample'),
  dim('seq_len', 128, 'sequence axis: a typical length'),
  dim('total_seq_len', 128, 'total length: sequence plus past, as the graph requires'),
  dim('past_seq_len', 0, 'past length: the first step, with no cache yet'),
];

describe('the dims form', () => {
  it('moves the total length with the sequence and the past as the user types', () => {
    let draft = typeDim(gpt2, initialDraft(gpt2), 'seq_len', '16');
    expect(draft.values.total_seq_len).toBe('16');
    draft = typeDim(gpt2, draft, 'past_seq_len', '5');
    expect(draft.values.total_seq_len).toBe('21');
    // Half-typed or bad text leaves it where it was.
    expect(typeDim(gpt2, draft, 'seq_len', '').values.total_seq_len).toBe('21');
  });

  it('leaves a total the user typed into alone', () => {
    let draft = typeDim(gpt2, initialDraft(gpt2), 'total_seq_len', '300');
    draft = typeDim(gpt2, draft, 'seq_len', '16');
    expect(draft.values.total_seq_len).toBe('300');
  });

  it('binds every dim the form shows, as shown: a derived total and a default left alone too', () => {
    const draft = typeDim(gpt2, initialDraft(gpt2), 'seq_len', '16');
    expect(dimsToBind(gpt2, draft).map(([d, text]) => [d.name, text])).toEqual([
      ['batch_size', '1'],
      ['seq_len', '16'],
      ['total_seq_len', '16'],
      ['past_seq_len', '0'],
    ]);
    expect(dimsToBind(gpt2, initialDraft(gpt2)).map(([, text]) => text)).toEqual(['1', '128', '128', '0']);
  });

  it('names what a total follows', () => {
    expect(derivedFrom(gpt2, gpt2[2]!)).toBe('seq_len + past_seq_len');
    expect(derivedFrom(gpt2, gpt2[1]!)).toBeUndefined();
    // A model without a past dim: the total follows the sequence alone.
    const noPast = [gpt2[1]!, gpt2[2]!];
    expect(typeDim(noPast, initialDraft(noPast), 'seq_len', '7').values.total_seq_len).toBe('7');
  });
});
