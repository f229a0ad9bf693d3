// decodeOnnx on models built by the test writer: values and dims, opsets and domains,
// attributes of every kind, Constant values, subgraphs, data types, external data,
// zero-copy weights and progress. Real files: decode-corpus.test.ts; bad input:
// decode-errors.test.ts.

import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from './decode-onnx';
import type { IrAttribute, IrGraph, IrModel } from '../ir';
import { tensorValues } from '../tensor-values';
import { GraphBuilder, attr, tensor } from '../testing/onnx-writer';

const attribute = (model: IrModel | IrGraph, node: number, name: string): IrAttribute | undefined =>
  ('graph' in model ? model.graph : model).nodes[node]?.attributes[name];

describe('decodeOnnx: values and dims', () => {
  it('keeps numeric, symbolic and anonymous dims, and no shape as undefined', () => {
    const g = new GraphBuilder();
    const x = g.input('x', 'float32', ['batch', 3, undefined, 224]);
    const s = g.input('s', 'int64', []);
    g.input('u', 'float16');
    g.valueInfo('mid', 'float32');
    g.valueInfo('typed', 'float32', ['n', 2]);
    g.output(g.node('Add', [x, s]), 'float32', ['batch', 3, undefined, 224]);
    g.output('u');
    const model = decodeOnnx(g.toBytes());
    expect(model.graph.inputs).toEqual([
      { name: 'x', dtype: 1, shape: ['batch', 3, undefined, 224], kind: 'tensor' },
      { name: 's', dtype: 7, shape: [], kind: 'tensor' },
      { name: 'u', dtype: 10, shape: undefined, kind: 'tensor' },
    ]);
    expect(model.graph.valueInfo.map((v) => v.shape)).toEqual([undefined, ['n', 2]]);
    expect(model.graph.outputs.map((v) => v.name)).toEqual(['Add_0_out', 'u']);
  });

  it('tells sequence, optional and untyped values apart', () => {
    const g = new GraphBuilder();
    g.input('seq', 'float32', ['n', 4], { kind: 'sequence' });
    g.input('opt', 'int64', [], { kind: 'optional' });
    g.output('seq');
    const model = decodeOnnx(g.toBytes());
    expect(model.graph.inputs.map((v) => [v.kind, v.dtype, v.shape])).toEqual([
      ['sequence', 1, ['n', 4]],
      ['optional', 7, []],
    ]);
    expect(model.graph.outputs[0]).toEqual({ name: 'seq', dtype: undefined, shape: undefined, kind: 'unknown' });
  });

  it('treats a negative declared dim as unknown and says so', () => {
    const g = new GraphBuilder();
    g.output(g.input('x', 'float32', [-1, 3]));
    const model = decodeOnnx(g.toBytes());
    expect(model.graph.inputs[0]?.shape).toEqual([undefined, 3]);
    expect(model.diagnostics.map((d) => d.code)).toEqual(['invalid-dim']);
    expect(model.graph.inputs[0]?.invalidDims).toBeUndefined();
  });

  it('keeps a declared number that is no size (past 2^53 − 1, below -1) as written, never as an unnamed dim', () => {
    const g = new GraphBuilder();
    g.output(g.input('x', 'float32', [2n ** 53n + 1n, 3, -5]));
    const model = decodeOnnx(g.toBytes());
    expect(model.graph.inputs[0]?.shape).toEqual([undefined, 3, undefined]);
    expect(model.graph.inputs[0]?.invalidDims).toEqual([
      { axis: 0, value: '9007199254740993' },
      { axis: 2, value: '-5' },
    ]);
    expect(model.diagnostics.map((d) => d.message)).toEqual([
      "value 'x' declares axis 0 as 9007199254740993, axis 2 as -5, which is no size (a dim is 0 to 2^53 − 1): read as unknown, never as a default",
    ]);
  });

  it('drops initializers from the graph inputs of IR 3 files and keeps the real inputs', () => {
    const g = new GraphBuilder();
    const x = g.input('x', 'float32', [1, 4]);
    const w = g.initializer('w', 'float32', [4, 2]);
    g.output(g.node('MatMul', [x, w]));
    const model = decodeOnnx(g.toBytes({ irVersion: 3, opset: 7 }));
    expect(model.irVersion).toBe(3);
    expect(model.graph.inputs.map((v) => v.name)).toEqual(['x']);
    expect(model.graph.initializers.map((t) => [t.name, t.dims])).toEqual([['w', [4, 2]]]);
  });
});

describe('decodeOnnx: nodes and opsets', () => {
  it("normalises the 'ai.onnx' domain to '' and keeps custom domains", () => {
    const g = new GraphBuilder();
    const x = g.input('x', 'float32', [2]);
    const y = g.node('Relu', [x], {}, { domain: 'ai.onnx' });
    g.output(g.node('FastGelu', [y], {}, { domain: 'com.microsoft' }));
    const model = decodeOnnx(g.toBytes({ opset: 13, defaultDomain: 'ai.onnx', opsets: { 'com.microsoft': 1 } }));
    expect(model.opsets).toEqual([{ domain: '', version: 13 }, { domain: 'com.microsoft', version: 1 }]);
    expect(model.graph.nodes.map((n) => [n.opType, n.domain])).toEqual([['Relu', ''], ['FastGelu', 'com.microsoft']]);
  });

  it('names unnamed nodes OpType_<index> without clashing with names in the file', () => {
    const g = new GraphBuilder();
    let x = g.input('x', 'float32', [2]);
    x = g.node('Relu', [x], {}, { name: '' });
    x = g.node('Relu', [x], {}, { name: '' });
    x = g.node('Sigmoid', [x], {}, { name: 'Relu_1' });
    g.output(x);
    const names = decodeOnnx(g.toBytes()).graph.nodes.map((n) => n.name);
    expect(names).toEqual(['Relu_0', 'Relu_1_2', 'Relu_1']);
  });

  it('converts attributes of every kind', () => {
    const g = new GraphBuilder();
    const body = new GraphBuilder('body');
    body.output(body.node('Identity', [body.input('v', 'float32', [])]));
    g.node('Custom', [], {
      f: 0.25, i: -3, s: 'text', t: tensor('int32', [2], [5, 6]), g: body,
      floats: [0.5, 2.5], ints: [1, 2, 3], strings: ['a', 'bc'], tensors: [tensor('float32', [1], [9])], graphs: [body, body],
      huge: 2n ** 63n - 1n, sparse: attr.proto({ type: 11, sparseTensor: { dims: [4] } }), ref: attr.proto({ type: 2, refAttrName: 'alpha' }),
      untyped: attr.proto({ f: 1.5 }), ['__proto__']: 'plain key',
    }, { domain: 'custom' });
    const attrs = decodeOnnx(g.toBytes({ opsets: { custom: 1 } })).graph.nodes[0]?.attributes ?? {};
    const simple = Object.fromEntries(
      Object.entries(attrs).filter(([k, a]) => k !== '__proto__' && !['tensor', 'tensors', 'graph', 'graphs'].includes(a.kind)),
    );
    expect(simple).toEqual({
      f: { kind: 'float', value: 0.25 }, i: { kind: 'int', value: -3 }, s: { kind: 'string', value: 'text' },
      floats: { kind: 'floats', value: [0.5, 2.5] }, ints: { kind: 'ints', value: [1, 2, 3] },
      strings: { kind: 'strings', value: ['a', 'bc'] }, huge: { kind: 'int', value: 2 ** 63 },
      sparse: { kind: 'other', value: undefined }, ref: { kind: 'other', value: undefined },
      untyped: { kind: 'float', value: 1.5 },
    });
    expect(Object.getPrototypeOf(attrs)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(attrs, '__proto__')?.value).toEqual({ kind: 'string', value: 'plain key' });
    const t = attrs.t?.kind === 'tensor' ? attrs.t.value : undefined;
    expect(t && [t.dtype, t.dims, tensorValues(t)]).toEqual([6, [2], [5, 6]]);
    expect(attrs.tensors?.kind === 'tensors' && attrs.tensors.value.map((x) => tensorValues(x))).toEqual([[9]]);
    expect(attrs.g?.kind === 'graph' && attrs.g.value.nodes.map((n) => n.opType)).toEqual(['Identity']);
    expect(attrs.graphs?.kind === 'graphs' && attrs.graphs.value.map((sub) => sub.name)).toEqual(['body', 'body']);
  });

  it("turns every form of a Constant's value into one tensor named after its output", () => {
    const g = new GraphBuilder();
    const forms = {
      value: tensor('int64', [3], [1, -2, 3]), value_float: attr.float(2), value_floats: [0.5, 1.5],
      value_int: 7, value_ints: [4, 5], value_string: 'hi', value_strings: ['a', 'b', 'c'],
    };
    for (const [key, value] of Object.entries(forms)) g.output(g.node('Constant', [], { [key]: value }, { name: key }));
    const model = decodeOnnx(g.toBytes());
    const read = model.graph.nodes.map((n) => {
      const a = n.attributes.value;
      if (Object.keys(n.attributes).length !== 1 || a?.kind !== 'tensor') return undefined;
      return [a.value.name, a.value.dtype, a.value.dims, tensorValues(a.value) ?? a.value.strings];
    });
    expect(read).toEqual([
      ['value_out', 7, [3], [1, -2, 3]], ['value_float_out', 1, [], [2]], ['value_floats_out', 1, [2], [0.5, 1.5]],
      ['value_int_out', 7, [], [7]], ['value_ints_out', 7, [2], [4, 5]], ['value_string_out', 8, [], ['hi']],
      ['value_strings_out', 8, [3], ['a', 'b', 'c']],
    ]);
    expect(model.diagnostics.map((d) => [d.code, d.node])).toEqual([
      ['string-tensor', 'value_string'],
      ['string-tensor', 'value_strings'],
    ]);
  });
});

describe('decodeOnnx: subgraphs', () => {
  it('decodes If branches and a Loop body that read outer-scope tensors, recursively', () => {
    const outer = new GraphBuilder('main');
    const x = outer.input('x', 'float32', ['n']);
    const cond = outer.input('cond', 'bool', []);
    const scale = outer.initializer('scale', 'float32', [], [2]);
    const thenBranch = new GraphBuilder('then');
    thenBranch.output(thenBranch.node('Mul', [x, scale]), 'float32', ['n']);
    const elseBranch = new GraphBuilder('else');
    elseBranch.output(elseBranch.node('Neg', [x]), 'float32', ['n']);
    const body = new GraphBuilder('body');
    body.input('iter', 'int64', []);
    const keep = body.input('keep', 'bool', []);
    const acc = body.input('acc', 'float32', ['n']);
    const inner = new GraphBuilder('inner');
    inner.output(inner.node('Add', [acc, x]), 'float32', ['n']);
    const added = body.node('If', [keep], { then_branch: inner, else_branch: inner });
    body.output(keep);
    body.output(added, 'float32', ['n']);
    const chosen = outer.node('If', [cond], { then_branch: thenBranch, else_branch: elseBranch });
    const trip = outer.initializer('trip', 'int64', [], [3]);
    outer.output(outer.node('Loop', [trip, cond, chosen], { body }), 'float32', ['n']);
    const model = decodeOnnx(outer.toBytes({ opset: 16 }));
    const branches = ['then_branch', 'else_branch'].map((k) => attribute(model, 0, k));
    expect(branches.map((b) => b?.kind === 'graph' && b.value.nodes.map((n) => [n.opType, n.inputs]))).toEqual([
      [['Mul', ['x', 'scale']]],
      [['Neg', ['x']]],
    ]);
    const loopBody = attribute(model, 1, 'body');
    expect(loopBody?.kind).toBe('graph');
    if (loopBody?.kind !== 'graph') return;
    expect(loopBody.value.inputs.map((v) => v.name)).toEqual(['iter', 'keep', 'acc']);
    const nested = attribute(loopBody.value, 0, 'then_branch');
    expect(nested?.kind === 'graph' && nested.value.nodes[0]?.inputs).toEqual(['acc', 'x']);
  });
});

describe('decodeOnnx: tensors', () => {
  it('keeps data types past the onnx-proto schema (float8, int4, uint4, float4) as numbers', () => {
    const g = new GraphBuilder();
    g.initializer('f8', 'float8e4m3fn', [3], new Uint8Array([0x38, 0x40, 0x00]));
    g.initializer('f8b', 'float8e5m2', [2], new Uint8Array(2));
    g.initializer('i4', 'int4', [3], [1, -1, 7]);
    g.initializer('u4', 'uint4', [4], [1, 2, 3, 15]);
    g.initializer('f4', 'float4e2m1', [5], new Uint8Array(3));
    g.initializer('bf', 'bfloat16', [2], [1, -2]);
    const model = decodeOnnx(g.toBytes({ irVersion: 10, opset: 21 }));
    expect(model.graph.initializers.map((t) => [t.name, t.dtype, t.raw?.byteLength])).toEqual([
      ['f8', 17, 3], ['f8b', 19, 2], ['i4', 22, 2], ['u4', 21, 2], ['f4', 23, 3], ['bf', 16, 4],
    ]);
    const values = model.graph.initializers.map((t) => tensorValues(t));
    expect(values).toEqual([undefined, undefined, [1, -1, 7], [1, 2, 3, 15], undefined, [1, -2]]);
  });

  it('reads typed fields, int64 beyond 2^53 included, and string tensors', () => {
    const g = new GraphBuilder();
    g.initializer('ends', 'int64', [2], [0, 2n ** 63n - 1n], { storage: 'fields' });
    g.initializer('half', 'float16', [2], [1, 0.5], { storage: 'fields' });
    g.initializer('labels', 'string', [2], ['cat', 'dog']);
    const model = decodeOnnx(g.toBytes());
    const [ends, half, labels] = model.graph.initializers;
    expect(ends?.values).toEqual([0, 2 ** 63]);
    expect(half && tensorValues(half)).toEqual([1, 0.5]);
    expect(labels?.strings).toEqual(['cat', 'dog']);
    expect(model.diagnostics.map((d) => d.code)).toEqual(['string-tensor']);
  });

  it('records external data without reading it, with one diagnostic naming the files', () => {
    const g = new GraphBuilder();
    const x = g.input('x', 'float32', [4]);
    g.initializer('a', 'float32', [4], undefined, { external: { location: 'weights.bin', offset: 0, length: 16 } });
    g.initializer('b', 'float32', [4], undefined, { external: { location: 'weights.bin', offset: 16 } });
    g.initializer('c', 'float32', [2, 2], undefined, { external: { location: 'more.bin' } });
    g.output(g.node('Sum', [x, 'a', 'b', 'c']));
    const model = decodeOnnx(g.toBytes());
    expect(model.graph.initializers.map((t) => [t.external, t.raw])).toEqual([
      [{ location: 'weights.bin', offset: 0, length: 16 }, undefined],
      [{ location: 'weights.bin', offset: 16, length: undefined }, undefined],
      [{ location: 'more.bin', offset: 0, length: undefined }, undefined],
    ]);
    expect(model.diagnostics).toHaveLength(1);
    expect(model.diagnostics[0]?.code).toBe('external-data');
    expect(model.diagnostics[0]?.message).toMatch(/'weights\.bin' \(2 tensors.*'more\.bin' \(1 tensor/);
    expect(tensorValues(model.graph.initializers[0]!)).toBeUndefined();
  });

  it('returns weights as views of the input bytes, never copies, for Uint8Array and Buffer input', () => {
    const g = new GraphBuilder();
    const values = Array.from({ length: 64 }, (_, i) => i - 32);
    g.output(g.node('Relu', [g.initializer('w', 'float32', [8, 8], values)]));
    const encoded = g.toBytes();
    const padded = new Uint8Array(encoded.length + 100);
    padded.set(encoded, 37);
    const inputs = [encoded, padded.subarray(37, 37 + encoded.length), Buffer.from(encoded)];
    for (const bytes of inputs) {
      const raw = decodeOnnx(bytes).graph.initializers[0]?.raw;
      expect(raw?.buffer).toBe(bytes.buffer);
      expect(raw?.byteOffset).toBeGreaterThanOrEqual(bytes.byteOffset);
      expect((raw?.byteOffset ?? 0) + (raw?.byteLength ?? 0)).toBeLessThanOrEqual(bytes.byteOffset + bytes.byteLength);
      expect(Object.getPrototypeOf(raw)).toBe(Uint8Array.prototype);
      expect(Array.from(new Float32Array(raw!.slice().buffer))).toEqual(values);
    }
  });
});

describe('decodeOnnx: header and progress', () => {
  it('reads the model header', () => {
    const g = new GraphBuilder();
    g.output(g.input('x', 'float32', [1]));
    const model = decodeOnnx(g.toBytes({ producerName: 'tests', producerVersion: '2.1', irVersion: 9 }));
    expect([model.producerName, model.producerVersion, model.irVersion, model.graph.name]).toEqual(['tests', '2.1', 9, 'graph']);
    expect(model.fileBytes).toBe(g.toBytes({ producerName: 'tests', producerVersion: '2.1', irVersion: 9 }).byteLength);
  });

  it('skips top-level fields it does not know, as files from newer ONNX versions may have', () => {
    const g = new GraphBuilder();
    g.output(g.input('x', 'float32', [1]));
    const bytes = g.toBytes();
    const future = Uint8Array.from([...bytes, 0xf2, 0x01, 0x03, 0x61, 0x62, 0x63]); // field 30, 3 bytes
    expect(decodeOnnx(future).graph.inputs.map((v) => v.name)).toEqual(['x']);
  });

  it('reports progress a handful of times, rising to 1', () => {
    const g = new GraphBuilder();
    g.output(g.input('x', 'float32', [1]));
    const calls: [number, string][] = [];
    decodeOnnx(g.toBytes(), { onProgress: (fraction, label) => calls.push([fraction, label]) });
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.length).toBeLessThanOrEqual(10);
    expect(calls.map(([f]) => f)).toEqual([...calls.map(([f]) => f)].sort((a, b) => a - b));
    expect(calls.at(-1)?.[0]).toBe(1);
    expect(calls.every(([, label]) => label.length > 0)).toBe(true);
  });
});
