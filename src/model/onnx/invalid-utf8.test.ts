// A name whose bytes are not valid UTF-8 keeps a mark where each invalid byte
// was (U+FFFD, as TextDecoder reads it), so two names that differ only in such
// a byte stay two names; protobufjs's own reader drops the byte.

import { describe, expect, it } from 'vitest';
import { decodeOnnx } from './decode-onnx';
import { GraphBuilder } from '../testing/onnx-writer';

/** The model's bytes with every `QQ` (a placeholder in a name) made `Q` and the invalid byte 0x9b. */
function withInvalidByte(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  for (let i = 0; i + 1 < out.length; i++) if (out[i] === 0x51 && out[i + 1] === 0x51) out[i + 1] = 0x9b;
  return out;
}

describe('names with bytes that are not UTF-8', () => {
  it('read each invalid byte as U+FFFD, so the name differs from one without it', () => {
    const g = new GraphBuilder('utf8');
    const x = g.input('x', 'float32', [2]);
    const [a] = g.nodeOutputs('Relu', [x], ['a-QQ31m']);
    const [b] = g.nodeOutputs('Relu', [a!], ['a-Q31m']);
    g.output(b!);
    const model = decodeOnnx(withInvalidByte(g.toBytes({ opset: 17 })));
    const outputs = model.graph.nodes.map((n) => n.outputs[0]);
    expect(outputs).toEqual(['a-Q\uFFFD31m', 'a-Q31m']);
    expect(model.graph.nodes[1]!.inputs[0]).toBe('a-Q\uFFFD31m');
  });
});
