import { describe, expect, it } from 'vitest';
import { DT } from '../dtype';
import type { DeclaredDim, IrValueInfo } from '../ir';
import { bindDims } from './dims';

const input = (name: string, shape: DeclaredDim[], dtype: number = DT.FLOAT): IrValueInfo => ({ name, dtype: dtype as IrValueInfo['dtype'], shape, kind: 'tensor' });

function binding(inputs: IrValueInfo[], name: string) {
  return bindDims(inputs, {}, []).bindings.find((b) => b.name === name)!;
}

describe('default dims', () => {
  it("take axis 1 of a recurrent state [layers, batch, hidden] for the batch it shares with the other inputs, not a sequence", () => {
    // a voice-activity detector: audio [batch, samples], state [2, batch, 128], the sample rate
    const vad = [input('input', ['', 'samples']), input('state', [2, '', 128]), input('sr', [], DT.INT64)];
    const state = binding(vad, 'state:1');
    expect(state).toMatchObject({ value: 1, source: 'default' });
    expect(state.rule).toContain('batch axis of a recurrent state');
    for (const name of ['h0', 'c0', 'initial_h', 'hidden_state', 'lstm.c']) {
      expect(binding([input(name, [1, 'unk_7', 64])], 'unk_7').value).toBe(1);
    }
  });

  it('still take axis 1 of a [batch, time, features] input that is not a state for a sequence', () => {
    const frames = binding([input('features', ['', '', 80])], 'features:1');
    expect(frames).toMatchObject({ value: 128 });
    expect(frames.rule).toContain('sequence axis');
    // named as a state, but its first axis is not a small count of layers
    expect(binding([input('state', [16, '', 128])], 'state:1').rule).toContain('sequence axis');
  });
});

describe('a total length', () => {
  // a decoder's inputs: tokens [batch, seq_len], the attention mask [batch, total_seq_len], the past [batch, heads, past_seq_len, 64]
  const decoder = [input('input_ids', ['batch_size', 'seq_len'], DT.INT64), input('attention_mask', ['batch_size', 'total_seq_len'], DT.INT64), input('past_0', ['batch_size', 4, 'past_seq_len', 64])];
  const total = (user: Record<string, number>, diagnostics: { code: string; message: string }[] = []) => bindDims(decoder, user, diagnostics).bindings.find((b) => b.name === 'total_seq_len')!;

  it('is derived, not a default, when the sequence and past lengths it adds up are both given', () => {
    expect(total({ seq_len: 1, past_seq_len: 8 })).toMatchObject({ value: 9, source: 'derived', rule: 'total length: seq_len + past_seq_len as given (1 + 8), as the graph requires' });
  });

  it('is a default while either of them is', () => {
    expect(total({ seq_len: 1 })).toMatchObject({ value: 1, source: 'default' });
    expect(total({ past_seq_len: 8 })).toMatchObject({ value: 136, source: 'default' });
  });

  it('given otherwise than their sum, is kept and named as not agreeing with them', () => {
    const diagnostics: { code: string; message: string }[] = [];
    expect(total({ seq_len: 1, past_seq_len: 8, total_seq_len: 20 }, diagnostics)).toMatchObject({ value: 20, source: 'user' });
    expect(diagnostics).toEqual([{ code: 'dim-mismatch', message: '--dim total_seq_len=20 is not seq_len + past_seq_len = 1 + 8 = 9, as the graph requires: shapes that combine them may not agree' }]);
    const agreeing: { code: string; message: string }[] = [];
    total({ seq_len: 1, past_seq_len: 8, total_seq_len: 9 }, agreeing);
    expect(agreeing).toEqual([]);
  });

  it('names the option each value came by: a total given by one option and sized by an input axis, an unknown dim by another', () => {
    const diagnostics: { code: string; message: string }[] = [];
    bindDims(decoder, { seq_len: 1, past_seq_len: 8, 'attention_mask:1': 20, heads: 4 }, diagnostics, undefined, undefined, { 'attention_mask:1': '--b-dim', heads: '--b-dim' });
    expect(diagnostics.map((d) => [d.code, d.message.slice(0, d.message.indexOf(' is '))])).toEqual([
      ['unknown-dim', '--b-dim heads=4'],
      ['dim-mismatch', '--b-dim total_seq_len=20'],
    ]);
  });

  it('given alone, is checked against the default sequence and past lengths, which the message names as defaults', () => {
    const diagnostics: { code: string; message: string }[] = [];
    expect(total({ total_seq_len: 1024 }, diagnostics)).toMatchObject({ value: 1024, source: 'user', sumOf: ['seq_len', 'past_seq_len'] });
    expect(diagnostics).toEqual([
      { code: 'dim-mismatch', message: '--dim total_seq_len=1024 is not seq_len + past_seq_len = 128 + 0 = 128 (seq_len=128, past_seq_len=0 by default), as the graph requires: shapes that combine them may not agree' },
    ]);
    const withPast: { code: string; message: string }[] = [];
    total({ past_seq_len: 16, total_seq_len: 5 }, withPast);
    expect(withPast.map((d) => d.message)).toEqual(['--dim total_seq_len=5 is not seq_len + past_seq_len = 128 + 16 = 144 (seq_len=128 by default), as the graph requires: shapes that combine them may not agree']);
  });

  it('names the dims it is the sum of, whatever its source, so a sweep can tell it is no free axis', () => {
    expect(total({}).sumOf).toEqual(['seq_len', 'past_seq_len']);
    expect(total({ seq_len: 1, past_seq_len: 8 }).sumOf).toEqual(['seq_len', 'past_seq_len']);
  });
});
