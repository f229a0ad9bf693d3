// plan --json flags each buffer of a decoder's KV cache as its past input or
// its present output, found by name or by the Concat that grows it, and no
// other graph input or output.

import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import { GraphBuilder } from '../../model/testing/onnx-writer';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';

/** ids → logits, with a cache paired by name (past_key_0 / present_key_0) and one by its Concat (cache_in → cache_out). */
function decoder(): Uint8Array {
  const g = new GraphBuilder('decoder');
  const ids = g.input('ids', 'float32', [1, 1, 8]);
  const byName = g.input('past_key_0', 'float32', [1, 4, 8]);
  const byConcat = g.input('cache_in', 'float32', [1, 4, 8]);
  g.output(g.node('Relu', [ids]), 'float32', [1, 1, 8]);
  g.nodeOutputs('Concat', [byName, ids], ['present_key_0'], { axis: 1 });
  g.nodeOutputs('Concat', [byConcat, g.node('Neg', [ids])], ['cache_out'], { axis: 1 });
  g.output('present_key_0', 'float32', [1, 5, 8]);
  g.output('cache_out', 'float32', [1, 5, 8]);
  return g.toBytes({ opset: 17 });
}

describe('the KV-cache flag of a plan buffer', () => {
  it("marks the cache's past inputs and present outputs, and leaves the other graph I/O alone", () => {
    const plan = planModel(inferShapes(decodeModel(decoder())), presetTarget('cpu'));
    const flags = Object.fromEntries(plan.buffers.filter((b) => b.kind === 'input' || b.kind === 'output').map((b) => [b.name, b.kvCache ?? 'none']));
    expect(flags).toEqual({ ids: 'none', past_key_0: 'past', cache_in: 'past', Relu_0_out: 'none', present_key_0: 'present', cache_out: 'present' });
  });
});
