// Fuzzing decodeOnnx with damaged real models: bit flips, truncation, corrupted length
// fields, overwritten, inserted and deleted byte runs, from a seeded PRNG so every run
// is the same. Whatever the bytes, decode returns an IrModel or throws InputError:
// never another error. Models it returns must also survive ordering and value reads.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors';
import { topologicalOrder } from '../check-graph';
import { decodeOnnx } from './decode-onnx';
import { tensorValues } from '../tensor-values';
import { GraphBuilder, tensor } from '../testing/onnx-writer';
import { buildSampleModel } from '../testing/sample-model';

const MODELS = join(__dirname, '../../../../shared/models');
const SMALL_MODELS = ['winml_mnist.onnx', 'light_squeezenet.onnx', 'wonnx_single_relu.onnx', 'tiny-llama-fp32-missing-external-data.onnx'];
if (!existsSync(MODELS)) console.log(`decode-fuzz: ${MODELS} is absent; fuzzing the writer-built models only`);

/** A model with a subgraph, a Constant, a string tensor and external data, so damage reaches those paths too. */
function featureModel(): Uint8Array {
  const g = new GraphBuilder('features');
  const x = g.input('x', 'float32', ['n', 4]);
  const branch = new GraphBuilder('branch');
  branch.output(branch.node('Mul', [x, g.constant('float32', [4], [1, 2, 3, 4])]), 'float32', ['n', 4]);
  const cond = g.input('cond', 'bool', []);
  const labels = g.initializer('labels', 'string', [2], ['a', 'b']);
  const w = g.initializer('w', 'float16', [4, 4], undefined, { external: { location: 'w.bin', offset: 0, length: 32 } });
  const y = g.node('If', [cond], { then_branch: branch, else_branch: branch, note: 'text', t: tensor('int64', [2], [1, 2]) });
  g.output(g.node('MatMul', [y, w]), 'float32', ['n', 4]);
  g.output(labels);
  return g.toBytes({ opsets: { 'com.microsoft': 1 } });
}

/** Seeded PRNG (mulberry32). */
function prng(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

type Random = ReturnType<typeof prng>;
type Mutation = (bytes: Uint8Array, random: Random) => Uint8Array;

const randomRun = (length: number, random: Random): Uint8Array => Uint8Array.from({ length }, () => random(256));

const splice = (bytes: Uint8Array, at: number, count: number, insert: Uint8Array): Uint8Array => {
  const remove = Math.min(count, bytes.length - at);
  const out = new Uint8Array(bytes.length - remove + insert.length);
  out.set(bytes.subarray(0, at));
  out.set(insert, at);
  out.set(bytes.subarray(at + remove), at + insert.length);
  return out;
};

function varint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

const MUTATIONS: Readonly<Record<string, Mutation>> = {
  bitFlips: (bytes, random) => {
    const out = bytes.slice();
    for (let flips = 1 + random(8); flips > 0; flips--) {
      const at = random(out.length);
      out[at] = (out[at] ?? 0) ^ (1 << random(8));
    }
    return out;
  },
  truncate: (bytes, random) => bytes.slice(0, 1 + random(bytes.length - 1)),
  // Finds a byte that reads as a length-delimited tag and rewrites the length after it.
  lengthField: (bytes, random) => {
    for (let tries = 0; tries < 64; tries++) {
      const at = random(bytes.length - 1);
      if (((bytes[at] ?? 0) & 7) !== 2 || (bytes[at] ?? 0) < 8) continue;
      let end = at + 1;
      while (end < bytes.length && (bytes[end] ?? 0) >= 0x80) end++;
      const old = bytes.subarray(at + 1, end + 1).reduceRight((v, b) => v * 128 + (b & 0x7f), 0);
      const choices = [0, old + 1, Math.max(0, old - 1), old * 2, random(1 << 20), 2 ** 31 + random(1000), 2 ** 35];
      return splice(bytes, at + 1, end + 1 - (at + 1), varint(choices[random(choices.length)] ?? 0));
    }
    return bytes.slice();
  },
  overwriteRun: (bytes, random) => {
    const out = bytes.slice();
    const at = random(out.length);
    out.set(randomRun(Math.min(1 + random(64), out.length - at), random), at);
    return out;
  },
  insertOrDelete: (bytes, random) =>
    random(2) === 0
      ? splice(bytes, random(bytes.length), 0, randomRun(1 + random(16), random))
      : splice(bytes, random(bytes.length), Math.min(1 + random(16), bytes.length - 1), new Uint8Array(0)),
};

/** What happened to one damaged file; undefined when all is well. */
function failureOf(bytes: Uint8Array, outcomes: Map<string, number>): string | undefined {
  try {
    const model = decodeOnnx(bytes);
    topologicalOrder(model.graph);
    for (const t of model.graph.initializers) tensorValues(t);
    outcomes.set('decoded', (outcomes.get('decoded') ?? 0) + 1);
  } catch (error) {
    if (!(error instanceof InputError)) return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (error.message.length < 10) return `InputError ${error.code} with a message too short to help: ${error.message}`;
    outcomes.set(error.code, (outcomes.get(error.code) ?? 0) + 1);
  }
  return undefined;
}

const corpus: [string, Uint8Array, number][] = [
  ['sample', buildSampleModel(), 60],
  ['features', featureModel(), 150],
  ...SMALL_MODELS.filter((name) => existsSync(join(MODELS, name))).map(
    (name): [string, Uint8Array, number] => [name, new Uint8Array(readFileSync(join(MODELS, name))), 200],
  ),
];

describe('decodeOnnx under fuzzing', () => {
  it.each(corpus)('throws only InputError for damaged %s', (name, original, perMutation) => {
    const random = prng(0xf022 + original.length);
    const outcomes = new Map<string, number>();
    const failures: string[] = [];
    for (const [kind, mutate] of Object.entries(MUTATIONS)) {
      for (let i = 0; i < perMutation; i++) {
        const failure = failureOf(mutate(original, random), outcomes);
        if (failure !== undefined) failures.push(`${kind} #${i}: ${failure}`);
      }
    }
    console.log(`decode-fuzz ${name}: ${[...outcomes].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    expect(failures).toEqual([]);
    expect(outcomes.size).toBeGreaterThan(1);
  });

  it("says 'truncated' or 'not-a-model' for the sample cut anywhere", () => {
    const sample = buildSampleModel();
    const random = prng(7);
    for (let i = 0; i < 200; i++) {
      const cut = 1 + random(sample.length - 1);
      let code: string | undefined;
      try {
        decodeOnnx(sample.subarray(0, cut));
      } catch (error) {
        code = error instanceof InputError ? error.code : String(error);
      }
      expect(['truncated', 'not-a-model'], `cut at ${cut}`).toContain(code);
    }
  });
});
