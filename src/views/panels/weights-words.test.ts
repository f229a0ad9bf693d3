// The model card's weights follow the plan on screen: on a target that runs
// the nodes computed from constants (TensorFlow Lite Micro), the file's
// weights and where the rest went; elsewhere every weight, folded ones named.

import { describe, expect, it } from 'vitest';
import { weightsWords } from './weights-words';

// mediapipe_selfie_segmentation.tflite: 113 weights in the file, 110 DEQUANTIZE outputs of constants
const model = { count: 223, bytes: 638_000, fromConstants: 110, unknown: 0 };

describe('the weights on the model card', () => {
  it("on tflm are the plan's, the file's weights, and the constants' outputs are said to be run and planned with the activations", () => {
    const words = weightsWords(model, { target: 'tflm', weights: { tensors: 113, bytes: 213_000 }, runtimePlan: {} });
    expect(words.value).toBe('113 · 208 KiB');
    expect(words.note).toBe(" the file's; 110 computed from constants are run at each inference on tflm, planned with the activations");
    expect(words.constantsNote).toBe(' · run at each inference on tflm, not stored');
  });

  it('on a target that stores folded constants are every weight, the folded ones named', () => {
    expect(weightsWords(model, { target: 'cpu', weights: { tensors: 223, bytes: 638_000 } })).toEqual({ value: '223 · 623 KiB', note: ' incl. 110 from constants', constantsNote: undefined });
    expect(weightsWords(model, undefined).value).toBe('223 · 623 KiB');
    // fewer weights in a plan without TFLite Micro's runtime plan are not put down to it
    expect(weightsWords(model, { target: 'cpu', weights: { tensors: 113, bytes: 213_000 } }).note).toBe(' incl. 110 from constants');
  });

  it('with a size unknown are a lower estimate, whatever the plan counts', () => {
    const words = weightsWords({ ...model, unknown: 2 }, { target: 'tflm', weights: { tensors: 113, bytes: 213_000 } });
    expect(words.value).toBe('223 · ≥ 623 KiB');
    expect(words.note).toBe(' incl. 110 from constants (2 of unknown size)');
  });
});
