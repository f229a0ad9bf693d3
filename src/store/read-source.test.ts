import { describe, expect, it, vi } from 'vitest';
import { InputError } from '../shared/errors';
import { checkSize, fetchModel, readBlob } from './read-source';

const deps = (fetchFn: (url: string) => Promise<Response>) => ({ fetch: fetchFn as unknown as typeof fetch, baseUrl: 'https://site.example/app/' });

describe('reading model bytes', () => {
  it('reads a blob exactly, reporting progress up to its size', async () => {
    const data = new Uint8Array(200_000).map((_, i) => i % 251);
    const progress = vi.fn();
    const bytes = await readBlob(new Blob([data]), 'm.onnx', { onProgress: progress });
    expect(new Uint8Array(bytes)).toEqual(data);
    expect(progress).toHaveBeenLastCalledWith(200_000, 200_000);
  });

  it('says how large a too-large file is, naming it', () => {
    expect(() => checkSize('big.onnx', 3 * 2 ** 30)).toThrow(
      new InputError('too-large', 'big.onnx is 3.00 GiB (3221225472 bytes); the page can open models up to 2.00 GiB — use the command-line tool for larger files'),
    );
    expect(() => checkSize('ok.onnx', 2 ** 31 - 1)).not.toThrow();
  });

  it('stops a download whose Content-Length is too large before reading the body', async () => {
    const body = new ReadableStream<Uint8Array>({ pull: vi.fn() });
    const read = vi.spyOn(body, 'getReader');
    const response = new Response(body, { headers: { 'content-length': String(5000) } });
    await expect(fetchModel('m.onnx', deps(async () => response), { max: 4000 })).rejects.toMatchObject({ code: 'too-large' });
    expect(read).not.toHaveBeenCalled();
  });

  it('stops a download without a length once it grows too large', async () => {
    const response = new Response(new Blob([new Uint8Array(5000)]).stream());
    await expect(fetchModel('m.onnx', deps(async () => response), { max: 4000 })).rejects.toMatchObject({ code: 'too-large' });
  });

  it("says the address is probably wrong when the server answers with its own web page, naming the whole URL", async () => {
    const page = () => new Response('<!doctype html><html><body>app</body></html>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    await expect(fetchModel('/missing-model.onnx', deps(async () => page()))).rejects.toMatchObject({
      code: 'io',
      message: 'could not download https://site.example/missing-model.onnx: the server answered with a web page (text/html), not a model file; the address is probably wrong',
    });
    // A model whose server calls it text/html is still a model; an HTML file not sent as a page is left to the decoder to name.
    const model = new Uint8Array([0x08, 0x07, 0x12, 0x00]);
    await expect(fetchModel('m.onnx', deps(async () => new Response(model, { headers: { 'content-type': 'text/html' } })))).resolves.toMatchObject({ name: 'm.onnx' });
    await expect(fetchModel('m.onnx', deps(async () => new Response('<html></html>', { headers: { 'content-type': 'application/octet-stream' } })))).resolves.toMatchObject({ name: 'm.onnx' });
  });

  it('rejects URLs that are not http(s), blob: or data:', async () => {
    const fetchFn = vi.fn();
    await expect(fetchModel('file:///etc/passwd', deps(fetchFn))).rejects.toMatchObject({ code: 'bad-url' });
    await expect(fetchModel('http://[::1', deps(fetchFn))).rejects.toMatchObject({ code: 'bad-url', message: '"http://[::1" is not a valid URL' });
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('downloads with progress against the Content-Length', async () => {
    const progress = vi.fn();
    const response = new Response(new Uint8Array([1, 2, 3, 4]), { headers: { 'content-length': '4' } });
    const result = await fetchModel('models/a.onnx?v=2', deps(async () => response), { onProgress: progress });
    expect(result).toMatchObject({ name: 'a.onnx', url: 'https://site.example/app/models/a.onnx?v=2' });
    expect([...new Uint8Array(result.bytes)]).toEqual([1, 2, 3, 4]);
    expect(progress).toHaveBeenLastCalledWith(4, 4);
  });
});

describe('a download that stalls', () => {
  /** A fetch that honours its signal as the browser's does: it rejects with the signal's reason once aborted. */
  const hanging = (body?: ReadableStream<Uint8Array>) =>
    deps(
      (_url, init?: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error));
          if (body !== undefined) resolve(new Response(body));
        }) as Promise<Response>,
    );

  it('is given up when the server never answers, with a sentence that says how long it waited', async () => {
    const error = await fetchModel('m.onnx', hanging(), { stallMs: 1000 }).catch((e: unknown) => e);
    expect(error).toEqual(new InputError('io', 'could not download https://site.example/app/m.onnx: the server sent nothing for 1 s, so the download was given up'));
  });

  it('is given up when the body stops arriving, after the bytes that came', async () => {
    const progress = vi.fn();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
      }, // then nothing, never closed
    });
    const error = await fetchModel('m.onnx', hanging(body), { stallMs: 200, onProgress: progress }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'io', message: expect.stringContaining('the server sent nothing for 0 s') });
    expect(progress).toHaveBeenCalledWith(10, undefined);
  });

  it('keeps waiting while bytes keep coming, however long the whole download takes', async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        if (sent++ < 8) controller.enqueue(new Uint8Array(5));
        else controller.close();
      },
    });
    const download = await fetchModel('m.onnx', hanging(body), { stallMs: 150 });
    expect(download.bytes.byteLength).toBe(40); // 320 ms in all, never 150 ms without a byte
  });

  it('is stopped by the caller with the caller\'s reason, not as a stall', async () => {
    const controller = new AbortController();
    const pending = fetchModel('m.onnx', hanging(), { stallMs: 10_000, signal: controller.signal });
    const reason = new DOMException('superseded', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
