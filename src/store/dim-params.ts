// The page's dim.NAME=VALUE URL parameters, read and written. The dims
// attribute of <heapscope-view> is read by the same rules, so the app's URL
// handling and the embed both take them from here, a layer below both.

import { nullRecord } from '../shared/own';

const DIM = 'dim.';

/** Reads `dim.NAME=VALUE` bindings; values that are not whole numbers from 0 to 2^31 - 1 are pushed to `ignored`. */
export function readDims(params: URLSearchParams, ignored: string[]): Record<string, number> {
  const dims = nullRecord<number>();
  for (const [key, raw] of params) {
    if (!key.startsWith(DIM)) continue;
    const name = key.slice(DIM.length);
    const value = Number(raw.trim());
    if (name === '' || !/^\d+$/.test(raw.trim()) || value > 2 ** 31 - 1) ignored.push(`${key}=${raw}`);
    else dims[name] = value;
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
