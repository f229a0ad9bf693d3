import { describe, expect, it } from 'vitest';
import { fixedShapesReason, inputValueProblem, shapeField, shapeProblem } from './bindings';

describe('shape bindings', () => {
  it('refuse a shape for a tensor of a .tflite, which keeps the shapes its file states, and say why', () => {
    expect(fixedShapesReason('tflite')).toMatch(/^A \.tflite model keeps the shapes its file states \(heapscope infers no TensorFlow Lite operator's shape/);
    expect(shapeProblem('input', [1, 128, 128, 1], 'tflite')).toEqual({ message: `Shape of "input": ${fixedShapesReason('tflite')}`, field: 'shape.input' });
    expect([fixedShapesReason('onnx'), fixedShapesReason(undefined)]).toEqual([undefined, undefined]);
    expect(shapeProblem('x', [1, 3, 224, 224], 'onnx')).toBeUndefined();
    expect(shapeProblem('x', [1, -3])?.message).toMatch(/^Shape of "x": every dim must be a whole number .*got -3$/);
  });

  it('name the field a refusal belongs to by id, not by the start of its sentence', () => {
    // 'x": y' is a valid tensor name whose sentence starts like the one of tensor x's field
    const refused = shapeProblem('x": y', [1, -3]);
    expect(refused?.message.startsWith('Shape of "x"')).toBe(true);
    expect(refused?.field).toBe('shape.x": y');
    expect(refused?.field).not.toBe(shapeField('x'));
    expect(inputValueProblem('x', [])?.field).toBe('input.x');
  });

  it("cut a long name in the sentence, as the field's label cuts it", () => {
    const name = 'n'.repeat(100_000);
    const refused = shapeProblem(name, [-1]);
    expect(refused?.field).toBe(shapeField(name));
    expect(refused?.message.length).toBeLessThan(300);
  });
});
