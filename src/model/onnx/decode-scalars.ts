// Small conversions of protobuf field values for the ONNX decoder: 64-bit integers
// (protobufjs Long objects or plain numbers), UTF-8 bytes, field presence. No DOM.

/** A 64-bit integer as protobufjs hands it out: a Long-like object or a number. */
interface LongLike {
  readonly low: number;
  readonly high: number;
  readonly unsigned?: boolean;
}

const TWO_POW_32 = 2 ** 32;

/**
 * Converts a protobuf int64/uint64 value to a number. protobufjs returns Long
 * objects when the `long` package is present (Node) and numbers otherwise
 * (browser bundles); values beyond 2^53 (INT64_MAX used by Slice ends) lose
 * precision, which the callers accept. Anything else becomes NaN.
 */
export function int64ToNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (isLongLike(value)) {
    const high = value.unsigned ? value.high >>> 0 : value.high | 0;
    return high * TWO_POW_32 + (value.low >>> 0);
  }
  return Number.NaN;
}

/** A protobuf int64/uint64 value as exact decimal text (a Long past 2^53 included). */
export function int64ToText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (isLongLike(value)) {
    const high = BigInt(value.unsigned ? value.high >>> 0 : value.high | 0);
    return (high * BigInt(TWO_POW_32) + BigInt(value.low >>> 0)).toString();
  }
  return String(value);
}

function isLongLike(value: unknown): value is LongLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as LongLike).low === 'number' &&
    typeof (value as LongLike).high === 'number'
  );
}

/** True when a decoded protobuf message carries the field itself (not the prototype default). */
export function hasField(message: object, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(message, field);
}

/** A list field as an array: protobufjs leaves unset repeated fields as shared empty arrays. */
export function list<T>(value: readonly T[] | null | undefined): readonly T[] {
  return value ?? [];
}
