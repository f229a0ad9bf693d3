// The model card's weights follow the plan on screen: on a target that runs
// the nodes computed from constants (TensorFlow Lite Micro), the weights it
// keeps and where the rest went; elsewhere every weight, folded ones named.

import { describe, expect, it } from 'vitest';
import { weightsWords } from './weights-words';

// mediapipe_selfie_segmentation.tflite: 113 weights in the file, 110 DEQUANTIZE outputs of constants
const onCpu = { count: 223, bytes: 638_000, fromConstants: 110, unknown: 0, run: 0 };
const onTflm = { count: 113, bytes: 213_000, fromConstants: 0, unknown: 0, run: 110 };

describe('the weights on the model card', () => {
  it("on tflm are the file's weights, and the constants' outputs are said to be run and counted with the activations", () => {
    const words = weightsWords(onTflm, { target: 'tflm' });
    expect(words.value).toBe('113 · 208 KiB');
    expect(words.note).toBe(" the file's; 110 computed from constants are run at each inference on tflm, planned with the activations");
    expect(words.constantsNote).toBe(' · 110 run at each inference on tflm, counted with the activations');
  });

  it('on a target that stores folded constants are every weight, the folded ones named', () => {
    expect(weightsWords(onCpu, { target: 'cpu' })).toEqual({ value: '223 · 623 KiB', note: ' incl. 110 from constants', constantsNote: undefined });
    expect(weightsWords(onCpu, undefined).value).toBe('223 · 623 KiB');
  });

  it('with a size unknown are a lower estimate, on tflm too', () => {
    const words = weightsWords({ ...onCpu, unknown: 2 }, { target: 'cpu' });
    expect(words.value).toBe('223 · ≥ 623 KiB');
    expect(words.note).toBe(' incl. 110 from constants (2 of unknown size)');
    const tflm = weightsWords({ ...onTflm, unknown: 1, fromConstants: 3, count: 116 }, { target: 'tflm' });
    expect(tflm.value).toBe('116 · ≥ 208 KiB');
    expect(tflm.note).toBe(' incl. 3 from constants (1 of unknown size); 110 computed from constants are run at each inference on tflm, planned with the activations');
  });
});
