// A decoder's KV cache as a class of its own (issue 34), on the generated
// 80-layer Llama-shaped decoder with its weights as unwritten external data
// and a past of 127 steps: each layer's past inputs fold into one box and its
// present outputs into another, inside the layer, so an opened layer and the
// fully expanded graph show two cache boxes per layer rather than four in
// rows; search finds a cache tensor in its folded box; the heap legend and the
// live-bytes chart show the cache in a colour of its own, and so do the heap's
// SVG and PNG exports (on a 4-layer decoder), the Compare dialog's heaps and
// a saved plan's (on GPT-2 with a past). tiny-llama, whose mask subgraph
// reads the past length off layer 0's key with a Shape, still folds that key
// into its layer's past box.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { llamaModel, LLAMA_80 } from '../src/model/testing/llama-model';
import { runCli } from '../cli/main';
import { CLASS_COLOURS } from '../src/views/heap/buffer-classes';
import { graphAction, graphSettled, haveModel, MODELS_DIR, NO_MODELS, openDecoder, readModel, serveModel, showTensorTable, snap, test, waitForModel, waitForPlan } from './fixtures';

const expect = baseExpect.configure({ timeout: 60_000 });



const pastBox = (page: Page) => page.locator('.gbox.g-io', { has: page.locator('.g-title', { hasText: /^past KV cache · layer \d+$/ }) });
const presentBox = (page: Page) => page.locator('.gbox.g-io', { has: page.locator('.g-title', { hasText: /^present KV cache · layer \d+$/ }) });

test('an opened layer shows its cache as one past and one present box; the heap and its chart colour the cache apart', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDecoder(page);
  // The legend names the cache, and the chart has a row for it that holds bytes at the peak.
  await expect(page.locator('.heap-legend li', { hasText: /^KV cache$/ }).locator('.swatch-kv')).toHaveCount(1);
  const chart = page.getByTestId('peak-chart');
  await expect(chart).toHaveAttribute('data-kinds', /(^|,)kv(,|$)/);
  await expect(chart.locator('.pc-cell[data-kind="kv"] .pc-area')).toHaveCount(1);
  await expect(chart.locator('text', { hasText: /^KV cache/ })).toHaveCount(1);
  const kvColour = await page.locator('.heap-legend .swatch-kv').evaluate((e) => getComputedStyle(e).backgroundColor);
  const ioColour = await page.locator('.heap-legend .swatch-io').evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(kvColour).not.toBe(ioColour);

  // Open layers 0–9, layer 3 and its attention: its four cache tensors are two boxes.
  for (const group of [/layers 0–9/, /layers\.3$/, /^▸ self_attn$/]) {
    await page.locator('.gbox.g-collapsed[data-box*="layers"]', { has: page.locator('.g-title', { hasText: group }) }).first().click();
    await graphSettled(page);
  }
  await expect(pastBox(page)).toHaveCount(1);
  await expect(presentBox(page)).toHaveCount(1);
  await expect(pastBox(page).locator('.g-sub')).toHaveText(/^input · 2 tensors · /);
  // Each box names its layer, on the box and to a screen reader.
  await expect(pastBox(page).locator('.g-title')).toHaveText('past KV cache · layer 3');
  await expect(pastBox(page)).toHaveAttribute('aria-label', /^Graph input · 2 tensors · .* past KV cache · layer 3$/);
  await expect(presentBox(page).locator('.g-title')).toHaveText('present KV cache · layer 3');
  await expect(page.locator('.gbox.g-io .g-title', { hasText: /past_key_values/ })).toHaveCount(0);
  await expect(pastBox(page).locator('title')).toHaveText('past_key_values.3.key\npast_key_values.3.value');

  // Searching a cache tensor lands on its folded box.
  const field = page.getByTestId('graph-search');
  await field.fill('past_key_values.3.value');
  await field.press('Enter');
  await expect(pastBox(page)).toHaveClass(/g-current/);
  await expect(pastBox(page)).toBeInViewport();
  await snap(page, 'decoder-kv-layer-3');
});

test('with every group expanded, the 80-layer decoder draws 160 cache boxes, and search reaches the last layer\'s', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openDecoder(page);
  const collapsed = (await page.evaluate(() => window.heapscope!.summary().graph.boxes));
  await graphAction(page, 'graph-expand-all');
  await graphSettled(page);
  const boxes = await page.evaluate(() => window.heapscope!.summary().graph.boxes);
  expect(boxes).toBeGreaterThan(collapsed);
  // Four cache tensors per layer in two boxes, beside the ids, positions, mask and logits: 164 graph I/O boxes, not 324.
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-io-boxes', String(2 * LLAMA_80.layers + 4));
  const field = page.getByTestId('graph-search');
  await field.fill('past_key_values.79.key');
  await field.press('Enter');
  const current = page.locator('.gbox.g-current');
  await expect(current).toHaveCount(1);
  await expect(current.locator('.g-title')).toHaveText('past KV cache · layer 79');
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  await expect(current).toBeInViewport();
  await snap(page, 'decoder-kv-expanded');
});

test('tiny-llama, whose mask subgraph reads the past length off the first key, draws one past and one present box per layer', async ({ page }) => {
  const LLAMA = 'tiny-llama-fp16/model.onnx';
  test.skip(!haveModel(LLAMA), NO_MODELS);
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, '/e2e/tiny-llama.onnx', readModel(LLAMA));
  await page.goto('/?model=/e2e/tiny-llama.onnx&target=mcu&dim.past_sequence_length=32');
  await waitForModel(page, 'tiny-llama.onnx');
  await waitForPlan(page);
  await graphSettled(page);
  await expect(pastBox(page)).toHaveCount(2);
  await expect(presentBox(page)).toHaveCount(2);
  for (const box of [pastBox(page), presentBox(page)]) for (const sub of await box.locator('.g-sub').all()) await expect(sub).toHaveText(/^(input|output) · 2 tensors · /);
  for (const l of [0, 1]) await expect(pastBox(page).locator('title', { hasText: `past_key_values.${l}.key` })).toHaveText(`past_key_values.${l}.key\npast_key_values.${l}.value`);
  await snap(page, 'decoder-kv-tiny-llama');
});

/** Clicks an export button and returns the downloaded file's bytes. */
async function download(page: Page, testId: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).first().click()]);
  return readFileSync(await file.path());
}

test('the heap SVG and PNG exports colour the KV cache and name it in the legend as the heap on screen does', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, '/e2e/decoder-4.onnx', llamaModel({ ...LLAMA_80, layers: 4 }, { externalWeights: 'decoder-4.onnx.data' }));
  await page.goto('/?model=/e2e/decoder-4.onnx&dim.past=127');
  await waitForModel(page, 'decoder-4.onnx');
  await waitForPlan(page);
  const screen = await page.locator('.heap-legend .swatch-kv').evaluate((e) => getComputedStyle(e).backgroundColor);
  const rgb = (hex: string): string => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

  const svg = (await download(page, 'export-heap-svg')).toString('utf8');
  // Each buffer's class and fill: the past inputs are KV cache in the legend's colour, the token ids plain input.
  const rects = [...svg.matchAll(/<rect [^>]*fill="(#[0-9a-f]{6})"[^>]*data-buffer="\d+" data-class="(\w+)"><title>([^:<]+):/g)].map((m) => ({ fill: m[1]!, cls: m[2]!, name: m[3]! }));
  const past = rects.filter((r) => r.name.startsWith('past_key_values.'));
  expect(past).toHaveLength(8);
  for (const r of past) {
    expect(r.cls).toBe('kv');
    expect(rgb(r.fill)).toBe(screen);
  }
  expect(rects.find((r) => r.name === 'attention_mask')?.cls).toBe('io');
  const legend = svg.match(/<g class="legend"[\s\S]*?<\/g>/)![0];
  expect(legend).toMatch(/data-class="kv"\/>\s*<text [^>]*>KV cache<\/text>/);
  expect(rgb(legend.match(/fill="(#[0-9a-f]{6})" data-class="kv"/)![1]!)).toBe(screen);

  // The PNG is drawn from that SVG: the cache's colour covers its rectangles (0.4 % of the image), not only the legend's swatch (0.02 %).
  const png = await download(page, 'export-heap-png');
  await page.goto('about:blank');
  const cacheArea = await page.evaluate(
    async ({ data, colour }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      const pixels = ctx.getImageData(0, 0, image.width, image.height).data;
      const [r, g, b] = colour.match(/\d+/g)!.map(Number);
      let count = 0;
      for (let i = 0; i < pixels.length; i += 4) if (Math.abs(pixels[i]! - r!) + Math.abs(pixels[i + 1]! - g!) + Math.abs(pixels[i + 2]! - b!) < 6) count += 1;
      return count / (image.width * image.height);
    },
    { data: png.toString('base64'), colour: screen },
  );
  expect(cacheArea).toBeGreaterThan(0.002);
  await page.setContent(`<img src="data:image/png;base64,${png.toString('base64')}" style="width:960px">`);
  await snap(page, 'decoder-kv-heap-png');
});

/** Pixels of a heap canvas inside `section` drawn in class colour `hex` (buffers are drawn at 90 % over the lane). */
function pixelsOfClass(page: Page, section: string, hex: string): Promise<number> {
  return page.getByTestId(section).locator('canvas').first().evaluate((canvas: HTMLCanvasElement, colour) => {
    const want = [1, 3, 5].map((k) => parseInt(colour.slice(k, k + 2), 16));
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (want.every((c, k) => Math.abs(data[i + k]! - c) <= 30)) n++;
    return n;
  }, hex);
}

test("GPT-2's past and present buffers are KV cache in the Compare heaps and in a saved plan's, with the page heap's legend", async ({ page }) => {
  const file = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, `/e2e/${file}`, readModel(file));
  await page.goto(`/?model=/e2e/${file}&target=cpu&dim.past_seq_len=64&compare=1&b.target=cpu&b.dim.past_seq_len=128`);
  await waitForModel(page, file);
  await page.waitForFunction(() => window.heapscope?.summary().compare != null, undefined, { timeout: 60_000 });
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-heap-b').locator('canvas').first()).toBeVisible();
  // the heaps draw once their panes are measured: wait for the drawing, not only for the canvas
  for (const side of ['compare-heap-a', 'compare-heap-b']) await expect.poll(() => pixelsOfClass(page, side, CLASS_COLOURS.kv), { message: side }).toBeGreaterThan(500);
  await expect(dialog.locator('.heap-legend li', { hasText: /^KV cache$/ }).locator('.swatch-kv')).toHaveCount(1);
  const legend = await dialog.locator('.heap-legend li').allTextContents();
  await snap(page, 'decoder-kv-compare');
  await dialog.getByRole('button', { name: 'Close' }).click();
  expect(await page.locator('.heap-legend li').allTextContents()).toEqual(legend);

  const saved = join(mkdtempSync(join(tmpdir(), 'heapscope-kv-')), 'gpt2.plan.json');
  expect(runCli(['plan', new URL(file, MODELS_DIR).pathname, '--target', 'cpu', '--dim', 'past_seq_len=64', '--save', saved], { out: () => undefined, err: () => undefined })).toBe(0);
  await page.getByTestId('open-saved-plan').setInputFiles(saved);
  await expect(dialog.getByTestId('saved-plan-facts')).toBeVisible();
  await expect.poll(() => pixelsOfClass(page, 'compare-heap-a', CLASS_COLOURS.kv)).toBeGreaterThan(500);
  await expect(dialog.locator('.heap-legend li', { hasText: /^KV cache$/ }).locator('.swatch-kv')).toHaveCount(1);
  await snap(page, 'decoder-kv-saved-plan');
});

test("GPT-2's cache tensors say KV cache where their kind is written: the heap table, the tensor table and a selected buffer's details", async ({ page }) => {
  const file = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, `/e2e/${file}`, readModel(file));
  await page.goto(`/?model=/e2e/${file}&dim.past_seq_len=64`);
  await waitForModel(page, file);
  await waitForPlan(page);

  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const table = page.getByRole('table', { name: 'Buffers of the plan' });
  // Kind from Z to A: the KV cache outputs come first, then the other outputs.
  const kind = table.getByRole('columnheader', { name: 'Kind' });
  await kind.getByRole('button').click();
  await kind.getByRole('button').click();
  await expect(kind).toHaveAttribute('aria-sort', 'descending');
  const present = table.locator('[data-testid="heap-row"][data-name="present_0"]');
  await expect(present.getByTestId('heap-cell-kind')).toHaveText('output · KV cache');
  await expect(table.locator('[data-testid="heap-row"][data-name="logits"]').getByTestId('heap-cell-kind')).toHaveText('output');
  await present.click();
  await expect(page.getByTestId('selection-details').getByTestId('buffer-facts')).toHaveText(/^output · KV cache · 2×1×4×192×8 float32 · /);

  // The tensor table says so too, and its Run-time filter still lists the cache.
  await showTensorTable(page);
  await page.getByRole('radio', { name: 'Run-time' }).check({ force: true });
  await page.getByLabel('Search tensors by name, op, node or dtype').fill('past_0');
  const row = page.locator('[data-testid="tensor-row"][data-name="past_0"]');
  await expect(row.getByTestId('cell-kind')).toHaveText('input · KV cache');
  await page.getByLabel('Search tensors by name, op, node or dtype').fill('input_ids');
  await expect(page.locator('[data-testid="tensor-row"][data-name="input_ids"]').getByTestId('cell-kind')).toHaveText('input');
  await snap(page, 'decoder-kv-kinds');
});

test("GPT-2 beside Growth at 1280×800: the live-bytes chart, too short for every row, keeps the KV cache's and names the rows it leaves out", async ({ page }) => {
  const name = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(name), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 800 });
  await serveModel(page, `/e2e/${name}`, readModel(name));
  await page.goto(`/?model=/e2e/${name}&panes=graph,heap,growth,explain`);
  await waitForModel(page, name);
  await waitForPlan(page);
  const chart = page.getByTestId('peak-chart');
  await expect(chart).toHaveAttribute('data-kinds', /(^|,)kv(,|$)/);
  const block = chart.locator('.pc-region').first();
  // The block has no room for all its rows: the cache's is among those it draws, and the rest are named.
  await expect(block.locator('.pc-left-out')).toContainText('left out');
  await expect(block.locator('.pc-left-out')).not.toContainText('KV cache');
  await expect(block.locator('.pc-cell[data-kind="kv"] .pc-area')).toHaveCount(1);
  await expect(block.locator('text', { hasText: /^KV cache/ })).toHaveCount(1);
  await snap(page, 'decoder-kv-chart-1280x800-growth');
});

test("GPT-2's Details say the plan reuses the past inputs' bytes after their last read, and what keeping them for the whole step adds, as plan does", async ({ page }) => {
  const file = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, `/e2e/${file}`, readModel(file));
  await page.goto(`/?model=/e2e/${file}&dim.past_seq_len=64&dim.seq_len=1`);
  await waitForModel(page, file);
  await waitForPlan(page);
  // present_1 takes past_0's bytes, while a present output reads "kept to the end of the run for the next run to read as past_0"
  const line = page.getByTestId('kv-past-kept');
  await expect(line).toHaveText(/^Assumes the bytes of each past input of the KV cache are reused after its last read \(past_0, past_1, past_2 and 2 more\), .*; a runtime that keeps the past inputs .* holds past and present at once: [\d.]+ KiB more, a peak of [\d.]+ KiB\.$/);
  let out = '';
  expect(runCli(['plan', new URL(file, MODELS_DIR).pathname, '--target', 'cpu', '--dim', 'past_seq_len=64', '--dim', 'seq_len=1'], { out: (text: string) => void (out += text), err: () => undefined })).toBe(0);
  const words = (await line.textContent())!.replace(/^Assumes /, '').replace(/\.$/, '');
  expect(out).toContain(`  assumes       ${words}\n`);
  await line.scrollIntoViewIfNeeded();
  await snap(page, 'decoder-kv-past-kept');
});
