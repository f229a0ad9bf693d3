// Names and dim lists from the file are bounded in every message the model
// layer writes: a 1 MB op type, node or tensor name, or an initializer with a
// million dims, gives sentences a person can read.

import { describe, expect, it } from 'vitest';
import { InputError } from '../shared/errors';
import { MESSAGE_CHARS } from '../shared/short-name';
import { decodeModel } from './decode-model';
import { inferShapes } from './infer/shapes';
import { encodeModel, GraphBuilder } from './testing/onnx-writer';

const LONG = 'n'.repeat(1 << 20);

function decodeError(bytes: Uint8Array): InputError {
  try {
    decodeModel(bytes);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('the model was accepted');
}

describe('messages about a model with 1 MB names', () => {
  it('cut every name in the diagnostics of inference', () => {
    const g = new GraphBuilder('long');
    const x = g.input('x', 'float32', [2, 3]);
    const a = g.nodeOutputs(`Op${LONG}`, [x], [`a${LONG}`], {}, { name: `custom${LONG}` })[0]!;
    const shape = g.initializer('shape', 'int64', [1], [5]);
    const b = g.nodeOutputs('Reshape', [x, shape], [`b${LONG}`], {}, { name: `reshape${LONG}` })[0]!;
    const c = g.nodeOutputs('Relu', [x], [`c${LONG}`], {}, { name: `relu${LONG}` })[0]!;
    g.valueInfo(c, 'float32', [7, 7]);
    [a, b, c].forEach((name) => g.output(name));
    const model = inferShapes(decodeModel(g.toBytes({ opset: 17 })), { shapes: { [`d${LONG}`]: [1] }, inputValues: { [`e${LONG}`]: [1] } });
    const codes = model.diagnostics.map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining(['no-shape-rule', 'unknown-shape', 'shape-mismatch', 'unused-binding']));
    for (const d of model.diagnostics) expect(d.message.length, d.code).toBeLessThan(MESSAGE_CHARS);
  });

  it('cut names and dim lists in the errors of decoding', () => {
    const writes = new GraphBuilder();
    const w = writes.initializer(`w${LONG}`, 'float32', [1]);
    writes.output(writes.nodeOutputs('Relu', [writes.input('x', 'float32', [1])], [w], {}, { name: `r${LONG}` })[0]!);
    expect(decodeError(writes.toBytes()).message.length).toBeLessThan(MESSAGE_CHARS);

    const dims = new GraphBuilder();
    dims.output(dims.input('x', 'float32', [1]));
    const proto = dims.toModelProto();
    const initializer = { name: `w${LONG}`, dataType: 1, dims: [...Array.from({ length: 100_000 }, () => 1), -1] };
    const error = decodeError(encodeModel({ ...proto, graph: { ...proto.graph, initializer: [initializer] } }));
    expect(error.message).toMatch(/invalid dimension -1 \(dims 1×1×1×1×1×1×1×…×-1 \(100001 dims\)\)/);
    expect(error.message.length).toBeLessThan(MESSAGE_CHARS);
  });
});
