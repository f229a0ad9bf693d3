// Human-readable formatting of sizes and counts. No dependencies.

/** The binary byte units, each 1024 times the one before, as every byte figure (text, axes) writes them. */
export const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

/** The minus sign of a signed change, on the page and the command line alike (not the hyphen). */
export const MINUS = '\u2212';

/** Formats a byte count with binary units: 1536 -> "1.5 KiB". */
export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '?';
  let value = n;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** A byte count with its exact figure beside it: "154 KiB (158,160 B)"; below 1 KiB the two are one, "404 B". */
export function formatBytesExact(n: number): string {
  const shown = formatBytes(n);
  const exact = `${formatCount(n)} B`;
  return shown === exact ? shown : `${shown} (${exact})`;
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
