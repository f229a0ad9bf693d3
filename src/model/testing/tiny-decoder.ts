// Test utility: the smallest decoder with a KV cache, as an IrModel: a new
// token's input beside one cache input that grows with the past length.

import type { IrModel } from '../ir';
import { DT } from '../dtype';
import { irGraph } from './ir-builder';

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
