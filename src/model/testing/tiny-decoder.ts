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
