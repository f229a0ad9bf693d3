// Model bytes -> IR model, whatever the format: the registry of the model layer's
// formats. Each format's folder exports `match(bytes)` (by its bytes, never the
// file name) and `open(bytes)`; the first that matches decodes. No DOM.

import type { IrModel } from './ir';
import { InputError } from '../shared/errors';
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

/** Options of decodeModel. */
export interface ModelDecodeOptions extends DecodeOptions {
  readonly name?: string; // the file's name: never chooses the format, only explains a file that is not a model
}

/** ONNX's external data files, by the names exporters give them: `model.onnx.data`, `model.onnx_data`, `weights.data`. */
const EXTERNAL_DATA_NAME = /(\.|_)data$/i;

/** True when `name` is named like an ONNX model's external data file (its weights, not a model). */
export function looksLikeExternalData(name: string): boolean {
  return EXTERNAL_DATA_NAME.test(name);
}

/** The decoders' errors for bytes that are no model at all (raw tensor bytes have no format to tell). */
const NOT_A_MODEL_CODES: ReadonlySet<string> = new Set(['not-onnx', 'truncated', 'not-a-model']);

/**
 * Decodes a model file of any supported format (ONNX, TensorFlow Lite), chosen
 * by its bytes. Throws the format's InputError for a file it cannot use; for
 * one that is no model and is named like an ONNX external data file, the
 * error says so and to open the model that refers to it.
 */
export function decodeModel(bytes: Uint8Array, options: ModelDecodeOptions = {}): IrModel {
  const format = FORMATS.find((f) => f.match(bytes))!;
  try {
    return format.open(bytes, options);
  } catch (error) {
    if (options.name !== undefined && looksLikeExternalData(options.name) && error instanceof InputError && NOT_A_MODEL_CODES.has(error.code)) {
      throw new InputError('not-onnx', "this looks like an ONNX model's external weights file (raw tensor data, not a model): open the .onnx model that refers to it");
    }
    throw error;
  }
}

export type { DecodeOptions, ProgressFn } from './onnx/decode-onnx';
