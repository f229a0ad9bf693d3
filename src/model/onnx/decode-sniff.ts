// Tells what a file is before the ONNX decoder trusts it: known non-ONNX formats by
// their magic numbers, text files, and a walk over the top-level protobuf fields
// that separates a truncated model from bytes that were never a model. No DOM.

import { InputError } from '../../shared/errors';
import { counted, formatCount } from '../../shared/format';
import { utf8 } from '../utf8';

/** Largest file protobuf can address (2 GiB - 1); bigger models keep weights in external files. */
export const MAX_MODEL_BYTES = 2 ** 31 - 1;

interface Magic {
  readonly parts: readonly (readonly [offset: number, bytes: readonly number[]])[];
  readonly what: string;
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** Formats people drop by mistake, by their leading bytes. */
const MAGICS: readonly Magic[] = [
  { parts: [[0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]]], what: 'a PNG image' },
  { parts: [[0, [0xff, 0xd8, 0xff]]], what: 'a JPEG image' },
  { parts: [[0, ascii('GIF8')]], what: 'a GIF image' },
  { parts: [[0, ascii('RIFF')], [8, ascii('WEBP')]], what: 'a WebP image' },
  { parts: [[0, ascii('%PDF')]], what: 'a PDF document' },
  { parts: [[0, [0x50, 0x4b, 0x03, 0x04]]], what: 'a ZIP archive (PyTorch checkpoints are ZIP archives too)' },
  { parts: [[0, [0x50, 0x4b, 0x05, 0x06]]], what: 'an empty ZIP archive' },
  { parts: [[0, [0x1f, 0x8b]]], what: 'a gzip-compressed file (decompress it first)' },
  { parts: [[0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]]], what: 'an xz-compressed file (decompress it first)' },
  { parts: [[0, [0x28, 0xb5, 0x2f, 0xfd]]], what: 'a zstd-compressed file (decompress it first)' },
  { parts: [[0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]]], what: 'a 7-Zip archive' },
  { parts: [[0, [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]]], what: 'an HDF5 file (a Keras model?)' },
  { parts: [[0, [0x93, ...ascii('NUMPY')]]], what: 'a NumPy array file' },
  { parts: [[0, [0x7f, ...ascii('ELF')]]], what: 'an executable program' },
  { parts: [[0, ascii('MZ')]], what: 'a Windows executable' },
];

/** Every kind of file heapscope opens, for a message about a file that is none of them. */
const ACCEPTED = 'an ONNX (.onnx) or TensorFlow Lite (.tflite) model or a heapscope saved plan (.json)';

/** What textKind calls a file that starts like JSON. */
const JSON_TEXT = 'a JSON text file';

/** The format field that makes a JSON file a heapscope saved plan (planner/assembly/plan-file.ts, which model/ may not import). */
const PLAN_FORMAT = 'heapscope-plan';

/**
 * Throws InputError('not-onnx') when the leading bytes show a format that is not
 * ONNX: a known magic number, a Git LFS pointer, a text file, a Python pickle or
 * a safetensors file. The message names every kind of file heapscope opens and,
 * for JSON, why it is not a saved plan.
 */
export function rejectKnownFormats(bytes: Uint8Array): void {
  const what = knownFormat(bytes);
  if (what === undefined) return;
  const json = what === JSON_TEXT ? jsonKind(bytes) : undefined;
  if (json !== undefined) throw new InputError('not-onnx', json);
  throw new InputError('not-onnx', `this is ${what}, not ${ACCEPTED}`);
}

/** Largest JSON file read whole to say why it is no saved plan; a larger one is called a JSON text file. */
export const JSON_READ_BYTES = 64 * 2 ** 20;

/** Whether a file's first bytes are JSON text (a saved plan, a config file). */
export function isJsonHead(head: Uint8Array): boolean {
  return knownFormat(head) === JSON_TEXT;
}

/** The sentence for a file that starts like JSON: why it is no saved plan; undefined when it does not parse. */
function jsonKind(bytes: Uint8Array): string | undefined {
  if (bytes.length > JSON_READ_BYTES) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(utf8(bytes).replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  const models = 'nor an ONNX (.onnx) or TensorFlow Lite (.tflite) model';
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return `this is JSON but not a heapscope saved plan (${Array.isArray(json) ? 'an array' : 'a single value'}, where a plan is an object with "format": "${PLAN_FORMAT}"), ${models}`;
  }
  const format = (json as { readonly format?: unknown }).format;
  if (format === PLAN_FORMAT) return `this is a heapscope saved plan, not a model: open it in the page, or compare it with \`heapscope diff\``;
  const why = format === undefined ? `no "format": "${PLAN_FORMAT}" field` : `its "format" is ${JSON.stringify(format).slice(0, 40)}, not "${PLAN_FORMAT}"`;
  return `this is JSON but not a heapscope saved plan (${why}), ${models}`;
}

function knownFormat(bytes: Uint8Array): string | undefined {
  const magic = MAGICS.find((m) => m.parts.every(([offset, expected]) => expected.every((b, i) => bytes[offset + i] === b)));
  if (magic !== undefined) return magic.what;
  if (bytes[0] === 0x80 && bytes.length > 1 && (bytes[1] ?? 0) >= 2 && (bytes[1] ?? 0) <= 5) {
    return 'a Python pickle (an old PyTorch checkpoint?)';
  }
  if (isSafetensors(bytes)) return 'a safetensors weight file';
  return textKind(bytes);
}

/** safetensors: an 8-byte little-endian header length, then a JSON header. */
function isSafetensors(bytes: Uint8Array): boolean {
  if (bytes.length < 10 || bytes[8] !== 0x7b) return false;
  let headerBytes = 0;
  for (let i = 7; i >= 0; i--) headerBytes = headerBytes * 256 + (bytes[i] ?? 0);
  return headerBytes > 1 && headerBytes <= bytes.length - 8;
}

const LFS_POINTER = ascii('version https://git-lfs');

function textKind(bytes: Uint8Array): string | undefined {
  if (LFS_POINTER.every((b, i) => bytes[i] === b)) {
    return 'a Git LFS pointer, not the model itself (fetch the real file with `git lfs pull`)';
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0; // UTF-8's byte order mark, as editors on Windows write it
  const head = bytes.subarray(bom, bom + 512);
  const printable = head.every((b) => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b < 0x7f));
  if (!printable) return undefined;
  const first = String.fromCharCode(head.find((b) => b > 0x20) ?? 0x20);
  if (first === '{' || first === '[') return JSON_TEXT;
  if (first === '<') return 'an HTML or XML text file';
  return 'a text file';
}

/** ModelProto's fields and the wire type each must have (0 varint, 2 length-delimited). */
const MODEL_FIELDS: ReadonlyMap<number, { readonly name: string; readonly wire: number }> = new Map([
  [1, { name: 'ir_version', wire: 0 }],
  [2, { name: 'producer_name', wire: 2 }],
  [3, { name: 'producer_version', wire: 2 }],
  [4, { name: 'domain', wire: 2 }],
  [5, { name: 'model_version', wire: 0 }],
  [6, { name: 'doc_string', wire: 2 }],
  [7, { name: 'graph', wire: 2 }],
  [8, { name: 'opset_import', wire: 2 }],
  [14, { name: 'metadata_props', wire: 2 }],
  [20, { name: 'training_info', wire: 2 }],
  [25, { name: 'functions', wire: 2 }],
  [26, { name: 'configuration', wire: 2 }],
]);

/**
 * Whether a file's first bytes can open an ONNX model: its first protobuf tag
 * is a ModelProto field's, with that field's wire type. Too few bytes to tell
 * (an empty or one-byte file) count as possible: the decoder says what they are.
 */
export function couldBeOnnxHead(head: Uint8Array): boolean {
  let tag = 0;
  for (let i = 0; i < 5; i++) {
    if (i >= head.byteLength) return true;
    const b = head[i]!;
    tag += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) return MODEL_FIELDS.get(Math.floor(tag / 8))?.wire === tag % 8;
  }
  return false;
}

/** The largest protobuf message, and so the largest ONNX model file (2 GiB − 1). */
const MAX_PROTOBUF_BYTES = 2 ** 31 - 1;

/** What the walk over the top-level fields found. */
type Scan =
  | { readonly kind: 'ok'; readonly modelFields: number; readonly misfits: number }
  | { readonly kind: 'overrun'; readonly field: string | undefined; readonly needed: number | undefined; readonly modelLike: boolean }
  | { readonly kind: 'invalid'; readonly offset: number; readonly modelLike: boolean };

/**
 * Walks the top-level protobuf fields and throws InputError when the bytes are
 * a truncated model ('truncated'), not protobuf at all ('not-onnx'), or a
 * protobuf message whose fields do not fit ModelProto ('not-a-model').
 */
export function rejectNonModelProtobuf(bytes: Uint8Array): void {
  const scan = scanTopLevel(bytes);
  if (scan.kind === 'overrun') {
    if (scan.modelLike && scan.field !== undefined) {
      // a field that would end past protobuf's 2 GiB holds no model even whole (and its length may be past 2^53, no exact count)
      if (scan.needed !== undefined && bytes.length + scan.needed > MAX_PROTOBUF_BYTES) {
        throw new InputError('truncated', `the file ends early: its ${scan.field} field runs past the ${formatCount(MAX_PROTOBUF_BYTES)} bytes a protobuf model can hold (was the file cut off, or damaged?)`);
      }
      const missing = scan.needed === undefined ? 'is cut off' : `needs ${counted(scan.needed, 'byte')} more than the file has`;
      throw new InputError('truncated', `the file ends early: its ${scan.field} field ${missing} (was the download cut off?)`);
    }
    throw new InputError('not-onnx', `this is not ${ACCEPTED}: its bytes are neither a protobuf message, a TFL3 flatbuffer nor JSON`);
  }
  if (scan.kind === 'invalid') {
    const where = scan.modelLike ? 'the model is damaged' : `this is not ${ACCEPTED}`;
    throw new InputError('not-onnx', `${where}: the protobuf data is invalid at byte ${formatCount(scan.offset)}`);
  }
  if (scan.modelFields === 0 || scan.misfits > 0) {
    throw new InputError('not-a-model', 'this is a protobuf message but not an ONNX model (its fields do not match ModelProto)');
  }
}

/**
 * Counts ModelProto fields and misfits (a ModelProto field number with the wrong
 * wire type). Unknown field numbers are skipped, as protobuf readers do, so
 * files from newer ONNX versions still pass.
 */
function scanTopLevel(bytes: Uint8Array): Scan {
  let pos = 0;
  let modelFields = 0;
  let misfits = 0;
  while (pos < bytes.length) {
    const modelLike = misfits === 0 && modelFields > 0;
    const start = pos;
    const tag = readVarint(bytes, pos);
    if (tag === 'overrun') return { kind: 'overrun', field: undefined, needed: undefined, modelLike };
    if (tag === 'invalid') return { kind: 'invalid', offset: start, modelLike };
    pos = tag.end;
    const fieldNumber = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    const known = MODEL_FIELDS.get(fieldNumber);
    const size = fieldSize(bytes, pos, wire);
    if (fieldNumber === 0 || size === 'invalid') return { kind: 'invalid', offset: start, modelLike };
    const field = known !== undefined && known.wire === wire ? known.name : undefined;
    // A file that opens with a ModelProto field (every ONNX writer puts ir_version first) and is cut inside it is still a model.
    const cutModel = modelLike || (start === 0 && field !== undefined);
    if (size === 'overrun') return { kind: 'overrun', field, needed: undefined, modelLike: cutModel };
    if (size.end > bytes.length) return { kind: 'overrun', field, needed: size.end - bytes.length, modelLike: cutModel };
    pos = size.end;
    if (field !== undefined) modelFields += 1;
    else if (known !== undefined) misfits += 1;
  }
  return { kind: 'ok', modelFields, misfits };
}

/** Where a field's payload ends, given its wire type; 'overrun' when a varint runs off the end. */
function fieldSize(bytes: Uint8Array, pos: number, wire: number): { end: number } | 'invalid' | 'overrun' {
  switch (wire) {
    case 0: {
      const value = readVarint(bytes, pos);
      return typeof value === 'string' ? value : { end: value.end };
    }
    case 1:
      return { end: pos + 8 };
    case 2: {
      const length = readVarint(bytes, pos);
      if (typeof length === 'string') return length;
      return { end: length.end + length.value };
    }
    case 5:
      return { end: pos + 4 };
    default:
      return 'invalid';
  }
}

/** Reads a base-128 varint of at most 10 bytes. */
function readVarint(bytes: Uint8Array, pos: number): { value: number; end: number } | 'overrun' | 'invalid' {
  let value = 0;
  let scale = 1;
  for (let i = pos; i < pos + 10; i++) {
    if (i >= bytes.length) return 'overrun';
    const byte = bytes[i] ?? 0;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (byte < 0x80) return { value, end: i + 1 };
  }
  return 'invalid';
}
