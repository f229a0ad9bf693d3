// What the explanation says of a plan whose buffers all hold 0 bytes (a dim
// bound to 0 empties every tensor): no buffer holds a byte, so no step is the
// peak's. Shared by `plan`'s text and the page's Details. Depends only on the
// plan's buffer records.

/** What emptyPeakWords reads of a plan's buffers. */
interface SizedBuffer {
  readonly size: number; // bytes reserved
  readonly unknownSize?: true; // planned as 0 bytes, not known to be 0
}

/**
 * "no buffer holds a byte (all 53 buffers are 0 B), so there is no peak step
 * to explain" when every buffer of the plan is known to be 0 bytes; undefined
 * when one holds a byte, or when one of unknown size, planned as 0 bytes, may.
 */
export function emptyPeakWords(plan: { readonly buffers: readonly SizedBuffer[] }): string | undefined {
  const { buffers } = plan;
  if (buffers.some((b) => b.size > 0 || b.unknownSize === true)) return undefined;
  const all = buffers.length === 0 ? 'the plan has none' : buffers.length === 1 ? 'its one buffer is 0 B' : `all ${buffers.length} buffers are 0 B`;
  return `no buffer holds a byte (${all}), so there is no peak step to explain`;
}
