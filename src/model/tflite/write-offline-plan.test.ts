// withOfflinePlan on every real model and on writer-built ones: the written
// file decodes with exactly the given offsets as its only offline plan, and
// every subgraph, tensor, operator, metadata entry and weight byte as it was;
// the input is not changed and the plan's data is 16-byte aligned.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import type { IrModel } from '../ir';
import { ifOptions, writeTflite } from '../testing/tflite-writer';
import { decodeTflite } from './decode-tflite';
import { FlatReader } from './flat-reader';
import { encodeOfflinePlan, OFFLINE_PLAN_NAME } from './offline-plan';
import { readModel, type WireModel } from './read-model';
import { withOfflinePlan } from './write-offline-plan';

const MODELS = join(__dirname, '../../../../shared/models/tflite');
if (!existsSync(MODELS)) console.log(`write-offline-plan: ${MODELS} is absent; testing the writer-built models only`);
const REAL = existsSync(MODELS) ? readdirSync(MODELS).filter((f) => f.endsWith('.tflite')).sort() : [];

const weight = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

/** Two subgraphs, weights inline and after the flatbuffer, and an offline plan already there between two other entries. */
const WRITER_BUILT = writeTflite({
  description: 'two subgraphs',
  metadata: [
    { name: 'min_runtime_version', data: new TextEncoder().encode('1.5.0') },
    { name: OFFLINE_PLAN_NAME, data: encodeOfflinePlan([0, -1, -1, 0, 0]) },
    { name: 'CONVERSION_METADATA', data: weight(24, 5) },
  ],
  subgraphs: [
    {
      tensors: [{ shape: [], type: 'BOOL' }, { shape: [1, 8], type: 'INT8' }, { shape: [8, 8], type: 'INT8', data: weight(64, 1) }],
      inputs: [0, 1],
      outputs: [1],
      operators: [{ op: 'IF', inputs: [0, 2], outputs: [1], options: ifOptions(1, 1) }],
    },
    {
      tensors: [{ shape: [8, 8], type: 'INT8' }, { shape: [8, 8], type: 'INT8', data: weight(64, 2), storage: 'external' }],
      inputs: [0],
      outputs: [0],
      operators: [{ op: 'ADD', inputs: [1, 1], outputs: [0] }],
    },
  ],
});

const files: [string, Uint8Array][] = [['writer-built', WRITER_BUILT], ...REAL.map((f): [string, Uint8Array] => [f, new Uint8Array(readFileSync(join(MODELS, f)))])];

const wireOf = (bytes: Uint8Array): WireModel => readModel(new FlatReader(bytes));
const tensorCount = (model: IrModel): number => model.tflite!.subgraphs.reduce((n, sg) => n + sg.tensors.length, 0);
/** A plan with offsets of every kind: -1 (left to the runtime), 0, and aligned bytes. */
const someOffsets = (n: number): number[] => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -1 : 64 * i));
/** Where a view lies in its file. */
const at = (view: Uint8Array, file: Uint8Array): number => view.byteOffset - file.byteOffset;

/** Metadata entries by name with their bytes, in file order. */
function metadataOf(wire: WireModel): [string, number[]][] {
  return wire.metadata.map((m) => [m.name, [...(wire.buffers[m.buffer]!.data ?? [])]]);
}

describe.each(files)('withOfflinePlan on %s', (_name, bytes) => {
  const original = decodeTflite(bytes);
  const offsets = someOffsets(tensorCount(original));
  const before = bytes.slice();
  const written = withOfflinePlan(bytes, offsets);
  const model = decodeTflite(written);

  it('writes a file that decodes with exactly the given offsets as its offline plan', () => {
    // word 1 is the subgraph the plan applies to, as TFLite Micro's documentation defines it: 0, the primary one, for a model of two subgraphs too
    expect(model.tflite!.offlinePlan).toEqual({ version: 0, subgraph: 0, offsets });
    expect(model.tflite!.metadata.filter((m) => m === OFFLINE_PLAN_NAME)).toHaveLength(1);
  });

  it('keeps every other metadata entry, in order, with its bytes', () => {
    const others = (wire: WireModel) => metadataOf(wire).filter(([name]) => name !== OFFLINE_PLAN_NAME);
    expect(others(wireOf(written))).toEqual(others(wireOf(bytes)));
  });

  it('keeps every subgraph, tensor and operator, the graph and the header fields', () => {
    expect(model.tflite!.subgraphs).toEqual(original.tflite!.subgraphs);
    expect(model.graph).toEqual(original.graph);
    expect([model.producerVersion, model.tflite!.schemaVersion]).toEqual([original.producerVersion, original.tflite!.schemaVersion]);
  });

  it('keeps every weight byte, each buffer as aligned as before; a replaced plan\'s buffer holds the new plan, no buffer is added for it', () => {
    const [old, now] = [wireOf(bytes), wireOf(written)];
    const replaced = old.metadata.find((m) => m.name === OFFLINE_PLAN_NAME)?.buffer;
    expect(now.buffers).toHaveLength(old.buffers.length + (replaced === undefined ? 1 : 0));
    if (replaced !== undefined) expect(now.metadata.find((m) => m.name === OFFLINE_PLAN_NAME)!.buffer).toBe(replaced);
    old.buffers.forEach((b, i) => {
      if (i === replaced) return;
      const data = now.buffers[i]!.data;
      expect(data === undefined ? undefined : [...data], `buffer ${i}`).toEqual(b.data === undefined ? undefined : [...b.data]);
      if (b.data !== undefined) expect(at(data!, written) % 16, `buffer ${i}`).toBe(at(b.data, bytes) % 16);
    });
  });

  it("puts the plan's data in a buffer of its own, 16-byte aligned in the file", () => {
    const now = wireOf(written);
    const index = now.metadata.find((m) => m.name === OFFLINE_PLAN_NAME)!.buffer;
    const plan = now.buffers[index]!.data!;
    expect(index).toBeGreaterThan(0);
    expect(now.metadata.filter((m) => m.buffer === index)).toHaveLength(1);
    expect(now.subgraphs.flatMap((sg) => sg.tensors).some((t) => t.buffer === index)).toBe(false);
    expect([...plan]).toEqual([...encodeOfflinePlan(offsets)]);
    expect(at(plan, written) % 16).toBe(0);
  });

  it('leaves the input bytes as they were', () => {
    expect(bytes).toEqual(before);
  });
});

describe('withOfflinePlan', () => {
  it('replaces an existing offline plan, also one it wrote itself, instead of adding a second', () => {
    const once = withOfflinePlan(WRITER_BUILT, [0, 8, 16, 24, 32]);
    const twice = withOfflinePlan(once, [-1, -1, -1, -1, -1]);
    for (const [file, offsets] of [[once, [0, 8, 16, 24, 32]], [twice, [-1, -1, -1, -1, -1]]] as const) {
      const model = decodeTflite(file);
      expect(model.tflite!.metadata.filter((name) => name !== OFFLINE_PLAN_NAME)).toEqual(['min_runtime_version', 'CONVERSION_METADATA']);
      expect(model.tflite!.metadata.filter((name) => name === OFFLINE_PLAN_NAME)).toHaveLength(1);
      expect(model.tflite!.offlinePlan!.offsets).toEqual(offsets);
    }
  });

  it('reads the offline plan as TFLM does: the last entry named exactly OfflineMemoryAllocation; and the written plan replaces each such entry', () => {
    const spec = (names: string[]) =>
      writeTflite({
        metadata: names.map((name, i) => ({ name, data: encodeOfflinePlan([8 * i, 8 * i]) })),
        subgraphs: [{ tensors: [{ shape: [8], type: 'INT8' }, { shape: [8], type: 'INT8' }], inputs: [0], outputs: [1], operators: [{ op: 'ADD', inputs: [0, 0], outputs: [1] }] }],
      });
    expect(decodeTflite(spec([OFFLINE_PLAN_NAME, OFFLINE_PLAN_NAME])).tflite!.offlinePlan!.offsets).toEqual([8, 8]);
    // TFLM compares the whole name: an entry whose name only starts with it is not a plan, and is noted.
    const renamed = decodeTflite(spec([OFFLINE_PLAN_NAME, `${OFFLINE_PLAN_NAME}_v2`, 'other']));
    expect(renamed.tflite!.offlinePlan!.offsets).toEqual([0, 0]);
    expect(renamed.diagnostics.map((d) => d.code)).toEqual(['tflite-offline-plan-ignored']);
    expect(renamed.diagnostics[0]!.message).toContain(`'${OFFLINE_PLAN_NAME}_v2'`);
    expect(decodeTflite(spec([`${OFFLINE_PLAN_NAME}_v2`])).tflite!.offlinePlan).toBeUndefined();
    expect(decodeTflite(spec(['OfflineMemory'])).tflite!.offlinePlan).toBeUndefined();
    const written = decodeTflite(withOfflinePlan(spec([OFFLINE_PLAN_NAME, `${OFFLINE_PLAN_NAME}_v2`, 'other']), [0, 16]));
    expect(written.tflite!.metadata.filter((name) => name !== OFFLINE_PLAN_NAME)).toEqual([`${OFFLINE_PLAN_NAME}_v2`, 'other']);
    expect(written.tflite!.metadata.filter((name) => name === OFFLINE_PLAN_NAME)).toHaveLength(1);
    expect(written.tflite!.offlinePlan!.offsets).toEqual([0, 16]);
  });

  it('writing a written file again keeps its size: the old plan\'s buffer takes the new plan, nothing is left over', () => {
    const real = REAL.filter((f) => f === 'tflm_keyword_scrambled.tflite' || f === 'tflm_person_detect_vela.tflite');
    const inputs = [WRITER_BUILT, ...real.map((f) => new Uint8Array(readFileSync(join(MODELS, f))))];
    for (const bytes of inputs) {
      const n = tensorCount(decodeTflite(bytes));
      const once = withOfflinePlan(bytes, someOffsets(n));
      const offsets = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 16 * i : -1));
      const twice = withOfflinePlan(once, offsets);
      expect(twice.byteLength).toBe(once.byteLength);
      expect(wireOf(twice).buffers).toHaveLength(wireOf(once).buffers.length);
      expect(decodeTflite(twice).tflite!.offlinePlan!.offsets).toEqual(offsets);
      expect(decodeTflite(withOfflinePlan(twice, someOffsets(n))).tflite!.offlinePlan!.offsets).toEqual(someOffsets(n));
    }
  });

  it('moves data kept after the flatbuffer with the file', () => {
    const wire = wireOf(withOfflinePlan(WRITER_BUILT, someOffsets(5)));
    const external = wire.buffers[2]!.data!;
    expect([...external]).toEqual([...weight(64, 2)]);
  });

  it("leaves a buffer's offset field alone when the buffer has inline data, which readers take instead", () => {
    const both = writeTflite({ subgraphs: [{ tensors: [{ shape: [16], type: 'INT8', data: weight(16, 9), storage: 'both' }, { shape: [16], type: 'INT8' }], inputs: [], outputs: [1], operators: [{ op: 'RELU', inputs: [0], outputs: [1] }] }] });
    const written = withOfflinePlan(both, [-1, 0]);
    // Only the prefix is new: the original follows it byte for byte.
    expect(written.subarray(written.length - both.length)).toEqual(both);
    expect([...decodeTflite(written).graph.initializers[0]!.raw!]).toEqual([...weight(16, 9)]);
  });

  it('refuses offsets an int32 cannot hold, or that are not offsets, instead of wrapping them', () => {
    const refusal = (offsets: number[]) => {
      try {
        withOfflinePlan(WRITER_BUILT, offsets);
      } catch (error) {
        if (error instanceof InputError) return [error.code, error.message];
        throw error;
      }
      return undefined;
    };
    expect(refusal([0, 2 ** 31, 0, 0, 0])).toEqual(['bad-plan', "the plan gives tensor 1 the offset 2,147,483,648, past the 2 GiB an offline plan's int32 offsets can address"]);
    expect(refusal([0, 0, -2, 0, 0])).toEqual(['bad-plan', 'the plan gives tensor 2 the offset -2, not a byte offset (≥ 0) or -1']);
    expect(refusal([0, 0, 0, 1.5, 0])?.[0]).toBe('bad-plan');
    expect(decodeTflite(withOfflinePlan(WRITER_BUILT, [0, 2 ** 31 - 1, 0, 0, 0])).tflite!.offlinePlan!.offsets[1]).toBe(2 ** 31 - 1);
  });

  it('refuses a file that is not TensorFlow Lite', () => {
    expect(() => withOfflinePlan(new Uint8Array(64), [])).toThrow(InputError);
  });
});
