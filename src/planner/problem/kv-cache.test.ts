import { describe, expect, it } from 'vitest';
import { planModel } from '../plan';
import { testTarget, tinyGraph } from '../testing/tiny-graph';
import { kvCaches } from './kv-cache';
import { peakLiveReasons } from '../explain/peak-live';

/** One attention layer's cache: past (graph input) and a fresh key concatenated into present (graph output), then read by a Transpose. */
function decoderLayer(past: string, present: string) {
  return tinyGraph('float16')
    .input('x', [1, 2, 1, 8])
    .input(past, [1, 2, 16, 8])
    .node('Relu', ['x'], { k: [1, 2, 1, 8] }, { name: 'K' })
    .node('Concat', [past, 'k'], { [present]: [1, 2, 17, 8] }, { name: 'Concat_key' })
    .node('Transpose', [present], { kt: [1, 2, 8, 17] }, { name: 'Transpose_kt' })
    .node('MatMul', ['x', 'kt'], { s: [1, 2, 1, 17] }, { name: 'Scores' })
    .node('Softmax', ['s'], { p: [1, 2, 1, 17] }, { name: 'Softmax' })
    .node('Relu', ['p'], { y: [1, 2, 1, 17] }, { name: 'Out' })
    .output(present, 'y');
}

describe('kvCaches', () => {
  it('pairs past and present by name, key with key and value with value', () => {
    const graph = tinyGraph()
      .input('past_key_values.3.key', [1])
      .input('past_key_values.3.value', [1])
      .input('past_key_7', [1])
      .input('past_value_7', [1])
      .node('Relu', ['past_key_values.3.key'], { 'present.3.key': [1] })
      .node('Relu', ['past_key_values.3.value'], { 'present.3.value': [1] })
      .node('Relu', ['past_value_7'], { present_value_7: [1] })
      .node('Relu', ['past_key_7'], { present_key_7: [1] })
      .output('present.3.key', 'present.3.value', 'present_value_7', 'present_key_7')
      .model();
    const { byPresent, byPast } = kvCaches(graph);
    expect(byPresent.get('present.3.key')?.past).toBe('past_key_values.3.key');
    expect(byPresent.get('present.3.value')?.past).toBe('past_key_values.3.value');
    expect(byPresent.get('present_key_7')?.past).toBe('past_key_7');
    expect(byPresent.get('present_value_7')?.past).toBe('past_value_7');
    expect(byPast.get('past_key_7')?.present).toBe('present_key_7');
  });

  it('finds a cache by its structure whatever it is called: a Concat of a graph input into a graph output', () => {
    const { byPresent } = kvCaches(decoderLayer('k_cache_in', 'k_cache_out').model());
    expect(byPresent.get('k_cache_out')).toEqual({ past: 'k_cache_in', present: 'k_cache_out' });
  });

  it('finds nothing in a graph without one', () => {
    const graph = tinyGraph().input('x', [4]).node('Relu', ['x'], { y: [4] }).node('Concat', ['y', 'y'], { z: [8] }).output('z').model();
    expect(kvCaches(graph).byPresent.size).toBe(0);
  });
});

describe('a KV cache in the plan', () => {
  it('is a graph output (KV cache) kept to the end of the run, not a copy read by the Transpose after its Concat', () => {
    const plan = planModel(decoderLayer('past_key_0', 'present_key_0').model(), testTarget());
    const present = plan.buffers.find((b) => b.name === 'present_key_0')!;
    expect(present.kind).toBe('output');
    expect(present.end).toBe(plan.steps.length);
    const record = plan.explanation.peakLive.find((r) => r.name === 'present_key_0');
    expect(record?.causes[0]).toBe('graph-output');
    expect(record?.reason).toBe('graph output (KV cache), kept to the end of the run for the next run to read as past_key_0');
    // The Concat still copies (its past is a graph input) and says so.
    expect(plan.diagnostics.some((d) => d.code === 'concat-copy' && d.node === 'Concat_key')).toBe(true);
  });

  it('says a past input is a KV cache, read until the Concat that writes the present', () => {
    const model = decoderLayer('past_key_values.0.key', 'present.0.key').model();
    const plan = planModel(model, testTarget());
    const past = plan.buffers.find((b) => b.name === 'past_key_values.0.key')!;
    const { steps, buffers } = plan;
    const liveAtPeak = [{ id: past.id, name: past.name, kind: past.kind, size: past.size, counted: past.size }];
    const live = peakLiveReasons({ graph: model, steps, buffers, liveAtPeak, peakStep: 1, functions: [], boundaries: [], computeUnits: [], graphIo: 'as-used' });
    expect(live[0]?.reason).toBe('graph input (KV cache), read until Concat Concat_key');
  });
});
