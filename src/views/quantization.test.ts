import { describe, expect, it } from 'vitest';
import type { IrQuantization, IrTflite, IrTfliteTensor } from '../model/ir-tflite';
import { hasQuantization, quantizationCell, quantizationHint, quantizationOf, quantizationText, scaleText } from './quantization';

const perTensor: IrQuantization = { scale: [0.024480115622282028], zeroPoint: [-128], axis: 0 };
const perAxis: IrQuantization = { scale: [0.016358856, 0.026610553, 0.0030382154, 0.003262511, 0.011536278], zeroPoint: [0, 0, 0, 0, 0], axis: 3 };

function tensor(value: string, quantization: IrQuantization | undefined): IrTfliteTensor {
  return { value, type: 'INT8', shape: [1, 4], signature: undefined, bytes: 4, constant: false, variable: false, quantization };
}

/** Two subgraphs; the second has a tensor named like one of the main subgraph and one named like a prefixed name. */
const tflite: IrTflite = {
  schemaVersion: 3,
  metadata: [],
  offlinePlan: undefined,
  subgraphs: [
    { name: 'main', inputs: [0], outputs: [1], operators: [], tensors: [tensor('x', perTensor), tensor('y', undefined), tensor('subgraph1/z', perTensor)] },
    { name: 'body', inputs: [0], outputs: [0], operators: [], tensors: [tensor('x', perAxis), tensor('z', perAxis)] },
  ],
};

describe('quantizationOf', () => {
  it('finds a main-subgraph tensor by its value name and another subgraph’s by its prefixed name', () => {
    expect(quantizationOf({ tflite }, 'x')).toBe(perTensor);
    expect(quantizationOf({ tflite }, 'subgraph1/x')).toBe(perAxis);
    expect(quantizationOf({ tflite }, 'y')).toBeUndefined();
    expect(quantizationOf({ tflite }, 'missing')).toBeUndefined();
  });

  it('lets a main-subgraph name win over the same prefixed name of another subgraph', () => {
    expect(quantizationOf({ tflite }, 'subgraph1/z')).toBe(perTensor);
  });

  it('finds nothing in an ONNX model', () => {
    expect(quantizationOf({ tflite: undefined }, 'x')).toBeUndefined();
    expect(quantizationOf(undefined, 'x')).toBeUndefined();
    expect(hasQuantization({ tflite: undefined })).toBe(false);
    expect(hasQuantization({ tflite })).toBe(true);
  });
});

describe('quantization in words', () => {
  it('says a per-tensor scale with four significant digits and its zero point', () => {
    expect(quantizationText(perTensor)).toBe('scale 0.02448, zero point -128');
    expect(quantizationCell(perTensor)).toBe('0.02448 · zp -128');
    expect(scaleText(2.5e-7)).toBe('2.5e-7');
    expect(scaleText(0.5)).toBe('0.5');
  });

  it('says a per-axis quantization by its count, axis and first values', () => {
    expect(quantizationText(perAxis)).toBe('per axis 3: 5 scales (0.01636, 0.02661, 0.003038, 0.003263, …), zero point 0 for all 5');
    expect(quantizationCell(perAxis)).toBe('5 scales, axis 3');
  });

  it('lists the first zero points when they differ, and says when none is given', () => {
    expect(quantizationText({ scale: [1, 2], zeroPoint: [3, -4], axis: 0 })).toBe('per axis 0: 2 scales (1, 2), zero points 3, -4');
    expect(quantizationText({ scale: [0.5], zeroPoint: [], axis: 0 })).toBe('scale 0.5, zero point not given');
  });

  it('hints the quantized tensors among a list, one line each, and nothing when none is', () => {
    expect(quantizationHint({ tflite }, ['x', 'y', 'subgraph1/x'])).toBe('x: scale 0.02448, zero point -128\nsubgraph1/x: per axis 3: 5 scales (0.01636, 0.02661, 0.003038, 0.003263, …), zero point 0 for all 5');
    expect(quantizationHint({ tflite }, ['y'])).toBeUndefined();
  });
});
