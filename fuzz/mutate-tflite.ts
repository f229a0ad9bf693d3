// Mutations of .tflite files for the file campaign: words of the flatbuffer's
// tables (offsets, lengths, indices, type bytes) overwritten with values that
// break readers, byte flips, cuts and inserted garbage; and small random models
// built with the test writer (control flow, variables, quantization, custom
// ops, offline plans). Depends on model/ (its TFLite reader and test writer).

import { FlatReader } from '../src/model/tflite/flat-reader';
import { encodeOfflinePlan, OFFLINE_PLAN_NAME } from '../src/model/tflite/offline-plan';
import { readModel } from '../src/model/tflite/read-model';
import { callOnceOptions, ifOptions, svdfOptions, whileOptions, writeTflite, type TfliteOperatorSpec, type TfliteTensorSpec } from '../src/model/testing/tflite-writer';
import type { SeedModel } from './mutate-models';
import type { Rng } from './random';

/** Byte ranges [start, end) of the file that hold buffer data (weights, metadata), not tables. */
export function dataRanges(bytes: Uint8Array): [number, number][] {
  try {
    const wire = readModel(new FlatReader(bytes));
    return wire.buffers.flatMap((b) => (b.data === undefined ? [] : [[b.data.byteOffset - bytes.byteOffset, b.data.byteOffset - bytes.byteOffset + b.data.byteLength] as [number, number]]));
  } catch {
    return [];
  }
}

/** The runs of the file between buffer data, where a word may be overwritten. */
function tableRuns(size: number, data: readonly [number, number][]): [number, number][] {
  const runs: [number, number][] = [];
  let from = 0;
  for (const [start, end] of [...data].sort((a, b) => a[0] - b[0])) {
    if (start - from >= 4) runs.push([from, start]);
    from = Math.max(from, end);
  }
  if (size - from >= 4) runs.push([from, size]);
  return runs;
}

/** A word's position outside buffer data (a table, vtable, vector or string), 4-aligned where the run allows. */
function tablePosition(rng: Rng, size: number, runs: readonly [number, number][]): number {
  const total = runs.reduce((n, [s, e]) => n + e - s - 3, 0);
  let k = rng.int(0, total - 1);
  for (const [s, e] of runs) {
    if (k >= e - s - 3) {
      k -= e - s - 3;
      continue;
    }
    const at = s + k - ((s + k) % 4);
    return at >= s ? at : Math.min(at + 4, e - 4);
  }
  return 4 * rng.int(0, Math.floor(size / 4) - 1);
}

/** Values that break flatbuffer readers when written over an offset, length, index or type. */
function hostileWord(rng: Rng, old: number, size: number): number {
  return rng.pick([0, 1, 2, 3, 4, -1, -4, 0x7fffffff, -0x80000000, 0xffff, old + 1, old - 1, old + 4, old - 4, old * 2, size, size - 4, size + 4, -size, rng.int(0, size), 127, 128, 255]);
}

/** The .tflite file with 1–4 words of its tables overwritten by hostile values. */
export function mutateTables(rng: Rng, name: string, original: Uint8Array): { readonly bytes: Uint8Array; readonly label: string } {
  const bytes = original.slice();
  const view = new DataView(bytes.buffer);
  const runs = tableRuns(bytes.length, dataRanges(original));
  const done: string[] = [];
  for (let i = rng.int(1, 4); i > 0 && bytes.length >= 4; i--) {
    const at = tablePosition(rng, bytes.length, runs);
    const r = rng.next();
    if (r < 0.3) {
      const byte = at + rng.int(0, 3);
      bytes[byte] = rng.pick([0, 1, 0x7f, 0x80, 0xff, rng.int(0, 255)]);
      done.push(`byte ${byte}=${bytes[byte]}`);
    } else if (r < 0.5) {
      const value = hostileWord(rng, view.getUint16(at, true), bytes.length) & 0xffff;
      view.setUint16(at + 2 * rng.int(0, 1), value, true);
      done.push(`u16 near ${at}=${value}`);
    } else {
      const value = hostileWord(rng, view.getInt32(at, true), bytes.length) | 0;
      view.setInt32(at, value, true);
      done.push(`word ${at}=${value}`);
    }
  }
  return { bytes, label: `${name}: ${done.join(', ')}` };
}

/** The file with flips, a cut or inserted garbage (shifting every later offset). */
export function mutateTfliteBytes(rng: Rng, name: string, original: Uint8Array): { readonly bytes: Uint8Array; readonly label: string } {
  const how = rng.int(0, 2);
  if (how === 0) {
    const bytes = original.slice();
    const flips = rng.int(1, 16);
    for (let i = 0; i < flips; i++) bytes[rng.int(0, bytes.length - 1)] = rng.int(0, 255);
    return { bytes, label: `${name}: ${flips} bytes changed` };
  }
  if (how === 1) {
    const at = rng.int(0, original.length);
    return { bytes: original.slice(0, at), label: `${name}: cut at ${at}` };
  }
  const at = rng.int(0, original.length);
  const extra = Uint8Array.from({ length: rng.pick([1, 4, 8, rng.int(1, 32)]) }, () => rng.int(0, 255));
  const bytes = new Uint8Array(original.length + extra.length);
  bytes.set(original.subarray(0, at));
  bytes.set(extra, at);
  bytes.set(original.subarray(at), at + extra.length);
  return { bytes, label: `${name}: ${extra.length} bytes inserted at ${at}` };
}

/** Tensor types and their element bytes. */
const TYPES: readonly (readonly [string, number])[] = [['FLOAT32', 4], ['INT8', 1], ['INT8', 1], ['INT16', 2], ['INT32', 4], ['UINT8', 1], ['BOOL', 1], ['INT64', 8], ['FLOAT16', 2]];
/** Types TFLite Micro cannot allocate (no fixed element size): rare, or most models would stop there. */
const RARE_TYPES: readonly (readonly [string, number])[] = [['STRING', 1], ['RESOURCE', 1], ['VARIANT', 1]];
const OPS = ['ADD', 'CONV_2D', 'DEPTHWISE_CONV_2D', 'FULLY_CONNECTED', 'RESHAPE', 'SOFTMAX', 'CONCATENATION', 'MAX_POOL_2D', 'SVDF', 'UNIDIRECTIONAL_SEQUENCE_LSTM', 'MEAN', 'QUANTIZE', 'VAR_HANDLE', 'READ_VARIABLE', 'ASSIGN_VARIABLE'];

function randomTensor(rng: Rng): TfliteTensorSpec {
  const shape = Array.from({ length: rng.int(0, 4) }, () => rng.pick([1, 1, 2, 3, 4, 8, 16, 0, 1000]));
  const count = shape.reduce((a, b) => a * b, 1);
  const [type, bytes] = rng.pick(rng.chance(0.03) ? RARE_TYPES : TYPES);
  // Now and then the data is not as long as the shape says.
  const length = rng.chance(0.9) ? count * bytes : rng.int(0, 64);
  return {
    shape,
    type,
    ...(rng.chance(0.25) && length <= 16_384 && { data: new Uint8Array(length) }),
    ...(rng.chance(0.1) && { variable: true }),
    ...(rng.chance(0.2) && { signature: shape.map((d, i) => (i === 0 && rng.chance(0.5) ? -1 : d)) }),
    ...(rng.chance(0.3) && { quantization: { scale: [rng.pick([0.5, 1, 0.0039])], zeroPoint: [rng.int(-128, 127)] } }),
  };
}

/** An operator reading `inputs` and writing `outputs`: builtin, custom, or (with several subgraphs) a call. */
function randomOperator(rng: Rng, inputs: number[], outputs: number[], callee: () => number, calls: boolean): TfliteOperatorSpec {
  const kind = rng.int(0, 9);
  if (calls && kind === 0) return { op: 'IF', inputs, outputs, options: ifOptions(callee(), callee()) };
  if (calls && kind === 1) return { op: 'WHILE', inputs, outputs, options: whileOptions(callee(), callee()) };
  if (calls && kind === 2) return { op: 'CALL_ONCE', inputs: [], outputs: [], options: callOnceOptions(callee()) };
  if (kind === 3) return { op: rng.pick(['ethos-u', 'TFLite_Detection_PostProcess', 'Convolution2DTransposeBias']), custom: true, inputs, outputs };
  const op = rng.pick(OPS);
  return { op, inputs, outputs, ...(op === 'SVDF' && { options: svdfOptions(rng.int(0, 3)) }) };
}

/**
 * A random subgraph; its operators call subgraphs after `self` (before it now
 * and then: a cycle). Mostly well formed (each operator writes fresh tensors
 * and reads earlier ones), so the planner is reached; one in ten is wired at
 * random (tensors written twice, read before written, outputs never computed).
 */
function randomSubgraph(rng: Rng, subgraphs: number, self: number) {
  const tensors = Array.from({ length: rng.int(1, 3) }, () => randomTensor(rng));
  const inputs = tensors.map((_, i) => i).filter((i) => tensors[i]!.data === undefined);
  // Calls go to later subgraphs, so there is no cycle, but now and then to any.
  const calls = subgraphs > 1 && (self < subgraphs - 1 || rng.chance(0.05));
  const callee = () => (rng.chance(0.03) || self === subgraphs - 1 ? rng.int(0, subgraphs - 1) : rng.int(self + 1, subgraphs - 1));
  const random = rng.chance(0.1);
  const readable = tensors.map((_, i) => i);
  const operators = Array.from({ length: rng.int(0, 5) }, () => {
    const reads = Array.from({ length: rng.int(0, 4) }, () => (rng.chance(0.05) ? -1 : rng.pick(readable)));
    const writes = Array.from({ length: rng.int(1, 2) }, () => tensors.push(randomTensor(rng)) - 1);
    for (const w of writes) if (tensors[w]!.data !== undefined) tensors[w] = { ...tensors[w]!, data: undefined };
    readable.push(...writes);
    return randomOperator(rng, reads, random ? writes.map(() => rng.int(0, tensors.length - 1)) : writes, callee, calls);
  });
  const produced = operators.flatMap((op) => op.outputs);
  const outputs = produced.length === 0 || random ? [rng.int(0, tensors.length - 1)] : [rng.pick(produced)];
  return { tensors, inputs, outputs, operators };
}

/** A small random .tflite model, now and then with an offline plan (of the right count or not). */
export function randomTfliteModel(rng: Rng): { readonly bytes: Uint8Array; readonly label: string } {
  const count = rng.chance(0.7) ? 1 : rng.int(2, 4);
  const subgraphs = Array.from({ length: count }, (_, s) => randomSubgraph(rng, count, s));
  const tensors = subgraphs.reduce((n, sg) => n + sg.tensors.length, 0);
  const plan = rng.chance(0.2) ? [{ name: OFFLINE_PLAN_NAME, data: encodeOfflinePlan(Array.from({ length: rng.chance(0.8) ? tensors : rng.int(0, 9) }, () => rng.pick([-1, 0, 16, 64, rng.int(0, 4096)]))) }] : [];
  const bytes = writeTflite({ subgraphs, metadata: [...plan, ...(rng.chance(0.3) ? [{ name: 'min_runtime_version', data: new Uint8Array(16) }] : [])] });
  return { bytes, label: `random tflite: ${count} subgraph(s), ${tensors} tensors${plan.length > 0 ? ', offline plan' : ''}` };
}

let writerSeedCache: SeedModel[] | undefined;

/** Fixed writer-built seeds, so the TFLite mutations run without the real models: control flow, variables and an offline plan. */
export function writerSeeds(): readonly SeedModel[] {
  writerSeedCache ??= [
    {
      name: 'writer: IF/WHILE/CALL_ONCE',
      bytes: writeTflite({
        subgraphs: [
          {
            tensors: [{ shape: [1, 8], type: 'INT8', quantization: { scale: [0.5], zeroPoint: [0] } }, { shape: [], type: 'BOOL' }, { shape: [1, 8], type: 'INT8' }, { shape: [1, 8], type: 'INT16', variable: true }, { shape: [1, 8], type: 'INT8', data: new Uint8Array(8).fill(7) }, { shape: [1, 8], type: 'INT8' }],
            inputs: [0, 1],
            outputs: [5],
            operators: [
              { op: 'CALL_ONCE', inputs: [], outputs: [], options: callOnceOptions(3) },
              { op: 'IF', inputs: [1, 0], outputs: [2], options: ifOptions(1, 2) },
              { op: 'ADD', inputs: [2, 4], outputs: [5] },
            ],
          },
          leaf('RELU'),
          { ...leaf('WHILE'), operators: [{ op: 'WHILE', inputs: [0], outputs: [1], options: whileOptions(1, 1) }] },
          leaf('ABS'),
        ],
      }),
    },
    {
      name: 'writer: dense with an offline plan',
      bytes: writeTflite({
        metadata: [{ name: OFFLINE_PLAN_NAME, data: encodeOfflinePlan([0, -1, 64, 0]) }],
        subgraphs: [
          {
            tensors: [{ shape: [1, 64], type: 'INT8' }, { shape: [64, 64], type: 'INT8', data: new Uint8Array(4096).fill(1) }, { shape: [1, 64], type: 'INT8' }, { shape: [1, 64], type: 'INT8' }],
            inputs: [0],
            outputs: [3],
            operators: [
              { op: 'FULLY_CONNECTED', inputs: [0, 1, -1], outputs: [2] },
              { op: 'SOFTMAX', inputs: [2], outputs: [3] },
            ],
          },
        ],
      }),
    },
  ];
  return writerSeedCache;
}

function leaf(op: string) {
  return { tensors: [{ shape: [1, 8], type: 'INT8' }, { shape: [1, 8], type: 'INT8' }], inputs: [0], outputs: [1], operators: [{ op, inputs: [0], outputs: [1] }] };
}
