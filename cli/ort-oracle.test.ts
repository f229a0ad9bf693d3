// The shapes `inspect` reports, checked against ONNX Runtime running the
// model: every model of ../shared/models/ is run in onnxruntime-web at the
// input shapes heapscope assumes (its defaults for unbound dims), with every
// value heapscope sizes added as a graph output, and each shape heapscope
// claims to know must be the one ONNX Runtime produced. A model ONNX Runtime
// cannot load is reported and skipped; one it loads must run.

import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { convFrontEnd, stftFrontEnd } from '../src/model/testing/audio-front-ends';
import { run } from './testing/run-cli';

const { onnx } = onnxProto;
const MODELS = join(__dirname, '../../shared/models');
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';

interface ReportValue {
  readonly name: string;
  readonly kind: string;
  readonly dtype: string;
  readonly shape: readonly number[] | null;
  readonly upperBound?: true;
}

/** Every .onnx model of the folder and of its sub-folders (one level), but the one whose weight file is missing on purpose. */
function models(): string[] {
  if (!existsSync(MODELS)) return [];
  const top = readdirSync(MODELS).filter((f) => f.endsWith('.onnx')).map((f) => join(MODELS, f));
  const nested = readdirSync(MODELS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'tflite')
    .flatMap((d) => readdirSync(join(MODELS, d.name)).filter((f) => f.endsWith('.onnx')).map((f) => join(MODELS, d.name, f)));
  return [...top, ...nested].filter((p) => !basename(p).includes('missing-external-data'));
}

/** The typed array of zeros ONNX Runtime takes for each input dtype heapscope reports. */
const ZEROS: Readonly<Record<string, [ort.Tensor.Type, (n: number) => ort.Tensor.DataType]>> = {
  float32: ['float32', (n) => new Float32Array(n)],
  float16: ['float16', (n) => new Uint16Array(n)],
  int64: ['int64', (n) => new BigInt64Array(n)],
  int32: ['int32', (n) => new Int32Array(n)],
  bool: ['bool', (n) => new Uint8Array(n)],
  uint8: ['uint8', (n) => new Uint8Array(n)],
  int8: ['int8', (n) => new Int8Array(n)],
};

/** A tensor of zeros of the dtype and shape heapscope assumes for a graph input. */
function zeros(dtype: string, shape: readonly number[]): ort.Tensor {
  const made = ZEROS[dtype];
  if (made === undefined) throw new Error(`no zeros for dtype ${dtype}`);
  const [type, array] = made;
  return new ort.Tensor(type, array(shape.reduce((a, b) => a * b, 1)), [...shape]);
}

/** The model with every named value of `names` added as a graph output (ONNX Runtime infers their types). */
function withOutputs(bytes: Uint8Array, names: readonly string[]): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph!;
  const outputs = (graph.output ??= []);
  const present = new Set(outputs.map((o) => o.name));
  for (const name of names) if (!present.has(name)) outputs.push(onnx.ValueInfoProto.create({ name }));
  return onnx.ModelProto.encode(model).finish();
}

/** The external weight files beside `path` that the model names, for ONNX Runtime's loader. */
function externalData(path: string, bytes: Uint8Array): { path: string; data: Uint8Array }[] {
  const model = onnx.ModelProto.decode(bytes);
  const files = new Set<string>();
  for (const t of model.graph?.initializer ?? []) for (const e of t.externalData ?? []) if (e.key === 'location' && e.value) files.add(e.value);
  return [...files].filter((f) => existsSync(join(dirname(path), f))).map((f) => ({ path: f, data: readFileSync(join(dirname(path), f)) }));
}

const cases = models();

/** Runs the model at `path` in ONNX Runtime at heapscope's default input shapes and compares every shape heapscope knows. */
async function expectShapesAsRun(path: string, dims: readonly string[] = []): Promise<void> {
  const result = run(['inspect', path, '--json', ...dims.flatMap((d) => ['--dim', d])]);
  expect(result.code).toBe(0);
  const values = (JSON.parse(result.out) as { values: ReportValue[] }).values;
  const inputs = values.filter((v) => v.kind === 'input');
  const known = values.filter((v) => (v.kind === 'activation' || v.kind === 'output') && v.shape !== null && v.upperBound !== true);
  const bytes = readFileSync(path);
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(withOutputs(bytes, known.map((v) => v.name)), { externalData: externalData(path, bytes) });
  } catch (error) {
    console.warn(`${basename(path)}: ONNX Runtime cannot load it (${String(error).slice(0, 200)}); not compared`);
    return;
  }
  const feeds: Record<string, ort.Tensor> = {};
  for (const input of inputs) {
    if (!session.inputNames.includes(input.name)) continue; // an initializer listed as a graph input: its own value feeds it
    expect(input.shape, `${input.name} has a shape`).not.toBeNull();
    feeds[input.name] = zeros(input.dtype, input.shape!);
  }
  const outputs = await session.run(feeds);
  const differ = known
    .filter((v) => outputs[v.name] !== undefined)
    .filter((v) => JSON.stringify([...outputs[v.name]!.dims]) !== JSON.stringify(v.shape))
    .map((v) => `${v.name}: heapscope ${JSON.stringify(v.shape)}, ONNX Runtime ${JSON.stringify(outputs[v.name]!.dims)}`);
  expect(differ).toEqual([]);
  // ONNX Runtime produced every value heapscope sizes (none fell out of the graph)
  expect(known.filter((v) => outputs[v.name] === undefined).map((v) => v.name)).toEqual([]);
  await session.release();
}

describe.skipIf(cases.length === 0)('inspect against ONNX Runtime on the real models', () => {
  it.each(cases.map((p) => [basename(p), p]))('%s: every shape heapscope knows is the one ONNX Runtime produces', async (_name, path) => {
    await expectShapesAsRun(path);
  }, 120_000);
});

describe('audio front ends at their default sample count', () => {
  const file = (name: string, bytes: Uint8Array): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'heapscope-ort-')), name);
    writeFileSync(path, bytes);
    return path;
  };

  it.each([
    ['conv-512-256.onnx', convFrontEnd(512, 256)],
    ['conv-dilated.onnx', convFrontEnd(5, 2, 3)],
    ['stft-400-160.onnx', stftFrontEnd(400, 160)],
  ])('%s runs in ONNX Runtime with every tensor sized as heapscope says', async (name, bytes) => {
    const path = file(name, bytes);
    const report = JSON.parse(run(['inspect', path, '--json']).out) as { unknownShapes: unknown[] };
    expect(report.unknownShapes).toEqual([]);
    await expectShapesAsRun(path);
  }, 60_000);
});
