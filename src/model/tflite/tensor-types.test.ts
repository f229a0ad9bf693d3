// The tensor types TensorFlow Lite added after BFLOAT16 (INT2 = 19, UINT4 = 20,
// FLOAT8_E4M3FN = 21, FLOAT8_E5M2 = 22): a model holding them opens, each
// tensor sized as the file stores it, the sub-byte ones packed; a code past
// the last is still refused.

import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { writeTflite } from '../testing/tflite-writer';
import { decodeTflite } from './decode-tflite';

/** x (INT2, 10 elements) → y (UINT4, 5 elements) by a CAST, with w, a UINT4 constant of 5 elements, unused. */
function subByteModel(yType: string | number = 'UINT4'): Uint8Array {
  return writeTflite({
    subgraphs: [
      {
        tensors: [
          { name: 'x', shape: [1, 10], type: 'INT2' },
          { name: 'y', shape: [1, 5], type: yType },
          { name: 'w', shape: [5], type: 'UINT4', data: new Uint8Array([0x21, 0x43, 0x05]) },
        ],
        inputs: [0],
        outputs: [1],
        operators: [{ op: 'CAST', inputs: [0], outputs: [1] }],
      },
    ],
  });
}

describe('INT2 and UINT4 tensors', () => {
  it('open, named by their types, sized packed as the file stores them: INT2 four to a byte, UINT4 two', () => {
    const model = decodeTflite(subByteModel());
    const tensors = model.tflite!.subgraphs[0]!.tensors;
    expect(tensors.map((t) => [t.value, t.type, t.bytes])).toEqual([
      ['x', 'INT2', 3],
      ['y', 'UINT4', 3],
      ['w', 'UINT4', 3],
    ]);
    const types = Object.fromEntries(model.graph.inputs.concat(model.graph.outputs).map((v) => [v.name, v.dtype]));
    expect(types).toEqual({ x: 26, y: 21 }); // ONNX's INT2 and UINT4
    expect(model.graph.initializers.map((t) => [t.name, t.dtype, t.raw?.byteLength])).toEqual([['w', 21, 3]]);
  });

  it('a tensor type past FLOAT8_E5M2 (22) is still refused in one sentence naming the tensor', () => {
    let error: unknown;
    try {
      decodeTflite(subByteModel(23));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'not-a-model', message: 'tensor 1 of subgraph 0 ("y") has tensor type 23, which TensorFlow Lite does not define' });
  });
});

describe('FLOAT8_E4M3FN and FLOAT8_E5M2 tensors', () => {
  it('open, named by their types, a byte per element', () => {
    const bytes = writeTflite({
      subgraphs: [{ tensors: [{ name: 'a', shape: [2, 3], type: 'FLOAT8_E4M3FN' }, { name: 'b', shape: [2, 3], type: 'FLOAT8_E5M2' }], inputs: [0], outputs: [1], operators: [{ op: 'CAST', inputs: [0], outputs: [1] }] }],
    });
    const model = decodeTflite(bytes);
    expect(model.tflite!.subgraphs[0]!.tensors.map((t) => [t.value, t.type, t.bytes])).toEqual([
      ['a', 'FLOAT8_E4M3FN', 6],
      ['b', 'FLOAT8_E5M2', 6],
    ]);
    expect([model.graph.inputs[0]!.dtype, model.graph.outputs[0]!.dtype]).toEqual([17, 19]); // ONNX's FLOAT8E4M3FN and FLOAT8E5M2
  });
});
