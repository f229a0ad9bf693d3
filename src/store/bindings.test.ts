import { describe, expect, it } from 'vitest';
import { fixedShapesReason, shapeProblem } from './bindings';

describe('shape bindings', () => {
  it('refuse a shape for a tensor of a .tflite, which keeps the shapes its file states, and say why', () => {
    expect(fixedShapesReason('tflite')).toMatch(/^A \.tflite model keeps the shapes its file states \(heapscope infers no TensorFlow Lite operator's shape/);
    expect(shapeProblem('input', [1, 128, 128, 1], 'tflite')).toBe(`Shape of "input": ${fixedShapesReason('tflite')}`);
    expect([fixedShapesReason('onnx'), fixedShapesReason(undefined)]).toEqual([undefined, undefined]);
    expect(shapeProblem('x', [1, 3, 224, 224], 'onnx')).toBeUndefined();
    expect(shapeProblem('x', [1, -3])).toMatch(/^Shape of "x": every dim must be a whole number .*got -3$/);
  });
});
