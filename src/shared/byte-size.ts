// Byte sizes as a person types them ("512 KiB", "300K", "4MB", "65536") and
// as a field shows them back, one reading for the CLI's byte options and the
// page's fields so the two cannot disagree. No DOM, no planner.

/**
 * Multipliers of the units a size may carry, case-insensitive. KiB, MiB, GiB,
 * TiB are binary (1024); KB, MB, GB, TB decimal (1000), as storage vendors and
 * SI use them; a bare K, M, G, T is binary, as a linker script's `512K` is.
 */
import { MAX_BYTES, MAX_EXACT_POWER } from './format';

const BYTE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 2 ** 10,
  kib: 2 ** 10,
  kb: 1e3,
  m: 2 ** 20,
  mib: 2 ** 20,
  mb: 1e6,
  g: 2 ** 30,
  gib: 2 ** 30,
  gb: 1e9,
  t: 2 ** 40,
  tib: 2 ** 40,
  tb: 1e12,
};

/** The units a size may carry, in words for an error sentence. */
export const BYTE_UNITS_TEXT = 'B, K or KiB (1024), M or MiB, G or GiB; KB (1000), MB, GB';

/** The largest byte size read anywhere (an option, a field, a target profile): past it, byte counts lose their exactness. */
export const MAX_BYTE_SIZE = MAX_BYTES;

/** MAX_BYTE_SIZE in words for an error sentence. */
export const MAX_BYTE_SIZE_TEXT = `${MAX_BYTE_SIZE} bytes (${MAX_EXACT_POWER})`;

/**
 * A typed size: its bytes, or why the text is none ('form': not a number with
 * a known unit; 'fraction': not a whole number of bytes, `exact` its value in
 * bytes written out; 'large': above MAX_BYTE_SIZE).
 */
export type ByteSize =
  | { readonly ok: true; readonly bytes: number }
  | { readonly ok: false; readonly why: 'form' | 'fraction' | 'large'; readonly bytes?: number; readonly exact?: string };

/** The sentence for a size above MAX_BYTE_SIZE: `<name> is too large: ..., got "<text>"`. */
export function tooLargeText(name: string, text: string): string {
  return `${name} is too large: the largest byte size accepted is ${MAX_BYTE_SIZE_TEXT}, got "${text}"`;
}

const PATTERN = /^\s*(\d+)(?:\.(\d+))?\s*([a-z]*)\s*$/i;

/**
 * Reads `text` as a whole number of bytes with an optional unit (BYTE_UNITS).
 * The decimal is read as digits and multiplied out exactly (no float): a size
 * is accepted only when it is a whole number of bytes, so 1.0000001KiB
 * (1024.0001024 bytes) is refused as 1.0001KiB is, never rounded.
 */
export function readByteSize(text: string): ByteSize {
  const match = PATTERN.exec(text);
  const unit = match === null ? undefined : BYTE_UNITS[match[3]!.toLowerCase()];
  if (match === null || unit === undefined) return { ok: false, why: 'form' };
  const fraction = match[2] ?? '';
  const scale = 10n ** BigInt(fraction.length);
  const scaled = BigInt(match[1]! + fraction) * BigInt(unit); // bytes × scale
  const whole = scaled / scale;
  const rest = scaled % scale;
  if (whole > BigInt(MAX_BYTE_SIZE) || (whole === BigInt(MAX_BYTE_SIZE) && rest > 0n)) return { ok: false, why: 'large', bytes: Number(scaled) / Number(scale) };
  if (rest > 0n) {
    const exact = `${whole}.${rest.toString().padStart(fraction.length, '0').replace(/0+$/, '')}`;
    return { ok: false, why: 'fraction', bytes: Number(exact), exact };
  }
  return { ok: true, bytes: Number(whole) };
}

/** Units a field shows a size in, binary first: a size typed as 2MB shows back as "2 MB", not "2000000 B". */
const SHOWN_UNITS = [
  ['GiB', 2 ** 30],
  ['MiB', 2 ** 20],
  ['KiB', 2 ** 10],
  ['GB', 1e9],
  ['MB', 1e6],
  ['KB', 1e3],
] as const;

/**
 * A byte count as a field shows it and reads it back exactly: the shortest of
 * the units it is a whole (or two-decimal) number of, binary on a tie, "512 KiB",
 * "1.5 MiB", "2 MB", "4 GB" (not "3906250 KiB"); otherwise its bytes, "1234567 B".
 */
export function exactBytesText(bytes: number): string {
  let best: string | undefined;
  for (const [unit, size] of SHOWN_UNITS) {
    const value = bytes / size;
    const text = `${value} ${unit}`;
    if (value >= 1 && Math.round(value * 100) / 100 === value && (best === undefined || text.length < best.length)) best = text;
  }
  return best ?? `${bytes} B`;
}
