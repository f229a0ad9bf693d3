// The kv-past module with its placement counted, for tests that mock it to
// see which plans place the buffers again with a decoder's past inputs kept
// (planModel's `kvPastKept` option). Depends only on that module's type.

import type * as KvPastKept from '../explain/kv-past-kept';

/** `original` whose kvPastKept adds one to `placements.count` at each call. */
export function countedKvPastKept(original: typeof KvPastKept, placements: { count: number }): typeof KvPastKept {
  return {
    ...original,
    kvPastKept: (...args: Parameters<typeof original.kvPastKept>) => {
      placements.count += 1;
      return original.kvPastKept(...args);
    },
  };
}
