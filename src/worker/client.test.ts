import { describe, expect, it, vi } from 'vitest';
import { createModelClient, createLocalPort, type PortFactory, type RequestPort } from './client';
import { createRequestHandler } from './handler';
import { DEFAULT_SETTINGS as CPU } from '../settings/names';
import type { WorkerRequest, WorkerResponse } from './protocol';
import { fakeDecode, fakeFile, fakeInfer } from './testing/fakes';

/** A port factory over the fake handler that records posts, transfers and terminations. */
function recordingPorts() {
  const log: { request: WorkerRequest; transfer: Transferable[] }[] = [];
  const crashes: ((message: string) => void)[] = [];
  let terminated = 0;
  let created = 0;
  const factory: PortFactory = (onResponse, onCrash) => {
    created += 1;
    crashes.push(onCrash);
    let alive = true;
    const handle = createRequestHandler((r: WorkerResponse) => alive && onResponse(r), { decode: fakeDecode, infer: fakeInfer });
    const port: RequestPort = {
      post: (request, transfer) => {
        log.push({ request, transfer });
        setTimeout(() => alive && void handle(request), 0);
      },
      terminate: () => {
        alive = false;
        terminated += 1;
      },
    };
    return port;
  };
  return { factory, log, crashes, counts: () => ({ created, terminated }) };
}

describe('model client', () => {
  it('transfers the file bytes and resolves with the inferred model', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    const bytes = fakeFile('tool');
    const progress = vi.fn();
    const outcome = await client.open(bytes, 'm.onnx', { dims: { batch: 2 } }, CPU, progress);
    expect(outcome.status).toBe('done');
    if (outcome.status !== 'done') return;
    expect(outcome.result.name).toBe('m.onnx');
    expect(outcome.result.model.values[0]?.shape).toEqual([2, 4]);
    expect(ports.log[0]?.transfer).toEqual([bytes]);
    expect(progress).toHaveBeenCalled();
  });

  it('terminates a busy worker when a new file is opened, cancelling the old request', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    const first = client.open(fakeFile('old'), 'old.onnx', { dims: {} }, CPU);
    const second = client.open(fakeFile('new'), 'new.onnx', { dims: {} }, CPU);
    expect(await first).toEqual({ status: 'cancelled' });
    const done = await second;
    expect(done.status === 'done' && done.result.model.info.producerName).toBe('new');
    expect(ports.counts()).toEqual({ created: 2, terminated: 1 });
  });

  it('keeps the worker for a reinfer and cancels the older reinfer', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    await client.open(fakeFile('m'), 'm.onnx', { dims: {} }, CPU);
    const a = client.reinfer({ dims: { batch: 2 } }, CPU);
    const b = client.reinfer({ dims: { batch: 5 } }, CPU);
    expect(await a).toEqual({ status: 'cancelled' });
    const done = await b;
    expect(done.status === 'done' && done.result.model.values[0]?.shape).toEqual([5, 4]);
    expect(ports.counts()).toEqual({ created: 1, terminated: 0 });
    expect(ports.log.map((l) => l.request.type)).toEqual(['open', 'reinfer', 'cancel', 'reinfer']);
  });

  it('replans the inferred model without inferring again, answering with the new plan', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    const opened = await client.open(fakeFile('m'), 'm.onnx', { dims: { batch: 2 } }, CPU);
    expect(opened.status === 'done' && opened.result.plan).toMatchObject({ status: 'planned', plan: { strategy: 'best' } });
    const replanned = await client.replan({ target: 'cpu', strategy: 'naive' });
    expect(replanned).toMatchObject({ status: 'done', result: { status: 'planned', plan: { strategy: 'naive', target: 'cpu' } } });
    expect(ports.log.map((l) => l.request.type)).toEqual(['open', 'replan']);
  });

  it('cancel() stops an open by terminating the worker', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    const open = client.open(fakeFile('m'), 'm.onnx', { dims: {} }, CPU);
    client.cancel();
    expect(await open).toEqual({ status: 'cancelled' });
    expect(ports.counts().terminated).toBe(1);
  });

  it('fails the request in flight when the worker crashes, and starts a new worker next time', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    const open = client.open(fakeFile('m'), 'm.onnx', { dims: {} }, CPU);
    ports.crashes[0]?.('out of memory');
    expect(await open).toEqual({ status: 'failed', error: { code: 'internal', message: 'the model worker stopped: out of memory' } });
    const again = await client.reinfer({ dims: {} }, CPU);
    expect(again).toMatchObject({ status: 'failed', error: { code: 'no-model' } });
    expect(ports.counts().created).toBe(2);
  });

  it('runs on the main thread through the local port when there is no Worker', async () => {
    expect(typeof Worker).toBe('undefined');
    const client = createModelClient();
    const outcome = await client.open(new ArrayBuffer(0), 'empty.onnx', { dims: {} }, CPU);
    // The real decoder ran here and rejected the empty file with a typed error.
    expect(outcome).toMatchObject({ status: 'failed', error: { code: expect.not.stringMatching(/^internal$/) } });
  });

  it('drops the answers of a terminated local port', async () => {
    const live: WorkerResponse[] = [];
    const dead: WorkerResponse[] = [];
    const livePort = createLocalPort((r) => live.push(r));
    const deadPort = createLocalPort((r) => dead.push(r));
    deadPort.post({ type: 'reinfer', id: 1, dims: {}, settings: CPU }, []);
    livePort.post({ type: 'reinfer', id: 1, dims: {}, settings: CPU }, []);
    deadPort.terminate();
    await vi.waitFor(() => expect(live).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 0));
    expect(live[0]).toMatchObject({ type: 'error', error: { code: 'no-model' } });
    expect(dead).toEqual([]);
  });

  it('runs a comparison beside a replan and hands each its own answer', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    await client.open(fakeFile('tool'), 'm.onnx', { dims: {} }, CPU);
    const progress = vi.fn();
    const comparing = client.compare(CPU, progress);
    const replanned = await client.replan({ target: 'cpu', strategy: 'naive' });
    expect(replanned).toMatchObject({ status: 'done', result: { status: 'planned', plan: { strategy: 'naive' } } });
    const compared = await comparing;
    expect(compared.status).toBe('done');
    if (compared.status !== 'done') return;
    expect(compared.result.peaks.map((p) => p.strategy)).toContain('naive');
    expect(progress).toHaveBeenCalledWith(0, expect.stringContaining('Comparing strategies'));
  });

  it('cancels a comparison when another is asked for or a new model is opened', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    await client.open(fakeFile('tool'), 'm.onnx', { dims: {} }, CPU);
    const first = client.compare(CPU);
    const second = client.compare({ target: 'mcu', strategy: undefined });
    expect(await first).toEqual({ status: 'cancelled' });
    const third = client.compare(CPU);
    const reopened = client.open(fakeFile('other'), 'o.onnx', { dims: {} }, CPU);
    expect(await third).toEqual({ status: 'cancelled' });
    expect((await reopened).status).toBe('done');
    expect(await second).toMatchObject({ status: 'cancelled' });
    expect(ports.log.filter((l) => l.request.type === 'cancel').length).toBeGreaterThanOrEqual(1);
  });

  it('evaluates suggestions beside the other requests; a replan or a new model cancels them', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    await client.open(fakeFile('tool'), 'm.onnx', { dims: {} }, CPU);
    const progress = vi.fn();
    const suggested = await client.suggest(CPU, progress);
    expect(suggested).toMatchObject({ status: 'done', result: { settings: CPU, suggestions: expect.any(Array) } });
    expect(progress).toHaveBeenCalledWith(expect.any(Number), expect.stringContaining('Evaluating suggestions'));
    const dropped = client.suggest(CPU);
    const replanned = client.replan({ target: 'cpu', strategy: 'naive' });
    expect(await dropped).toEqual({ status: 'cancelled' });
    expect((await replanned).status).toBe('done');
    const again = client.suggest({ target: 'cpu', strategy: 'naive' });
    const comparing = client.compare(CPU);
    const reopened = client.open(fakeFile('other'), 'o.onnx', { dims: {} }, CPU);
    expect(await again).toEqual({ status: 'cancelled' });
    expect(await comparing).toEqual({ status: 'cancelled' });
    expect((await reopened).status).toBe('done');
    expect(ports.log.filter((l) => l.request.type === 'cancel').length).toBeGreaterThanOrEqual(2);
  });

  it('asks for a planned .tflite beside a replan, hands each its own answer, and a restarted worker cancels it', async () => {
    const ports = recordingPorts();
    const client = createModelClient(ports.factory);
    await client.open(fakeFile('tool'), 'm.onnx', { dims: {} }, CPU);
    const asked = client.plannedTflite({ name: 'm.onnx', size: 4, offsets: [] });
    const replanned = client.replan({ target: 'cpu', strategy: 'naive' });
    // The fake model is no .tflite: the worker says so, and the replan is answered all the same.
    expect(await asked).toMatchObject({ status: 'failed', error: { code: 'not-a-model' } });
    expect((await replanned).status).toBe('done');
    expect(ports.log.find((l) => l.request.type === 'planned-tflite')?.request).toMatchObject({ name: 'm.onnx', size: 4, offsets: [] });
    const busy = client.open(fakeFile('a'), 'a.onnx', { dims: {} }, CPU);
    const dropped = client.plannedTflite({ name: 'm.onnx', size: 4, offsets: [] });
    const other = client.open(fakeFile('b'), 'b.onnx', { dims: {} }, CPU);
    expect(await dropped).toEqual({ status: 'cancelled' });
    expect(await busy).toEqual({ status: 'cancelled' });
    expect((await other).status).toBe('done');
  });
});
