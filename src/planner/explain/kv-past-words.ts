// The words of what a decoder's plan assumes of its KV cache's past inputs
// (kv-past-kept.ts), for the text and the page alike. Loads no placement code,
// so the page's main thread can say it.

import { formatBytes } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import type { KvPastKept } from './kv-past-kept';

/**
 * The assumption in words: "the bytes of each past input of the KV cache are
 * reused after its last read (past_0, past_1, past_2 and 2 more), as a
 * runtime sharing past and present buffers allows; a runtime that keeps the
 * past inputs in the caller's buffers for the whole run (ONNX Runtime without
 * a shared past/present buffer) holds past and present at once: 67.4 KiB
 * more, a peak of 165 KiB"; `at` names the value of a sweep it is of
 * ("at past_seq_len=2048, 2.00 MiB more, …").
 */
export function kvPastKeptText(kept: Pick<KvPastKept, 'inputs' | 'peak' | 'extra'>, at?: string): string {
  const shown = kept.inputs.slice(0, 3).map((n) => shortName(n));
  const more = kept.inputs.length - shown.length;
  const names = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]!}` : shown[0]!;
  const cost = kept.extra > 0 ? `${formatBytes(kept.extra)} more, a peak of ${formatBytes(kept.peak)}` : 'no more bytes here (the same peak placed again)';
  return `the bytes of each past input of the KV cache are reused after its last read (${names}), as a runtime sharing past and present buffers allows; a runtime that keeps the past inputs in the caller's buffers for the whole run (ONNX Runtime without a shared past/present buffer) holds past and present at once: ${at === undefined ? '' : `at ${at}, `}${cost}`;
}
