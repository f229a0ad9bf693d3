// Bad input to decodeOnnx: every class gets its InputError code and a sentence
// that says what is wrong.

import onnxProto from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { InputError, type InputErrorCode } from '../../shared/errors';
import { decodeOnnx } from './decode-onnx';
import { GraphBuilder, encodeModel } from '../testing/onnx-writer';
import { buildSampleModel } from '../testing/sample-model';

const { onnx } = onnxProto;

/** The InputError decodeOnnx throws for `bytes` (fails the test when it throws none or another kind). */
function decodeError(bytes: Uint8Array): InputError {
  try {
    decodeOnnx(bytes);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('decodeOnnx accepted the bytes');
}

function expectCode(bytes: Uint8Array, code: InputErrorCode, message?: RegExp): void {
  const error = decodeError(bytes);
  expect(error.code).toBe(code);
  if (message) expect(error.message).toMatch(message);
}

/** Deterministic pseudo-random bytes. */
function randomBytes(length: number, seed: number): Uint8Array {
  let state = seed;
  return Uint8Array.from({ length }, () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state >>> 24;
  });
}

const withHead = (head: readonly number[] | string, length = 256): Uint8Array => {
  const bytes = randomBytes(length, 7);
  bytes.set(typeof head === 'string' ? [...head].map((c) => c.charCodeAt(0)) : head);
  return bytes;
};

const sample = buildSampleModel();

/** A protobuf varint. */
function varint(value: number): number[] {
  const out: number[] = [];
  let n = value;
  for (; n >= 128; n = Math.floor(n / 128)) out.push((n % 128) | 0x80);
  return [...out, n];
}

/**
 * Bytes of a model whose graphs nest `depth` levels (graph > node If > attribute
 * > graph ...), built by hand from the inside out: each level only adds a prefix.
 */
function deeplyNestedModel(depth: number): Uint8Array {
  const prefixes: number[][] = [];
  let graphLength = 0;
  for (let level = 0; level < depth; level++) {
    const attribute = [0x0a, 0x01, 0x67, 0xa0, 0x01, 0x05, 0x32, ...varint(graphLength)]; // name 'g', type GRAPH, g
    const attributeLength = attribute.length + graphLength;
    const node = [0x22, 0x02, 0x49, 0x66, 0x2a, ...varint(attributeLength)]; // op_type 'If', attribute
    const nodeLength = node.length + attributeLength;
    const graph = [0x0a, ...varint(nodeLength)]; // GraphProto.node
    prefixes.push([...graph, ...node, ...attribute]);
    graphLength = graph.length + nodeLength;
  }
  const body = prefixes.reverse().flat();
  return Uint8Array.from([0x08, 0x08, 0x3a, ...varint(graphLength), ...body, 0x42, 0x02, 0x10, 0x11]);
}

describe('decodeOnnx: bad input', () => {
  it("rejects a zero-byte file as 'empty-file'", () => {
    expectCode(new Uint8Array(0), 'empty-file', /empty/);
  });

  it("rejects more than protobuf's 2 GiB as 'too-large' before reading it", () => {
    const bytes = new Uint8Array(16);
    Object.defineProperty(bytes, 'byteLength', { value: 2 ** 31 + 5 });
    expectCode(bytes, 'too-large', /2 GiB/);
  });

  it.each([
    ['PNG image', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
    ['JPEG image', [0xff, 0xd8, 0xff, 0xe0]],
    ['ZIP archive', [0x50, 0x4b, 0x03, 0x04]],
    ['PDF document', '%PDF-1.7'],
    ['gzip-compressed file', [0x1f, 0x8b, 0x08]],
    ['HDF5 file', [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]],
  ] as const)("names a %s renamed .onnx ('not-onnx')", (what, head) => {
    expectCode(withHead(head), 'not-onnx', new RegExp(`^this is an? ${what}.*, not an ONNX \\(\\.onnx\\) or TensorFlow Lite \\(\\.tflite\\) model or a heapscope saved plan \\(\\.json\\)$`));
  });

  it("recognises text files and Git LFS pointers ('not-onnx')", () => {
    const text = (s: string): Uint8Array => new TextEncoder().encode(s);
    expectCode(text('{"ir_version": 8}'), 'not-onnx', /JSON/);
    expectCode(text('hello world\n'), 'not-onnx', /^this is a text file, not an ONNX \(\.onnx\) or TensorFlow Lite \(\.tflite\) model or a heapscope saved plan \(\.json\)$/);
    expectCode(text('version https://git-lfs.github.com/spec/v1\noid sha256:ab\nsize 12\n'), 'not-onnx', /Git LFS pointer/);
  });

  it("says why JSON is no saved plan, and that it is no model either ('not-onnx')", () => {
    const text = (s: string): Uint8Array => new TextEncoder().encode(s);
    const models = ', nor an ONNX (.onnx) or TensorFlow Lite (.tflite) model';
    const saved = (why: string): string => `this is JSON but not a heapscope saved plan (${why})${models}`;
    expectCode(text('{"ir_version": 8}'), 'not-onnx', new RegExp(`^${escape(saved('no "format": "heapscope-plan" field'))}$`));
    expectCode(text('\uFEFF  {"format": "netron"}'), 'not-onnx', new RegExp(`^${escape(saved('its "format" is "netron", not "heapscope-plan"'))}$`));
    expectCode(text('[1, 2]'), 'not-onnx', /^this is JSON but not a heapscope saved plan \(an array, where a plan is an object with "format": "heapscope-plan"\)/);
    expectCode(text('{"version": 1, "format": "heapscope-plan"}'), 'not-onnx', /^this is a heapscope saved plan, not a model/);
    // Cut short, it is not JSON: the generic sentence, naming every kind heapscope opens.
    expectCode(text('{"ir_version": '), 'not-onnx', /^this is a JSON text file, not an ONNX .* or a heapscope saved plan \(\.json\)$/);
  });

  it("rejects random bytes as 'not-onnx'", () => {
    for (let seed = 1; seed <= 50; seed++) expectCode(randomBytes(4096, seed), 'not-onnx', /not an ONNX \(\.onnx\) or TensorFlow Lite \(\.tflite\) model or a heapscope saved plan \(\.json\)/);
  });

  it("says 'truncated' for a model cut short, wherever it is cut", () => {
    expectCode(sample.subarray(0, 1), 'truncated', /ir_version field/);
    for (const fraction of [0.0001, 0.01, 0.3, 0.5, 0.9, 0.9999]) {
      const cut = Math.floor(sample.length * fraction);
      expectCode(sample.subarray(0, cut), 'truncated', /ends early: its (producer_name|graph|opset_import) field needs/);
    }
  });

  it("says 'truncated' for a file cut one byte short, in the singular", () => {
    expectCode(sample.subarray(0, sample.length - 1), 'truncated', /field needs 1 byte more than the file has/);
  });

  it("says 'truncated' for a file opening with a ModelProto field other than ir_version whose length passes the end", () => {
    expectCode(Uint8Array.from([0x3a, ...varint(100), ...new Array<number>(20).fill(0)]), 'truncated', /^the file ends early: its graph field needs 80 bytes more than the file has/);
    // a length past protobuf's 2 GiB: no count of the missing bytes, which no whole model could have
    expectCode(Uint8Array.from([0x3a, ...varint(2 ** 31), ...new Array<number>(16).fill(0)]), 'truncated', /^the file ends early: its graph field runs past the 2,147,483,647 bytes a protobuf model can hold/);
    expectCode(Uint8Array.from([0x42, ...varint(2 ** 60), ...new Array<number>(16).fill(0)]), 'truncated', /its opset_import field runs past/);
  });

  it("says 'not-a-model' for a protobuf message that is not a ModelProto", () => {
    const tensor = onnx.TensorProto.encode({ dims: [2, 3], dataType: 1, rawData: new Uint8Array(24), name: 'x' }).finish();
    expectCode(tensor, 'not-a-model', /not an ONNX model/);
  });

  it("says 'not-a-model' for a ModelProto without a graph, an ir_version or an opset", () => {
    const g = new GraphBuilder();
    g.output(g.input('x', 'float32', [1]));
    const model = g.toModelProto();
    expectCode(encodeModel({ ...model, graph: undefined }), 'not-a-model', /no graph.*cut short/);
    expectCode(encodeModel({ ...model, irVersion: undefined }), 'not-a-model', /ir_version/);
    expectCode(encodeModel({ ...model, opsetImport: [] }), 'not-a-model', /opset_import/);
    expectCode(encodeModel({ ...model, opsetImport: [{ domain: '', version: -4 }] }), 'not-a-model', /version -4/);
  });

  it("wraps protobufjs errors from inside the graph as 'not-onnx' (a damaged model)", () => {
    // ir_version 8, a graph field holding field 16 with the invalid wire type 7, opset 17.
    const badWire = new Uint8Array([0x08, 0x08, 0x3a, 0x02, 0x87, 0x01, 0x42, 0x02, 0x10, 0x11]);
    expectCode(badWire, 'not-onnx', /damaged: invalid protobuf data \(wire type 7\) near byte 6/);
    // The graph's first node claims 5 bytes, but the graph holds only one more.
    const badLength = new Uint8Array([0x08, 0x08, 0x3a, 0x03, 0x0a, 0x05, 0x00, 0x42, 0x02, 0x10, 0x11]);
    expectCode(badLength, 'not-onnx', /damaged: a length inside it points past the end/);
  });

  it("rejects graphs that read undefined tensors, write a tensor twice or have a cycle ('bad-graph')", () => {
    const undefinedRead = new GraphBuilder();
    undefinedRead.output(undefinedRead.node('Relu', ['ghost'], {}, { name: 'r' }));
    expectCode(undefinedRead.toBytes(), 'bad-graph', /node 'r' \(Relu\) reads tensor 'ghost'/);

    const twice = new GraphBuilder();
    const x = twice.input('x', 'float32', [1]);
    twice.nodeOutputs('Relu', [x], ['y'], {}, { name: 'a' });
    twice.nodeOutputs('Neg', [x], ['y'], {}, { name: 'b' });
    expectCode(twice.toBytes(), 'bad-graph', /'y' is written by two nodes, 'a' and 'b'/);

    const writesWeight = new GraphBuilder();
    const w = writesWeight.initializer('w', 'float32', [1]);
    writesWeight.output(writesWeight.nodeOutputs('Relu', [writesWeight.input('x', 'float32', [1])], [w], {}, { name: 'r' })[0]!);
    expectCode(writesWeight.toBytes(), 'bad-graph', /^node 'r' \(Relu\) writes 'w', which is an initializer/);

    const writesInput = new GraphBuilder();
    const input = writesInput.input('x', 'float32', [1]);
    const y = writesInput.node('Neg', [input], {}, { name: 'n' });
    writesInput.nodeOutputs('Relu', [y], [input], {}, { name: 'r' });
    writesInput.output(y);
    expectCode(writesInput.toBytes(), 'bad-graph', /^node 'r' \(Relu\) writes 'x', which is a graph input/);

    const cycle = new GraphBuilder();
    cycle.nodeOutputs('Relu', ['q'], ['p'], {}, { name: 'first' });
    cycle.nodeOutputs('Neg', ['p'], ['q'], {}, { name: 'second' });
    expectCode(cycle.toBytes(), 'bad-graph', /cycle: 'first' -> 'second' -> 'first'/);
  });

  it("rejects impossible tensors ('bad-graph'): negative dims, data of the wrong size, external data without a file", () => {
    const model = (tensor: object): Uint8Array => {
      const g = new GraphBuilder();
      g.output(g.input('x', 'float32', [1]));
      const proto = g.toModelProto();
      return encodeModel({ ...proto, graph: { ...proto.graph, initializer: [{ name: 'w', dataType: 1, ...tensor }] } });
    };
    expectCode(model({ dims: [2, -3] }), 'bad-graph', /initializer 'w' has an invalid dimension -3/);
    expectCode(model({ dims: [3], rawData: new Uint8Array(8) }), 'bad-graph', /holds 8 bytes.*need 12 bytes/);
    expectCode(model({ dims: [1e9, 1e9] }), 'bad-graph', /more elements/);
    expectCode(model({ dims: [1], dataLocation: 1, externalData: [{ key: 'offset', value: '0' }] }), 'bad-graph', /which/);
    const badOffset = [{ key: 'location', value: 'w.bin' }, { key: 'offset', value: '-1' }];
    expectCode(model({ dims: [1], dataLocation: 1, externalData: badOffset }), 'bad-graph', /offset '-1'/);
  });

  it('rejects subgraphs nested deeper than any real model, however deep', () => {
    const nested = (depth: number): GraphBuilder => {
      const g = new GraphBuilder(`level${depth}`);
      const c = g.input('c', 'bool', []);
      g.output(depth === 0 ? g.node('Identity', [c]) : g.node('If', [c], { then_branch: nested(depth - 1), else_branch: nested(0) }));
      return g;
    };
    expectCode(nested(70).toBytes(), 'bad-graph', /nest more than 64 levels/);
    // The message names the innermost and the outermost level, not all 65.
    const message = decodeError(nested(70).toBytes()).message;
    expect(message).toMatch(/^subgraphs nest more than 64 levels deep in subgraph 'level5' \(attribute 'then_branch' of node 'If_0'\), 65 subgraphs deep in subgraph 'level69' \(attribute 'then_branch' of node 'If_0'\)$/);
    expectCode(deeplyNestedModel(20_000), 'not-onnx', /nest too deeply/);
  });

  it("rejects a node without an op_type ('bad-graph')", () => {
    const g = new GraphBuilder();
    g.output(g.node('', [g.input('x', 'float32', [1])], {}, { name: 'nameless' }));
    expectCode(g.toBytes(), 'bad-graph', /'nameless'.*no op_type/);
  });
});

/** `text` as a regular expression that matches it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
