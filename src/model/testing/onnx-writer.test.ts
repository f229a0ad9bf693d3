// The test-utility ONNX writer, read back with onnx-proto directly (not with the
// project's decoder), so a writer bug cannot hide behind a matching decoder bug.

import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, attr, dtypeCode, numberToBfloat16, numberToHalf, rawBytes, tensor } from './onnx-writer';

const { onnx } = onnxProto;

function readBack(bytes: Uint8Array): { model: Onnx.ModelProto; graph: Onnx.GraphProto } {
  const model = onnx.ModelProto.decode(bytes);
  return { model, graph: model.graph as Onnx.GraphProto };
}

const dims = (v: Onnx.IValueInfoProto | undefined): unknown[] | undefined =>
  v?.type?.tensorType?.shape?.dim?.map((d) => (d.dimParam ? d.dimParam : Object.keys(d).includes('dimValue') ? Number(d.dimValue) : undefined));

describe('GraphBuilder', () => {
  it('writes inputs with numeric, symbolic and anonymous dims, outputs and value_info', () => {
    const g = new GraphBuilder('net');
    const x = g.input('x', 'float32', ['batch', 3, undefined, 224]);
    g.input('scalar', 'int64', []);
    g.input('unranked', 'float16');
    g.valueInfo('mid', 'float32');
    const y = g.node('Relu', [x]);
    g.output(y, 'float32', ['batch', 3, undefined, 224]);
    const { graph } = readBack(g.toBytes());
    expect(graph.name).toBe('net');
    expect(graph.input.map((v) => v.name)).toEqual(['x', 'scalar', 'unranked']);
    expect(dims(graph.input[0])).toEqual(['batch', 3, undefined, 224]);
    expect(dims(graph.input[1])).toEqual([]);
    expect(graph.input[2]?.type?.tensorType?.shape).toBeFalsy();
    expect(graph.input[2]?.type?.tensorType?.elemType).toBe(10);
    expect(graph.valueInfo[0]?.type?.tensorType?.shape).toBeFalsy();
    expect(graph.output.map((v) => v.name)).toEqual(['Relu_0_out']);
  });

  it('writes sequence, optional and untyped values', () => {
    const g = new GraphBuilder();
    g.input('seq', 'float32', [2], { kind: 'sequence' });
    g.input('opt', 'int64', [], { kind: 'optional' });
    g.output('seq');
    const { graph } = readBack(g.toBytes());
    expect(graph.input[0]?.type?.sequenceType?.elemType?.tensorType?.elemType).toBe(1);
    expect(graph.input[1]?.type?.optionalType?.elemType?.tensorType?.elemType).toBe(7);
    expect(graph.output[0]?.type).toBeFalsy();
  });

  it('names nodes and outputs, and honours explicit names and domains', () => {
    const g = new GraphBuilder();
    const x = g.input('x', 'float32', [4]);
    const [a, b] = g.nodeOutputs('Split', [x], 2, { axis: 0 });
    const c = g.node('FastGelu', [a ?? ''], {}, { domain: 'com.microsoft', name: 'gelu' });
    g.nodeOutputs('Add', [c, b ?? ''], ['sum'], {}, { name: '' });
    const { graph } = readBack(g.toBytes({ opsets: { 'com.microsoft': 1 } }));
    expect(graph.node.map((n) => [n.name, n.opType, n.domain, n.output])).toEqual([
      ['Split_0', 'Split', '', ['Split_0_out0', 'Split_0_out1']],
      ['gelu', 'FastGelu', 'com.microsoft', ['gelu_out']],
      ['', 'Add', '', ['sum']],
    ]);
  });

  it('maps attribute values to their ONNX kinds', () => {
    const g = new GraphBuilder();
    const body = new GraphBuilder('body');
    body.output(body.input('v', 'float32', []));
    g.node('Custom', [], {
      i: 3,
      f: 0.5,
      forced: attr.float(1),
      s: 'same',
      ints: [1, 2],
      floats: [0.5, 1.5],
      strings: ['a', 'b'],
      empty: [],
      t: tensor('int64', [2], [7, 8]),
      ts: [tensor('float32', [1]), tensor('float32', [2])],
      g: body,
      gs: [body, body],
      flag: true,
      big: 2n ** 63n - 1n,
    });
    const { graph } = readBack(g.toBytes());
    const byName = new Map(graph.node[0]?.attribute?.map((a) => [a.name, a]));
    const T = onnx.AttributeProto.AttributeType;
    const kinds = Object.fromEntries([...byName].map(([k, a]) => [k, a.type]));
    expect(kinds).toEqual({
      i: T.INT, f: T.FLOAT, forced: T.FLOAT, s: T.STRING, ints: T.INTS, floats: T.FLOATS, strings: T.STRINGS,
      empty: T.INTS, t: T.TENSOR, ts: T.TENSORS, g: T.GRAPH, gs: T.GRAPHS, flag: T.INT, big: T.INT,
    });
    expect(byName.get('forced')?.f).toBe(1);
    expect(String(byName.get('big')?.i)).toBe('9223372036854775807');
    expect(byName.get('g')?.g?.name).toBe('body');
    expect(byName.get('gs')?.graphs).toHaveLength(2);
    expect(Array.from(byName.get('t')?.t?.rawData ?? [])).toEqual([7, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('writes initializers zero-filled by default, as raw bytes or typed fields, and as external data', () => {
    const g = new GraphBuilder();
    g.initializer('w', 'float32', [2, 3]);
    g.initializer('f', 'float32', [2], [1.5, -2], { storage: 'fields' });
    g.initializer('i', 'int64', [2], [-1, 2n ** 63n - 1n], { storage: 'fields' });
    g.initializer('s', 'string', [2], ['ab', 'c']);
    g.initializer('e', 'float32', [1000], undefined, { external: { location: 'w.bin', offset: 4096, length: 4000 } });
    const { graph } = readBack(g.toBytes());
    const [w, f, i, s, e] = graph.initializer;
    expect(Array.from(w?.rawData ?? [])).toEqual(new Array(24).fill(0));
    expect(f?.floatData).toEqual([1.5, -2]);
    expect(f?.rawData?.length).toBe(0);
    expect(i?.int64Data?.map(String)).toEqual(['-1', '9223372036854775807']);
    expect(s?.stringData?.map((b) => new TextDecoder().decode(b))).toEqual(['ab', 'c']);
    expect(e?.dataLocation).toBe(onnx.TensorProto.DataLocation.EXTERNAL);
    expect(e?.externalData?.map((kv) => [kv.key, kv.value])).toEqual([['location', 'w.bin'], ['offset', '4096'], ['length', '4000']]);
    expect(e?.rawData?.length).toBe(0);
  });

  it('lists initializers as graph inputs for IR versions before 4', () => {
    const g = new GraphBuilder();
    g.input('x', 'float32', [1]);
    g.initializer('w', 'float32', [1]);
    expect(readBack(g.toBytes({ irVersion: 3 })).graph.input.map((v) => v.name)).toEqual(['x', 'w']);
    expect(readBack(g.toBytes({ irVersion: 8 })).graph.input.map((v) => v.name)).toEqual(['x']);
  });

  it('writes the model header and opset imports', () => {
    const g = new GraphBuilder();
    const { model } = readBack(g.toBytes({ opset: 13, opsets: { 'com.microsoft': 1 }, irVersion: 7, defaultDomain: 'ai.onnx' }));
    expect(Number(model.irVersion)).toBe(7);
    expect(model.opsetImport.map((o) => [o.domain, Number(o.version)])).toEqual([['ai.onnx', 13], ['com.microsoft', 1]]);
    expect(model.producerName).toBe('heapscope onnx-writer');
  });
});

describe('tensor encoding', () => {
  it('rounds numbers to float16 bits like IEEE 754 half precision', () => {
    expect([1, -2, 0.5, 65504, 0.1, 2 ** -24, 2 ** -25, 1e-8, 70000, Infinity].map(numberToHalf)).toEqual([
      0x3c00, 0xc000, 0x3800, 0x7bff, 0x2e66, 0x0001, 0x0000, 0x0000, 0x7c00, 0x7c00,
    ]);
    expect(numberToHalf(Number.NaN) & 0x7c00).toBe(0x7c00);
    expect(numberToHalf(-0)).toBe(0x8000);
  });

  it('rounds numbers to bfloat16 bits', () => {
    expect([1, -2, 3.140625, 1 + 2 ** -8].map(numberToBfloat16)).toEqual([0x3f80, 0xc000, 0x4049, 0x3f80]);
  });

  it('packs int4 values two to a byte, low nibble first', () => {
    expect(Array.from(rawBytes(dtypeCode('int4'), [1, -1, 7]))).toEqual([0xf1, 0x07]);
    expect(Array.from(rawBytes(dtypeCode('uint4'), [15, 2]))).toEqual([0x2f]);
  });

  it('clamps int64 numbers past the int64 range (Slice ends written as huge numbers)', () => {
    const bytes = rawBytes(dtypeCode('int64'), [2 ** 64, -(2 ** 64)]);
    const view = new DataView(bytes.buffer);
    expect(view.getBigInt64(0, true)).toBe(2n ** 63n - 1n);
    expect(view.getBigInt64(8, true)).toBe(-(2n ** 63n));
  });

  it('refuses data it cannot encode and names it', () => {
    expect(() => dtypeCode('float33')).toThrow(/unknown data type 'float33'/);
    expect(() => rawBytes(dtypeCode('float8e4m3fn'), [1.5])).toThrow(/as raw bytes/);
    expect(Array.from(rawBytes(dtypeCode('float8e4m3fn'), [0, 0]))).toEqual([0, 0]);
  });
});
