// Model bytes -> IR model, whatever the format: the registry of the model layer's
// formats. Each format's folder exports `match(bytes)` (by its bytes, never the
// file name) and `open(bytes)`; the first that matches decodes. No DOM.

import type { IrModel } from './ir';
import { decodeOnnx, type DecodeOptions } from './onnx/decode-onnx';
import { decodeTflite, isTflite } from './tflite/decode-tflite';

/** One model format. */
interface ModelFormatEntry {
  readonly name: 'onnx' | 'tflite';
  readonly match: (bytes: Uint8Array) => boolean;
  readonly open: (bytes: Uint8Array, options: DecodeOptions) => IrModel;
}

/** Asked in order; ONNX has no magic number, so it comes last and takes the rest (its decoder names what a file is when it is not ONNX). */
const FORMATS: readonly ModelFormatEntry[] = [
  {
    name: 'tflite',
    match: isTflite,
    open: (bytes, options) => {
      options.onProgress?.(0, 'Reading the TensorFlow Lite model');
      const model = decodeTflite(bytes);
      options.onProgress?.(1, 'Decoded');
      return model;
    },
  },
  { name: 'onnx', match: () => true, open: decodeOnnx },
];

/**
 * Decodes a model file of any supported format (ONNX, TensorFlow Lite), chosen
 * by its bytes. Throws the format's InputError for a file it cannot use.
 */
export function decodeModel(bytes: Uint8Array, options: DecodeOptions = {}): IrModel {
  const format = FORMATS.find((f) => f.match(bytes))!;
  return format.open(bytes, options);
}

export type { DecodeOptions, ProgressFn } from './onnx/decode-onnx';
