// Inputs for the tests of a model TensorFlow Lite Micro refuses: x + DEQUANTIZE(w),
// which its reference kernel's Prepare refuses for float16 weights
// (dequantize_common.cc) and takes for int8 ones, and the tflm preset with its
// arena limited. Test utility.

import { writeTflite, type TfliteTensorSpec } from '../../src/model/testing/tflite-writer';
import { run } from './run-cli';

/** x + DEQUANTIZE(w): w a constant of `weightType` (8 elements, with `quantization` when given), x and the sum float32. */
export function dequantizeModel(weightType: string, quantization?: TfliteTensorSpec['quantization']): Uint8Array {
  const bytesPer = weightType === 'FLOAT16' || weightType === 'INT16' ? 2 : 1;
  return writeTflite({
    subgraphs: [
      {
        tensors: [
          { shape: [1, 8], name: 'x' },
          { shape: [1, 8], type: weightType, name: 'w', data: new Uint8Array(8 * bytesPer), ...(quantization !== undefined && { quantization }) },
          { shape: [1, 8], name: 'w_float' },
          { shape: [1, 8], name: 'y' },
        ],
        inputs: [0],
        outputs: [3],
        operators: [
          { op: 'DEQUANTIZE', inputs: [1], outputs: [2] },
          { op: 'ADD', inputs: [0, 2], outputs: [3] },
        ],
      },
    ],
  });
}

/** The int8 quantization TFLM's DEQUANTIZE takes. */
export const INT8_QUANTIZATION = { scale: [0.5], zeroPoint: [0] } as const;

/** The bytes of a target file: the tflm preset, as `targets --json` gives it, named `name`, its arena limited to `limit` bytes. */
export function limitedTflmTarget(name: string, limit: number): Uint8Array {
  const { targets } = JSON.parse(run(['targets', '--json']).out) as { targets: { name: string; regions: object[] }[] };
  const tflm = targets.find((t) => t.name === 'tflm')!;
  return new TextEncoder().encode(JSON.stringify({ ...tflm, name, regions: tflm.regions.map((r) => ({ ...r, sizeLimit: limit })) }));
}
