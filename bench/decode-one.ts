// One measurement in a fresh process, so every file starts from a clean heap:
// read a model file, decodeOnnx, inferShapes, with peak memory of the first pass;
// then repeated passes for warm timings and, with --probes, timings that say where
// decode time goes. Prints one JSON line (OneResult). Run by bench/decode.ts as
//   node --expose-gc --import tsx bench/decode-one.ts FILE [--view buffer|uint8array]
//        [--repeat N] [--probes]

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import onnxProto from 'onnx-proto';
import { decodeOnnx } from '../src/model/onnx/decode-onnx';
import type { IrModel } from '../src/model/ir';
import { inferShapes } from '../src/model/infer/shapes';
import type { InferredModel } from '../src/model/inferred';
import { MemoryTracker } from './decode-memory';
import type { DecodeProbes, ModelFacts, OneResult, PassTimes, StepStatus } from './decode-result';

type View = 'buffer' | 'uint8array';

interface Pass {
  readonly times: PassTimes;
  readonly bytes: Uint8Array;
  readonly model: IrModel | undefined;
  readonly inferred: InferredModel | undefined;
  readonly decode: StepStatus;
  readonly infer: StepStatus;
  readonly error: string | undefined;
}

const noop = (): void => undefined;

/** A stub of a module not written yet says so in its error. */
function statusOf(error: unknown): StepStatus {
  return error instanceof Error && /not available yet/.test(error.message) ? 'missing' : 'error';
}

function message(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function asView(buffer: Buffer, view: View): Uint8Array {
  return view === 'buffer' ? buffer : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** Reads, decodes and infers once; `sample` is called at progress callbacks and phase ends. */
function runPass(file: string, view: View, sample: () => void): Pass {
  let t = performance.now();
  const bytes = asView(readFileSync(file), view);
  const readMs = performance.now() - t;
  sample();
  let model: IrModel | undefined;
  let decodeMs: number | undefined;
  let decode: StepStatus = 'ok';
  let error: string | undefined;
  try {
    t = performance.now();
    model = decodeOnnx(bytes, { onProgress: sample });
    decodeMs = performance.now() - t;
  } catch (thrown) {
    decode = statusOf(thrown);
    error = message(thrown);
  }
  sample();
  const infer: InferOutcome = model === undefined ? { status: 'skipped' } : runInfer(model);
  sample();
  return {
    times: { readMs, decodeMs, inferMs: infer.ms },
    bytes,
    model,
    inferred: infer.inferred,
    decode,
    infer: infer.status,
    error: error ?? infer.error,
  };
}

interface InferOutcome {
  readonly status: StepStatus;
  readonly ms?: number;
  readonly inferred?: InferredModel;
  readonly error?: string;
}

function runInfer(model: IrModel): InferOutcome {
  try {
    const t = performance.now();
    const inferred = inferShapes(model);
    return { status: 'ok', ms: performance.now() - t, inferred };
  } catch (thrown) {
    return { status: statusOf(thrown), error: message(thrown) };
  }
}

function factsOf(pass: Pass): ModelFacts | undefined {
  const { model, inferred, bytes } = pass;
  if (model === undefined) return undefined;
  let rawBytes = 0;
  let copiedInitializers = 0;
  let copiedBytes = 0;
  for (const tensor of model.graph.initializers) {
    if (tensor.raw === undefined) continue;
    rawBytes += tensor.raw.byteLength;
    if (tensor.raw.buffer !== bytes.buffer) {
      copiedInitializers += 1;
      copiedBytes += tensor.raw.byteLength;
    }
  }
  return {
    nodes: model.graph.nodes.length,
    initializers: model.graph.initializers.length,
    rawBytes,
    copiedInitializers,
    copiedBytes,
    values: inferred?.values.length,
    unknownShapes: inferred?.values.filter((value) => value.shape === undefined).length,
    diagnostics: (inferred?.diagnostics ?? model.diagnostics).length,
  };
}

/** The fastest pass by decode + infer time (by read time while the decoder is missing). */
function fastest(passes: readonly PassTimes[]): PassTimes | undefined {
  const total = (p: PassTimes): number => (p.decodeMs ?? p.readMs) + (p.inferMs ?? 0);
  return passes.reduce<PassTimes | undefined>((best, p) => (best === undefined || total(p) < total(best) ? p : best), undefined);
}

/** Best of five runs of `fn`, in milliseconds (a millisecond-scale run is at the mercy of a GC pause). */
function timed(fn: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i += 1) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/** protobufjs alone, decodeOnnx, and decodeOnnx on the other kind of byte array: warm, best of five. */
function probe(file: string, view: View): DecodeProbes {
  const buffer = readFileSync(file);
  const bytes = asView(buffer, view);
  const raw = onnxProto.onnx.ModelProto.decode(bytes).graph?.initializer?.[0]?.rawData ?? undefined;
  const protobufDecodeMs = timed(() => onnxProto.onnx.ModelProto.decode(bytes));
  const otherView: View = view === 'buffer' ? 'uint8array' : 'buffer';
  const other = asView(buffer, otherView);
  const decodeMs = (input: Uint8Array): number | undefined => {
    try {
      return timed(() => decodeOnnx(input));
    } catch {
      return undefined;
    }
  };
  return {
    protobufDecodeMs,
    protobufRawIsView: raw !== undefined && raw.buffer === bytes.buffer,
    warmDecodeMs: decodeMs(bytes),
    otherView,
    otherViewDecodeMs: decodeMs(other),
  };
}

function firstPass(file: string, view: View, tracker: MemoryTracker) {
  const pass = runPass(file, view, () => tracker.sample());
  const memory = tracker.peaks();
  const { times: first, decode, infer, error } = pass;
  return { memory, first, decode, infer, error, facts: factsOf(pass), fileBytes: pass.bytes.byteLength };
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { view: { type: 'string', default: 'buffer' }, repeat: { type: 'string', default: '1' }, probes: { type: 'boolean' } },
  });
  const file = positionals[0];
  if (file === undefined) throw new Error('usage: decode-one.ts FILE [--view buffer|uint8array] [--repeat N] [--probes]');
  const view: View = values.view === 'uint8array' ? 'uint8array' : 'buffer';
  const tracker = new MemoryTracker();
  tracker.start();
  // The first pass lives only inside firstPass(), so its bytes can be collected before the warm passes.
  const { memory, first, decode, infer, error, facts, fileBytes } = firstPass(file, view, tracker);
  const warm: PassTimes[] = [];
  for (let i = 1; i < Number(values.repeat); i += 1) {
    globalThis.gc?.();
    warm.push(runPass(file, view, noop).times);
  }
  globalThis.gc?.();
  const probes = values.probes ? probe(file, view) : undefined;
  const result: OneResult = {
    file,
    fileBytes,
    view,
    decode,
    infer,
    error,
    first,
    best: fastest(warm),
    passes: 1 + warm.length,
    memory,
    facts,
    probes,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main();
