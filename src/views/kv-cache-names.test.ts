import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../model/onnx/decode-onnx';
import { inferShapes } from '../model/infer/shapes';
import { readPlanFile, toPlanFile, writePlanFile } from '../planner/assembly/plan-file';
import { planModel } from '../planner/plan';
import { presetTarget } from '../planner/targets/presets';
import { LLAMA_80, llamaModel } from '../model/testing/llama-model';
import { kvCacheNames, planKvCacheNames } from './kv-cache-names';

const GPT2 = join(__dirname, '../../../shared/models/tiny-random-gpt2-fp32-past.onnx');

/** The model's KV-cache names and those found in its saved plan, reopened from the file's text. */
function bothWays(bytes: Uint8Array, dims: Record<string, number>) {
  const model = inferShapes(decodeOnnx(bytes), { dims });
  const target = presetTarget('cpu');
  const file = readPlanFile(writePlanFile(toPlanFile(model, planModel(model, target), { model: 'm.onnx', target: 'cpu', targetProfile: target, dims })), 'm.plan.json');
  return { fromModel: [...kvCacheNames(model)].sort(), fromPlan: [...planKvCacheNames(file)].sort() };
}

describe('planKvCacheNames: a saved plan finds the KV cache the model does', () => {
  it.runIf(existsSync(GPT2))('GPT-2 with a past: every past_* input and present_* output, by name', () => {
    const { fromModel, fromPlan } = bothWays(new Uint8Array(readFileSync(GPT2)), { past_seq_len: 64 });
    expect(fromModel.length).toBeGreaterThan(0);
    expect(fromModel.every((n) => /^(past|present)/.test(n))).toBe(true);
    expect(fromPlan).toEqual(fromModel);
  });

  it('a generated decoder, its caches named past/present', () => {
    const { fromModel, fromPlan } = bothWays(llamaModel({ ...LLAMA_80, layers: 2 }), { past: 7 });
    expect(fromModel.length).toBeGreaterThan(0);
    expect(fromPlan).toEqual(fromModel);
  });
});
