// Reading what a person typed in a settings field: byte sizes with optional
// binary or decimal units ("512 KiB", "300K", "4MB", "65536"), checked with an
// error sentence that names the field and repeats the text.

import { BYTE_UNITS_TEXT, readByteSize, tooLargeText } from '../shared/byte-size';
import { booleanWord } from '../shared/input-words';

/** A byte field's value, or why the text is not one. */
export type BytesField = { readonly ok: true; readonly value: number | undefined } | { readonly ok: false; readonly error: string };

/**
 * Parses `text` as a whole number of bytes for the field `label`, with the
 * units the CLI's byte options take (shared/byte-size: K/KiB binary, KB
 * decimal). An empty text is `undefined` when `optional` (no value), else an error.
 */
export function parseBytesField(label: string, text: string, optional = false): BytesField {
  if (text.trim() === '') return optional ? { ok: true, value: undefined } : { ok: false, error: `${label} needs a value` };
  const size = readByteSize(text);
  if (!size.ok && size.why === 'form') return { ok: false, error: `${label} must be a number of bytes (units: ${BYTE_UNITS_TEXT}), got "${text.trim()}"` };
  if (!size.ok && size.why === 'large') return { ok: false, error: tooLargeText(label, text.trim()) };
  if (!size.ok || size.bytes <= 0) return { ok: false, error: `${label} must be a whole number of bytes above 0, got "${text.trim()}"` };
  return { ok: true, value: size.bytes };
}

/** A list field's value (undefined for an empty, optional text), or why the text is not one. */
export type NumbersField = { readonly ok: true; readonly value: number[] | undefined } | { readonly ok: false; readonly error: string };

const SHAPE_SEPARATOR = /\s*[x×,\s]\s*/i;

/**
 * Parses a tensor shape typed as "1x3x224x224", "1×3×224×224", "1, 3, 224, 224"
 * or "[1, 3, 224, 224]"; "[]" or "scalar" is a scalar. An empty text clears the field.
 */
export function parseShapeField(label: string, text: string): NumbersField {
  const body = text.trim().replace(/^\[|\]$/g, '').trim();
  if (text.trim() === '') return { ok: true, value: undefined };
  if (body === '' || body.toLowerCase() === 'scalar') return { ok: true, value: [] };
  const parts = body.split(SHAPE_SEPARATOR);
  if (parts.some((p) => !/^\d{1,10}$/.test(p) || Number(p) > 2 ** 31 - 1)) {
    return { ok: false, error: `${label} must be whole numbers from 0 up separated by x, like 1x3x224x224; got "${text.trim()}"` };
  }
  return { ok: true, value: parts.map(Number) };
}

/**
 * Parses a graph input's value: numbers separated by commas or spaces
 * ("16000", "0.5, 1"); true and false read as 1 and 0. A bool input
 * (`bool`) takes only those: true, false, 1 or 0. An empty text clears it.
 */
export function parseValuesField(label: string, text: string, bool = false): NumbersField {
  const body = text.trim().replace(/^\[|\]$/g, '').trim();
  if (body === '') return { ok: true, value: undefined };
  const parts = body.split(/\s*[,\s]\s*/);
  const values = parts.map((p) => booleanWord(p) ?? (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(p) ? Number(p) : Number.NaN));
  if (bool && values.some((v) => v !== 0 && v !== 1)) {
    return { ok: false, error: `${label} must be true or false (or 1, 0), separated by commas for several; got "${text.trim()}"` };
  }
  if (values.some((v) => !Number.isFinite(v))) {
    return { ok: false, error: `${label} must be numbers separated by commas, like 16000 or 0.5, 1; got "${text.trim()}"` };
  }
  return { ok: true, value: values };
}
