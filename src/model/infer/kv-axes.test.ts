import { describe, expect, it } from 'vitest';
import { decodeModel } from '../decode-model';
import { GraphBuilder } from '../testing/onnx-writer';
import { headsDecoderModel as decoder } from '../testing/tiny-decoder';
import { inferShapes } from './shapes';
import { kvPastAxes } from './kv-axes';
import { kvCaches, kvNamesOf } from '../../planner/problem/kv-cache';

const defaults = (bytes: Uint8Array) => inferShapes(decodeModel(bytes)).dims.map((d) => ({ name: d.name, value: d.value, rule: d.rule.replace(/:.*/, '') }));

describe('the dims of a decoder with a KV cache', () => {
  it('are the sequence and the past length by where they sit, named or not, as when they are named so', () => {
    const expected = (seq: string, past: string) => [
      { name: seq, value: 128, rule: 'sequence axis' },
      { name: past, value: 0, rule: 'past length' },
    ];
    expect(defaults(decoder('seq', 'past'))).toEqual(expected('seq', 'past'));
    // unnamed: the hidden states are no recurrent state, the cache axis no image axis
    expect(defaults(decoder(undefined, undefined))).toEqual(expected('hidden:1', 'past_key:2'));
    // named oddly: n is no batch on axis 1, cache_len no sequence
    expect(defaults(decoder('n', 'cache_len'))).toEqual(expected('n', 'cache_len'));
    expect(defaults(decoder(undefined, undefined, -2))).toEqual(expected('hidden:1', 'past_key:2'));
  });

  it('finds the growing axis only where a Concat writes a graph output from one graph input and a computed tensor', () => {
    expect([...kvPastAxes(decodeModel(decoder(undefined, undefined)).graph)]).toEqual(['past_key:2']);
    // along the batch: no cache grows there
    expect([...kvPastAxes(decodeModel(decoder(undefined, undefined, 0)).graph)]).toEqual([]);
  });

  it('takes token ids with a token appended, or an input with a constant appended, for no cache: their length stays a sequence', () => {
    const appended = (tokens: boolean) => {
      const g = new GraphBuilder('append');
      const ids = g.input('ids', tokens ? 'int64' : 'float32', tokens ? [1, 'seq'] : [1, 'seq', 4]);
      const tail = tokens ? g.node('ArgMax', [ids], { axis: 1 }) : g.constant('float32', [1, 1, 4]);
      g.nodeOutputs('Concat', [ids, tail], ['longer'], { axis: 1 });
      g.output('longer', tokens ? 'int64' : 'float32');
      return decodeModel(g.toBytes());
    };
    for (const tokens of [true, false]) {
      expect([...kvPastAxes(appended(tokens).graph)]).toEqual([]);
      expect(inferShapes(appended(tokens)).dims).toEqual([expect.objectContaining({ name: 'seq', value: 128 })]);
    }
  });

  it('takes an input concatenated with a result read off that same input for no cache: an image beside its filtered copy keeps its image dims', () => {
    // Concat(image, Relu(image)) along the width, written as a graph output: the width was taken for a past length, set to 0, and every tensor planned as 0 B
    const g = new GraphBuilder('side-by-side');
    g.input('image', 'float32', [1, 3, 'height', 'width']);
    const y = g.node('Relu', ['image']);
    g.output(g.node('Concat', ['image', y], { axis: 3 }), 'float32', [1, 3, 'height', undefined]);
    g.output(y, 'float32', [1, 3, 'height', 'width']);
    const model = decodeModel(g.toBytes({ opset: 17 }));
    expect([...kvPastAxes(model.graph)]).toEqual([]);
    expect(inferShapes(model).dims.map((d) => [d.name, d.value])).toEqual([['height', 224], ['width', 224]]);
    expect(kvNamesOf(kvCaches(inferShapes(model)))).toEqual(new Set());
  });

  it('leave a recurrent state where there is no KV cache', () => {
    const g = new GraphBuilder('rnn');
    g.output(g.node('Relu', [g.input('hidden', 'float32', [1, undefined, 32])]), 'float32', [1, undefined, 32]);
    expect(defaults(g.toBytes())).toEqual([{ name: 'hidden:1', value: 1, rule: 'batch axis of a recurrent state [layers, batch, hidden]' }]);
  });
});
