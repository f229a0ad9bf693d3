// Writes a large, valid ONNX model (a GPT-shaped MLP stack, fp32 weights) straight
// to a file, for benchmarks and size tests. Test utility: Node only (fs), no DOM.
//
// How it works:
// - the small protobuf parts (model header, graph nodes and I/O, each tensor's
//   name/dims/type) are encoded with onnx-proto;
// - every initializer's raw_data is written by hand: a field header (tag + varint
//   length) followed by the bytes, streamed in CHUNK_BYTES pieces with fs.writeSync,
//   so the file is never held in memory;
// - protobuf nests by length, so all lengths (each TensorProto, the GraphProto) are
//   computed before the first byte is written.

import { closeSync, openSync, writeSync } from 'node:fs';
import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';

// onnx-proto is CommonJS: Node's ESM loader exposes only its default export.
const { onnx } = onnxProto;

/** Options of writeLargeModel. */
export interface LargeModelOptions {
  /** Minimum total bytes of weights; the file is a little larger (graph, headers). */
  readonly targetBytes: number;
  /** Number of MLP blocks (default 24). */
  readonly layers?: number;
  /** Vocabulary size of the embedding and the output projection (default 32000). */
  readonly vocab?: number;
}

/** One initializer as written. */
export interface LargeModelTensor {
  readonly name: string;
  readonly dims: readonly number[];
  readonly bytes: number; // raw_data length (fp32)
}

/** What writeLargeModel wrote. */
export interface LargeModelInfo {
  readonly path: string;
  readonly fileBytes: number;
  readonly weightBytes: number;
  readonly layers: number;
  readonly vocab: number;
  readonly hidden: number; // model width d
  readonly ffn: number; // MLP inner width, chosen so the weights reach targetBytes
  readonly initializers: readonly LargeModelTensor[];
  readonly nodes: number;
}

/** Size of the pieces raw_data is written in. */
const CHUNK_BYTES = 16 * 1024 * 1024;
const FLOAT = 1; // TensorProto.DataType.FLOAT
const INT64 = 7;
const TAG_MODEL_GRAPH = (7 << 3) | 2;
const TAG_GRAPH_INITIALIZER = (5 << 3) | 2;
const TAG_TENSOR_RAW_DATA = (9 << 3) | 2;

/**
 * Writes a model whose fp32 weights add up to at least `targetBytes`:
 * input_ids [batch, seq] -> Gather(embedding) -> `layers` × (MatMul up, Add bias,
 * Relu, MatMul down, Add bias, residual Add) -> MatMul(lm_head) -> logits
 * [batch, seq, vocab]. `batch` and `seq` are symbolic dims.
 */
export function writeLargeModel(path: string, options: LargeModelOptions): LargeModelInfo {
  const layers = options.layers ?? 24;
  const vocab = options.vocab ?? 32000;
  const { hidden, ffn } = chooseWidths(options.targetBytes, layers, vocab);
  const tensors = listInitializers(layers, vocab, hidden, ffn);
  const header = onnx.ModelProto.encode({
    irVersion: 8,
    producerName: 'heapscope large-model-writer',
    producerVersion: '1',
    opsetImport: [{ domain: '', version: 17 }],
  }).finish();
  const graphHead = onnx.GraphProto.encode(buildGraph(layers, vocab)).finish();
  const parts = tensors.map((tensor) => tensorParts(tensor));
  const graphBytes = graphHead.length + parts.reduce((sum, part) => sum + fieldBytes(part.messageBytes), 0);

  const fd = openSync(path, 'w');
  let fileBytes = 0;
  const write = (bytes: Uint8Array): void => {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    fileBytes += bytes.length;
  };
  try {
    write(header);
    write(fieldHeader(TAG_MODEL_GRAPH, graphBytes));
    write(graphHead);
    const chunk = fillPattern(new Uint8Array(CHUNK_BYTES));
    for (const part of parts) {
      write(fieldHeader(TAG_GRAPH_INITIALIZER, part.messageBytes));
      write(part.head);
      write(fieldHeader(TAG_TENSOR_RAW_DATA, part.tensor.bytes));
      for (let left = part.tensor.bytes; left > 0; left -= CHUNK_BYTES) {
        write(left >= CHUNK_BYTES ? chunk : chunk.subarray(0, left));
      }
    }
  } finally {
    closeSync(fd);
  }
  const weightBytes = tensors.reduce((sum, tensor) => sum + tensor.bytes, 0);
  return { path, fileBytes, weightBytes, layers, vocab, hidden, ffn, initializers: tensors, nodes: 2 + 6 * layers };
}

/**
 * Width d from the GPT rule ffn = 4d (rounded down to a multiple of 16, or 64 when
 * large), then the MLP width chosen exactly so the weights reach the target.
 * Weights: 2·vocab·d (embedding, lm_head) + layers·(2·d·ffn + ffn + d) floats.
 */
function chooseWidths(targetBytes: number, layers: number, vocab: number): { hidden: number; ffn: number } {
  const floats = Math.ceil(targetBytes / 4);
  const a = 8 * layers;
  const b = 2 * vocab + 5 * layers;
  const d = (-b + Math.sqrt(b * b + 4 * a * floats)) / (2 * a);
  const step = d >= 256 ? 64 : 16;
  const hidden = Math.max(16, Math.floor(d / step) * step);
  const perLayer = floats - 2 * vocab * hidden;
  const ffn = Math.max(16, Math.ceil((perLayer / layers - hidden) / (2 * hidden + 1)));
  return { hidden, ffn };
}

function listInitializers(layers: number, vocab: number, hidden: number, ffn: number): LargeModelTensor[] {
  const tensor = (name: string, dims: number[]): LargeModelTensor => ({
    name,
    dims,
    bytes: 4 * dims.reduce((product, dim) => product * dim, 1),
  });
  const list = [tensor('embedding.weight', [vocab, hidden])];
  for (let i = 0; i < layers; i += 1) {
    list.push(
      tensor(`layers.${i}.up.weight`, [hidden, ffn]),
      tensor(`layers.${i}.up.bias`, [ffn]),
      tensor(`layers.${i}.down.weight`, [ffn, hidden]),
      tensor(`layers.${i}.down.bias`, [hidden]),
    );
  }
  list.push(tensor('lm_head.weight', [hidden, vocab]));
  return list;
}

function buildGraph(layers: number, vocab: number): Onnx.IGraphProto {
  const nodes: Onnx.INodeProto[] = [];
  const node = (opType: string, inputs: string[], output: string): string => {
    nodes.push({ name: output.replace(/_out$/, ''), opType, input: inputs, output: [output] });
    return output;
  };
  let x = node('Gather', ['embedding.weight', 'input_ids'], 'embed_out');
  for (let i = 0; i < layers; i += 1) {
    const p = `layers.${i}`;
    let h = node('MatMul', [x, `${p}.up.weight`], `${p}.up.matmul_out`);
    h = node('Add', [h, `${p}.up.bias`], `${p}.up.add_out`);
    h = node('Relu', [h], `${p}.relu_out`);
    h = node('MatMul', [h, `${p}.down.weight`], `${p}.down.matmul_out`);
    h = node('Add', [h, `${p}.down.bias`], `${p}.down.add_out`);
    x = node('Add', [x, h], `${p}.residual_out`);
  }
  node('MatMul', [x, 'lm_head.weight'], 'logits');
  return {
    name: 'large_mlp_stack',
    node: nodes,
    input: [valueInfo('input_ids', INT64, ['batch', 'seq'])],
    output: [valueInfo('logits', FLOAT, ['batch', 'seq', vocab])],
  };
}

function valueInfo(name: string, elemType: number, shape: (string | number)[]): Onnx.IValueInfoProto {
  const dim = shape.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

/** A TensorProto without raw_data (encoded) and the length of the whole message with it. */
function tensorParts(tensor: LargeModelTensor): { tensor: LargeModelTensor; head: Uint8Array; messageBytes: number } {
  const head = onnx.TensorProto.encode({ name: tensor.name, dims: [...tensor.dims], dataType: FLOAT }).finish();
  return { tensor, head, messageBytes: head.length + fieldBytes(tensor.bytes) };
}

/** Bytes of a length-delimited field (one-byte tag) whose body is `length` bytes. */
function fieldBytes(length: number): number {
  return 1 + varint(length).length + length;
}

function fieldHeader(tag: number, length: number): Uint8Array {
  return Uint8Array.from([tag, ...varint(length)]);
}

/** Protobuf base-128 varint of a non-negative integer up to 2^53. */
export function varint(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return out;
}

/** Small, varied float32 values, so the file does not look like zeros to anything. */
function fillPattern(chunk: Uint8Array): Uint8Array {
  const floats = new Float32Array(chunk.buffer, chunk.byteOffset, chunk.byteLength / 4);
  let state = 0x2545f491;
  for (let i = 0; i < floats.length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    floats[i] = ((state >>> 8) / 0x1000000 - 0.5) * 0.04;
  }
  return chunk;
}
