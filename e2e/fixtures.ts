// Helpers of the end-to-end tests: the real models of ../shared/models, ONNX
// files built here with onnx-proto (tiny, broken, huge), dropping files on the
// page like a person would, waiting on the page status, and screenshots; and
// `test`, which every spec uses: it fails a test on any console error or
// uncaught exception in the page, its frames or its workers.

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import onnxProto from 'onnx-proto';
import { llamaModel, LLAMA_80 } from '../src/model/testing/llama-model';

const { onnx } = onnxProto;

/** Console errors a test expects, by pattern; any other error fails it. */
export interface ConsoleErrors {
  /** Lets errors matching `pattern` pass for the rest of the test. */
  allow(pattern: RegExp): void;
  /** The errors seen so far, expected or not. */
  readonly seen: readonly string[];
}

/**
 * Playwright's test with an automatic fixture that listens to the console and
 * to uncaught exceptions of every page of the test, and fails the test at its
 * end when any error appeared that the test did not `allow`.
 */
export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    async ({ context }, use, testInfo) => {
      const seen: string[] = [];
      const allowed: RegExp[] = [];
      const watch = (page: Page): void => {
        page.on('console', (message) => {
          if (message.type() !== 'error') return;
          const where = message.location().url;
          seen.push(`${message.text()}${where ? ` (${where})` : ''}`);
        });
        page.on('pageerror', (error) => seen.push(`uncaught: ${error.message}`));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use({ allow: (pattern) => void allowed.push(pattern), seen });
      const unexpected = seen.filter((text) => !allowed.some((p) => p.test(text)));
      if (unexpected.length > 0 && testInfo.status === testInfo.expectedStatus) {
        throw new Error(`${unexpected.length} console error(s):\n${unexpected.slice(0, 10).join('\n')}`);
      }
    },
    { auto: true },
  ],
});

/** The shared corpus of real models (see its README). */
export const MODELS_DIR = new URL('../../shared/models/', import.meta.url);
/** Screenshots a person can look at. */
export const ARTIFACTS_DIR = new URL('../e2e-artifacts/', import.meta.url);
/** The sample the page opens at start. */
export const SAMPLE_PATH = new URL('../public/sample.onnx', import.meta.url);

/** True when ../shared/models holds `name`. */
export function haveModel(name: string): boolean {
  return existsSync(new URL(name, MODELS_DIR));
}

/** Reason printed when a test skips for want of the model corpus. */
export const NO_MODELS = 'needs ../shared/models (the real-model corpus); it is absent here';

/** The bytes of a model from the corpus. */
export function readModel(name: string): Buffer {
  return readFileSync(new URL(name, MODELS_DIR));
}

/** Saves a full-page screenshot as e2e-artifacts/<name>.png. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS_DIR).pathname, animations: 'disabled' });
}

/** Waits until the page shows model `name` and its status is 'ready'. */
export async function waitForModel(page: Page, name: string): Promise<void> {
  await page.waitForFunction(
    (expected) => document.body.dataset.status === 'ready' && window.heapscope?.summary().model === expected,
    name,
  );
}

/** Waits until the error banner names `file` and the page status is 'error'. */
export async function waitForError(page: Page, file: string): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      document.body.dataset.status === 'error' && document.querySelector('[data-testid="error-file"]')?.textContent === expected,
    file,
  );
}

/** The page's summary (window.heapscope.summary()). */
export async function summary(page: Page) {
  return page.evaluate(() => {
    if (!window.heapscope) throw new Error('window.heapscope is missing');
    return window.heapscope.summary();
  });
}

/** Drags a file over the page and drops it; returns once the drop is dispatched. */
export async function dropFile(page: Page, name: string, bytes: Uint8Array, options: { screenshot?: string } = {}): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ fileName, base64 }) => {
      const binary = atob(base64);
      const data = Uint8Array.from(binary, (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], fileName, { type: 'application/octet-stream' }));
      return transfer;
    },
    { fileName: name, base64: Buffer.from(bytes).toString('base64') },
  );
  await page.dispatchEvent('body', 'dragenter', { dataTransfer });
  await page.dispatchEvent('body', 'dragover', { dataTransfer });
  await expect(page.getByTestId('drop-overlay')).toHaveAttribute('data-active', 'true');
  if (options.screenshot) await snap(page, options.screenshot);
  await page.dispatchEvent('body', 'drop', { dataTransfer });
  await dataTransfer.dispose();
}

/** Shows the tensor table, which starts collapsed on a window under 800 px tall (Playwright's default is 1280×720). */
export async function showTensorTable(page: Page): Promise<void> {
  const toggle = page.getByTestId('pane-toggles').locator('[data-pane="table"]');
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  await expect(page.getByTestId('tensor-table')).toBeVisible();
}

/** Opens the page at `url` on the sample, then drops `bytes` as `name` and waits for its plan. */
export async function openDropped(page: Page, name: string, bytes: Uint8Array, url = '/'): Promise<void> {
  await page.goto(url);
  await waitForModel(page, 'sample.onnx');
  await dropFile(page, name, bytes);
  await waitForModel(page, name);
  await waitForPlan(page);
}

/** Serves `bytes` at `path` of the app's origin for this page (the page fetches it by URL). */
export async function serveModel(page: Page, path: string, bytes: Uint8Array): Promise<void> {
  await page.route((url) => url.pathname === path, (route) =>
    route.fulfill({ status: 200, body: Buffer.from(bytes), headers: { 'content-type': 'application/octet-stream' } }),
  );
}

/** Opens the page on batchModel() served as /e2e/<name>, so a test does not depend on the sample. */
export async function startOnSmallModel(page: Page, name = 'start.onnx'): Promise<void> {
  await serveModel(page, `/e2e/${name}`, batchModel());
  await page.goto(`/?model=/e2e/${name}`);
  await waitForModel(page, name);
}

type ModelInit = Parameters<typeof onnx.ModelProto.create>[0];
type NodeInit = { op: string; inputs: string[]; outputs: string[]; name?: string };

const FLOAT = onnx.TensorProto.DataType.FLOAT;

function valueInfo(name: string, dims: readonly (number | string)[]) {
  return {
    name,
    type: {
      tensorType: {
        elemType: FLOAT,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

/** Encodes a model of float tensors: graph inputs/outputs with shapes, and nodes. */
export function buildModel(spec: {
  inputs: [string, (number | string)[]][];
  outputs: [string, (number | string)[]][];
  nodes: NodeInit[];
  producer?: string;
}): Uint8Array {
  const init: ModelInit = {
    irVersion: 8,
    producerName: spec.producer ?? 'heapscope-e2e',
    producerVersion: '1',
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'main',
      input: spec.inputs.map(([n, d]) => valueInfo(n, d)),
      output: spec.outputs.map(([n, d]) => valueInfo(n, d)),
      node: spec.nodes.map((n, i) => ({ name: n.name ?? `${n.op}_${i}`, opType: n.op, input: n.inputs, output: n.outputs })),
    },
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(init)).finish();
}

/** x[batch, 4] -> Relu -> Sigmoid -> y: a small valid model with one symbolic dim. */
export function batchModel(): Uint8Array {
  return buildModel({
    inputs: [['x', ['batch', 4]]],
    outputs: [['y', ['batch', 4]]],
    nodes: [
      { op: 'Relu', inputs: ['x'], outputs: ['h'] },
      { op: 'Sigmoid', inputs: ['h'], outputs: ['y'] },
    ],
  });
}

/** A chain of `count` Relu nodes: count + 1 tensors, for the table's virtualization. */
export function chainModel(count: number): Uint8Array {
  const name = (i: number) => (i === 0 ? 'x' : i === count ? 'y' : `t${i}`);
  const nodes = Array.from({ length: count }, (_, i) => ({ op: 'Relu', inputs: [name(i)], outputs: [name(i + 1)] }));
  return buildModel({ inputs: [['x', [1, 64]]], outputs: [['y', [1, 64]]], nodes });
}

/** A model whose node reads a tensor that nothing produces. */
export function missingTensorModel(): Uint8Array {
  return buildModel({
    inputs: [['x', [1, 4]]],
    outputs: [['y', [1, 4]]],
    nodes: [{ op: 'Add', inputs: ['x', 'ghost_tensor'], outputs: ['y'] }],
  });
}

/** A model whose two nodes feed each other. */
export function cyclicModel(): Uint8Array {
  return buildModel({
    inputs: [['x', [1, 4]]],
    outputs: [['y', [1, 4]]],
    nodes: [
      { op: 'Add', inputs: ['x', 'loop_b'], outputs: ['loop_a'], name: 'cycle_add' },
      { op: 'Relu', inputs: ['loop_a'], outputs: ['loop_b'], name: 'cycle_relu' },
      { op: 'Identity', inputs: ['loop_a'], outputs: ['y'] },
    ],
  });
}

/** A valid protobuf that is an ONNX TensorProto, not a model. */
export function tensorProtoBytes(): Uint8Array {
  return onnx.TensorProto.encode(onnx.TensorProto.create({ name: 'weights', dims: [2, 2], dataType: FLOAT, floatData: [1, 2, 3, 4] })).finish();
}

/** Bytes that look like nothing (a fixed seed, so failures reproduce). */
export function randomBytes(length: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = state & 0xff;
  }
  return out;
}

/** A real 2×2 RGB PNG image. */
export function tinyPng(): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const pixels = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]); // a filter byte per row
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', new Uint8Array(0))]);
}

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Waits until the page is ready with a plan on screen (made with `strategy`, when given). */
export async function waitForPlan(page: Page, strategy?: string): Promise<void> {
  await page.waitForFunction(
    (expected) => {
      const s = window.heapscope?.summary();
      return document.body.dataset.status === 'ready' && s?.peak != null && (expected === null || s.strategy === expected);
    },
    strategy ?? null,
  );
}

/** Waits until the page shows a plan made for `target`. */
export async function waitForTarget(page: Page, target: string): Promise<void> {
  await page.waitForFunction((t) => document.body.dataset.status === 'ready' && window.heapscope?.summary().target === t && window.heapscope.summary().peak !== null, target);
}

/** The height of a row of the heap's table, in pixels (src/views/heap/heap-table.tsx): a row's scroll offset is its index times this. */
export const HEAP_ROW_HEIGHT = 28;

/** Waits until the heap canvas has been drawn for the plan on screen; returns its rectangle count. */
export async function heapDrawn(page: Page): Promise<number> {
  const canvas = page.getByTestId('heap-canvas');
  await expect(canvas).toHaveAttribute('data-buffer-count', /^\d+$/);
  return Number(await canvas.getAttribute('data-buffer-count'));
}

/** Moves the pointer over the heap canvas on a grid until the tooltip shows; returns where. */
export async function hoverSomeBuffer(page: Page): Promise<{ x: number; y: number }> {
  const box = await page.getByTestId('heap-canvas').boundingBox();
  if (box === null) throw new Error('the heap canvas is not on screen');
  const tooltip = page.getByTestId('heap-tooltip');
  // Left margin (byte axis) and bottom strip (curve and step axis) hold no buffers.
  for (let row = 1; row <= 8; row += 1) {
    for (let col = 1; col <= 12; col += 1) {
      const x = box.x + 70 + ((box.width - 90) * col) / 13;
      const y = box.y + 10 + ((box.height - 130) * row) / 9;
      await page.mouse.move(x, y);
      if (await tooltip.isVisible()) return { x, y };
    }
  }
  throw new Error('no buffer found under the pointer on the heap canvas');
}

/** Clicks one of the graph menu's actions (graph-collapse-all, graph-expand-all, graph-constants), opening the menu first as a person would. */
export async function graphAction(page: Page, testId: 'graph-collapse-all' | 'graph-expand-all' | 'graph-constants'): Promise<void> {
  const more = page.getByTestId('graph-more');
  if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
  await page.getByTestId(testId).click();
  await expect(page.getByTestId('graph-more-menu')).toBeHidden();
}

/** Waits until the graph is drawn (ELK or its fallback) and no longer moving. */
export async function graphSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => ['drawn', 'simple'].includes(window.heapscope?.summary().graph.status ?? ''), undefined, { timeout: 150_000 });
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true', { timeout: 60_000 });
}

/** Opens the generated 80-layer Llama-shaped decoder (weights as unwritten external data) with a past of 127 steps, planned and drawn. */
export async function openDecoder(page: Page): Promise<void> {
  await serveModel(page, '/e2e/decoder-80.onnx', llamaModel(LLAMA_80, { externalWeights: 'decoder-80.onnx.data' }));
  await page.goto('/?model=/e2e/decoder-80.onnx&dim.past=127');
  await waitForModel(page, 'decoder-80.onnx');
  await waitForPlan(page);
  await graphSettled(page);
}

/**
 * The text of `root`'s drawing laid over other text: each pair of non-empty
 * labels whose boxes overlap by more than `margin` px both ways, as
 * '"a" over "b"'.
 */
export function textOverlaps(root: Locator, margin: number): Promise<string[]> {
  return root.evaluate((element, min) => {
    const texts = [...element.querySelectorAll('text')]
      .map((t) => ({ text: t.textContent ?? '', box: t.getBoundingClientRect() }))
      .filter((t) => t.text.trim() !== '' && t.box.width > 0 && t.box.height > 0);
    const out: string[] = [];
    texts.forEach((a, i) =>
      texts.slice(i + 1).forEach((b) => {
        const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (x > min && y > min) out.push(`"${a.text}" over "${b.text}"`);
      }),
    );
    return out;
  }, margin);
}

