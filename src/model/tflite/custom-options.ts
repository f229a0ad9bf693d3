// The numbers a custom operator's options hold, for the custom operators whose
// kernels the planner knows (TensorFlow Lite Micro's detection post-process).
// The options are a FlexBuffer map (flatbuffers' schema-less format, as the
// converter writes them); only the top level's scalar values are read, each
// key once, so any buffer costs at most a pass over its bytes (the runtime's
// own reader walks nested values however they are linked, and finds keys
// wrongly in 8-byte-wide maps). No dependencies.
//
// The format read: the last byte is the root's width, the one before its
// packed type (type << 2 | log2 width); a map's value is an offset back to
// its elements, with its length one element before them, and the offset and
// width of its keys vector (offsets back to NUL-terminated keys) three and
// two elements before; each element's packed type follows the elements.

import type { IrCustomOptions } from '../ir-tflite';

/** The option keys read per custom code. */
const KEYS: Readonly<Record<string, readonly string[]>> = {
  TFLite_Detection_PostProcess: ['max_detections', 'max_classes_per_detection', 'detections_per_class', 'num_classes', 'use_regular_nms'],
};

const TYPE = { INT: 1, UINT: 2, FLOAT: 3, INDIRECT_INT: 6, INDIRECT_UINT: 7, INDIRECT_FLOAT: 8, MAP: 9, BOOL: 26 } as const;

/** The options of custom operator `code` the planner reads; undefined when it reads none of `code`'s. */
export function customOptions(code: string, bytes: Uint8Array | undefined): IrCustomOptions | undefined {
  const keys = Object.hasOwn(KEYS, code) ? KEYS[code]! : undefined;
  if (keys === undefined) return undefined;
  if (bytes === undefined || bytes.byteLength === 0) return { numbers: {} };
  try {
    return { numbers: readMap(bytes, keys) };
  } catch (error) {
    if (error instanceof Unreadable) return { unreadable: `its options are not a readable FlexBuffer map (${error.message})` };
    throw error;
  }
}

class Unreadable extends Error {}

/** The wanted keys' numbers at the top level of the FlexBuffer map in `bytes` (booleans as 0 and 1). */
function readMap(bytes: Uint8Array, wanted: readonly string[]): Record<string, number> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.byteLength;
  if (end < 3) throw new Unreadable('too short');
  const rootWidth = view.getUint8(end - 1);
  const rootType = view.getUint8(end - 2);
  if (![1, 2, 4, 8].includes(rootWidth)) throw new Unreadable('bad root width');
  if (rootType >> 2 !== TYPE.MAP) throw new Unreadable('its root is not a map');
  const rootAt = end - 2 - rootWidth;
  const map = back(view, rootAt, rootWidth);
  const width = 1 << (rootType & 3); // the map's element width
  const length = uint(view, map - width, width);
  const keysAt = back(view, map - 3 * width, width);
  const keysWidth = uint(view, map - 2 * width, width);
  if (![1, 2, 4, 8].includes(keysWidth)) throw new Unreadable('bad key width');
  if (uint(view, keysAt - keysWidth, keysWidth) !== length) throw new Unreadable('its keys and values differ in number');
  if (map + length * (width + 1) > end || keysAt + length * keysWidth > end) throw new Unreadable('it runs past its end');
  const numbers: Record<string, number> = {};
  for (let i = 0; i < length; i++) {
    const key = keyAt(bytes, back(view, keysAt + i * keysWidth, keysWidth));
    if (!wanted.includes(key) || Object.hasOwn(numbers, key)) continue;
    const value = scalar(view, map + i * width, width, view.getUint8(map + length * width + i));
    if (value !== undefined) numbers[key] = value;
  }
  return numbers;
}

/** The value of a scalar element (inline, or an indirect number); undefined for other types. */
function scalar(view: DataView, at: number, width: number, packed: number): number | undefined {
  const type = packed >> 2;
  const own = 1 << (packed & 3); // an indirect value's width
  switch (type) {
    case TYPE.INT:
      return int(view, at, width);
    case TYPE.UINT:
      return uint(view, at, width);
    case TYPE.FLOAT:
      return float(view, at, width);
    case TYPE.BOOL:
      return uint(view, at, width) === 0 ? 0 : 1;
    case TYPE.INDIRECT_INT:
      return int(view, back(view, at, width), own);
    case TYPE.INDIRECT_UINT:
      return uint(view, back(view, at, width), own);
    case TYPE.INDIRECT_FLOAT:
      return float(view, back(view, at, width), own);
    default:
      return undefined;
  }
}

/** The position an offset stored at `at` points back to. */
function back(view: DataView, at: number, width: number): number {
  const to = at - uint(view, at, width);
  if (!(to >= 0 && to < view.byteLength)) throw new Unreadable('an offset points outside it');
  return to;
}

function inside(view: DataView, at: number, width: number): void {
  if (!(at >= 0 && at + width <= view.byteLength)) throw new Unreadable('a value lies outside it');
}

function uint(view: DataView, at: number, width: number): number {
  inside(view, at, width);
  if (width === 1) return view.getUint8(at);
  if (width === 2) return view.getUint16(at, true);
  if (width === 4) return view.getUint32(at, true);
  return Number(view.getBigUint64(at, true));
}

function int(view: DataView, at: number, width: number): number {
  inside(view, at, width);
  if (width === 1) return view.getInt8(at);
  if (width === 2) return view.getInt16(at, true);
  if (width === 4) return view.getInt32(at, true);
  return Number(view.getBigInt64(at, true));
}

function float(view: DataView, at: number, width: number): number | undefined {
  inside(view, at, width);
  if (width === 4) return view.getFloat32(at, true);
  if (width === 8) return view.getFloat64(at, true);
  return undefined;
}

/** The NUL-terminated key at `at` (latin-1 is enough to compare with the wanted ASCII keys). */
function keyAt(bytes: Uint8Array, at: number): string {
  let key = '';
  for (let i = at; i < bytes.byteLength; i++) {
    const c = bytes[i]!;
    if (c === 0) return key;
    key += String.fromCharCode(c);
    if (key.length > 64) return key; // longer than any wanted key
  }
  throw new Unreadable('a key runs past its end');
}
