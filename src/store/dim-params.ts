// The page's dim.NAME=VALUE URL parameters, read and written. The dims
// attribute of <heapscope-view> is read by the same rules, so the app's URL
// handling and the embed both take them from here, a layer below both.

import { nullRecord } from '../shared/own';

const DIM = 'dim.';

/** Largest value the page binds a dim to: a length, and an int32 in every runtime. */
export const MAX_DIM = 2 ** 31 - 1;

/** Why a dim parameter cannot be used, or undefined when it can. */
function badDimReason(name: string, text: string): string | undefined {
  if (name === '') return 'a dim parameter is dim.NAME=VALUE, and this one names no dim';
  if (/^-\d+$/.test(text)) return `a dim is a length, a whole number from 0 to ${MAX_DIM}, not negative`;
  if (!/^\d+$/.test(text)) return `a dim is a whole number from 0 to ${MAX_DIM}`;
  if (Number(text) > MAX_DIM) return `a dim is at most ${MAX_DIM}`;
  return undefined;
}

/** Reads `dim.NAME=VALUE` bindings; values that are not whole numbers from 0 to 2^31 - 1 are pushed to `ignored` as "key=value: why". */
export function readDims(params: URLSearchParams, ignored: string[]): Record<string, number> {
  const dims = nullRecord<number>();
  for (const [key, raw] of params) {
    if (!key.startsWith(DIM)) continue;
    const name = key.slice(DIM.length);
    const why = badDimReason(name, raw.trim());
    if (why !== undefined) ignored.push(`${key}=${raw}: ${why}`);
    else dims[name] = Number(raw.trim());
  }
  return dims;
}

/** Writes `dims` as `dim.NAME=VALUE`, in name order so the same view always gives the same link. */
export function writeDims(dims: Readonly<Record<string, number>>, params: URLSearchParams): void {
  for (const name of Object.keys(dims).sort()) params.set(`${DIM}${name}`, String(dims[name]));
}

/** True for a dim binding's parameter. */
export function isDimKey(key: string): boolean {
  return key.startsWith(DIM);
}
