import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferShapes } from '../../model/infer/shapes';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { tinyDecoderIr } from '../../model/testing/tiny-decoder';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';
import { cacheOnlyDim, decodeStepDim, withDecodeStep } from './decode-step';

const MODELS = join(__dirname, '../../../../shared/models');

describe('decodeStepDim', () => {
  it('binds the default sequence length to 1 when the cache length is swept', () => {
    const model = inferShapes(tinyDecoderIr());
    expect(cacheOnlyDim(model)?.name).toBe('past_len');
    expect(decodeStepDim(model, 'past_len')).toEqual({ name: 'seq', value: 1, shown: 128, reason: 'a decode step: one new token, with past_len tokens in the cache' });
  });

  it('leaves a sequence length the user gave, and sweeps of other dims, alone', () => {
    expect(decodeStepDim(inferShapes(tinyDecoderIr(), { dims: { seq: 128 } }), 'past_len')).toBeUndefined();
    expect(decodeStepDim(inferShapes(tinyDecoderIr(), { dims: { seq: 7 } }), 'past_len')).toBeUndefined();
    const model = inferShapes(tinyDecoderIr());
    expect(decodeStepDim(model, 'seq')).toBeUndefined();
    expect(decodeStepDim(model, 'batch')).toBeUndefined();
  });

  it('adds the binding to the dims, keeping the others', () => {
    const step = decodeStepDim(inferShapes(tinyDecoderIr()), 'past_len');
    expect(withDecodeStep({ batch: 2 }, step)).toEqual({ batch: 2, seq: 1 });
    expect(withDecodeStep({ batch: 2 }, undefined)).toEqual({ batch: 2 });
  });

  it.runIf(existsSync(MODELS))('makes every point of tiny-llama and GPT-2 cache sweeps complete', () => {
    const target = presetTarget('cpu');
    for (const [file, past, sequence] of [
      ['tiny-random-gpt2-fp32-past.onnx', 'past_seq_len', 'seq_len'],
      ['tiny-llama-fp16/model.onnx', 'past_sequence_length', 'sequence_length'],
    ] as const) {
      const ir = decodeOnnx(new Uint8Array(readFileSync(join(MODELS, file))));
      const step = decodeStepDim(inferShapes(ir), past);
      expect(step, file).toMatchObject({ name: sequence, value: 1, shown: 128 });
      for (const value of [0, 64, 1024]) {
        const complete = (dims: Record<string, number>) => planModel(inferShapes(ir, { dims }), target).complete;
        expect(complete(withDecodeStep({ [past]: value }, step)), `${file} ${past}=${value}`).toBe(true);
      }
      // the default prefill length cannot take a cache in tiny-llama's mask: why the sweep needs the step
      if (sequence === 'sequence_length') expect(planModel(inferShapes(ir, { dims: { [past]: 64 } }), target).complete).toBe(false);
    }
  });
});
