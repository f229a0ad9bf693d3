// Test utility: the smallest decoder with a KV cache, as an IrModel (or ONNX
// bytes, with attention heads): a new token's input beside one cache input
// that grows with the past length.

import type { IrModel } from '../ir';
import { DT } from '../dtype';
import { irGraph } from './ir-builder';
import { GraphBuilder, type DimSpec } from './onnx-writer';

/** One layer: x [batch, seq, 4] -> k; present_key = Concat(past_key [batch, past_len, 4], k) along the sequence. */
export function tinyDecoderIr(): IrModel {
  return irGraph()
    .input('x', DT.FLOAT, ['batch', 'seq', 4])
    .input('past_key', DT.FLOAT, ['batch', 'past_len', 4])
    .node('Relu', ['x'], ['k'], {}, { name: 'k_proj' })
    .node('Concat', ['past_key', 'k'], ['present_key'], { axis: 1 }, { name: 'cat' })
    .node('Sigmoid', ['k'], ['y'], {}, { name: 'out' })
    .output('y')
    .output('present_key')
    .model();
}

/** The tiny decoder with an attention mask [batch, total_len], total_len being seq + past_len as the graph requires. */
export function tinyMaskedDecoderIr(): IrModel {
  return irGraph()
    .input('x', DT.FLOAT, ['batch', 'seq', 4])
    .input('past_key', DT.FLOAT, ['batch', 'past_len', 4])
    .input('attention_mask', DT.INT64, ['batch', 'total_len'])
    .node('Relu', ['x'], ['k'], {}, { name: 'k_proj' })
    .node('Concat', ['past_key', 'k'], ['present_key'], { axis: 1 }, { name: 'cat' })
    .node('Sigmoid', ['k'], ['y'], {}, { name: 'out' })
    .node('Cast', ['attention_mask'], ['mask_f'], { to: DT.FLOAT }, { name: 'mask_cast' })
    .output('y')
    .output('present_key')
    .output('mask_f')
    .model();
}

/**
 * One layer with heads, as ONNX bytes: hidden [1, seq, 32] -> k [1, 4, seq, 8]; present_key = Concat(past_key
 * [1, 4, past, 8], k) on `axis` (2, the past length); `seq` and `past` named as given, or left unnamed.
 */
export function headsDecoderModel(seq: DimSpec, past: DimSpec, axis = 2): Uint8Array {
  const g = new GraphBuilder('decoder');
  g.input('hidden', 'float32', [1, seq, 32]);
  g.input('past_key', 'float32', [1, 4, past, 8]);
  const split = g.node('Reshape', ['hidden', g.initializer('heads', 'int64', [4], [1, -1, 4, 8])]);
  const k = g.node('Transpose', [split], { perm: [0, 2, 1, 3] });
  g.nodeOutputs('Concat', ['past_key', k], ['present_key'], { axis });
  g.output(g.node('Relu', ['hidden']), 'float32', [1, seq, 32]);
  g.output('present_key', 'float32', [1, 4, undefined, 8]);
  return g.toBytes();
}
