import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { InputError } from '../shared/errors';
import { createRequestHandler, type HandlerDeps } from './handler';
import { NO_MODEL_CODE, type ResultResponse, type WorkerResponse } from './protocol';
import { DEFAULT_SETTINGS as CPU } from '../settings/names';
import { fakeDecode, fakeFile, fakeInfer } from './testing/fakes';

/** A handler over the fakes that records everything it posts. */
function setup(deps: Partial<HandlerDeps> = {}) {
  const posted: WorkerResponse[] = [];
  const decode = vi.fn(fakeDecode);
  const infer = vi.fn(fakeInfer);
  const handle = createRequestHandler((r) => posted.push(r), { decode, infer, yieldToQueue: () => Promise.resolve(), ...deps });
  const results = () => posted.filter((r): r is ResultResponse => r.type === 'result');
  return { posted, decode, infer, handle, results };
}

describe('request handler', () => {
  it('decodes and infers an opened file, reporting progress first', async () => {
    const { handle, posted, results } = setup();
    await handle({ type: 'open', id: 1, bytes: fakeFile('tool-a'), name: 'a.onnx', dims: { batch: 3 }, settings: CPU });
    const last = posted.at(-1);
    expect(last?.type).toBe('result');
    expect(results()[0]?.name).toBe('a.onnx');
    expect(results()[0]?.model.info.producerName).toBe('tool-a');
    expect(results()[0]?.model.values[0]?.bytes).toBe(3 * 16);
    const progress = posted.filter((r) => r.type === 'progress');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    const fractions = progress.map((p) => (p.type === 'progress' ? p.fraction : -1));
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(progress.map((p) => (p.type === 'progress' ? p.label : ''))).toContain('Inferring shapes');
    expect(progress.at(-1)).toMatchObject({ label: 'Planning memory' });
  });

  it('re-infers with new dims without decoding again', async () => {
    const { handle, decode, infer, results } = setup();
    await handle({ type: 'open', id: 1, bytes: fakeFile('tool-a'), name: 'a.onnx', dims: {}, settings: CPU });
    await handle({ type: 'reinfer', id: 2, dims: { batch: 8 }, settings: CPU });
    expect(decode).toHaveBeenCalledTimes(1);
    expect(infer).toHaveBeenCalledTimes(2);
    expect(results().map((r) => r.model.values[0]?.bytes)).toEqual([16, 8 * 16]);
    expect(results()[1]).toMatchObject({ id: 2, name: 'a.onnx', timings: { decodeMs: undefined } });
  });

  it('infers with the shapes and input values of the request, and without them when none are given', async () => {
    const { handle, infer, results } = setup();
    await handle({ type: 'open', id: 1, bytes: fakeFile('tool-a'), name: 'a.onnx', dims: {}, shapes: { x: [5, 4] }, settings: CPU });
    await handle({ type: 'reinfer', id: 2, dims: { batch: 2 }, shapes: {}, inputValues: { sr: [16000] }, settings: CPU });
    expect(infer.mock.calls.map((c) => c[1])).toEqual([
      { dims: {}, shapes: { x: [5, 4] } },
      { dims: { batch: 2 }, inputValues: { sr: [16000] } },
    ]);
    expect(results().map((r) => r.model.values[1]?.shape)).toEqual([[5, 4], [2, 4]]);
    expect(results()[1]?.model.inputValues).toEqual({ sr: [16000] });
  });

  it('plans the inferred model for the settings and re-plans without inferring again', async () => {
    const { handle, posted, infer, results } = setup();
    await handle({ type: 'open', id: 1, bytes: fakeFile('tool-a'), name: 'a.onnx', dims: { batch: 2 }, settings: CPU });
    const opened = results()[0]?.plan;
    expect(opened).toMatchObject({ status: 'planned', settings: CPU, plan: { target: 'cpu', strategy: 'best' } });
    if (opened?.status !== 'planned') return;
    // x and y of the fake model: 2 x 4 float32 each, rounded up to the cpu preset's 64-byte alignment.
    expect(opened.plan.buffers.map((b) => [b.name, b.size])).toEqual([['x', 64], ['y', 64]]);
    await handle({ type: 'replan', id: 2, settings: { target: 'cpu', strategy: 'naive' } });
    expect(infer).toHaveBeenCalledTimes(1);
    expect(posted.at(-1)).toMatchObject({ type: 'planned', id: 2, plan: { status: 'planned', plan: { strategy: 'naive' } } });
  });

  it('opens a model whose plan fails, carrying the planning error', async () => {
    const { handle, results, posted } = setup();
    await handle({ type: 'open', id: 1, bytes: fakeFile('tool-a'), name: 'a.onnx', dims: {}, settings: { target: 'toaster', strategy: undefined } });
    expect(results()[0]?.plan).toMatchObject({ status: 'failed', error: { code: 'bad-target', message: expect.stringContaining('toaster') } });
    await handle({ type: 'replan', id: 2, settings: { target: 'cpu', strategy: 'nope' } });
    expect(posted.at(-1)).toMatchObject({ type: 'planned', plan: { status: 'failed', error: { code: 'bad-argument' } } });
  });

  it('answers a replan with no model with the no-model code', async () => {
    const { handle, posted } = setup();
    await handle({ type: 'replan', id: 1, settings: CPU });
    expect(posted).toEqual([{ type: 'error', id: 1, error: { code: NO_MODEL_CODE, message: expect.any(String) } }]);
  });

  it('answers a reinfer with no decoded model with the no-model code', async () => {
    const { handle, posted } = setup();
    await handle({ type: 'reinfer', id: 1, dims: {}, settings: CPU });
    expect(posted).toEqual([{ type: 'error', id: 1, error: { code: NO_MODEL_CODE, message: expect.any(String) } }]);
  });

  it('turns a bad file into error data and keeps the previous model', async () => {
    const { handle, posted, results } = setup();
    await handle({ type: 'open', id: 1, bytes: fakeFile('tool-a'), name: 'a.onnx', dims: {}, settings: CPU });
    await handle({ type: 'open', id: 2, bytes: new ArrayBuffer(0), name: 'empty.onnx', dims: {}, settings: CPU });
    expect(posted.at(-1)).toEqual({ type: 'error', id: 2, error: { code: 'empty-file', message: 'the file is empty (0 bytes)' } });
    await handle({ type: 'reinfer', id: 3, dims: { batch: 2 }, settings: CPU });
    expect(results().at(-1)).toMatchObject({ id: 3, name: 'a.onnx' });
    expect(results().at(-1)?.model.info.producerName).toBe('tool-a');
  });

  it('keeps the previous model when inference of a new file fails', async () => {
    let failing = false;
    const { handle, posted, results } = setup({
      infer: (ir, options) => {
        if (failing) throw new InputError('bad-graph', 'the graph has a cycle through node n1');
        return fakeInfer(ir, options);
      },
    });
    await handle({ type: 'open', id: 1, bytes: fakeFile('good'), name: 'good.onnx', dims: {}, settings: CPU });
    failing = true;
    await handle({ type: 'open', id: 2, bytes: fakeFile('cyclic'), name: 'cycle.onnx', dims: {}, settings: CPU });
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 2, error: { code: 'bad-graph' } });
    failing = false;
    await handle({ type: 'reinfer', id: 3, dims: {}, settings: CPU });
    expect(results().at(-1)?.model.info.producerName).toBe('good');
  });

  it('reports unexpected throws as internal errors', async () => {
    const { handle, posted } = setup({ infer: () => { throw new TypeError('x is undefined'); } });
    await handle({ type: 'open', id: 1, bytes: fakeFile('a'), name: 'a.onnx', dims: {}, settings: CPU });
    expect(posted.at(-1)).toEqual({ type: 'error', id: 1, error: { code: 'internal', message: 'TypeError: x is undefined' } });
  });

  it('reports an allocation failure while decoding as too-large, naming the file', async () => {
    const { handle, posted } = setup({ decode: () => { throw new RangeError('Array buffer allocation failed'); } });
    await handle({ type: 'open', id: 1, bytes: fakeFile('a'), name: 'huge.onnx', dims: {}, settings: CPU });
    expect(posted.at(-1)).toMatchObject({ type: 'error', error: { code: 'too-large', message: expect.stringContaining('huge.onnx') } });
  });

  it('drops a request superseded while it waited, without decoding it', async () => {
    const { handle, decode, posted } = setup({ yieldToQueue: () => new Promise((r) => setTimeout(r, 0)) });
    const first = handle({ type: 'open', id: 1, bytes: fakeFile('old'), name: 'old.onnx', dims: {}, settings: CPU });
    const second = handle({ type: 'open', id: 2, bytes: fakeFile('new'), name: 'new.onnx', dims: {}, settings: CPU });
    await Promise.all([first, second]);
    expect(decode).toHaveBeenCalledTimes(1);
    expect(posted.every((r) => r.id === 2)).toBe(true);
    expect(posted.at(-1)).toMatchObject({ type: 'result', name: 'new.onnx' });
  });

  it('drops a cancelled request without an answer', async () => {
    const { handle, posted, infer } = setup({ yieldToQueue: () => new Promise((r) => setTimeout(r, 0)) });
    const open = handle({ type: 'open', id: 1, bytes: fakeFile('a'), name: 'a.onnx', dims: {}, settings: CPU });
    await handle({ type: 'cancel', id: 1 });
    await open;
    expect(posted).toEqual([]);
    expect(infer).not.toHaveBeenCalled();
  });
});

/** A Blob of `size` zero bytes that counts the bytes read from it, without holding them. */
function zeroBlob(size: number): { blob: Blob; read: () => number } {
  let read = 0;
  const part = (from: number, to: number): Blob =>
    ({
      size: to - from,
      slice: (a = 0, b = to - from) => part(from + a, from + Math.min(b, to - from)),
      arrayBuffer: () => {
        read += to - from;
        return Promise.resolve(new ArrayBuffer(to - from));
      },
    }) as unknown as Blob;
  return { blob: part(0, size), read: () => read };
}

describe('a large dropped file that cannot be a model', () => {
  it('is refused from its first bytes, in one line, without being read whole', async () => {
    const { handle, posted, decode } = setup();
    const { blob, read } = zeroBlob(2 ** 31 - 1);
    await handle({ type: 'open', id: 1, bytes: blob, name: 'huge.tflite', dims: {}, settings: CPU });
    expect(posted.at(-1)).toMatchObject({ type: 'error', id: 1, error: { message: expect.stringMatching(/^this is not a TensorFlow Lite model: the file has no TensorFlow Lite identifier/) } });
    expect(read()).toBeLessThanOrEqual(512);
    expect(decode).not.toHaveBeenCalled();
  });
});

const MODELS = new URL('../../../shared/models/', import.meta.url);
const modelPath = (name: string) => new URL(name, MODELS);
const haveModels = existsSync(modelPath('winml_mnist.onnx'));

function bytesOf(name: string): ArrayBuffer {
  const data = readFileSync(modelPath(name));
  return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
}

describe.skipIf(!haveModels)('request handler on real models (../shared/models)', () => {
  it('opens winml_mnist.onnx with the real decoder and inference', async () => {
    const posted: WorkerResponse[] = [];
    const handle = createRequestHandler((r) => posted.push(r));
    await handle({ type: 'open', id: 1, bytes: bytesOf('winml_mnist.onnx'), name: 'winml_mnist.onnx', dims: {}, settings: CPU });
    const result = posted.at(-1);
    expect(result?.type).toBe('result');
    if (result?.type !== 'result') return;
    expect(result.model.nodes.length).toBeGreaterThan(0);
    expect(result.model.values.some((v) => v.kind === 'activation' && v.bytes !== undefined && v.bytes > 0)).toBe(true);
    expect(structuredClone(result.model)).toEqual(result.model);
  });

  it('re-infers tiny-llama with a larger sequence dim and the activations grow', async () => {
    const posted: WorkerResponse[] = [];
    const handle = createRequestHandler((r) => posted.push(r));
    const name = 'tiny-llama-fp32-missing-external-data.onnx';
    await handle({ type: 'open', id: 1, bytes: bytesOf(name), name, dims: {}, settings: CPU });
    const first = posted.at(-1);
    expect(first?.type).toBe('result');
    if (first?.type !== 'result') return;
    const dim = first.model.dims.find((d) => /seq/i.test(d.name)) ?? first.model.dims[0];
    expect(dim).toBeDefined();
    if (dim === undefined) return;
    await handle({ type: 'reinfer', id: 2, dims: { [dim.name]: dim.value * 4 + 4 }, settings: CPU });
    const second = posted.at(-1);
    expect(second?.type).toBe('result');
    if (second?.type !== 'result') return;
    const total = (r: ResultResponse) => r.model.values.reduce((s, v) => s + (v.kind === 'activation' ? (v.bytes ?? 0) : 0), 0);
    expect(total(second)).toBeGreaterThan(total(first));
    expect(second.model.dims.find((d) => d.name === dim.name)).toMatchObject({ value: dim.value * 4 + 4, source: 'user' });
  });
});
