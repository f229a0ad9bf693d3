import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeOnnx } from '../onnx/decode-onnx';
import { varint, writeLargeModel } from './large-model-writer';

const { onnx } = onnxProto;
const dir = mkdtempSync(join(tmpdir(), 'heapscope-large-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** decodeOnnx is still a stub while its error says so. */
function decoderAvailable(): boolean {
  try {
    decodeOnnx(new Uint8Array(0));
  } catch (error) {
    return !(error instanceof Error && error.message.includes('decoding is not available yet'));
  }
  return true;
}

describe('varint', () => {
  it('encodes protobuf base-128 varints, past 32 bits too', () => {
    expect(varint(0)).toEqual([0]);
    expect(varint(127)).toEqual([127]);
    expect(varint(300)).toEqual([0xac, 0x02]);
    expect(varint(2 ** 32)).toEqual([0x80, 0x80, 0x80, 0x80, 0x10]);
  });
});

describe('writeLargeModel', () => {
  const path = join(dir, 'small.onnx');
  const info = writeLargeModel(path, { targetBytes: 5_000_000, layers: 3, vocab: 300 });

  it('reaches the target size with the requested shape of network', () => {
    expect(info.weightBytes).toBeGreaterThanOrEqual(5_000_000);
    expect(info.weightBytes).toBeLessThan(5_000_000 * 1.01);
    expect(statSync(path).size).toBe(info.fileBytes);
    expect(info.fileBytes - info.weightBytes).toBeLessThan(10_000);
    expect(info.initializers).toHaveLength(2 + 4 * 3);
    expect(info.initializers[1]?.dims).toEqual([info.hidden, info.ffn]);
  });

  it('writes a protobuf that onnx-proto reads back field for field', () => {
    const model = onnx.ModelProto.decode(readFileSync(path));
    const graph = model.graph as Onnx.GraphProto;
    expect(graph.node).toHaveLength(info.nodes);
    expect(graph.node.at(-1)?.output).toEqual(['logits']);
    expect(graph.input[0]?.type?.tensorType?.shape?.dim?.map((d) => d.dimParam)).toEqual(['batch', 'seq']);
    expect(model.opsetImport.map((o) => Number(o.version))).toEqual([17]);
    const read = (graph.initializer as Onnx.TensorProto[]).map((t) => ({ name: t.name, dims: t.dims.map(Number), bytes: t.rawData.length }));
    expect(read).toEqual(info.initializers.map((t) => ({ name: t.name, dims: [...t.dims], bytes: t.bytes })));
  });

  it('is read back by decodeOnnx with weights as views of the file bytes', (context) => {
    if (!decoderAvailable()) context.skip('decodeOnnx is not implemented yet');
    const bytes = new Uint8Array(readFileSync(path));
    const model = decodeOnnx(bytes);
    expect(model.fileBytes).toBe(info.fileBytes);
    expect(model.graph.nodes).toHaveLength(info.nodes);
    expect(model.graph.inputs.map((v) => [v.name, v.shape])).toEqual([['input_ids', ['batch', 'seq']]]);
    const initializers = model.graph.initializers;
    expect(initializers.map((t) => ({ name: t.name, dims: t.dims, bytes: t.raw?.byteLength }))).toEqual(
      info.initializers.map((t) => ({ name: t.name, dims: t.dims, bytes: t.bytes })),
    );
    for (const tensor of initializers) expect(tensor.raw?.buffer).toBe(bytes.buffer);
  });
});
