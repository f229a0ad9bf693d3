// Writes a TFLite model with an `OfflineMemoryAllocation` metadata entry (an
// offline plan TFLite Micro uses instead of planning those tensors itself),
// leaving every other table and byte of data as it was. No DOM.
//
// How it works: a flatbuffer's offsets are relative and point forward, so the
// original file is kept whole and shifted back by a prefix (a multiple of 64
// bytes, which keeps every aligned buffer aligned). The prefix holds a new root
// Model table whose fields point forward into the old tables, a buffers vector
// that lists the old buffers plus one holding the plan (in place of the buffer
// of the plan it replaces, when nothing else names that one), and a metadata
// vector that lists the old entries, less any earlier offline plan, plus the
// new one. A file whose one offline plan has as many words as the new one (a
// file written before, or Vela's) keeps its layout: the words are written over.
// Buffers stored after the flatbuffer (files over 2 GiB) have file offsets,
// which are moved by the prefix too. The old root table stays, unreferenced.

import { InputError } from '../../shared/errors';
import { FlatReader } from './flat-reader';
import { encodeOfflinePlan, isOfflinePlanName, OFFLINE_PLAN_NAME } from './offline-plan';
import { FIELD } from './schema';
import { isTflite } from './decode-tflite';

const PREFIX_ALIGN = 64;
const MODEL_FIELDS = 8; // version … signature_defs: every field of Model in the schema

/** The model bytes with `offsets` as its offline plan; `bytes` is not changed. */
export function withOfflinePlan(bytes: Uint8Array, offsets: readonly number[]): Uint8Array {
  if (!isTflite(bytes)) throw new InputError('not-a-model', 'only a TensorFlow Lite model can carry an offline plan');
  const reader = new FlatReader(bytes);
  const rootPos = reader.indirect(0, 'the root table offset');
  const root = reader.table(rootPos, 'the model table');
  if (root.vtableSize > 4 + 2 * MODEL_FIELDS) {
    throw new InputError('not-a-model', 'the model table has fields newer than the schema this writer knows; it is left unchanged');
  }
  const F = FIELD.model;
  const buffers = elementTargets(reader, root, F.buffers, 'the buffers');
  // Buffer 0 is the empty buffer every tensor without data names; a plan there would make them all constants.
  if (buffers.length === 0) throw new InputError('not-a-model', 'the model has no buffers, not even the empty buffer 0 every TensorFlow Lite file starts with');
  const entries = elementTargets(reader, root, F.metadata, 'the metadata').map((pos) => {
    const t = reader.table(pos, 'a metadata entry');
    return { pos, name: reader.string(t, FIELD.metadata.name, 'a metadata name'), buffer: reader.uint(t, FIELD.metadata.buffer, 'a metadata buffer') };
  });
  const metadata = entries.filter((e) => !isOfflinePlanName(e.name)).map((e) => e.pos);
  const plan = encodeOfflinePlan(offsets); // word 1: subgraph 0, the primary one
  const reuse = reusablePlanBuffer(reader, root, buffers, entries);
  // One earlier plan of the same length (the same tensors), 16-byte aligned as a written one is: its words are written over where they are, the file's size unchanged.
  if (reuse !== undefined && entries.filter((e) => isOfflinePlanName(e.name)).length === 1) {
    const data = reader.vector(reader.table(buffers[reuse]!, 'a buffer'), FIELD.buffer.data, 1, 'a buffer\'s data');
    if (data.length === plan.byteLength && data.start % 16 === 0) {
      const result = bytes.slice();
      result.set(plan, data.start);
      return result;
    }
  }
  // The new plan's buffer: the one the replaced plan held, else one more at the end.
  const planBuffer = reuse ?? buffers.length;
  const out = new PrefixWriter();
  // Header and the new root's vtable: every field of Model at a fixed slot.
  out.u32(0); // root offset, set below
  out.bytes([0x54, 0x46, 0x4c, 0x33]);
  const vtable = out.pos;
  const tableSize = 4 + 4 * MODEL_FIELDS;
  out.u16(4 + 2 * MODEL_FIELDS);
  out.u16(tableSize);
  for (let f = 0; f < MODEL_FIELDS; f++) out.u16(4 + 4 * f);
  out.align(4);
  const table = out.pos;
  out.patchU32(0, table);
  out.i32(table - vtable);
  const slots = Array.from({ length: MODEL_FIELDS }, () => out.reserveU32());
  const layout = {
    buffersVector: out.vectorOfOffsets(reuse === undefined ? buffers.length + 1 : buffers.length),
    metadataVector: out.vectorOfOffsets(metadata.length + 1),
    metadataTable: 0,
    bufferTable: 0,
  };
  layout.metadataTable = out.metadataTable(OFFLINE_PLAN_NAME, planBuffer);
  layout.bufferTable = out.bufferTable(plan);
  const shift = out.finish(PREFIX_ALIGN);
  // Fields of the new root: scalars copied, offsets to old tables moved by the shift, two new vectors.
  out.patchU32(slots[F.version]!, reader.uint(root, F.version, 'the schema version'));
  for (const f of [F.operatorCodes, F.subgraphs, F.description, F.metadataBuffer, F.signatureDefs]) {
    const at = reader.field(root, f, 4, `model field ${f}`);
    out.patchU32(slots[f]!, at === undefined ? 0 : reader.indirect(at, `model field ${f}`) + shift - slots[f]!);
  }
  out.patchU32(slots[F.buffers]!, layout.buffersVector.at - slots[F.buffers]!);
  out.patchU32(slots[F.metadata]!, layout.metadataVector.at - slots[F.metadata]!);
  buffers.forEach((pos, i) => out.patchElement(layout.buffersVector, i, i === planBuffer ? layout.bufferTable : pos + shift));
  if (planBuffer === buffers.length) out.patchElement(layout.buffersVector, buffers.length, layout.bufferTable);
  metadata.forEach((pos, i) => out.patchElement(layout.metadataVector, i, pos + shift));
  out.patchElement(layout.metadataVector, metadata.length, layout.metadataTable);
  const result = new Uint8Array(shift + bytes.byteLength);
  result.set(out.prefix(shift), 0);
  result.set(bytes, shift);
  moveExternalBuffers(reader, buffers, result, shift);
  omitUnsetFields(result, vtable, reader, root);
  return result;
}

/**
 * The buffer the last offline plan being replaced keeps its words in, when
 * nothing else names it (no tensor, no other metadata entry, no
 * metadata_buffer index) and it is not buffer 0; undefined otherwise.
 */
function reusablePlanBuffer(
  reader: FlatReader,
  root: ReturnType<FlatReader['table']>,
  buffers: readonly number[],
  entries: readonly { readonly name: string; readonly buffer: number }[],
): number | undefined {
  const last = entries.map((e) => isOfflinePlanName(e.name)).lastIndexOf(true);
  if (last < 0) return undefined;
  const index = entries[last]!.buffer;
  if (index === 0 || index >= buffers.length) return undefined;
  if (entries.some((e, i) => i !== last && e.buffer === index)) return undefined;
  if (reader.ints(root, FIELD.model.metadataBuffer, 'the metadata buffers').includes(index)) return undefined;
  for (const sg of reader.tables(root, FIELD.model.subgraphs, 'the subgraphs')) {
    for (const t of reader.tables(sg, FIELD.subgraph.tensors, 'the tensors')) {
      if (reader.uint(t, FIELD.tensor.buffer, 'a tensor buffer') === index) return undefined;
    }
  }
  return index;
}

/** Where each element of a vector of tables points. */
function elementTargets(reader: FlatReader, root: ReturnType<FlatReader['table']>, field: number, what: string): number[] {
  const v = reader.vector(root, field, 4, what);
  return Array.from({ length: v.length }, (_, i) => reader.indirect(v.start + 4 * i, `${what}[${i}]`));
}

/** Buffers kept after the flatbuffer carry file offsets; they move with the file. */
function moveExternalBuffers(reader: FlatReader, buffers: readonly number[], out: Uint8Array, shift: number): void {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (const pos of buffers) {
    const t = reader.table(pos, 'a buffer');
    // As read-model.ts reads it: a buffer with inline data has no file offset, whatever its offset field says.
    if ((reader.byteView(t, FIELD.buffer.data, 'a buffer\'s data')?.byteLength ?? 0) > 0) continue;
    const at = reader.field(t, FIELD.buffer.offset, 8, 'a buffer offset');
    if (at === undefined) continue;
    const offset = reader.long(t, FIELD.buffer.offset, 'a buffer offset');
    if (offset > 1) view.setBigUint64(at + shift, BigInt(offset + shift), true);
  }
}

/** Fields the old root did not have are marked absent in the new vtable (a 0 slot), as a reader expects. */
function omitUnsetFields(out: Uint8Array, vtable: number, reader: FlatReader, root: ReturnType<FlatReader['table']>): void {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let f = 0; f < MODEL_FIELDS; f++) {
    if (f === FIELD.model.buffers || f === FIELD.model.metadata) continue;
    if (reader.field(root, f, 4, `model field ${f}`) === undefined) view.setUint16(vtable + 4 + 2 * f, 0, true);
  }
}

/** A vector of table offsets laid out in the prefix, its elements patched later. */
interface OffsetVector {
  readonly at: number; // the length word
}

/** Writes the prefix forward, little-endian; positions are absolute in the written file. */
class PrefixWriter {
  private buffer = new Uint8Array(256);
  private view = new DataView(this.buffer.buffer);
  pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.pos + n));
    next.set(this.buffer);
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }

  u16(v: number): void {
    this.ensure(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }

  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  i32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }

  bytes(list: ArrayLike<number>): void {
    this.ensure(list.length);
    this.buffer.set(Array.from(list), this.pos);
    this.pos += list.length;
  }

  align(n: number): void {
    while (this.pos % n !== 0) this.bytes([0]);
  }

  reserveU32(): number {
    const at = this.pos;
    this.u32(0);
    return at;
  }

  patchU32(at: number, v: number): void {
    this.view.setUint32(at, v, true);
  }

  vectorOfOffsets(length: number): OffsetVector {
    this.align(4);
    const at = this.pos;
    this.u32(length);
    for (let i = 0; i < length; i++) this.u32(0);
    return { at };
  }

  patchElement(vector: OffsetVector, i: number, target: number): void {
    const slot = vector.at + 4 + 4 * i;
    this.patchU32(slot, target - slot);
  }

  /** A Metadata table { name, buffer } and its name string; returns the table's position. */
  metadataTable(name: string, buffer: number): number {
    this.align(4);
    const vtable = this.pos;
    this.u16(8);
    this.u16(12);
    this.u16(4);
    this.u16(8);
    const table = this.pos;
    this.i32(table - vtable);
    const nameSlot = this.reserveU32();
    this.u32(buffer);
    const text = [...name].map((c) => c.charCodeAt(0));
    this.align(4);
    this.patchU32(nameSlot, this.pos - nameSlot);
    this.u32(text.length);
    this.bytes([...text, 0]);
    return table;
  }

  /** A Buffer table { data } with its data 16-aligned; returns the table's position. */
  bufferTable(data: Uint8Array): number {
    this.align(4);
    const vtable = this.pos;
    this.u16(6);
    this.u16(8);
    this.u16(4);
    this.align(4);
    const table = this.pos;
    this.i32(table - vtable);
    const dataSlot = this.reserveU32();
    while ((this.pos + 4) % 16 !== 0) this.bytes([0]);
    this.patchU32(dataSlot, this.pos - dataSlot);
    this.u32(data.byteLength);
    this.bytes(data);
    return table;
  }

  /** Pads to a multiple of `alignment`; the old file starts there. */
  finish(alignment: number): number {
    this.align(alignment);
    return this.pos;
  }

  prefix(length: number): Uint8Array {
    return this.buffer.subarray(0, length);
  }
}
