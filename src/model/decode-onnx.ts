// ONNX bytes -> IR model (src/model/ir.ts). Public entry point of the model layer's decoder.
// No DOM; the only module family that sees onnx-proto types.

import { InputError } from '../shared/errors';
import type { IrModel } from './ir';

/** Progress callback: fraction in [0, 1] and a short label. */
export type ProgressFn = (fraction: number, label: string) => void;

/** Options of decodeOnnx. */
export interface DecodeOptions {
  readonly onProgress?: ProgressFn;
}

/**
 * Decodes ONNX model bytes. Weights are views into `bytes`, never copies.
 * Throws InputError (code + sentence) for anything that is not a usable model.
 */
export function decodeOnnx(bytes: Uint8Array, _options: DecodeOptions = {}): IrModel {
  throw new InputError('not-onnx', `decoding is not available yet (${bytes.byteLength} bytes)`);
}
