// Test doubles for the worker layer: a tiny IR model, an inference that records
// its calls, and an inferred model whose single activation depends on a dim.

import type { InferredModel } from '../../model/inferred';
import type { IrModel } from '../../model/ir';
import type { DecodeOptions } from '../../model/onnx/decode-onnx';
import type { InferOptions } from '../../model/infer/shapes';
import { InputError } from '../../shared/errors';

/** An IR model with one Relu node; `producer` tells fakes apart. */
export function fakeIr(producer: string, fileBytes = 16): IrModel {
  return {
    irVersion: 8,
    producerName: producer,
    producerVersion: '1.0',
    domain: '',
    modelVersion: 1,
    opsets: [{ domain: '', version: 17 }],
    graph: {
      name: 'main',
      nodes: [{ name: 'relu', opType: 'Relu', domain: '', inputs: ['x'], outputs: ['y'], attributes: {} }],
      inputs: [{ name: 'x', dtype: 1, shape: ['batch', 4], kind: 'tensor' }],
      outputs: [{ name: 'y', dtype: 1, shape: ['batch', 4], kind: 'tensor' }],
      valueInfo: [],
      initializers: [],
    },
    fileBytes,
    diagnostics: [],
  };
}

/**
 * Infers the fake IR: x and y are float32 [batch, 4], batch defaulting to 1; a
 * shape given for x sets batch from its first dim, as a real override propagates.
 */
export function fakeInfer(ir: IrModel, options: InferOptions = {}): InferredModel {
  const given = options.shapes?.['x'];
  if (given !== undefined && given.length !== 2) throw new InputError('bad-argument', `the shape given for x has rank ${given.length}, the model's has rank 2`);
  const bound = options.dims?.['batch'];
  const batch = given?.[0] ?? bound ?? 1;
  const bytes = batch * 4 * 4;
  const value = (name: string, kind: 'input' | 'output', producer: number | undefined) => ({
    name,
    kind,
    dtype: 1,
    dtypeName: 'float32',
    shape: [batch, 4],
    bytes,
    producer,
    consumers: kind === 'input' ? [0] : [],
  });
  return {
    name: ir.graph.name,
    nodes: [{ name: 'relu', opType: 'Relu', domain: '', inputs: ['x'], outputs: ['y'], subgraphs: [], constant: false }],
    values: [value('x', 'input', undefined), value('y', 'output', 0)],
    inputs: ['x'],
    outputs: ['y'],
    info: { producerName: ir.producerName, producerVersion: ir.producerVersion, irVersion: ir.irVersion, opsets: ir.opsets, fileBytes: ir.fileBytes },
    dims: [
      bound === undefined
        ? { name: 'batch', value: batch, source: 'default', axes: ['x:0'], rule: 'a batch of one' }
        : { name: 'batch', value: batch, source: 'user', axes: ['x:0'], rule: 'given by the user' },
    ],
    shapes: options.shapes ?? {},
    inputValues: options.inputValues ?? {},
    diagnostics: [],
  };
}

/**
 * A decoder over a tiny made-up format: the bytes are the producer name in
 * ASCII; an empty file throws the typed error a real decoder would.
 */
export function fakeDecode(bytes: Uint8Array, options: DecodeOptions = {}): IrModel {
  if (bytes.byteLength === 0) throw new InputError('empty-file', 'the file is empty (0 bytes)');
  options.onProgress?.(0, 'Decoding');
  options.onProgress?.(0.5, 'Decoding');
  options.onProgress?.(1, 'Decoding');
  return fakeIr(new TextDecoder().decode(bytes), bytes.byteLength);
}

/** An ArrayBuffer holding `text` in ASCII, the input format of fakeDecode. */
export function fakeFile(text: string): ArrayBuffer {
  const view = new TextEncoder().encode(text);
  return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength) as ArrayBuffer;
}
