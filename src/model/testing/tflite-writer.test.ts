// The test TFLite writer round-trips through decodeTflite: every field it
// writes (shapes, types, constants, variables, signatures, quantization,
// builtin and custom codes, call options, subgraphs, metadata) reads back.

import { describe, expect, it } from 'vitest';
import { decodeTflite } from '../tflite/decode-tflite';
import { callOnceOptions, float32Data, ifOptions, svdfOptions, whileOptions, writeTflite } from './tflite-writer';

const weights = float32Data([1, 2, 3, 4, 5, 6, 7, 8]);

function controlFlowModel(): Uint8Array {
  return writeTflite({
    description: 'round trip',
    version: 3,
    metadata: [
      { name: 'min_runtime_version', data: new TextEncoder().encode('1.5.0') },
      { name: 'extra', data: new Uint8Array([9, 8, 7]) },
    ],
    subgraphs: [
      {
        name: 'main',
        tensors: [
          { name: 'x', shape: [1, 8], type: 'INT8', signature: [-1, 8], quantization: { scale: [0.5], zeroPoint: [-3] } },
          { name: 'w', shape: [2, 4], data: weights },
          { name: 'cond', shape: [], type: 'BOOL' },
          { name: 'state', shape: [1, 4], type: 'INT16', variable: true },
          { name: 'y', shape: [1, 8], type: 'INT8', quantization: { scale: [0.25, 0.5], zeroPoint: [0, 1], axis: 1 } },
          { name: 'z', shape: [1, 8], type: 'INT8' },
          { name: 'g', shape: [1, 8], type: 'FLOAT32' },
        ],
        inputs: [0, 2],
        outputs: [6],
        operators: [
          { op: 'CALL_ONCE', inputs: [], outputs: [], options: callOnceOptions(3) },
          { op: 'IF', inputs: [2, 0], outputs: [4], options: ifOptions(1, 2) },
          { op: 'SVDF', inputs: [4, 1, -1, -1, 3], outputs: [5], options: svdfOptions(2) },
          { op: 'MyCustomOp', custom: true, inputs: [5], outputs: [6], intermediates: [3] },
        ],
      },
      branch('then', 'RELU'),
      branch('else', 'GELU'),
      {
        name: 'init',
        tensors: [{ shape: [1], type: 'INT32' }],
        inputs: [],
        outputs: [],
        operators: [{ op: 'WHILE', inputs: [], outputs: [], options: whileOptions(4, 4) }],
      },
      branch('loop', 'ABS'),
    ],
  });
}

function branch(name: string, op: string) {
  return { name, tensors: [{ shape: [1, 8], type: 'INT8' }, { shape: [1, 8], type: 'INT8' }], inputs: [0], outputs: [1], operators: [{ op, inputs: [0], outputs: [1] }] };
}

describe('writeTflite', () => {
  it('writes a TFL3 flatbuffer whose tensors read back field by field', () => {
    const bytes = controlFlowModel();
    expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe('TFL3');
    const model = decodeTflite(bytes);
    expect(model.producerVersion).toBe('round trip');
    expect(model.tflite!.schemaVersion).toBe(3);
    const main = model.tflite!.subgraphs[0]!;
    expect(main.name).toBe('main');
    expect(main.inputs).toEqual([0, 2]);
    expect(main.outputs).toEqual([6]);
    expect(main.tensors.map((t) => [t.value, t.type, t.shape, t.constant, t.variable])).toEqual([
      ['x', 'INT8', [1, 8], false, false],
      ['w', 'FLOAT32', [2, 4], true, false],
      ['cond', 'BOOL', [], false, false],
      ['state', 'INT16', [1, 4], false, true],
      ['y', 'INT8', [1, 8], false, false],
      ['z', 'INT8', [1, 8], false, false],
      ['g', 'FLOAT32', [1, 8], false, false],
    ]);
    expect(main.tensors[0]!.signature).toEqual([-1, 8]);
    expect(main.tensors[1]!.signature).toBeUndefined();
    expect(main.tensors[0]!.quantization).toEqual({ scale: [0.5], zeroPoint: [-3], axis: 0 });
    expect(main.tensors[4]!.quantization).toEqual({ scale: [0.25, 0.5], zeroPoint: [0, 1], axis: 1 });
    expect(main.tensors[5]!.quantization).toBeUndefined();
  });

  it('writes operators with their codes, custom codes, intermediates and call options', () => {
    const model = decodeTflite(controlFlowModel());
    const subgraphs = model.tflite!.subgraphs;
    const main = subgraphs[0]!;
    expect(main.operators.map((op) => [op.op, op.custom, op.inputs, op.outputs, op.calls])).toEqual([
      ['CALL_ONCE', false, [], [], [3]],
      ['IF', false, [2, 0], [4], [1, 2]],
      ['SVDF', false, [4, 1, -1, -1, 3], [5], []],
      ['MyCustomOp', true, [5], [6], []],
    ]);
    expect(main.operators[2]!.options).toEqual({ rank: 2 });
    expect(main.operators[3]!.intermediates).toEqual([3]);
    expect(subgraphs.map((sg) => sg.name)).toEqual(['main', 'then', 'else', 'init', 'loop']);
    // GELU (150) is past the deprecated byte: the placeholder there, the code in the int32 field.
    expect(subgraphs[2]!.operators[0]!.op).toBe('GELU');
    expect(subgraphs[3]!.operators[0]!.calls).toEqual([4, 4]);
  });

  it('keeps constants as views of the written bytes and lists the metadata', () => {
    const bytes = controlFlowModel();
    const model = decodeTflite(bytes);
    const w = model.graph.initializers.find((t) => t.name === 'w')!;
    expect(w.dtype).toBe(1);
    expect(w.dims).toEqual([2, 4]);
    expect([...w.raw!]).toEqual([...weights]);
    expect(w.raw!.buffer).toBe(bytes.buffer);
    expect((w.raw!.byteOffset - bytes.byteOffset) % 16).toBe(0);
    expect(model.tflite!.metadata).toEqual(['min_runtime_version', 'extra']);
    expect(model.metadata).toEqual({ min_runtime_version: '5 bytes', extra: '3 bytes' });
  });

  it('builds the IR graph with called subgraphs as graph attributes', () => {
    const model = decodeTflite(controlFlowModel());
    const ifNode = model.graph.nodes.find((n) => n.opType === 'IF')!;
    const then = ifNode.attributes.subgraph_0;
    expect(then?.kind === 'graph' && then.value.name).toBe('then');
    expect(model.graph.nodes.find((n) => n.opType === 'MyCustomOp')!.domain).toBe('tflite.custom');
    expect(model.graph.persistent).toEqual(['state']);
  });

  it('puts data after the flatbuffer, named by offset and size, when asked to', () => {
    const data = Uint8Array.from({ length: 40 }, (_, i) => i);
    const spec = (storage: 'inline' | 'external' | 'both') =>
      writeTflite({ subgraphs: [{ tensors: [{ name: 'c', shape: [40], type: 'UINT8', data, storage }, { shape: [40], type: 'UINT8' }], inputs: [], outputs: [1], operators: [{ op: 'RELU', inputs: [0], outputs: [1] }] }] });
    const inline = spec('inline');
    for (const storage of ['external', 'both'] as const) {
      const bytes = spec(storage);
      const raw = decodeTflite(bytes).graph.initializers[0]!.raw!;
      expect([...raw], storage).toEqual([...data]);
      // External data ends the file (padded to 16 bytes); with both, the reader takes the inline copy before it.
      const after = bytes.length - (raw.byteOffset + raw.byteLength);
      expect(storage === 'external' ? after < 16 : after >= 40, `${storage}: ${after} bytes after`).toBe(true);
      expect(bytes.length, storage).toBeGreaterThan(inline.length);
    }
  });

  it('writes the indices it is told to, so damaged models can be built', () => {
    const bytes = writeTflite({
      subgraphs: [{ tensors: [{ shape: [1], buffer: 7 }], inputs: [0], outputs: [0], operators: [] }],
    });
    expect(() => decodeTflite(bytes)).toThrow(/^tensor 0 of subgraph 0 names buffer 7, but the model has 1 buffer$/);
  });

  it('rejects an operator or tensor type it does not know', () => {
    expect(() => writeTflite({ subgraphs: [{ tensors: [], inputs: [], outputs: [], operators: [{ op: 'NO_SUCH_OP', inputs: [], outputs: [] }] }] })).toThrow(/unknown builtin/);
    expect(() => writeTflite({ subgraphs: [{ tensors: [{ shape: [], type: 'FLOAT7' }], inputs: [], outputs: [], operators: [] }] })).toThrow(/unknown tensor type/);
  });
});
