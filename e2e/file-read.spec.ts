// A model opened from a File is read in the model worker, not on the page:
// the page posts the File itself (nothing transferred) and reads only its
// first bytes, to tell a saved plan from a model, yet the model opens, so the
// worker read the rest. A file over the page's 2 GiB limit (a real File of 2 GiB + 1 MiB,
// made of one 1 MiB Blob repeated, so no 2 GiB is allocated) is refused
// before any of it is read, with a sentence naming the limit, and the model
// on screen stays.

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { chainModel, snap, startOnSmallModel, summary, test, waitForError, waitForModel } from './fixtures';

/** What the page did with files: messages to its workers, and the sizes of Blobs it read. */
interface PageTrace {
  readonly posted: { readonly type: string; readonly bytes: string; readonly name: string; readonly size: number; readonly transferred: number }[];
  readonly mainReads: number[];
}

declare global {
  interface Window {
    __fileTrace?: PageTrace;
  }
}

/** Records, from before the app starts, what the page posts to workers and every Blob read on the main thread. */
async function traceFiles(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const trace = { posted: [] as PageTrace['posted'][number][], mainReads: [] as number[] };
    window.__fileTrace = trace;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, options?: unknown) {
      const m = message as { type?: unknown; bytes?: unknown; name?: unknown } | null;
      if (m !== null && typeof m === 'object' && m.type === 'open') {
        const bytes = m.bytes;
        const transfer = Array.isArray(options) ? options : ((options as { transfer?: unknown[] } | undefined)?.transfer ?? []);
        trace.posted.push({
          type: 'open',
          bytes: bytes instanceof File ? 'File' : bytes instanceof Blob ? 'Blob' : bytes instanceof ArrayBuffer ? 'ArrayBuffer' : typeof bytes,
          name: String(m.name),
          size: bytes instanceof Blob ? bytes.size : bytes instanceof ArrayBuffer ? bytes.byteLength : -1,
          transferred: transfer.length,
        });
      }
      return (post as (this: Worker, message: unknown, options?: unknown) => void).call(this, message, options);
    } as typeof Worker.prototype.postMessage;
    for (const method of ['arrayBuffer', 'text', 'stream', 'bytes'] as const) {
      const original = (Blob.prototype as unknown as Record<string, ((this: Blob) => unknown) | undefined>)[method];
      if (original === undefined) continue;
      (Blob.prototype as unknown as Record<string, unknown>)[method] = function (this: Blob) {
        trace.mainReads.push(this.size);
        return original.call(this);
      };
    }
    const readAs = FileReader.prototype.readAsArrayBuffer;
    FileReader.prototype.readAsArrayBuffer = function (this: FileReader, blob: Blob) {
      trace.mainReads.push(blob.size);
      return readAs.call(this, blob);
    };
  });
}

async function pageTrace(page: Page): Promise<PageTrace> {
  return page.evaluate(() => window.__fileTrace!);
}

/** Bytes the page reads to tell a saved plan from a model (src/views/compare/use-compare.ts). */
const SNIFF_BYTES = 256;

test('a model picked with Open file is posted to the worker as the File and read there, not on the page', async ({ page }) => {
  await traceFiles(page);
  await startOnSmallModel(page);
  const before = await pageTrace(page);
  const model = Buffer.from(chainModel(200));
  expect(model.length).toBeGreaterThan(10 * SNIFF_BYTES);
  await page.locator('#open-file').setInputFiles({ name: 'picked.onnx', mimeType: 'application/octet-stream', buffer: model });
  await waitForModel(page, 'picked.onnx');
  const after = await pageTrace(page);
  const opens = after.posted.slice(before.posted.length);
  expect(opens).toEqual([{ type: 'open', bytes: 'File', name: 'picked.onnx', size: model.length, transferred: 0 }]);
  // The page read at most the first bytes of the file, and the model of 200 nodes opened from all of them.
  const pageReads = after.mainReads.slice(before.mainReads.length);
  expect(pageReads.length).toBeGreaterThan(0);
  expect(pageReads.every((size) => size <= SNIFF_BYTES)).toBe(true);
  expect((await summary(page)).nodes).toBe(200);
});

test('a File over the 2 GiB limit is refused before it is read, naming the limit, and the model on screen stays', async ({ page }) => {
  await traceFiles(page);
  await startOnSmallModel(page, 'good.onnx');
  const before = await pageTrace(page);
  const size = await page.evaluate(() => {
    // 2,049 references to one 1 MiB Blob: a real File of 2 GiB + 1 MiB that occupies 1 MiB.
    const mebibyte = new Blob([new Uint8Array(2 ** 20)]);
    const file = new File(Array.from({ length: 2049 }, () => mebibyte), 'huge.onnx', { type: 'application/octet-stream' });
    const transfer = new DataTransfer();
    transfer.items.add(file);
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    return file.size;
  });
  expect(size).toBe(2 ** 31 + 2 ** 20);
  await waitForError(page, 'huge.onnx');
  await expect(page.getByRole('alert')).toHaveAttribute('data-code', 'too-large');
  const message = page.getByTestId('error-message');
  await expect(message).toContainText(`(${size} bytes)`);
  await expect(message).toContainText('up to 2.00 GiB');
  await expect(message).toContainText('command-line tool');
  // Refused before reading: nothing posted to the worker, nothing read but the first bytes.
  const after = await pageTrace(page);
  expect(after.posted.slice(before.posted.length)).toEqual([]);
  expect(after.mainReads.slice(before.mainReads.length).every((n) => n <= SNIFF_BYTES)).toBe(true);
  // The model on screen stays; dismissing the banner brings the page back to ready.
  const s = await summary(page);
  expect(s.model).toBe('good.onnx');
  expect(s.error).toContain('huge.onnx');
  await expect(page.getByTestId('current-file')).toContainText('good.onnx');
  await snap(page, 'error-over-limit-file');
  await page.getByRole('button', { name: 'Dismiss error' }).click();
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  expect((await summary(page)).model).toBe('good.onnx');
});
