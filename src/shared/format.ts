// Human-readable formatting of sizes and counts. No dependencies.

/** The binary byte units, each 1024 times the one before, as every byte figure (text, axes) writes them. */
export const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

/** The largest byte count the planner computes exactly (2^53 − 1). */
export const MAX_BYTES = Number.MAX_SAFE_INTEGER;

/** The minus sign of a signed change, on the page and the command line alike (not the hyphen). */
export const MINUS = '\u2212';

/** The largest whole number held exactly (MAX_BYTES, Number.MAX_SAFE_INTEGER) as a power of two, as every message names it. */
export const MAX_EXACT_POWER = `2^53 ${MINUS} 1`;

/** Where a tensor past MAX_EXACT_POWER bytes stands when a plan still fits: planned as 0 bytes, over no region's limit, so every limit is judged on sizes known. */
export const PAST_LIMIT_UNLIMITED = 'planned as 0 bytes in no region with a size limit';

/**
 * `text` with each byte figure kept on one line where it wraps: the space
 * between a number and its unit ("628\u00a0KiB") and after a "≥" or "≤"
 * before a figure become no-break spaces, so a line breaks only between words.
 */
export function wholeFigures(text: string): string {
  return text.replace(FIGURE_SPACE, '$1\u00a0$2').replace(BOUND_SPACE, '$1\u00a0');
}

/** The space between a figure and its byte unit, every unit formatBytes writes. */
const FIGURE_SPACE = new RegExp(`(\\d) (${BYTE_UNITS.join('|')})\\b`, 'g');
/** The space after a bound sign before its figure. */
const BOUND_SPACE = /([≥≤]) (?=[\d−-])/g;

/** Formats a byte count with binary units: 1536 -> "1.5 KiB". */
export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '?';
  let value = n;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // a value that rounds up to 1024 of its unit is written as 1.00 of the next: 1024 TiB reads 1.00 PiB
  if (unit > 0 && unit < BYTE_UNITS.length - 1 && Number(value.toFixed(digitsOf(value))) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : digitsOf(value);
  return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** A signed change of bytes: "+1.50 MiB", "−300 KiB" (U+2212), "±0 B". */
export function formatSignedBytes(delta: number): string {
  return `${delta > 0 ? '+' : delta < 0 ? MINUS : '±'}${formatBytes(Math.abs(delta))}`;
}

/** Decimals a figure of a unit past bytes is written with: three significant digits. */
function digitsOf(value: number): number {
  return Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
}

/** Formats an integer with thousands separators: 1234567 -> "1,234,567". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** Formats a shape: [1, 3, 224, 224] -> "1×3×224×224"; a scalar -> "scalar". */
export function formatShape(shape: readonly (number | string)[] | undefined): string {
  if (shape === undefined) return '?';
  if (shape.length === 0) return 'scalar';
  return shape.join('×');
}

/** A count and its noun, singular for one: (1, 'buffer') -> "1 buffer", (1536, 'value') -> "1,536 values". */
export function counted(n: number, word: string, words = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : words}`;
}

/** A byte count with binary units and, from 1 KiB on, its exact figure: 33 -> "33 B", 31360 -> "30.6 KiB (31,360 B)". */
export function formatBytesExact(n: number): string {
  return Math.abs(n) < 1024 ? formatBytes(n) : `${formatBytes(n)} (${formatCount(n)} B)`;
}

/**
 * Two byte counts shown side by side, as a need beside its limit: in binary
 * units, or both in bytes with separators when those round to the same
 * figure and would read alike ("1,050,112 B" beside "1,048,576 B", not
 * "1.00 MiB" beside "1.00 MiB").
 */
export function formatBytesApart(a: number, b: number): readonly [string, string] {
  const [x, y] = [formatBytes(a), formatBytes(b)];
  return x === y && a !== b ? [`${formatCount(a)} B`, `${formatCount(b)} B`] : [x, y];
}

/** A count that may pass 2^53 (a product of dims): digits with separators while exact, else "about 4.44 × 10^22". */
export function formatLargeCount(n: number): string {
  if (Number.isSafeInteger(n)) return formatCount(n);
  if (!Number.isFinite(n)) return String(n);
  const [mantissa, exponent] = n.toExponential(2).split('e');
  return `about ${mantissa} × 10^${Number(exponent)}`;
}
