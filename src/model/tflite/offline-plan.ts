// The `OfflineMemoryAllocation` metadata entry of a TFLite model, as TFLite
// Micro reads it (docs/memory_management.md, "Offline planned tensor
// allocations", and micro_allocation_info.cc): int32 words [version (0),
// subgraph index, n, offset × n]. TFLite Micro reads only n and the offsets.
// Files are read whatever their words 0 and 1 hold.
// No DOM.

import { InputError } from '../../shared/errors';
import { formatCount } from '../../shared/format';
import type { IrOfflinePlan } from '../ir-tflite';

/** The metadata name TFLite Micro looks for. */
export const OFFLINE_PLAN_NAME = 'OfflineMemoryAllocation';

/**
 * Whether TFLite Micro takes a metadata entry of this name for the offline
 * plan: the name must be OFFLINE_PLAN_NAME exactly (GetOfflinePlannedOffsets
 * in micro_allocation_info.cc compares the characters and also requires the
 * name's length to be strlen("OfflineMemoryAllocation")), and of several such
 * entries the last one wins (its loop over the metadata does not stop at the
 * first).
 */
export function isOfflinePlanName(name: string): boolean {
  return name === OFFLINE_PLAN_NAME;
}

/**
 * Whether a metadata name looks like an offline plan's (it starts with
 * OFFLINE_PLAN_NAME, as `OfflineMemoryAllocation_old`) but TFLite Micro
 * ignores it, since it is not the exact name.
 */
export function isIgnoredOfflinePlanName(name: string): boolean {
  return name !== OFFLINE_PLAN_NAME && name.startsWith(OFFLINE_PLAN_NAME);
}

/** The format version TFLite Micro documents ("set to 0"). */
export const OFFLINE_PLAN_VERSION = 0;

/**
 * Decodes the entry's bytes. Throws InputError('not-a-model') when the words
 * contradict themselves, since TFLite Micro would then read past the entry or
 * plan tensors at offsets the author never gave.
 */
export function decodeOfflinePlan(data: Uint8Array | undefined, tensors: number): IrOfflinePlan {
  const what = `the ${OFFLINE_PLAN_NAME} metadata`;
  if (data === undefined || data.byteLength < 12 || data.byteLength % 4 !== 0) {
    throw new InputError('not-a-model', `${what} holds ${formatCount(data?.byteLength ?? 0)} bytes; it needs 12 or more, a multiple of 4 (int32 words)`);
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const word = (i: number): number => view.getInt32(4 * i, true);
  const [version, subgraph, n] = [word(0), word(1), word(2)];
  if (n < 0 || 3 + n > data.byteLength / 4) {
    throw new InputError('not-a-model', `${what} lists ${formatCount(n)} offsets but holds room for ${formatCount(data.byteLength / 4 - 3)}`);
  }
  // TFLite Micro compares n with the tensors of all subgraphs together (AllocationInfoBuilder's tensor_count).
  if (n !== tensors) {
    throw new InputError('not-a-model', `${what} lists ${formatCount(n)} offsets, but the model has ${formatCount(tensors)} tensors (TFLite Micro needs one per tensor of every subgraph)`);
  }
  const offsets = Array.from({ length: n }, (_, i) => word(3 + i));
  const bad = offsets.findIndex((o) => o < -1);
  if (bad >= 0) throw new InputError('not-a-model', `${what} gives tensor ${bad} the offset ${offsets[bad]}; offsets are bytes (≥ 0) or -1 for "plan at run time"`);
  return { version, subgraph, offsets };
}

/**
 * The entry's bytes for a plan: version 0, the index of the subgraph the plan
 * applies to (word 1, "Subgraph index to which this allocation applies" in
 * TFLite Micro's docs/memory_management.md and micro_allocation_info.cc; 0, the
 * primary subgraph, whose plan lists the tensors of every subgraph; the
 * runtime does not read it), n, and one offset per tensor (-1: left to the
 * runtime). Throws InputError('bad-plan') for an offset an
 * int32 word cannot hold, which would otherwise wrap to a negative offset.
 */
export function encodeOfflinePlan(offsets: readonly number[], subgraph = 0): Uint8Array {
  const bad = offsets.findIndex((o) => !Number.isInteger(o) || o < -1 || o > 0x7fffffff);
  if (bad >= 0) {
    const o = offsets[bad]!;
    const why = o > 0x7fffffff ? 'past the 2 GiB an offline plan\'s int32 offsets can address' : 'not a byte offset (≥ 0) or -1';
    throw new InputError('bad-plan', `the plan gives tensor ${bad} the offset ${Number.isFinite(o) ? formatCount(o) : String(o)}, ${why}`);
  }
  const words = new Int32Array(3 + offsets.length);
  words[0] = OFFLINE_PLAN_VERSION;
  words[1] = subgraph;
  words[2] = offsets.length;
  offsets.forEach((o, i) => {
    words[3 + i] = o;
  });
  const bytes = new Uint8Array(words.buffer);
  const view = new DataView(words.buffer);
  // Int32Array is host-endian; the file is little-endian whatever the host.
  words.forEach((w, i) => view.setInt32(4 * i, w, true));
  return bytes;
}
