// The worker reads a dropped File itself, so no buffer near 2 GiB crosses postMessage.

import { describe, expect, it, vi } from 'vitest';
import { createRequestHandler } from './handler';
import { DEFAULT_SETTINGS as CPU } from '../settings/names';
import type { ResultResponse, WorkerResponse } from './protocol';
import { fakeDecode, fakeFile, fakeInfer } from './testing/fakes';

describe('request handler with a File', () => {
  it('reads the Blob in the worker and decodes its bytes', async () => {
    const posted: WorkerResponse[] = [];
    const decode = vi.fn(fakeDecode);
    const handle = createRequestHandler((r) => posted.push(r), { decode, infer: fakeInfer, yieldToQueue: () => Promise.resolve() });
    const file = new Blob([fakeFile('tool-b')]);
    await handle({ type: 'open', id: 1, bytes: file, name: 'b.onnx', dims: {}, settings: CPU });
    const result = posted.find((r): r is ResultResponse => r.type === 'result');
    expect(result?.model.info.producerName).toBe('tool-b');
    expect(decode.mock.calls[0]?.[0].byteLength).toBe(file.size);
  });

  it('answers a Blob that cannot be read with an io error naming the file', async () => {
    const posted: WorkerResponse[] = [];
    const handle = createRequestHandler((r) => posted.push(r), { decode: fakeDecode, infer: fakeInfer, yieldToQueue: () => Promise.resolve() });
    const broken = new Blob(['x']);
    Object.defineProperty(broken, 'arrayBuffer', { value: () => Promise.reject(new RangeError('Array buffer allocation failed')) });
    await handle({ type: 'open', id: 1, bytes: broken, name: 'huge.onnx', dims: {}, settings: CPU });
    expect(posted.at(-1)).toMatchObject({ type: 'error', error: { code: 'io', message: expect.stringMatching(/^huge\.onnx could not be read/) } });
  });
});
