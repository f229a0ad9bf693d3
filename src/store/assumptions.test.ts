import { describe, expect, it } from 'vitest';
import type { InferredModel, InferredNode, InferredValue } from '../model/inferred';
import type { ModelPlan } from '../planner/plan';
import { assumptionLines, conditionInputs, dimLabel } from './assumptions';
import { decodeModel } from '../model/decode-model';
import { inferShapes } from '../model/infer/shapes';
import { generateLoopModel } from '../model/testing/assumption-models';
import { planModel } from '../planner/plan';
import { presetTarget } from '../planner/targets/presets';

function value(name: string, kind: InferredValue['kind'], bytes: number | undefined, producer?: number): InferredValue {
  return { name, kind, dtype: 1, dtypeName: 'float32', shape: bytes === undefined ? undefined : [bytes / 4], bytes, producer, consumers: [] };
}

function node(name: string, opType: string, inputs: string[], outputs: string[], extra: Partial<InferredNode> = {}): InferredNode {
  return { name, opType, domain: '', inputs, outputs, subgraphs: [], constant: false, ...extra };
}

/** x, sr -> Equal(sr, k) -> If (branch guessed) -> y; Mystery -> m of unknown size; dims x:2 and x:3 defaulted. */
const MODEL: InferredModel = {
  name: 'g',
  nodes: [
    node('is_16k', 'Equal', ['sr', 'k'], ['cond']),
    node('vad/If_0', 'If', ['cond'], ['y'], { branch: { node: 'vad/If_0', taken: 'then', reason: 'larger outputs' } }),
    node('mystery', 'Mystery', ['x'], ['m']),
  ],
  values: [value('x', 'input', 4096), value('sr', 'input', 8), value('k', 'initializer', 8), value('cond', 'activation', 1, 0), value('y', 'output', 64, 1), value('m', 'output', undefined, 2)],
  inputs: ['x', 'sr'],
  outputs: ['y', 'm'],
  info: { producerName: 't', producerVersion: '1', irVersion: 8, opsets: [], fileBytes: 1 },
  dims: [
    { name: 'batch', value: 2, source: 'user', axes: ['x:0'], rule: 'given by the user' },
    { name: 'x:2', value: 224, source: 'default', axes: ['x:2'], rule: 'image axis: a typical image size' },
    { name: 'x:3', value: 224, source: 'default', axes: ['x:3'], rule: 'image axis: a typical image size' },
  ],
  shapes: {},
  inputValues: {},
  diagnostics: [],
};

describe('assumption lines', () => {
  it("say a dim given for a .tflite on target tflm is not applied: TFLite Micro plans the file's shapes", () => {
    const plan = { assumptions: { dims: [], unknown: [], branches: [], shapes: {}, inputValues: {} }, diagnostics: [{ code: 'tflm-fixed-shapes', message: '…' }] } as unknown as ModelPlan;
    const lines = assumptionLines(plan, { ...MODEL, dims: [MODEL.dims[0]!] });
    expect(lines.map((l) => [l.text, l.action, l.fix.kind])).toEqual([
      ['TFLite Micro plans the shapes the file states: batch=2 is not applied to this plan, and the graph and tensors show the file\'s shapes', undefined, 'target'],
    ]);
    expect(assumptionLines({ ...plan, diagnostics: [] }, { ...MODEL, dims: [MODEL.dims[0]!] })).toEqual([]);
  });

  it('a TFLite Micro kernel whose scratch requests are unknown gets a line: the arena to declare is a lower estimate', () => {
    const kernels = [{ node: 'ethos-u_0', op: 'ethos-u', reason: 'custom operator: its kernel requests scratch heapscope does not know' }];
    const plan = { assumptions: { dims: [], unknown: [], branches: [], shapes: {}, inputValues: {}, kernels }, diagnostics: [] } as unknown as ModelPlan;
    const lines = assumptionLines(plan, { ...MODEL, dims: [MODEL.dims[0]!] });
    expect(lines.map((l) => [l.key, l.text, l.action])).toEqual([
      ['tflm-kernels', "The arena to declare is a lower estimate: custom operator ethos-u ('ethos-u_0') may ask for scratch heapscope does not know, and none is assumed", undefined],
    ]);
    expect(lines[0]!.detail).toContain('ethos-u_0 (ethos-u): custom operator');
  });

  it('a model TensorFlow Lite Micro refuses gets a line saying no arena works, before the lower estimate of the arena it would need', () => {
    // the selfie segmenter's banner said only "The arena to declare is a lower estimate", as though one worked
    const kernels = [{ node: 'Convolution2DTransposeBias_244', op: 'Convolution2DTransposeBias', reason: 'custom operator' }];
    const refusal = "TensorFlow Lite Micro's reference kernels refuse this model: 110 DEQUANTIZE operators have a FLOAT16 input";
    const plan = { assumptions: { dims: [], unknown: [], branches: [], shapes: {}, inputValues: {}, kernels }, diagnostics: [{ code: 'tflm-unsupported', message: refusal }] } as unknown as ModelPlan;
    const lines = assumptionLines(plan, { ...MODEL, dims: [MODEL.dims[0]!] });
    expect(lines.map((l) => [l.key, l.text, l.fix.kind])).toEqual([
      ['tflm-refused', 'TensorFlow Lite Micro refuses this model: no tensor arena works, AllocateTensors() fails whatever its size; the arena figures are what it would need were the model accepted', 'target'],
      ['tflm-kernels', "The arena the model would need were it accepted is a lower estimate: custom operator Convolution2DTransposeBias ('Convolution2DTransposeBias_244') may ask for scratch heapscope does not know, and none is assumed", 'none'],
    ]);
    expect(lines[0]!.detail).toBe(refusal);
  });

  it("a scratch buffer whose target rule gives no size gets its own line, pointing at the target, not a shape to give", () => {
    const unknown = [
      { tensor: 'm', op: 'Mystery', reason: 'no shape rule for Mystery' },
      { tensor: 'conv:im2col', op: 'Conv', reason: 'the op has no input 9', scratch: true as const },
    ];
    const plan = { assumptions: { dims: [], unknown, branches: [], shapes: {}, inputValues: {} }, diagnostics: [] } as unknown as ModelPlan;
    const lines = assumptionLines(plan, MODEL);
    expect(lines.map((l) => [l.text, l.action, l.fix])).toEqual([
      ["1 tensor of unknown size ('m', Mystery): the peak is a lower estimate — give a shape", 'Give a shape', { kind: 'shape', tensors: ['m'] }],
      ["1 scratch buffer of unknown size ('conv:im2col'): the peak is a lower estimate — the target's scratch rule gives no size", undefined, { kind: 'target' }],
    ]);
  });

  it("a .tflite's string tensor gets its own line: sized only at run time, not counted, with no shape to give", async () => {
    const { stringTflite } = await import('../model/testing/string-tflite');
    const bytes = stringTflite();
    const model = inferShapes(decodeModel(bytes, { name: 'string.tflite' }));
    const lines = assumptionLines(planModel(model, presetTarget('mcu')), model);
    expect(lines.map((l) => [l.key, l.text, l.action, l.fix])).toEqual([
      ['unknown-string', "1 string tensor ('s') of unknown size: a string's size is known only at run time, so its bytes are not counted and the peak is a lower estimate", undefined, { kind: 'none' }],
    ]);
    // before any plan, from the model alone, the same
    expect(assumptionLines(undefined, model).map((l) => l.key)).toEqual(['unknown-string']);
  });

  it('a tensor known to need more than 2^53 − 1 bytes is said to, over any limit, not of unknown size', () => {
    const unknown = [{ tensor: 'scores', op: 'MatMul', reason: 'it needs more than 2^53 − 1 bytes', pastLimit: true as const }];
    const plan = { assumptions: { dims: [], unknown, branches: [], shapes: {}, inputValues: {} }, diagnostics: [] } as unknown as ModelPlan;
    expect(assumptionLines(plan, MODEL).map((l) => l.text)).toEqual(["1 tensor needing more than 2^53 − 1 bytes ('scores', MatMul): over any size limit, and the peak is a lower estimate — give a shape"]);
  });

  it('a plan with sizes unknown and sizes too large says each apart: the too large are over any limit, not unknown', () => {
    const unknown = [
      { tensor: 'm', op: 'Mystery', reason: 'no shape rule for Mystery' },
      { tensor: 'scores', op: 'MatMul', reason: 'it needs more than 2^53 − 1 bytes', pastLimit: true as const },
    ];
    const plan = { assumptions: { dims: [], unknown, branches: [], shapes: {}, inputValues: {} }, diagnostics: [] } as unknown as ModelPlan;
    expect(assumptionLines(plan, MODEL).map((l) => [l.key, l.text])).toEqual([
      ['unknown', "1 tensor of unknown size ('m', Mystery): the peak is a lower estimate — give a shape"],
      ['too-large', "1 tensor needing more than 2^53 − 1 bytes ('scores', MatMul): over any size limit, and the peak is a lower estimate — give a shape"],
    ]);
  });

  it('says which default dims, unknown sizes and guessed branches the plan rests on, each with its fix', () => {
    const lines = assumptionLines(undefined, MODEL);
    expect(lines.map((l) => l.text)).toEqual([
      'Plan assumes defaults x:2=224, x:3=224 (image axis: a typical image size) — set them',
      "1 tensor of unknown size ('m', Mystery): the peak is a lower estimate — give a shape",
      "If 'vad/If_0': then branch assumed — set sr",
    ]);
    expect(lines.map((l) => l.fix.kind)).toEqual(['dims', 'shape', 'input']);
    expect(lines[0]!.fix).toMatchObject({ dims: [{ name: 'x:2' }, { name: 'x:3' }] });
    expect(lines[2]).toMatchObject({ lead: "If 'vad/If_0': then branch assumed", detail: 'larger outputs' });
  });

  it('names a default dim as --dim and the dims form take it, by its name, and an unnamed one by the input axis it sizes', () => {
    // GPT-2 with past: batch_size sizes input_ids:0 first, seq_len input_ids:1, past_seq_len past_0:3
    const dims = [
      { name: 'batch_size', value: 1, source: 'default' as const, axes: ['input_ids:0', 'past_0:1'], rule: 'batch axis: one sample' },
      { name: 'seq_len', value: 128, source: 'default' as const, axes: ['input_ids:1'], rule: 'sequence axis: a typical length' },
      { name: 'past_seq_len', value: 0, source: 'default' as const, axes: ['past_0:3'], rule: 'past length: the first step, with no cache yet' },
      { name: 'x:2', value: 224, source: 'default' as const, axes: ['x:2'], rule: 'image axis: a typical image size' },
    ];
    expect(assumptionLines(undefined, { ...MODEL, dims }).find((l) => l.key === 'dims')?.lead).toBe(
      'Plan assumes defaults batch_size=1 (batch axis: one sample); seq_len=128 (sequence axis: a typical length); past_seq_len=0 (past length: the first step, with no cache yet); x:2=224 (image axis: a typical image size)',
    );
  });

  it("points a scan output sized by a Loop's trip count at the input that gives it, not at a shape, and drops the Loop's line once a shape sizes it", () => {
    const ir = decodeModel(generateLoopModel());
    const linesOf = (shapes: Record<string, number[]>) => {
      const model = inferShapes(ir, { shapes });
      return assumptionLines(planModel(model, presetTarget('cpu')), model);
    };
    const unknown = linesOf({}).find((l) => l.key === 'unknown')!;
    expect(unknown.text).toBe("1 tensor of unknown size ('all_logits', Loop): the peak is a lower estimate — set max_new_tokens");
    expect(unknown.action).toBe('Set max_new_tokens');
    expect(unknown.fix).toEqual({ kind: 'input', inputs: ['max_new_tokens'], node: 'generate' });
    expect(linesOf({ all_logits: [20, 4, 1000] })).toEqual([]);
  });

  it('says what a Loop without a known trip count leaves unknown, and which inputs would give it', () => {
    const loop = node('Loop_0', 'Loop', ['trip_count', 'cond'], ['res'], { branch: { node: 'Loop_0', taken: 'trip count unknown', reason: 'the Loop trip count is not a constant' } });
    const model = { ...MODEL, nodes: [loop], values: [value('trip_count', 'input', 8), value('cond', 'input', 1), value('res', 'output', undefined, 0)], inputs: ['trip_count', 'cond'], outputs: ['res'], dims: [] };
    expect(assumptionLines(undefined, model).at(-1)!.text).toBe("Loop 'Loop_0': trip count unknown, so its scan outputs have unknown size — set trip_count, cond");
  });

  it("says a Loop without scan outputs whose loop-carried value has unknown size (ONNX's test_loop13_seq) rests on its trip count", () => {
    const loop = node('Loop_0', 'Loop', ['trip_count', 'cond', 'seq_empty'], ['seq_res'], { branch: { node: 'Loop_0', taken: 'trip count unknown', reason: 'the Loop trip count is not a constant' } });
    const values = [value('trip_count', 'input', 8), value('cond', 'input', 1), value('seq_empty', 'input', undefined), value('seq_res', 'output', undefined, 0)];
    const model = { ...MODEL, nodes: [loop], values, inputs: ['trip_count', 'cond', 'seq_empty'], outputs: ['seq_res'], dims: [] };
    expect(assumptionLines(undefined, model).at(-1)!.text).toBe("Loop 'Loop_0': trip count unknown, so loop-carried seq_res, which may change with each iteration, has unknown size — set trip_count, cond");
  });

  it('says a Loop scan output sized only by the shape the file declares rests on that declaration, not that its size is unknown', () => {
    // ONNX's own Loop test: no constant trip count, and the graph output res_scan declared 5×1
    const loop = node('Loop_0', 'Loop', ['trip_count', 'cond', 'y'], ['res_y', 'res_scan'], { branch: { node: 'Loop_0', taken: 'trip count unknown', reason: 'the Loop trip count is not a constant' } });
    const values = [value('trip_count', 'input', 8), value('cond', 'input', 1), value('y', 'input', 4), value('res_y', 'output', 4, 0), { ...value('res_scan', 'output', 20, 0), shape: [5, 1] }];
    const model = { ...MODEL, nodes: [loop], values, inputs: ['trip_count', 'cond', 'y'], outputs: ['res_y', 'res_scan'], dims: [] };
    expect(assumptionLines(undefined, model).at(-1)!.text).toBe("Loop 'Loop_0': trip count unknown, so its scan outputs are sized as the file declares them (res_scan 5×1) — set trip_count, cond");
  });

  it('says a total length given otherwise than sequence + past, which the graph requires, naming the values the plan takes', () => {
    const decoder = (seq: number, past: number, total: number, source: 'user' | 'default'): InferredModel => ({
      ...MODEL,
      nodes: [],
      values: [value('x', 'input', 4096)],
      inputs: ['x'],
      outputs: [],
      dims: [
        { name: 'seq_len', value: seq, source, axes: ['input_ids:1'], rule: source === 'user' ? 'given by the user' : 'sequence axis: a typical length' },
        { name: 'past_seq_len', value: past, source, axes: ['past_0:2'], rule: source === 'user' ? 'given by the user' : 'past length: the first step, with no cache yet' },
        { name: 'total_seq_len', value: total, source: 'user', axes: ['attention_mask:1'], rule: 'given by the user', sumOf: ['seq_len', 'past_seq_len'] },
      ],
    });
    const given = assumptionLines(undefined, decoder(1, 16, 5, 'user'));
    expect(given.map((l) => l.text)).toEqual([
      "The given total_seq_len=5 (attention_mask:1) disagrees with seq_len + past_seq_len = 1 + 16 = 17, which the graph requires: the plan's sizes take total_seq_len=5 as given, so shapes that combine them may not agree — set them",
    ]);
    expect(given[0]!.fix).toMatchObject({ kind: 'dims', dims: [{ name: 'seq_len', value: 1 }, { name: 'past_seq_len', value: 16 }, { name: 'total_seq_len', value: 5 }] });
    const defaults = assumptionLines(undefined, decoder(128, 0, 1024, 'default'));
    expect(defaults[0]!.text).toBe(
      "The given total_seq_len=1024 (attention_mask:1) disagrees with seq_len + past_seq_len = 128 + 0 = 128 (seq_len=128, past_seq_len=0 by default), which the graph requires: the plan's sizes take total_seq_len=1024 as given, so shapes that combine them may not agree — set them",
    );
    expect(assumptionLines(undefined, decoder(1, 16, 17, 'user'))).toEqual([]);
  });

  it('has no line when every dim is bound and every size known', () => {
    const bound = { ...MODEL, nodes: MODEL.nodes.slice(0, 1), values: MODEL.values.slice(0, 4), dims: MODEL.dims.slice(0, 1) };
    expect(assumptionLines(undefined, bound)).toEqual([]);
  });

  it('says first that nodes use a domain the model does not import, as a file cut short has, with no fix on the page', () => {
    const bound = { ...MODEL, nodes: MODEL.nodes.slice(0, 1), values: MODEL.values.slice(0, 4), dims: MODEL.dims.slice(0, 1) };
    const message = "21 nodes use domain 'com.microsoft' (Attention), which the model does not import (no opset_import entry): the file may be cut short or the model is invalid; ONNX Runtime refuses it";
    const lines = assumptionLines(undefined, { ...bound, diagnostics: [{ code: 'missing-opset', message, node: 'Attention_0' }] });
    expect(lines.map((l) => [l.text, l.action, l.fix.kind])).toEqual([[message, undefined, 'none']]);
  });

  it('finds the graph inputs a condition is computed from', () => {
    expect(conditionInputs(MODEL, MODEL.nodes[1]!)).toEqual(['sr']);
  });

  it('labels a dim by the axes it sizes, then its own name', () => {
    expect(dimLabel({ name: 'x:2', axes: ['x:2'] })).toBe('x:2');
    expect(dimLabel({ name: 'H', axes: ['pixel_values:2'] })).toBe('pixel_values:2 · H');
    expect(dimLabel({ name: 'p2o.DynamicDimension.0', axes: [] })).toBe('p2o.DynamicDimension.0');
  });
});

describe('the banner line of kernel workspace not counted', () => {
  it('names how many more are of unknown size beside the largest known, as plan does', async () => {
    const { GraphBuilder } = await import('../model/testing/onnx-writer');
    const g = new GraphBuilder('mha');
    g.input('x', 'float32', [1, 64, 32]);
    const a = g.node('MultiHeadAttention', ['x', 'x', 'x'], { num_heads: 4 }, { domain: 'com.microsoft', name: 'flash' });
    const b = g.node('MultiHeadAttention', [a, a, a], { num_heads: 4, unidirectional: 1 }, { domain: 'com.microsoft', name: 'causal' });
    g.output(g.node('MultiHeadAttention', [b, b, b], { num_heads: 4 }, { domain: 'com.microsoft', name: 'flash2' }), 'float32', [1, 64, 32]);
    const model = inferShapes(decodeModel(g.toBytes({ opset: 17, opsets: { 'com.microsoft': 1 } })));
    const line = assumptionLines(planModel(model, presetTarget('cpu')), model).find((l) => l.key === 'kernel-workspace');
    // it read 'at least 88.0 KiB for the largest of 3 MultiHeadAttention operators', the two of unknown size unsaid
    expect(line?.text).toMatch(/^Kernel workspace not counted: at least 88\.0 KiB for the largest of 3 MultiHeadAttention operators; 2 more of unknown size/);
  });
});
