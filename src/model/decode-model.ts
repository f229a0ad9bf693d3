// Model bytes -> IR model, whatever the format: the registry of the model layer's
// formats. Each format's folder exports `match(bytes)` (by its bytes, never the
// file name) and `open(bytes)`; the first that matches decodes. No DOM.

import type { IrModel } from './ir';
import { InputError } from '../shared/errors';
import { decodeOnnx, type DecodeOptions } from './onnx/decode-onnx';
import { couldBeOnnxHead, isJsonHead, JSON_READ_BYTES, rejectKnownFormats } from './onnx/decode-sniff';
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
 * by its bytes. Throws sniffModelHead's InputError for a file whose first bytes
 * cannot begin a model, else the format's InputError for a file it cannot use; for
 * one that is no model and is named like an ONNX external data file, the
 * error says so and to open the model that refers to it.
 */
export function decodeModel(bytes: Uint8Array, options: ModelDecodeOptions = {}): IrModel {
  // The first bytes are judged as the command line judges them before reading a file, so the page and
  // `heapscope inspect` refuse the same file in the same words.
  sniffModelHead(bytes.subarray(0, MODEL_HEAD_BYTES), options.name, bytes.byteLength);
  const format = FORMATS.find((f) => f.match(bytes))!;
  try {
    return format.open(bytes, options);
  } catch (error) {
    throw explainedByName(error, options.name);
  }
}

/** `error`, or for bytes that are no model in a file named like ONNX external data, the error that says so. */
function explainedByName(error: unknown, name: string | undefined): unknown {
  if (name !== undefined && looksLikeExternalData(name) && error instanceof InputError && NOT_A_MODEL_CODES.has(error.code)) {
    return new InputError('not-onnx', "this looks like an ONNX model's external weights file (raw tensor data, not a model): open the .onnx model that refers to it");
  }
  return error;
}

/** How many leading bytes sniffModelHead needs. */
export const MODEL_HEAD_BYTES = 512;

/**
 * Throws the InputError decodeModel would, from a file's first
 * MODEL_HEAD_BYTES bytes alone, when they cannot begin a model: neither the
 * TFL3 identifier of a TensorFlow Lite flatbuffer nor a ModelProto field's tag.
 * A caller reads the first bytes, sniffs, and reads the whole file only when
 * it may be a model (a 2 GiB file of zeros was read whole to say byte 0 is bad).
 * `name` picks the words: a `.tflite` file's error speaks of TensorFlow Lite.
 * A JSON file of at most JSON_READ_BYTES (`size`) passes: read whole, its
 * error can say why it is no saved plan, or that it is one.
 */
export function sniffModelHead(head: Uint8Array, name?: string, size?: number): void {
  if (isTflite(head) || couldBeOnnxHead(head)) return;
  if (size !== undefined && size <= JSON_READ_BYTES && isJsonHead(head)) return;
  try {
    rejectKnownFormats(head);
    if (name !== undefined && /\.tflite$/i.test(name)) {
      throw new InputError('not-a-model', 'this is not a TensorFlow Lite model: the file has no TensorFlow Lite identifier (TFL3 at byte 4)');
    }
    throw new InputError('not-onnx', `this is not an ONNX or TensorFlow Lite model: its first byte (0x${head[0]!.toString(16).padStart(2, '0')}) is not the tag of an ONNX ModelProto field, and it has no TFL3 identifier at byte 4`);
  } catch (error) {
    throw explainedByName(error, name);
  }
}

export type { DecodeOptions, ProgressFn } from './onnx/decode-onnx';
