import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DT } from '../../../model/dtype';
import { inferShapes } from '../../../model/infer/shapes';
import type { InferredModel } from '../../../model/inferred';
import { irGraph } from '../../../model/testing/ir-builder';
import { LLAMA_80, llamaModel } from '../../../model/testing/llama-model';
import { decodeOnnx } from '../../../model/onnx/decode-onnx';
import { planModel, type ModelPlan } from '../../../planner/plan';
import { presetTarget } from '../../../planner/targets/presets';
import { kvCacheNames } from '../../kv-cache-names';
import { kvBoxOf } from './kv-boxes';
import { graphLayoutInput } from './layout-input';

const MODELS = join(__dirname, '../../../../../shared/models');
const GPT2 = join(MODELS, 'tiny-random-gpt2-fp32-past.onnx');
const LLAMA = join(MODELS, 'tiny-llama-fp32-missing-external-data.onnx');
const OPEN = { collapsed: new Set<string>(), bodies: new Set<string>() };

/** Every cache tensor of `model`: the box kvBoxOf names, and the box the graph's layout draws it in (title and tensors). */
function namedAndDrawn(model: InferredModel, plan: ModelPlan | undefined) {
  const input = graphLayoutInput(model, plan, OPEN);
  return [...kvCacheNames(model)].map((name) => {
    const item = input.items.get(input.ioBoxes.get(`${model.inputs.includes(name) ? 'in' : 'out'}:${name}`)!)!;
    return { name, named: kvBoxOf(model, plan, name), drawn: { title: item.title, tensors: item.tensors } };
  });
}

describe('kvBoxOf: the folded graph box a cache tensor is drawn in', () => {
  it("names a layer's past box and its key and value, its present box apart, and no box for other tensors", () => {
    const model = inferShapes(decodeOnnx(llamaModel({ ...LLAMA_80, layers: 2 })), { dims: { past: 7 } });
    expect(kvBoxOf(model, undefined, 'past_key_values.1.value')).toEqual({ title: 'past KV cache · layer 1', tensors: ['past_key_values.1.key', 'past_key_values.1.value'] });
    const present = ['/model/layers.0/self_attn/Concat_key_out', '/model/layers.0/self_attn/Concat_value_out'];
    expect(kvBoxOf(model, undefined, present[1]!)).toEqual({ title: 'present KV cache · layer 0', tensors: present });
    expect(kvBoxOf(model, undefined, 'input_ids')).toBeUndefined();
    expect(kvBoxOf(model, undefined, '/lm_head/MatMul_out')).toBeUndefined();
  });

  for (const [label, file] of [['GPT-2', GPT2], ['tiny-llama', LLAMA]] as const) {
    it.runIf(existsSync(file))(`is the box the layout draws for every cache tensor of ${label}, without a plan and under the phone target's functions`, () => {
      const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(file))), {});
      for (const plan of [undefined, planModel(model, presetTarget('phone'))]) {
        const boxes = namedAndDrawn(model, plan);
        expect(boxes.length).toBeGreaterThanOrEqual(8);
        for (const { name, named, drawn } of boxes) expect(named, name).toEqual(drawn);
      }
    });
  }

  it("keeps apart two layers' caches whose names carry no layer number, as the graph draws them in each layer's scope", () => {
    const g = irGraph().input('x', DT.FLOAT, [1, 4, 8]);
    for (const layer of ['first', 'second']) {
      g.input(`past_key_${layer}`, DT.FLOAT, [1, 'past', 8]);
      g.node('Concat', [`past_key_${layer}`, 'x'], [`present_key_${layer}`], { axis: 1 }, { name: `/model/${layer}/attn/Concat` });
      g.node('Relu', [`present_key_${layer}`], [`y_${layer}`], {}, { name: `/model/${layer}/attn/Relu` });
    }
    for (const layer of ['first', 'second']) g.output(`present_key_${layer}`).output(`y_${layer}`);
    const model = inferShapes(g.model(), { dims: { past: 3 } });
    expect(kvBoxOf(model, undefined, 'past_key_first')).toEqual({ title: 'past KV cache', tensors: ['past_key_first'] });
    expect(kvBoxOf(model, undefined, 'present_key_second')).toEqual({ title: 'present KV cache', tensors: ['present_key_second'] });
    for (const { name, named, drawn } of namedAndDrawn(model, undefined)) expect(named, name).toEqual(drawn);
  });
});
