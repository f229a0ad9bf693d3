// Bad files and URLs: each is dropped (or asked for) while a good model is on
// screen; the banner names the file and says what is wrong, and the previous
// model stays shown.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { runCli } from '../cli/main';
import type {} from '../src/app/page-api';
import {
  test,
  NO_MODELS,
  batchModel,
  cyclicModel,
  dropFile,
  haveModel,
  missingTensorModel,
  randomBytes,
  readModel,
  snap,
  startOnSmallModel,
  summary,
  tensorProtoBytes,
  tinyPng,
  waitForError,
  waitForModel,
  showTensorTable,
} from './fixtures';

const GOOD = 'good.onnx';

const startOnGoodModel = (page: Page) => startOnSmallModel(page, GOOD);

/** Checks the banner and that the good model is still on screen, then saves a screenshot. */
async function expectBanner(page: Page, file: string, code: string | RegExp, screenshot: string): Promise<void> {
  await waitForError(page, file);
  const banner = page.getByRole('alert');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('data-code', code);
  const message = await page.getByTestId('error-message').innerText();
  expect(message.length).toBeGreaterThan(10);
  const s = await summary(page);
  expect(s.model).toBe(GOOD);
  expect(s.error).not.toBeNull();
  // The banner shows the same sentence, capitalised.
  expect(message).toContain(s.error?.slice(1));
  await expect(page.getByTestId('current-file')).toContainText(GOOD);
  await showTensorTable(page);
  await expect(page.getByTestId('tensor-row')).toHaveCount(3);
  await snap(page, screenshot);
}

const cases: { name: string; file: string; bytes: () => Uint8Array; code: string | RegExp; screenshot: string }[] = [
  { name: 'an empty file', file: 'empty.onnx', bytes: () => new Uint8Array(0), code: 'empty-file', screenshot: 'error-empty' },
  { name: 'random bytes', file: 'random.onnx', bytes: () => randomBytes(4096), code: /^(not-onnx|truncated)$/, screenshot: 'error-random' },
  { name: 'a PNG renamed .onnx', file: 'photo.onnx', bytes: tinyPng, code: 'not-onnx', screenshot: 'error-png' },
  // Its first tag (field 1 with wire type 2) is no ModelProto field's: refused from its first byte, in the command line's words.
  { name: 'a TensorProto, not a model', file: 'tensor.onnx', bytes: tensorProtoBytes, code: 'not-onnx', screenshot: 'error-tensorproto' },
  { name: 'a model reading a missing tensor', file: 'missing-tensor.onnx', bytes: missingTensorModel, code: 'bad-graph', screenshot: 'error-missing-tensor' },
  { name: 'a model with a cycle', file: 'cycle.onnx', bytes: cyclicModel, code: 'bad-graph', screenshot: 'error-cycle' },
];

for (const c of cases) {
  test(`dropping ${c.name} shows the banner and keeps the model`, async ({ page }) => {
    await startOnGoodModel(page);
    await dropFile(page, c.file, c.bytes());
    await expectBanner(page, c.file, c.code, c.screenshot);
  });
}

test('dropping the first half of a real model says it is truncated', async ({ page }) => {
  const name = 'ultraface_RFB-320.onnx';
  test.skip(!haveModel(name), NO_MODELS);
  await startOnGoodModel(page);
  const bytes = readModel(name);
  await dropFile(page, 'truncated.onnx', bytes.subarray(0, Math.floor(bytes.length / 2)));
  await expectBanner(page, 'truncated.onnx', 'truncated', 'error-truncated');
});

test('a file too large for the browser is refused before it is read', async ({ page }) => {
  await startOnGoodModel(page);
  // A real File whose size reports 3 GiB: if the page read it instead of checking
  // the size first, it would find 16 bytes of zeros and fail with another code.
  await page.evaluate(() => {
    const file = new File([new Uint8Array(16)], 'huge.onnx');
    Object.defineProperty(file, 'size', { value: 3 * 2 ** 30 });
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [file], types: ['Files'] } });
    document.body.dispatchEvent(drop);
  });
  await expectBanner(page, 'huge.onnx', 'too-large', 'error-too-large');
  await expect(page.getByTestId('error-message')).toContainText('3.00 GiB');
});

test('the banner can be dismissed, and the next good file clears it', async ({ page }) => {
  await startOnGoodModel(page);
  await dropFile(page, 'empty.onnx', new Uint8Array(0));
  await waitForError(page, 'empty.onnx');
  await page.getByRole('button', { name: 'Dismiss error' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  expect((await summary(page)).error).toBeNull();
  await dropFile(page, 'empty-again.onnx', new Uint8Array(0));
  await waitForError(page, 'empty-again.onnx');
  await dropFile(page, 'second.onnx', batchModel());
  await waitForModel(page, 'second.onnx');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('Escape dismisses the banner from the keyboard, and the page status is again that of the model still shown', async ({ page }) => {
  await startOnGoodModel(page);
  await dropFile(page, 'empty.onnx', new Uint8Array(0));
  await waitForError(page, 'empty.onnx');
  // Escape typed in a field is the field's: the banner stays.
  await page.getByTestId('graph-search').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alert')).toBeVisible();
  // Escape left Find for the graph, where it is the graph's (it clears the selection): out of both, it is the banner's.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  expect((await summary(page)).model).toBe(GOOD);
  expect((await summary(page)).error).toBeNull();
});

test('Dismiss pressed from the keyboard hands focus to Open file, the next step, rather than dropping it to the page', async ({ page }) => {
  await startOnGoodModel(page);
  await dropFile(page, 'empty.onnx', new Uint8Array(0));
  await waitForError(page, 'empty.onnx');
  await page.getByRole('button', { name: 'Dismiss error' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('#open-file')).toBeFocused();
});

test('a JSON file that is no saved plan says so, and names every kind of file the page opens', async ({ page }) => {
  await startOnGoodModel(page);
  await dropFile(page, 'config.json', Buffer.from('{"architectures": ["BertModel"], "hidden_size": 768}'));
  await expectBanner(page, 'config.json', 'not-onnx', 'error-json-not-plan');
  const message = page.getByTestId('error-message');
  await expect(message).toContainText('JSON but not a heapscope saved plan (no "format": "heapscope-plan" field)');
  await expect(message).toContainText('ONNX');
  await expect(message).toContainText('TensorFlow Lite');
  // Any other file that is no model names the saved plans too.
  await dropFile(page, 'notes.txt', Buffer.from('these are notes, not a model\n'));
  await expectBanner(page, 'notes.txt', 'not-onnx', 'error-text-not-model');
  await expect(message).toContainText(/ONNX.*TensorFlow Lite.*saved plan \(\.json\)/);
});

test("a file picked in Compare takes the place of an older file's error in the banner: its own error beside the panel, or its comparison", async ({ page }) => {
  await startOnGoodModel(page);
  const wrong = Buffer.from('{"format": "heapscope-plan", "version": 1, "model": "good.onnx", "nodes": 5}');
  await dropFile(page, 'wrong.plan.json', wrong);
  await waitForError(page, 'wrong.plan.json');
  // A later, unrelated file fails in Compare: its error is told beside the panel, the stale banner goes.
  await page.getByTestId('compare-file').setInputFiles({ name: 'pic.onnx', mimeType: 'application/octet-stream', buffer: Buffer.from(tinyPng()) });
  await expect(page.getByTestId('compare-error')).toContainText('PNG');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  expect((await summary(page)).error).toBeNull();
  await snap(page, 'error-compare-after-banner');
  // And a file that compares: the banner gives way to the comparison.
  await dropFile(page, 'wrong-again.plan.json', wrong);
  await waitForError(page, 'wrong-again.plan.json');
  await page.getByTestId('compare-file').setInputFiles({ name: 'batch.onnx', mimeType: 'application/octet-stream', buffer: Buffer.from(batchModel()) });
  await expect(page.getByTestId('compare-dialog')).toBeVisible();
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
});

test('an unreachable model URL explains itself on an empty page', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/ERR_CONNECTION_REFUSED .*models\.invalid/);
  await page.route('https://models.invalid/**', (route) => route.abort('connectionrefused'));
  await page.goto('/?model=https://models.invalid/net.onnx');
  await waitForError(page, 'net.onnx');
  await expect(page.getByTestId('error-message')).toContainText('CORS');
  await expect(page.getByTestId('welcome')).toBeVisible();
  expect(await summary(page)).toMatchObject({ model: null, nodes: 0, error: expect.stringContaining('https://models.invalid/net.onnx') });
  await snap(page, 'error-unreachable-url');
});

test('a model URL answering 404 says so', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 404 .*\/e2e\/absent\.onnx/);
  await page.route((url) => url.pathname === '/e2e/absent.onnx', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto('/?model=/e2e/absent.onnx');
  await waitForError(page, 'absent.onnx');
  await expect(page.getByTestId('error-message')).toContainText('HTTP 404');
});

test("a model URL answered with the site's own page says the address is probably wrong, naming it", async ({ page }) => {
  // As a single-page host does: 200 and its index page for a path that holds no model.
  await page.route((url) => url.pathname === '/e2e/missing-model.onnx', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html><body>app</body></html>' }),
  );
  await page.goto('/?model=/e2e/missing-model.onnx');
  await waitForError(page, 'missing-model.onnx');
  await expect(page.getByTestId('error-message')).toContainText('/e2e/missing-model.onnx: the server answered with a web page (text/html), not a model file; the address is probably wrong');
});

test('a damaged saved plan, dropped or opened, gets the banner naming it and keeps the model; a good model then clears every message', async ({ page }) => {
  const cut = Buffer.from('{"format": "heapscope-plan", "version": 1, "model": "good.onnx", "settings": {"target": "cp');
  await startOnGoodModel(page);
  // An older file's error gives way to the plan file's.
  await dropFile(page, 'empty.onnx', new Uint8Array(0));
  await waitForError(page, 'empty.onnx');
  const name = 'cut <img src=x onerror=alert(1)>.plan.json';
  await dropFile(page, name, cut);
  await expectBanner(page, name, 'bad-plan', 'error-damaged-plan');
  await expect(page.getByTestId('error-message')).toContainText('not valid JSON');
  await expect(page.getByTestId('error-banner').locator('img')).toHaveCount(0);
  await expect(page.getByTestId('compare-dialog')).toHaveCount(0);
  await expect(page.getByTestId('compare-error')).toHaveCount(0);
  // Cut short before its format field: still a plan file, told as one, not as a model that is JSON.
  await dropFile(page, 'short.plan.json', Buffer.from('{"model":"x","nodes":['));
  await waitForError(page, 'short.plan.json');
  await expect(page.getByTestId('error-message')).toContainText('short.plan.json is not a plan file: not valid JSON');
  await page.locator('#open-file').setInputFiles({ name: 'cut-again.plan.json', mimeType: 'application/json', buffer: cut });
  await expectBanner(page, 'cut-again.plan.json', 'bad-plan', 'error-damaged-plan-picked');

  // The Compare panel's own button says why beside it, until another model is on screen.
  await page.getByTestId('open-saved-plan').setInputFiles({ name: 'cut-panel.plan.json', mimeType: 'application/json', buffer: cut });
  await expect(page.getByTestId('compare-error')).toContainText('cut-panel.plan.json is not a plan file');
  await dropFile(page, 'second.onnx', batchModel());
  await waitForModel(page, 'second.onnx');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(page.getByTestId('compare-error')).toHaveCount(0);
});

test("an ONNX external weights file dropped alone says what it is and to open the model that refers to it, as the CLI does", async ({ page }) => {
  await startOnGoodModel(page);
  const weights = randomBytes(4096, 7);
  await dropFile(page, 'model.onnx.data', weights);
  await expectBanner(page, 'model.onnx.data', 'not-onnx', 'error-external-data');
  const sentence = "this looks like an ONNX model's external weights file (raw tensor data, not a model): open the .onnx model that refers to it";
  expect((await summary(page)).error).toBe(sentence);
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-data-'));
  const path = join(dir, 'model.onnx.data');
  writeFileSync(path, weights);
  let err = '';
  expect(runCli(['inspect', path], { out: () => undefined, err: (t) => (err += t) })).toBe(2);
  expect(err.trim().split('\n')).toEqual([`heapscope: ${path}: ${sentence}`]);
});

test("tiny Llama dropped with its model.onnx.data: the line says the weights file is the model's external data, not a second model refused", async ({ page }) => {
  const model = 'tiny-llama-fp16/model.onnx';
  test.skip(!haveModel(model) || !haveModel(`${model}.data`), NO_MODELS);
  await startOnGoodModel(page);
  await dropFiles(page, [
    { name: 'model.onnx.data', bytes: readModel(`${model}.data`) },
    { name: 'model.onnx', bytes: readModel(model) },
  ]);
  await waitForModel(page, 'model.onnx');
  const notice = page.getByTestId('drop-notice');
  await expect(notice).toHaveText(/^Opened model\.onnx; model\.onnx\.data is external weights data, which planning does not read: it needs only the sizes the model states\.Dismiss$/);
  await expect(notice).not.toContainText('One model opens at a time');
  await snap(page, 'drop-model-with-external-data');
});

test('several files dropped at once: one line says which model was opened and that the others were not', async ({ page }) => {
  test.skip(!haveModel('winml_mnist.onnx') || !haveModel('ultraface_RFB-320.onnx'), NO_MODELS);
  await startOnGoodModel(page);
  await dropFiles(page, [
    { name: 'winml_mnist.onnx', bytes: readModel('winml_mnist.onnx') },
    { name: 'ultraface_RFB-320.onnx', bytes: readModel('ultraface_RFB-320.onnx') },
  ]);
  await waitForModel(page, 'winml_mnist.onnx');
  await expect(page.getByTestId('drop-notice')).toHaveText(/One model opens at a time: opened winml_mnist\.onnx, not ultraface_RFB-320\.onnx\./);
  await snap(page, 'drop-several-files');
  // A model with its external weights file: the model opens, whichever comes first.
  await dropFiles(page, [
    { name: 'weights.data', bytes: randomBytes(256) },
    { name: GOOD, bytes: batchModel() },
  ]);
  await waitForModel(page, GOOD);
  await expect(page.getByTestId('drop-notice')).toHaveText(/^Opened good\.onnx; weights\.data is external weights data, which planning does not read/);
  // One file dropped next: no line about others.
  await dropFile(page, 'winml_mnist.onnx', readModel('winml_mnist.onnx'));
  await waitForModel(page, 'winml_mnist.onnx');
  await expect(page.getByTestId('drop-notice')).toHaveCount(0);
});

test('several files dropped at once, a broken one first: the next model opens, and the line says which could not be opened', async ({ page }) => {
  test.skip(!haveModel('ultraface_RFB-320.onnx'), NO_MODELS);
  await startOnGoodModel(page);
  const ultraface = readModel('ultraface_RFB-320.onnx');
  const truncated = ultraface.slice(0, 4096);
  // only the first was tried: "Could not open truncated.onnx…" beside "One model opens at a time: opened truncated.onnx, not ultraface_RFB-320.onnx"
  await dropFiles(page, [
    { name: 'truncated.onnx', bytes: truncated },
    { name: 'ultraface_RFB-320.onnx', bytes: ultraface },
  ]);
  await waitForModel(page, 'ultraface_RFB-320.onnx');
  await expect(page.getByTestId('drop-notice')).toHaveText(/^One model opens at a time: opened ultraface_RFB-320\.onnx \(could not open truncated\.onnx\)\.Dismiss$/);
  expect((await summary(page)).error).toBeNull();
  await snap(page, 'drop-bad-then-good');
  // none opens: the error of the last names it, and the line says neither opened
  await dropFiles(page, [
    { name: 'truncated.onnx', bytes: truncated },
    { name: 'empty.onnx', bytes: new Uint8Array(0) },
  ]);
  await waitForError(page, 'empty.onnx');
  await expect(page.getByTestId('drop-notice')).toHaveText(/^Could not open truncated\.onnx or empty\.onnx: no model dropped opens\.Dismiss$/);
  await expect(page.getByTestId('drop-notice')).not.toContainText('opened');
  await snap(page, 'drop-bad-and-bad');
});

/** Drops several files at once, as a person dragging a selection from a file manager. */
async function dropFiles(page: Page, files: readonly { name: string; bytes: Uint8Array }[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name));
    return transfer;
  }, files.map((f) => ({ name: f.name, base64: Buffer.from(f.bytes).toString('base64') })));
  await page.dispatchEvent('body', 'dragenter', { dataTransfer });
  await page.dispatchEvent('body', 'dragover', { dataTransfer });
  await page.dispatchEvent('body', 'drop', { dataTransfer });
  await dataTransfer.dispose();
}
