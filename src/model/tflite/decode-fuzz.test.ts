// Fuzzing decodeModel with damaged .tflite files (fast-check, fixed seed, a few
// hundred cases): byte flips, words of the tables overwritten with hostile
// values, cuts and inserted garbage, on the real models and writer-built ones.
// Whatever the bytes, decodeModel returns a model or throws InputError; the
// files are at most a few hundred KiB, so each call's work is bounded by that.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { decodeModel } from '../decode-model';
import { callOnceOptions, float32Data, ifOptions, whileOptions, writeTflite } from '../testing/tflite-writer';
import { FlatReader } from './flat-reader';
import { encodeOfflinePlan, OFFLINE_PLAN_NAME } from './offline-plan';
import { readModel } from './read-model';

const MODELS = join(__dirname, '../../../../shared/models/tflite');
if (!existsSync(MODELS)) console.log(`decode-fuzz: ${MODELS} is absent; fuzzing the writer-built models only`);
const REAL = existsSync(MODELS) ? readdirSync(MODELS).filter((f) => f.endsWith('.tflite')).sort() : [];

/** Three subgraphs (IF, WHILE, CALL_ONCE), quantized and variable tensors, a weight and an offline plan. */
function controlFlowModel(): Uint8Array {
  const leaf = { tensors: [{ shape: [1, 4], type: 'INT8' }, { shape: [1, 4], type: 'INT8' }], inputs: [0], outputs: [1], operators: [{ op: 'RELU', inputs: [0], outputs: [1] }] };
  return writeTflite({
    metadata: [{ name: OFFLINE_PLAN_NAME, data: encodeOfflinePlan([0, -1, 16, 32, 48, 0, 4, 0, 4]) }],
    subgraphs: [
      {
        tensors: [
          { shape: [1, 4], type: 'INT8', quantization: { scale: [0.5], zeroPoint: [1] }, signature: [-1, 4] },
          { shape: [4, 4], type: 'FLOAT32', data: float32Data(Array.from({ length: 16 }, (_, i) => i)) },
          { shape: [], type: 'BOOL' },
          { shape: [1, 4], type: 'INT16', variable: true },
          { shape: [1, 4], type: 'INT8' },
        ],
        inputs: [0, 2],
        outputs: [4],
        operators: [
          { op: 'CALL_ONCE', inputs: [], outputs: [], options: callOnceOptions(2) },
          { op: 'IF', inputs: [2, 0], outputs: [4], options: ifOptions(1, 1) },
        ],
      },
      leaf,
      { ...leaf, operators: [{ op: 'WHILE', inputs: [0], outputs: [1], options: whileOptions(1, 1) }] },
    ],
  });
}

/** A fully connected layer with a custom op after it. */
function denseModel(): Uint8Array {
  return writeTflite({
    metadata: [{ name: 'min_runtime_version', data: new TextEncoder().encode('1.14.0') }],
    subgraphs: [
      {
        tensors: [{ shape: [1, 8], type: 'INT8' }, { shape: [8, 8], type: 'INT8', data: new Uint8Array(64).fill(1) }, { shape: [1, 8], type: 'INT8' }, { shape: [1, 8], type: 'INT8' }],
        inputs: [0],
        outputs: [3],
        operators: [
          { op: 'FULLY_CONNECTED', inputs: [0, 1, -1], outputs: [2] },
          { op: 'my_custom', custom: true, inputs: [2], outputs: [3] },
        ],
      },
    ],
  });
}

interface Seed {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly tableWords: readonly number[]; // 4-aligned positions outside buffer data: tables, vtables, vectors, strings
}

function seed(name: string, bytes: Uint8Array): Seed {
  const data = readModel(new FlatReader(bytes)).buffers.flatMap((b) => (b.data === undefined ? [] : [[b.data.byteOffset, b.data.byteOffset + b.data.byteLength]]));
  const tableWords: number[] = [];
  for (let at = 0; at + 4 <= bytes.length; at += 4) if (!data.some(([s, e]) => at + 4 > s! && at < e!)) tableWords.push(at);
  return { name, bytes, tableWords };
}

const SEEDS: readonly Seed[] = [
  seed('control flow', controlFlowModel()),
  seed('dense', denseModel()),
  ...REAL.map((f) => seed(f, new Uint8Array(readFileSync(join(MODELS, f))))),
];

const HOSTILE = [0, 1, 4, -1, -4, 0x7fffffff, -0x80000000, 0xffff, 0x10000, 127, 128, 255, 1 << 20];

type Mutation =
  | { readonly kind: 'flip'; readonly flips: readonly (readonly [number, number])[] }
  | { readonly kind: 'word'; readonly words: readonly (readonly [number, number, number])[] }
  | { readonly kind: 'cut'; readonly at: number }
  | { readonly kind: 'insert'; readonly at: number; readonly garbage: Uint8Array };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 16 }) }),
  fc.record({ kind: fc.constant('word' as const), words: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...HOSTILE), fc.integer({ min: -8, max: 8 })), { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), garbage: fc.uint8Array({ minLength: 1, maxLength: 32 }) }),
);

/** The seed's bytes after the mutation (a fresh array; the seed is unchanged). */
function mutate(s: Seed, m: Mutation): Uint8Array {
  const n = s.bytes.length;
  if (m.kind === 'cut') return s.bytes.slice(0, m.at % (n + 1));
  if (m.kind === 'insert') {
    const at = m.at % (n + 1);
    const out = new Uint8Array(n + m.garbage.length);
    out.set(s.bytes.subarray(0, at));
    out.set(m.garbage, at);
    out.set(s.bytes.subarray(at), at + m.garbage.length);
    return out;
  }
  const out = s.bytes.slice();
  const view = new DataView(out.buffer);
  if (m.kind === 'flip') for (const [at, value] of m.flips) out[at % n] = value;
  // A hostile value, or the old value nudged: an offset or length a little off is the subtle case.
  else for (const [pick, value, nudge] of m.words) {
    const at = s.tableWords[pick % s.tableWords.length]!;
    view.setInt32(at, nudge === 0 ? value : view.getInt32(at, true) + nudge, true);
  }
  return out;
}

/** 'decoded', or the InputError's code; throws anything else. */
function outcome(bytes: Uint8Array): string {
  try {
    const model = decodeModel(bytes);
    expect(model.fileBytes).toBe(bytes.length);
    for (const t of model.graph.initializers) {
      if (t.raw !== undefined) expect(t.raw.buffer === bytes.buffer && t.raw.byteOffset + t.raw.byteLength <= bytes.byteLength).toBe(true);
    }
    return 'decoded';
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    expect(error.message.length).toBeGreaterThan(10);
    expect(error.message).not.toContain('\n');
    return error.code;
  }
}

describe('decodeModel on damaged .tflite files', () => {
  it('returns a model or throws InputError, whatever the damage', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(fc.nat(SEEDS.length - 1), mutation, (which, m) => {
        const code = outcome(mutate(SEEDS[which]!, m));
        seen.set(`${m.kind} ${code}`, (seen.get(`${m.kind} ${code}`) ?? 0) + 1);
      }),
      { seed: 20_261_128, numRuns: 400 },
    );
    console.log(`decode-fuzz tflite: ${[...seen].sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
    // The mutations reach past the first check: some files still decode, and damage is found at every stage.
    for (const kind of ['flip', 'word', 'cut', 'insert']) expect([...seen.keys()].filter((k) => k.startsWith(kind)).length, kind).toBeGreaterThan(0);
    for (const code of ['decoded', 'truncated', 'not-a-model', 'bad-graph']) expect([...seen.keys()].some((k) => k.endsWith(` ${code}`)), code).toBe(true);
  });

  it('leaves the seeds as they were', () => {
    for (const s of SEEDS) expect(outcome(s.bytes), s.name).toBe('decoded');
  });
});
