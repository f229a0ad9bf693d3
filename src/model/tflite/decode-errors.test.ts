// decodeTflite and decodeModel on malformed TensorFlow Lite files: each is an
// InputError with a code and one sentence naming what is wrong and where, never
// a RangeError or TypeError. Damaged files are built with the test writer and
// patched at offsets found with the reader; truncations cut the real models.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { decodeModel } from '../decode-model';
import { callOnceOptions, ifOptions, whileOptions, writeTflite, type TfliteModelSpec, type TfliteSubgraphSpec } from '../testing/tflite-writer';
import { decodeTflite } from './decode-tflite';
import { FlatReader } from './flat-reader';
import { encodeOfflinePlan, OFFLINE_PLAN_NAME } from './offline-plan';
import { FIELD } from './schema';

const MODELS = join(__dirname, '../../../../shared/models/tflite');
const haveModels = existsSync(MODELS);
if (!haveModels) console.log(`decode-errors: ${MODELS} is absent; truncating the writer-built model only`);
const REAL = haveModels ? readdirSync(MODELS).filter((f) => f.endsWith('.tflite')).sort() : [];

/** Two tensors and an ADD: the smallest useful model, changed by each case. */
function tiny(change: Partial<TfliteSubgraphSpec> = {}, model: Partial<TfliteModelSpec> = {}): Uint8Array {
  const main: TfliteSubgraphSpec = {
    tensors: [{ name: 'x', shape: [1, 4] }, { name: 'y', shape: [1, 4] }],
    inputs: [0],
    outputs: [1],
    operators: [{ op: 'ADD', inputs: [0, 0], outputs: [1] }],
    ...change,
  };
  return writeTflite({ subgraphs: [main], ...model });
}

/** A subgraph of one tensor whose operators are `operators`. */
const body = (operators: TfliteSubgraphSpec['operators'] = []): TfliteSubgraphSpec => ({ tensors: [{ shape: [1] }, { shape: [1] }], inputs: [0], outputs: [1], operators });

/** The InputError `decode(bytes)` throws; fails the test on anything else. */
function errorOf(bytes: Uint8Array, decode: (b: Uint8Array) => unknown = decodeTflite): InputError {
  try {
    decode(bytes);
  } catch (error) {
    if (error instanceof InputError) {
      expect(error.message.split('\n')).toHaveLength(1);
      expect(error.message).not.toMatch(/undefined|NaN|\[object/);
      return error;
    }
    throw new Error(`expected an InputError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected an InputError, but the file decoded');
}

/** A copy of `bytes` after `edit`, which gets a view for writing and a reader for finding offsets. */
function patched(bytes: Uint8Array, edit: (view: DataView, reader: FlatReader) => void): Uint8Array {
  const copy = bytes.slice();
  edit(new DataView(copy.buffer), new FlatReader(bytes));
  return copy;
}

const rootOf = (r: FlatReader) => r.table(r.indirect(0, 'root'), 'model');
const subgraph0 = (r: FlatReader) => r.tables(rootOf(r), FIELD.model.subgraphs, 'subgraphs')[0]!;
/** The byte of the length word of a vector field. */
const vectorHead = (r: FlatReader, table: ReturnType<FlatReader['table']>, field: number): number => r.indirect(r.field(table, field, 4, 'v')!, 'v');

describe('decodeTflite on files too short or not TFLite', () => {
  it('says how long an empty or 3-byte file is', () => {
    expect(errorOf(new Uint8Array(0))).toMatchObject({ code: 'truncated', message: 'the file is 0 bytes, too short for a TensorFlow Lite model' });
    expect(errorOf(new Uint8Array([0x1c, 0, 0]))).toMatchObject({ code: 'truncated', message: 'the file is 3 bytes, too short for a TensorFlow Lite model' });
    expect(errorOf(new Uint8Array(0), decodeModel)).toMatchObject({ code: 'empty-file' });
    expect(errorOf(new Uint8Array([0x1c, 0, 0]), decodeModel).code).toMatch(/^(truncated|not-onnx|not-a-model)$/);
  });

  it('names the identifier it expected', () => {
    const bytes = patched(tiny(), (view) => view.setUint8(7, 0x32)); // TFL2
    expect(errorOf(bytes)).toMatchObject({ code: 'not-a-model', message: 'the file has no TensorFlow Lite identifier (TFL3 at byte 4)' });
    // Without the identifier the registry hands the file to ONNX, which refuses it too.
    expect(errorOf(bytes, decodeModel)).toBeInstanceOf(InputError);
  });
});

describe('a full-length file with bytes changed in its middle', () => {
  it.runIf(REAL.length > 0)('is never said to end early: an offset past the end reads as damaged or cut off', () => {
    const bytes = readFileSync(join(MODELS, REAL[0]!));
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let pastEnd = 0;
    for (let trial = 0; trial < 300; trial += 1) {
      const damaged = Uint8Array.from(bytes);
      const middle = Math.floor(damaged.length / 4 + random() * (damaged.length / 2));
      for (let k = 0; k < 4; k += 1) damaged[middle + k] = Math.floor(random() * 256);
      try {
        decodeModel(damaged);
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        expect(error.message).not.toMatch(/ends early|was the download cut off\?\)/);
        if (/damaged or cut off/.test(error.message)) pastEnd += 1;
      }
    }
    expect(pastEnd).toBeGreaterThan(0);
  });
});

describe('decodeTflite on damaged offsets', () => {
  it('names the root offset that points past the end', () => {
    const bytes = tiny();
    const e = errorOf(patched(bytes, (view) => view.setUint32(0, bytes.length + 100, true)));
    expect(e.code).toBe('truncated');
    expect(e.message).toBe(
      `the file is damaged or cut off: the model table needs 4 bytes at byte ${(bytes.length + 100).toLocaleString('en-US')}, but the file has only ${bytes.length.toLocaleString('en-US')} bytes (was the download cut off, or the file changed?)`,
    );
  });

  it('names the table whose vtable offset points outside the file, before or after it', () => {
    const bytes = tiny();
    const root = rootOf(new FlatReader(bytes)).pos;
    const after = errorOf(patched(bytes, (view) => view.setInt32(root, -(bytes.length * 2), true)));
    expect(after.code).toBe('truncated');
    expect(after.message).toMatch(/^the file is damaged or cut off: the field table of the model table needs 4 bytes at byte [\d,]+, but the file has only [\d,]+ bytes \(was the download cut off, or the file changed\?\)$/);
    const before = errorOf(patched(bytes, (view) => view.setInt32(root, root + 64, true)));
    expect(before.message).toMatch(/^the file is damaged: the field table of the model table would be at byte -64, before the start of the file$/);
    const tensor = errorOf(patched(bytes, (view, r) => view.setInt32(r.tables(subgraph0(r), FIELD.subgraph.tensors, 't')[1]!.pos, -(1 << 30), true)));
    expect(tensor.message).toMatch(/the field table of the tensors of subgraph 0\[1\] needs 4 bytes at byte [\d,]+/);
  });

  it('names a vtable whose sizes are impossible', () => {
    const e = errorOf(patched(tiny(), (view, r) => view.setUint16(rootOf(r).vtable, 3, true)));
    expect(e).toMatchObject({ code: 'not-a-model' });
    expect(e.message).toMatch(/^the file is damaged: the field table of the model table \(byte [\d,]+\) has sizes 3 and \d+$/);
  });

  it('refuses a vector that claims 0x7fffffff elements without reading them', () => {
    const tensors = errorOf(patched(tiny(), (view, r) => view.setUint32(vectorHead(r, subgraph0(r), FIELD.subgraph.tensors), 0x7fffffff, true)));
    expect(tensors.code).toBe('truncated');
    expect(tensors.message).toMatch(/^the file is damaged or cut off: the length of the tensors of subgraph 0 at byte [\d,]+ is 2,147,483,647 elements, more than the [\d,]+-byte file holds \(was the download cut off, or the file changed\?\)$/);
    const withData = tiny({ tensors: [{ name: 'x', shape: [1, 4] }, { name: 'y', shape: [1, 4], data: new Uint8Array(16) }] });
    const data = errorOf(
      patched(withData, (view, r) => {
        const buffer = r.tables(rootOf(r), FIELD.model.buffers, 'b')[1]!;
        view.setUint32(vectorHead(r, buffer, FIELD.buffer.data), 0x7fffffff, true);
      }),
    );
    expect(data.message).toMatch(/the length of the data of buffer 1 at byte [\d,]+ is 2,147,483,647 elements/);
  });
});

describe('decodeTflite on indices out of range', () => {
  it('names the operator and the tensor index it reads', () => {
    const e = errorOf(tiny({ operators: [{ op: 'ADD', inputs: [0, 5], outputs: [1] }] }));
    expect(e).toMatchObject({ code: 'bad-graph', message: 'the inputs of operator 0 of subgraph 0 (ADD) names tensor 5, but subgraph 0 has 2 tensors' });
    expect(errorOf(tiny({ operators: [{ op: 'ADD', inputs: [0, -2], outputs: [1] }] })).message).toBe(
      'the inputs of operator 0 of subgraph 0 (ADD) names tensor -2, but subgraph 0 has 2 tensors',
    );
    expect(errorOf(tiny({ operators: [{ op: 'ADD', inputs: [0, 0], outputs: [2] }] })).message).toBe(
      'the outputs of operator 0 of subgraph 0 (ADD) names tensor 2, but subgraph 0 has 2 tensors',
    );
    expect(errorOf(tiny({ inputs: [2] })).message).toBe('the inputs of subgraph 0 names tensor 2, but subgraph 0 has 2 tensors');
  });

  it('names the operator whose operator code is past the list', () => {
    const e = errorOf(tiny({ operators: [{ op: 'ADD', inputs: [0, 0], outputs: [1], opcodeIndex: 9 }] }));
    expect(e).toMatchObject({ code: 'bad-graph', message: 'operator 0 of subgraph 0 names operator code 9, but the model has 1 operator code' });
  });

  it('names the IF whose branch is a subgraph the model lacks', () => {
    const bytes = writeTflite({
      subgraphs: [{ ...body([{ op: 'IF', inputs: [0], outputs: [1], options: ifOptions(1, 7) }]) }, body()],
    });
    expect(errorOf(bytes)).toMatchObject({
      code: 'bad-graph',
      message: 'operator 0 (IF) of subgraph 0 runs subgraph 7 (else_subgraph_index), but the model has 2 subgraphs',
    });
  });
});

describe('decodeTflite on subgraphs that call each other', () => {
  it('names a WHILE body that runs its own subgraph', () => {
    const bytes = writeTflite({
      subgraphs: [
        body([{ op: 'WHILE', inputs: [0], outputs: [1], options: whileOptions(1, 2) }]),
        body(),
        body([{ op: 'WHILE', inputs: [0], outputs: [1], options: whileOptions(1, 2) }]),
      ],
    });
    expect(errorOf(bytes)).toMatchObject({
      code: 'bad-graph',
      message: 'the subgraphs call each other in a cycle (subgraph 2 → subgraph 2): the model would never finish',
    });
  });

  it('names every subgraph of a 3-cycle, in call order', () => {
    const bytes = writeTflite({
      subgraphs: [
        body([{ op: 'CALL_ONCE', inputs: [], outputs: [], options: callOnceOptions(1) }]),
        body([{ op: 'IF', inputs: [0], outputs: [1], options: ifOptions(2, 2) }]),
        body([{ op: 'WHILE', inputs: [0], outputs: [1], options: whileOptions(3, 3) }]),
        body([{ op: 'CALL_ONCE', inputs: [], outputs: [], options: callOnceOptions(1) }]),
      ],
    });
    const e = errorOf(bytes);
    expect(e.code).toBe('bad-graph');
    expect(e.message).toContain('(subgraph 1 → subgraph 2 → subgraph 3 → subgraph 1)');
  });

  it('reads a subgraph index the writer left out as the schema default, subgraph 0', () => {
    // callOnceOptions(0): the Builder omits a field equal to its default, as TensorFlow's converter does.
    const bytes = writeTflite({
      subgraphs: [body([{ op: 'CALL_ONCE', inputs: [], outputs: [], options: callOnceOptions(1) }]), body([{ op: 'CALL_ONCE', inputs: [], outputs: [], options: callOnceOptions(0) }])],
    });
    expect(errorOf(bytes).message).toContain('(subgraph 0 → subgraph 1 → subgraph 0)');
  });

  it('accepts a subgraph called from two places (a diamond is not a cycle)', () => {
    const bytes = writeTflite({
      subgraphs: [body([{ op: 'IF', inputs: [0], outputs: [1], options: ifOptions(1, 2) }]), body([{ op: 'CALL_ONCE', inputs: [], outputs: [], options: callOnceOptions(2) }]), body()],
    });
    expect(decodeTflite(bytes).tflite!.subgraphs[0]!.operators[0]!.calls).toEqual([1, 2]);
  });
});

describe('decodeTflite on tensors and metadata it cannot use', () => {
  it('names a negative dim and the tensor that has it', () => {
    expect(errorOf(tiny({ tensors: [{ name: 'x', shape: [1, -2] }, { name: 'y', shape: [1, 4] }] }))).toMatchObject({
      code: 'not-a-model',
      message: 'tensor 0 of subgraph 0 ("x") has a negative dim in its shape [1, -2]',
    });
  });

  it('names an unknown tensor type', () => {
    expect(errorOf(tiny({ tensors: [{ name: 'x', shape: [1, 4] }, { name: 'y', shape: [1, 4], type: 42 }] }))).toMatchObject({
      code: 'not-a-model',
      message: 'tensor 1 of subgraph 0 ("y") has tensor type 42, which TensorFlow Lite does not define',
    });
  });

  it('names an OfflineMemoryAllocation entry whose count is wrong, too large, or too short', () => {
    const withPlan = (data: Uint8Array) => tiny({}, { metadata: [{ name: OFFLINE_PLAN_NAME, data }] });
    expect(errorOf(withPlan(encodeOfflinePlan([0, 16, 32])))).toMatchObject({
      code: 'not-a-model',
      message: 'the OfflineMemoryAllocation metadata lists 3 offsets, but the model has 2 tensors (TFLite Micro needs one per tensor of every subgraph)',
    });
    const overclaim = encodeOfflinePlan([0, 16]);
    new DataView(overclaim.buffer).setInt32(8, 10, true);
    expect(errorOf(withPlan(overclaim)).message).toBe('the OfflineMemoryAllocation metadata lists 10 offsets but holds room for 2');
    expect(errorOf(withPlan(new Uint8Array(6))).message).toBe('the OfflineMemoryAllocation metadata holds 6 bytes; it needs 12 or more, a multiple of 4 (int32 words)');
    expect(decodeTflite(withPlan(encodeOfflinePlan([0, -1]))).tflite!.offlinePlan).toEqual({ version: 0, subgraph: 0, offsets: [0, -1] });
    // a file whose word 1 holds something else (the subgraph count, as some tools write) is read all the same
    expect(decodeTflite(withPlan(encodeOfflinePlan([0, -1], 1))).tflite!.offlinePlan).toEqual({ version: 0, subgraph: 1, offsets: [0, -1] });
  });
});

describe('decodeModel on truncated files', () => {
  const writerModel = writeTflite({
    metadata: [{ name: 'note', data: new Uint8Array(40) }],
    subgraphs: [
      { ...body([{ op: 'IF', inputs: [0], outputs: [1], options: ifOptions(1, 1) }]), tensors: [{ shape: [1], quantization: { scale: [0.5], zeroPoint: [0] } }, { shape: [1], signature: [-1] }] },
      { ...body([{ op: 'ADD', inputs: [0, 2], outputs: [1] }]), tensors: [{ shape: [1] }, { shape: [1] }, { shape: [4], data: new Uint8Array(16).fill(3) }] },
    ],
  });
  const files: [string, Uint8Array][] = [['writer-built', writerModel], ...REAL.map((f): [string, Uint8Array] => [f, new Uint8Array(readFileSync(join(MODELS, f)))])];

  it.each(files)('%s cut at every 1/50th and before its last byte: an InputError naming the damage, or a model', (_name, bytes) => {
    const cuts = [...Array.from({ length: 50 }, (_, k) => Math.floor((k * bytes.length) / 50)), bytes.length - 1];
    const codes = new Map<string, number>();
    for (const cut of cuts) {
      const prefix = bytes.subarray(0, cut);
      let code = 'decoded';
      try {
        expect(decodeModel(prefix).fileBytes).toBe(cut);
      } catch (error) {
        if (!(error instanceof InputError)) throw new Error(`cut at ${cut}: ${String(error)}`, { cause: error });
        expect(error.message.split('\n'), `cut at ${cut}`).toHaveLength(1);
        if (cut >= 8) expect(error.message, `cut at ${cut}`).toMatch(/^the file is damaged or cut off: .* needs \d+ bytes? at byte [\d,]+, but the file has only [\d,]+ bytes \(was the download cut off, or the file changed\?\)$|^the file is damaged or cut off: the length of .* elements?, more than/);
        code = error.code;
      }
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    expect(codes.get('empty-file')).toBe(1); // the cut at 0
    expect(codes.get('truncated') ?? 0).toBeGreaterThanOrEqual(45);
  });
});
