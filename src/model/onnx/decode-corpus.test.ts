// decodeOnnx on real files: the shared model corpus (../shared/models) and, when
// installed, the ONNX backend conformance models (libonnx-testdata). Skips with a
// notice when a folder is absent. The expected facts were read from the files
// with onnx-proto directly.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { topologicalOrder } from '../check-graph';
import { decodeOnnx } from './decode-onnx';
import { tensorBytes } from '../dtype';
import type { IrModel } from '../ir';

const MODELS = join(__dirname, '../../../../shared/models');
const CONFORMANCE = '/usr/share/libonnx-testdata/data';
const haveModels = existsSync(MODELS);
const haveConformance = existsSync(CONFORMANCE);
if (!haveModels) console.log(`decode-corpus: ${MODELS} is absent; skipping the real-model tests`);
if (!haveConformance) console.log(`decode-corpus: ${CONFORMANCE} is absent (apt-get install libonnx-testdata); skipping`);

interface Facts {
  readonly ir: number;
  readonly opsets: readonly (readonly [string, number])[];
  readonly nodes: number;
  readonly initializers: number;
  readonly inputs: readonly string[]; // graph inputs that are not initializers
  readonly outputs: number;
  readonly ops?: Readonly<Record<string, number>>;
}

const FACTS: Readonly<Record<string, Facts>> = {
  'FastestDet.onnx': { ir: 8, opsets: [['', 16]], nodes: 218, initializers: 157, inputs: ['input'], outputs: 1, ops: { Conv: 70, Concat: 20 } },
  'light_inception_v1.onnx': { ir: 3, opsets: [['', 9]], nodes: 237, initializers: 118, inputs: ['data_0'], outputs: 1, ops: { ConstantOfShape: 93 } },
  'light_resnet50.onnx': { ir: 3, opsets: [['', 9]], nodes: 415, initializers: 269, inputs: ['gpu_0/data_0'], outputs: 1, ops: { Sum: 16 } },
  'light_squeezenet.onnx': { ir: 3, opsets: [['', 9]], nodes: 105, initializers: 52, inputs: ['data_0'], outputs: 1 },
  'light_vgg19.onnx': { ir: 3, opsets: [['', 9]], nodes: 82, initializers: 39, inputs: ['data_0'], outputs: 1, ops: { Gemm: 3 } },
  'ortweb_quickstart_model.onnx': { ir: 3, opsets: [['', 9]], nodes: 1, initializers: 0, inputs: ['a', 'b'], outputs: 1 },
  'tiny-llama-fp32-missing-external-data.onnx': {
    ir: 7, opsets: [['', 14], ['com.microsoft', 1]], nodes: 33, initializers: 19, outputs: 5,
    inputs: ['input_ids', 'attention_mask', 'past_key_values.0.key', 'past_key_values.0.value', 'past_key_values.1.key', 'past_key_values.1.value'],
    ops: { GroupQueryAttention: 2 },
  },
  'tiny-llama-fp16/model.onnx': {
    ir: 7, opsets: [['', 14], ['com.microsoft', 1]], nodes: 104, initializers: 23, outputs: 5,
    inputs: ['input_ids', 'attention_mask', 'position_ids', 'past_key_values.0.key', 'past_key_values.0.value', 'past_key_values.1.key', 'past_key_values.1.value'],
    ops: { MultiHeadAttention: 2, RotaryEmbedding: 4 },
  },
  'tiny-random-gpt2-fp32-past.onnx': {
    ir: 6, opsets: [['', 11], ['com.microsoft', 1]], nodes: 39, initializers: 27, outputs: 6,
    inputs: ['input_ids', 'position_ids', 'attention_mask', 'past_0', 'past_1', 'past_2', 'past_3', 'past_4'],
    ops: { Attention: 5, FastGelu: 5 },
  },
  'ultraface_RFB-320.onnx': { ir: 4, opsets: [['', 9]], nodes: 126, initializers: 119, inputs: ['input'], outputs: 2 },
  'winml_SqueezeNet_fp16.onnx': { ir: 3, opsets: [['', 7]], nodes: 66, initializers: 52, inputs: ['data_0'], outputs: 1 },
  'winml_mnist.onnx': { ir: 3, opsets: [['', 7]], nodes: 12, initializers: 8, inputs: ['Input3'], outputs: 1 },
  'wonnx_single_relu.onnx': { ir: 3, opsets: [['', 6]], nodes: 1, initializers: 0, inputs: ['x'], outputs: 1 },
};

const decodeFile = (name: string): IrModel => decodeOnnx(readFileSync(join(MODELS, name)));

describe.skipIf(!haveModels)('decodeOnnx on the shared model corpus', () => {
  it('knows facts about every model in the folder', () => {
    const onDisk = readdirSync(MODELS).filter((f) => f.endsWith('.onnx'));
    expect(onDisk.filter((f) => FACTS[f] === undefined)).toEqual([]);
  });

  it.each(Object.entries(FACTS))('decodes %s', (name, facts) => {
    const model = decodeFile(name);
    const graph = model.graph;
    expect(model.irVersion).toBe(facts.ir);
    for (const [domain, version] of facts.opsets) expect(model.opsets).toContainEqual({ domain, version });
    expect(graph.nodes).toHaveLength(facts.nodes);
    expect(graph.initializers).toHaveLength(facts.initializers);
    expect(graph.inputs.map((v) => v.name)).toEqual(facts.inputs);
    expect(graph.outputs).toHaveLength(facts.outputs);
    for (const [op, count] of Object.entries(facts.ops ?? {})) {
      expect(graph.nodes.filter((n) => n.opType === op), op).toHaveLength(count);
    }
    expect(new Set(graph.nodes.map((n) => n.name)).size).toBe(graph.nodes.length);
    expect(topologicalOrder(graph)).toHaveLength(graph.nodes.length);
    for (const t of graph.initializers) {
      if (t.raw !== undefined) expect(t.raw.byteLength).toBe(tensorBytes(t.dtype, t.dims.reduce((a, b) => a * b, 1)));
    }
  });

  it('keeps IR 3 weights out of the graph inputs although the files list them there', () => {
    for (const name of ['light_resnet50.onnx', 'light_squeezenet.onnx', 'winml_mnist.onnx']) {
      const model = decodeFile(name);
      const initializers = new Set(model.graph.initializers.map((t) => t.name));
      expect(model.graph.inputs.some((v) => initializers.has(v.name))).toBe(false);
    }
  });

  it('decodes models whose weights live in a missing or present external file, with one note', () => {
    for (const name of ['tiny-llama-fp32-missing-external-data.onnx', 'tiny-llama-fp16/model.onnx']) {
      const model = decodeFile(name);
      expect(model.diagnostics.filter((d) => d.code === 'external-data')).toHaveLength(1);
      expect(model.diagnostics.find((d) => d.code === 'external-data')?.message).toContain("'model.onnx.data'");
      const external = model.graph.initializers.filter((t) => t.external !== undefined);
      expect(external.length).toBeGreaterThan(0);
      expect(external.every((t) => t.external?.location === 'model.onnx.data' && t.raw === undefined)).toBe(true);
    }
  });

  it('reads named dims, fp16 weights and generated node names', () => {
    const llama = decodeFile('tiny-llama-fp16/model.onnx');
    expect(llama.graph.inputs[3]?.shape).toEqual(['batch_size', 1, 'past_sequence_length', 16]);
    expect(llama.graph.initializers.every((t) => t.dtype === 10)).toBe(true);
    const squeezenet = decodeFile('winml_SqueezeNet_fp16.onnx');
    expect(squeezenet.graph.initializers.every((t) => t.dtype === 10 && t.raw !== undefined)).toBe(true);
    expect(squeezenet.graph.nodes[0]?.name).toBe(`${squeezenet.graph.nodes[0]?.opType}_0`);
    expect(squeezenet.graph.valueInfo).toHaveLength(65);
  });

  it('returns weights of a real file as views of its bytes', () => {
    const bytes = new Uint8Array(readFileSync(join(MODELS, 'ultraface_RFB-320.onnx')));
    const model = decodeOnnx(bytes);
    const views = model.graph.initializers.filter((t) => t.raw !== undefined);
    expect(views.length).toBeGreaterThan(0);
    for (const t of views) expect(t.raw?.buffer).toBe(bytes.buffer);
  });
});

describe.skipIf(!haveConformance)('decodeOnnx on the ONNX conformance models', () => {
  const models = haveConformance
    ? readdirSync(CONFORMANCE).flatMap((kind) =>
        readdirSync(join(CONFORMANCE, kind))
          .map((dir) => join(CONFORMANCE, kind, dir, 'model.onnx'))
          .filter(existsSync),
      )
    : [];

  it('decodes every model (If, Loop, Scan, sequences, strings...) and finds an order for its nodes', () => {
    expect(models.length).toBeGreaterThan(500);
    const failures: string[] = [];
    for (const file of models) {
      try {
        const model = decodeOnnx(readFileSync(file));
        if (topologicalOrder(model.graph).length !== model.graph.nodes.length) failures.push(`${file}: order`);
      } catch (error) {
        failures.push(`${file}: ${String(error)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("rejects the tensors of the expected outputs (TensorProto files) as 'not-a-model'", () => {
    const tensors = models
      .map((file) => join(file, '..', 'test_data_set_0', 'output_0.pb'))
      .filter(existsSync)
      .slice(0, 200);
    expect(tensors.length).toBeGreaterThan(50);
    for (const file of tensors) {
      const error = (() => {
        try {
          decodeOnnx(readFileSync(file));
        } catch (e) {
          return e;
        }
      })();
      expect(error instanceof InputError && error.code, file).toBe('not-a-model');
    }
  });

  it('decodes the subgraphs of If and Loop', () => {
    const ifModel = decodeOnnx(readFileSync(join(CONFORMANCE, 'node', 'test_if', 'model.onnx')));
    const ifNode = ifModel.graph.nodes.find((n) => n.opType === 'If');
    expect(ifNode?.attributes.then_branch?.kind).toBe('graph');
    expect(ifNode?.attributes.else_branch?.kind).toBe('graph');
    const loop = decodeOnnx(readFileSync(join(CONFORMANCE, 'node', 'test_loop11', 'model.onnx')));
    const body = loop.graph.nodes.find((n) => n.opType === 'Loop')?.attributes.body;
    expect(body?.kind === 'graph' && body.value.nodes.length).toBeGreaterThan(0);
  });
});
