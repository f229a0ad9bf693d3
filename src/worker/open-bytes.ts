// The bytes of a model the page asks the worker to open: a transferred buffer
// as is, a Blob read here in the worker. A large Blob is read whole only once
// its first bytes showed it may be a model. Depends on the model decoder's
// sniff and the shared errors.

import { MODEL_HEAD_BYTES, sniffModelHead } from '../model/decode-model';
import { InputError } from '../shared/errors';

/** Files from this size on are sniffed by their first bytes before they are read whole. */
export const SNIFF_FROM_BYTES = 64 * 2 ** 20;

/**
 * The bytes of `source`, named `name` in errors: a dropped 2 GiB file of
 * zeros is refused without being read into memory; a smaller file is read,
 * and the decoder says the same of it.
 */
export async function openedBytes(source: ArrayBuffer | Blob, name: string): Promise<Uint8Array> {
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  try {
    if (source.size >= SNIFF_FROM_BYTES) sniffModelHead(new Uint8Array(await source.slice(0, MODEL_HEAD_BYTES).arrayBuffer()), name, source.size);
    return new Uint8Array(await source.arrayBuffer());
  } catch (error) {
    if (error instanceof InputError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError('io', `${name} could not be read (${why}); it may be too large for this browser's memory`);
  }
}
