// Parts of messages that quote the file: a tensor's dims, which a hostile file
// can make a million long, shown bounded like names (shortName). No DOM.

/** Dims shown in a message before the rest are left out. */
const SHOWN_DIMS = 8;

/** Dims joined by '×', at most SHOWN_DIMS of them: "2×3×…×7 (300 dims)" for a longer list. */
export function shownDims(dims: readonly (number | string | undefined)[]): string {
  const text = (d: number | string | undefined): string => (d === undefined ? '?' : String(d).slice(0, 40));
  if (dims.length <= SHOWN_DIMS) return dims.map(text).join('×');
  const head = dims.slice(0, SHOWN_DIMS - 1).map(text).join('×');
  return `${head}×…×${text(dims.at(-1))} (${dims.length} dims)`;
}
