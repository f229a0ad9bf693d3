import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../onnx/decode-onnx';
import type { InferredModel, InferredValue } from '../inferred';
import { inferShapes, type InferOptions } from './shapes';
import type { IrModel } from '../ir';

const MODELS = join(process.cwd(), '..', 'shared', 'models');
const present = existsSync(MODELS);
if (!present) console.log(`real-model inference tests skipped: ${MODELS} not found`);

const CORPUS = [
  'winml_SqueezeNet_fp16.onnx',
  'FastestDet.onnx',
  'ultraface_RFB-320.onnx',
  'tiny-llama-fp16/model.onnx',
  'tiny-llama-fp32-missing-external-data.onnx',
  'tiny-random-gpt2-fp32-past.onnx',
  'light_resnet50.onnx',
  'light_squeezenet.onnx',
  'light_inception_v1.onnx',
  'light_vgg19.onnx',
  'winml_mnist.onnx',
  'wonnx_single_relu.onnx',
  'ortweb_quickstart_model.onnx',
];

function load(file: string): IrModel {
  return decodeOnnx(new Uint8Array(readFileSync(join(MODELS, file))));
}

function infer(file: string, options?: InferOptions): { ir: IrModel; model: InferredModel } {
  const ir = load(file);
  return { ir, model: inferShapes(ir, options) };
}

const byName = (model: InferredModel): Map<string, InferredValue> => new Map(model.values.map((v) => [v.name, v]));

describe.skipIf(!present)('inference on the real-model corpus', () => {
  it.each(CORPUS)('%s: every value has a known shape and size, and no op lacks a rule', (file) => {
    const { model } = infer(file);
    const unknown = model.values.filter((v) => v.shape === undefined || v.bytes === undefined).map((v) => `${v.name}: ${v.unknownReason}`);
    expect(unknown).toEqual([]);
    const gaps = model.diagnostics.filter((d) => d.code === 'no-shape-rule' || d.code === 'unknown-shape');
    expect(gaps).toEqual([]);
  });

  it.each(CORPUS)('%s: graph outputs match the shapes the file declares', (file) => {
    const { ir, model } = infer(file);
    const values = byName(model);
    const bindings = new Map(model.dims.map((d) => [d.name, d.value]));
    for (const output of ir.graph.outputs) {
      const declared = output.shape?.map((d) => (typeof d === 'number' ? d : bindings.get(d ?? '')));
      expect(declared?.every((d) => d !== undefined), output.name).toBe(true);
      expect(values.get(output.name)?.shape, output.name).toEqual(declared);
    }
  });

  it('agrees with every value_info shape of SqueezeNet (fp16, full value_info)', () => {
    const { ir, model } = infer('winml_SqueezeNet_fp16.onnx');
    const values = byName(model);
    expect(ir.graph.valueInfo.length).toBeGreaterThan(60);
    for (const info of ir.graph.valueInfo) expect(values.get(info.name)?.shape, info.name).toEqual(info.shape);
    expect(model.diagnostics.filter((d) => d.code === 'shape-mismatch')).toEqual([]);
    expect(values.get('softmaxout_1')?.bytes).toBe(1000 * 2);
  });

  it('agrees with tiny-llama value_info except on Constant nodes the file mis-declares as scalars', () => {
    const { ir, model } = infer('tiny-llama-fp16/model.onnx');
    const values = byName(model);
    const bindings = new Map(model.dims.map((d) => [d.name, d.value]));
    const producers = new Map(ir.graph.nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
    for (const info of ir.graph.valueInfo) {
      const expected = info.shape?.map((d) => (typeof d === 'number' ? d : bindings.get(d ?? '')));
      const inferred = values.get(info.name)?.shape;
      const producer = producers.get(info.name);
      if (producer?.opType === 'Constant' && info.shape?.length === 0) {
        // The Constant's own tensor is 1-D [1]; the value_info says scalar.
        const tensor = producer.attributes.value;
        expect(tensor?.kind === 'tensor' ? tensor.value.dims : undefined).toEqual(inferred);
        continue;
      }
      if (expected?.every((d) => d !== undefined)) expect(inferred, info.name).toEqual(expected);
    }
  });

  it('binds tiny-llama named dims by default and from the user', () => {
    const defaults = infer('tiny-llama-fp16/model.onnx').model;
    expect(defaults.dims.map((d) => [d.name, d.value, d.source])).toEqual([
      ['batch_size', 1, 'default'],
      ['sequence_length', 128, 'default'],
      ['total_sequence_length', 128, 'default'],
      ['past_sequence_length', 0, 'default'],
    ]);
    const { model } = infer('tiny-llama-fp16/model.onnx', { dims: { batch_size: 2, sequence_length: 16, past_sequence_length: 32 } });
    const values = byName(model);
    expect(values.get('logits')?.shape).toEqual([2, 16, 32000]);
    expect(values.get('present.0.key')?.shape).toEqual([2, 1, 48, 16]);
    expect(values.get('logits')?.bytes).toBe(2 * 16 * 32000 * 2);
  });

  it('counts weights rebuilt by ConstantOfShape as constants, not activations', () => {
    const { ir, model } = infer('light_resnet50.onnx');
    const generated = new Set(ir.graph.nodes.filter((n) => n.opType === 'ConstantOfShape').flatMap((n) => n.outputs));
    expect(generated.size).toBeGreaterThan(100);
    const values = byName(model);
    for (const name of generated) expect(values.get(name)?.kind, name).toBe('constant');
    const convs = model.nodes.filter((n) => n.opType === 'Conv');
    expect(convs.every((n) => !n.constant)).toBe(true);
  });
});
