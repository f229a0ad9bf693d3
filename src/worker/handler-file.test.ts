// The worker reads a dropped File itself, so no buffer near 2 GiB crosses postMessage.

import { describe, expect, it, vi } from 'vitest';
import { createRequestHandler } from './handler';
import { DEFAULT_SETTINGS as CPU } from '../settings/names';
import type { ErrorResponse, ResultResponse, WorkerResponse } from './protocol';
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

  it('refuses a dropped file of random bytes in the words of the command line, from its first byte', async () => {
    // 0x45 is field 8 with wire type 5: no ModelProto field; the rest is random-looking, as a user's damaged download is.
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i === 0 ? 0x45 : (i * 151 + 7) & 0xff));
    for (const source of [new Blob([bytes]), bytes.slice().buffer]) {
      const posted: WorkerResponse[] = [];
      const handle = createRequestHandler((r) => posted.push(r), { yieldToQueue: () => Promise.resolve() });
      await handle({ type: 'open', id: 1, bytes: source, name: 'random.onnx', dims: {}, settings: CPU });
      const error = posted.find((r): r is ErrorResponse => r.type === 'error')?.error;
      expect(error).toMatchObject({
        code: 'not-onnx',
        message: 'this is not an ONNX or TensorFlow Lite model: its first byte (0x45) is not the tag of an ONNX ModelProto field, and it has no TFL3 identifier at byte 4',
      });
    }
  });
});
