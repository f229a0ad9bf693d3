// A .tflite with a STRING activation, whose size no shape gives: its bytes
// depend on its contents, known only at run time.

import { writeTflite } from './tflite-writer';

/** x (float32) → CAST → s (STRING) → CAST → y (float32). */
export function stringTflite(): Uint8Array {
  return writeTflite({
    subgraphs: [
      {
        tensors: [
          { name: 'x', shape: [1, 4], type: 'FLOAT32' },
          { name: 's', shape: [1, 4], type: 'STRING' },
          { name: 'y', shape: [1, 4], type: 'FLOAT32' },
        ],
        inputs: [0],
        outputs: [2],
        operators: [
          { op: 'CAST', inputs: [0], outputs: [1] },
          { op: 'CAST', inputs: [1], outputs: [2] },
        ],
      },
    ],
  });
}
