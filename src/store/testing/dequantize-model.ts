// A .tflite model whose weight is a float16 constant that a DEQUANTIZE widens
// to float32 before a FULLY_CONNECTED reads it, as MediaPipe's models are
// converted: TensorFlow Lite Micro runs that DEQUANTIZE at each inference and
// plans its output in the arena, other targets fold it away. Test utility.

import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { writeTflite } from '../../model/testing/tflite-writer';

/** x (float32 input) · DEQUANTIZE(w16, a float16 weight) = w → FULLY_CONNECTED(x, w) → y. */
export function dequantizeModel(): InferredModel {
  return inferShapes(
    decodeModel(
      writeTflite({
        subgraphs: [
          {
            tensors: [
              { shape: [1, 4], name: 'x' },
              { shape: [4, 4], type: 'FLOAT16', name: 'w16', data: new Uint8Array(32) },
              { shape: [4, 4], name: 'w' },
              { shape: [1, 4], name: 'y' },
            ],
            inputs: [0],
            outputs: [3],
            operators: [
              { op: 'DEQUANTIZE', inputs: [1], outputs: [2] },
              { op: 'FULLY_CONNECTED', inputs: [0, 2], outputs: [3] },
            ],
          },
        ],
      }),
    ),
  );
}
