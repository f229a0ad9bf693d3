// What a screen reader hears as the arrow keys walk the tensor table: the
// row's tensor, kind, type and shape, size, and where it stands in the list.
// The rows are drawn only in view, so the table reads the row out in a live
// region rather than moving focus onto it.

import { formatBytes } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import type { TensorRow } from '../../store/selectors';

/** Row `index` of `count` in words: "logits, activation, float32 1×50257, 196 KiB, row 12 of 40". */
export function tensorRowWords(row: TensorRow, index: number, count: number): string {
  const size = row.bytes === undefined ? 'size unknown' : formatBytes(row.bytes);
  return `${shortName(row.name)}, ${row.kind}${row.kv ? ' · KV cache' : ''}, ${row.dtype} ${row.shape}, ${size}, row ${index + 1} of ${count}`;
}
