import { describe, expect, it } from 'vitest';
import { f32, inferNode } from '../testing/infer-node';

describe('recurrent shape rules', () => {
  it('shapes LSTM outputs in sequence-major layout', () => {
    // X [seq 5, batch 3, input 10], W [1, 4*20, 10], R [1, 4*20, 20].
    const r = inferNode('LSTM', [f32(5, 3, 10), f32(1, 80, 10), f32(1, 80, 20)], { outputs: 3, attrs: { hidden_size: 20 } });
    expect(r.outputs.map((o) => o.shape)).toEqual([[5, 1, 3, 20], [1, 3, 20], [1, 3, 20]]);
  });

  it('shapes bidirectional GRU outputs in batch-major layout and recovers hidden_size from R', () => {
    const r = inferNode('GRU', [f32(3, 5, 10), f32(2, 60, 10), f32(2, 60, 20)], { outputs: 2, attrs: { direction: 'bidirectional', layout: 1 } });
    expect(r.outputs.map((o) => o.shape)).toEqual([[3, 5, 2, 20], [3, 2, 20]]);
  });

  it('recovers RNN hidden_size from W when neither the attribute nor R gives it', () => {
    const r = inferNode('RNN', [f32(4, 2, 3), f32(1, 6, 3), undefined], { outputs: 2 });
    expect(r.outputs.map((o) => o.shape)).toEqual([[4, 1, 2, 6], [1, 2, 6]]);
  });
});
