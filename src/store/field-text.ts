// Reading what a person typed in a settings field: byte sizes with optional
// binary or decimal units ("512 KiB", "4MB", "65536"), checked with an error
// sentence that names the field and repeats the text.

/** A byte field's value, or why the text is not one. */
export type BytesField = { readonly ok: true; readonly value: number | undefined } | { readonly ok: false; readonly error: string };

const UNIT_BYTES: Readonly<Record<string, number>> = { '': 1, b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3 };
const PATTERN = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i;

/**
 * Parses `text` as a whole number of bytes for the field `label`. An empty text is
 * `undefined` when `optional` (no value), else an error.
 */
export function parseBytesField(label: string, text: string, optional = false): BytesField {
  if (text.trim() === '') return optional ? { ok: true, value: undefined } : { ok: false, error: `${label} needs a value` };
  const match = PATTERN.exec(text);
  const unit = match === null ? undefined : UNIT_BYTES[match[2]!.toLowerCase()];
  if (match === null || unit === undefined) {
    return { ok: false, error: `${label} must be a number of bytes (units: B, KiB, MiB, GiB, KB, MB, GB), got "${text.trim()}"` };
  }
  const value = Number(match[1]) * unit;
  if (!Number.isSafeInteger(value) || value <= 0) {
    return { ok: false, error: `${label} must be a whole number of bytes above 0, got "${text.trim()}"` };
  }
  return { ok: true, value };
}
