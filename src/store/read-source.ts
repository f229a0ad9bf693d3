// Reading model bytes on the page: from a File/Blob or from a URL, with progress
// and typed errors (too large, unreadable, unreachable) that name the file. A
// download that receives nothing for STALL_MS (no answer, or a body that stops)
// is given up with a sentence that says so; the caller keeps its model.

import { InputError } from '../shared/errors';
import { formatBytes } from '../shared/format';

/** Largest model the page reads: protobuf's own length limit (2 GiB). */
export const MAX_MODEL_BYTES = 2 ** 31 - 1;

/** A download that receives nothing for this long, in ms, is given up: no headers, or no body bytes since the last ones. */
export const STALL_MS = 30_000;

/** Reports bytes read so far; `total` undefined when not known. */
export type ReadProgress = (loaded: number, total: number | undefined) => void;

/** Fails with code 'too-large' when `size` is over `max`; called before any byte is read. */
export function checkSize(name: string, size: number, max = MAX_MODEL_BYTES): void {
  if (size > max) {
    throw new InputError(
      'too-large',
      `${name} is ${formatBytes(size)} (${size} bytes); the page can open models up to ${formatBytes(max + 1)} — use the command-line tool for larger files`,
    );
  }
}

/** Reads a whole Blob into a fresh ArrayBuffer of its exact size, reporting progress. */
export async function readBlob(
  blob: Blob,
  name: string,
  options: { readonly onProgress?: ReadProgress; readonly signal?: AbortSignal; readonly max?: number } = {},
): Promise<ArrayBuffer> {
  const { onProgress, signal, max = MAX_MODEL_BYTES } = options;
  checkSize(name, blob.size, max);
  if (typeof blob.stream !== 'function') return readFailing(name, () => blob.arrayBuffer());
  const target = allocate(name, blob.size);
  const reader = blob.stream().getReader();
  let loaded = 0;
  for (;;) {
    const { done, value } = await readFailing(name, () => reader.read());
    if (done) break;
    if (signal?.aborted) {
      await reader.cancel();
      throw signal.reason;
    }
    if (loaded + value.byteLength > target.byteLength) throw new InputError('io', `${name} changed on disk while it was being read`);
    target.set(value, loaded);
    loaded += value.byteLength;
    onProgress?.(loaded, blob.size);
  }
  if (loaded !== target.byteLength) throw new InputError('io', `${name} changed on disk while it was being read`);
  return target.buffer as ArrayBuffer;
}

/** What a download needs from the environment; tests pass fakes. */
export interface FetchDeps {
  readonly fetch: typeof fetch;
  readonly baseUrl: string; // relative URLs resolve against it
}

/** Options of a download. */
export interface FetchOptions {
  readonly onProgress?: ReadProgress;
  readonly signal?: AbortSignal; // aborts the request and the body
  readonly max?: number;
  readonly stallMs?: number; // STALL_MS unless given (tests)
}

/** A downloaded model. */
export interface Download {
  readonly bytes: ArrayBuffer;
  readonly name: string;
  readonly url: string; // absolute
}

/** Downloads a model, with progress, a size check before reading the body, and sentences for network failures. */
export async function fetchModel(url: string, deps: FetchDeps, options: FetchOptions = {}): Promise<Download> {
  const { onProgress, signal, max = MAX_MODEL_BYTES, stallMs = STALL_MS } = options;
  const absolute = resolveUrl(url, deps.baseUrl);
  const name = nameOfUrl(absolute);
  const fetchFn = deps.fetch; // called unbound: window.fetch rejects another `this`
  const watch = stallWatch(stallMs, signal, (seconds) => new InputError('io', `could not download ${absolute.href}: the server sent nothing for ${seconds} s, so the download was given up`));
  try {
    let response: Response;
    try {
      response = await fetchFn(absolute.href, { signal: watch.signal });
    } catch {
      if (watch.signal.aborted) throw watch.signal.reason;
      throw new InputError(
        'io',
        `could not download ${absolute.href}: the server did not answer, or it does not allow this page to read the file (CORS)`,
      );
    }
    if (!response.ok) {
      throw new InputError('io', `could not download ${absolute.href}: the server answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    }
    watch.kick();
    const length = Number(response.headers.get('content-length') ?? Number.NaN);
    const total = Number.isFinite(length) && length >= 0 ? length : undefined;
    if (total !== undefined) checkSize(name, total, max);
    const bytes = await readBody(response, name, total, onProgress, max, watch);
    if (isWebPage(response, bytes)) {
      // A site that answers every address with its own page (a single-page app, a login) sends 200 for a path that holds no model.
      throw new InputError('io', `could not download ${absolute.href}: the server answered with a web page (text/html), not a model file; the address is probably wrong`);
    }
    return { bytes, name, url: absolute.href };
  } finally {
    watch.done();
  }
}

/** True when the answer is an HTML page: served as text/html and starting with a tag. */
function isWebPage(response: Response, bytes: ArrayBuffer): boolean {
  if (!/^\s*text\/html\b/i.test(response.headers.get('content-type') ?? '')) return false;
  const head = new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 64));
  const first = head.find((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0xef && b !== 0xbb && b !== 0xbf);
  return first === 0x3c; // '<'
}

/** A signal that aborts with the caller's reason, or with `stalled(seconds)` when `kick` has not been called for `ms`. */
interface StallWatch {
  readonly signal: AbortSignal;
  readonly kick: () => void; // something arrived: the wait starts again
  readonly done: () => void; // stops the timer
}

function stallWatch(ms: number, outer: AbortSignal | undefined, stalled: (seconds: number) => Error): StallWatch {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = () => clearTimeout(timer);
  const kick = () => {
    done();
    if (!controller.signal.aborted) timer = setTimeout(() => controller.abort(stalled(Math.round(ms / 1000))), ms);
  };
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', () => controller.abort(outer.reason), { once: true });
  kick();
  return { signal: controller.signal, kick, done };
}

/** The file name a URL points at: its last path segment, else its host. */
export function nameOfUrl(url: URL): string {
  const segment = url.pathname.split('/').filter(Boolean).at(-1);
  if (segment === undefined) return url.host || url.href;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Resolves a model URL against the page; only http(s), blob: and data: URLs are downloaded. */
export function resolveUrl(url: string, base: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    throw new InputError('bad-url', `"${url}" is not a valid URL`);
  }
  if (!['http:', 'https:', 'blob:', 'data:'].includes(parsed.protocol)) {
    throw new InputError('bad-url', `"${url}" uses ${parsed.protocol} — the page can download models over http and https only`);
  }
  return parsed;
}

async function readBody(response: Response, name: string, total: number | undefined, onProgress: ReadProgress | undefined, max: number, watch: StallWatch): Promise<ArrayBuffer> {
  if (response.body === null) return untilAborted(watch.signal, response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await readFailing(name, () => untilAborted(watch.signal, reader.read()));
    if (done) break;
    watch.kick();
    loaded += value.byteLength;
    checkSize(name, loaded, max);
    chunks.push(value);
    onProgress?.(loaded, total);
  }
  const target = allocate(name, loaded);
  let offset = 0;
  for (const chunk of chunks) {
    target.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return target.buffer as ArrayBuffer;
}

/** `pending`, or a rejection with the signal's reason as soon as it aborts (a stalled body may never settle by itself). */
function untilAborted<T>(signal: AbortSignal, pending: Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error as Error)),
    );
  });
}

/** Allocates the buffer a file goes in; the browser refusing the memory is 'too-large'. */
function allocate(name: string, size: number): Uint8Array {
  try {
    return new Uint8Array(size);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError('too-large', `${name} is ${formatBytes(size)}, more memory than this browser tab can allocate (${why})`);
  }
}

async function readFailing<T>(name: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InputError || (error instanceof Error && error.name === 'AbortError')) throw error;
    if (error instanceof RangeError) throw new InputError('too-large', `${name} does not fit in this browser tab's memory (${error.message})`);
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError('io', `could not read ${name}: ${why}`);
  }
}
