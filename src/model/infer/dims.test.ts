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
