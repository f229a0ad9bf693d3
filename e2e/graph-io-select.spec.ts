// A graph input's or output's box, a folded KV-cache box among them, selects
// its tensor's buffer when clicked or activated from the keyboard, as Find
// does: the link, the details and the heap follow, and the box is emphasized
// as a selected node's is. The heap's selection of a cache buffer emphasizes
// its box in the graph rather than fading it with the unrelated ones.
// GPT-2 with a past and TFLite Micro's keyword model, at 1280×720; a decoder
// with Constant nodes says its cache box is named with them folded.

import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { graphSettled, haveModel, NO_MODELS, openDecoder, readModel, serveModel, snap, summary, test, waitForModel, waitForPlan } from './fixtures';

const expect = baseExpect.configure({ timeout: 30_000 });

const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
const KEYWORD = 'tflite/tflm_keyword_scrambled.tflite';

test.use({ viewport: { width: 1280, height: 720 } });

async function open(page: Page, path: string, query = ''): Promise<void> {
  const name = path.split('/').at(-1)!;
  await serveModel(page, `/e2e/${name}`, readModel(path));
  await page.goto(`/?model=/e2e/${name}${query}`);
  await waitForModel(page, name);
  await waitForPlan(page);
  await graphSettled(page);
}

const ioBox = (page: Page, title: string) => page.locator('[data-testid="graph-svg"] .gbox.g-io', { has: page.locator('.g-title', { hasText: new RegExp(`^${title}$`) }) });
const details = (page: Page) => page.getByTestId('selection-details');
const selected = (page: Page) => new URL(page.url()).searchParams.get('select');

/** Expects the selection to be tensor `name`'s buffer: in the link, the details and the heap (`lit`: on its canvas). */
async function expectBufferOf(page: Page, name: string, lit = true): Promise<void> {
  await expect(page).toHaveURL(/[?&]select=buffer(:|%3A)\d+/);
  await expect(details(page)).toHaveAttribute('data-kind', 'buffer');
  await expect(details(page).locator('p.mono strong')).toHaveText(name);
  if (lit) await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-highlighted', /^[1-9]\d*$/);
}

test("clicking GPT-2's input_ids box selects its buffer, as Find does, and emphasizes the box", async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await open(page, GPT2);
  const box = ioBox(page, 'input_ids');
  await expect(box).toBeInViewport();
  await box.click();
  await expectBufferOf(page, 'input_ids');
  await expect(box).toHaveAttribute('data-emphasized', 'true');
  const byClick = selected(page);

  // Find gives the same selection.
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/[?&]select=/);
  const field = page.getByTestId('graph-search');
  await field.fill('input_ids');
  await field.press('Enter');
  await expectBufferOf(page, 'input_ids');
  expect(selected(page)).toBe(byClick);
  await snap(page, 'graph-io-select-input-ids');
});

test('Enter and Space on a folded KV-cache box select its cache buffer, and the details name the box and what it holds', async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await open(page, GPT2);
  const past = ioBox(page, 'past KV cache · layer 1');
  await past.focus();
  await page.keyboard.press('Enter');
  await expectBufferOf(page, 'past_1');
  await expect(past).toHaveAttribute('data-emphasized', 'true');
  await expect(details(page).getByTestId('buffer-graph-box')).toHaveText("in the graph's box past KV cache · layer 1, which holds this tensor alone");

  const present = ioBox(page, 'present KV cache · layer 2');
  await present.focus();
  await page.keyboard.press(' ');
  await expectBufferOf(page, 'present_2');
  await expect(details(page).getByTestId('buffer-graph-box')).toHaveText(/present KV cache · layer 2/);
});

test("a decoder's KV-cache buffer found by name names its box as the graph opens, with its Constant nodes folded", async ({ page }) => {
  await openDecoder(page);
  const field = page.getByTestId('graph-search');
  await field.fill('past_key_values.1.value');
  await field.press('Enter');
  await expectBufferOf(page, 'past_key_values.1.value', false);
  await expect(details(page).getByTestId('buffer-graph-box')).toHaveText(/^in the graph's box past KV cache · layer 1 \(constants folded\), which holds 2 tensors:/);
});

test("selecting GPT-2's present_1 in the heap emphasizes its KV-cache box in the graph, not fades it", async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await open(page, GPT2);
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const table = page.getByRole('table', { name: 'Buffers of the plan' });
  // Names from Z to A: present_4 … present_0 come first (Kind is not a column in a pane this narrow).
  const name = table.getByRole('columnheader', { name: 'Buffer' });
  await name.getByRole('button').click();
  await name.getByRole('button').click();
  await expect(name).toHaveAttribute('aria-sort', 'descending');
  const row = table.locator('[data-testid="heap-row"][data-name="present_1"]');
  await row.click();
  await expectBufferOf(page, 'present_1', false);
  await expect(row).toHaveAttribute('aria-selected', 'true');
  const box = ioBox(page, 'present KV cache · layer 1');
  await expect(box).toHaveAttribute('data-emphasized', 'true');
  await expect(box).toHaveClass(/g-emphasized/);
  await expect(box).toBeInViewport();
  // An unrelated cache box stays faded.
  await expect(ioBox(page, 'present KV cache · layer 3')).not.toHaveAttribute('data-emphasized', 'true');
  await snap(page, 'graph-io-select-present-1');
});

test("clicking the keyword model's tensor_52 box selects its buffer", async ({ page }) => {
  test.skip(!haveModel(KEYWORD), NO_MODELS);
  await open(page, KEYWORD);
  const box = ioBox(page, 'tensor_52');
  await box.focus();
  await page.keyboard.press('Enter');
  await expectBufferOf(page, 'tensor_52');
  await expect(box).toHaveAttribute('data-emphasized', 'true');
});

test("the keyword model's SVDF state tensors are drawn as state, not as graph inputs", async ({ page }) => {
  test.skip(!haveModel(KEYWORD), NO_MODELS);
  await open(page, KEYWORD);
  const state = ioBox(page, 'tensor_4');
  await expect(state).toHaveAttribute('aria-label', 'State tensor_4, a variable tensor kept across runs');
  await expect(state.locator('.g-sub')).toHaveText('state');
  // the model's own input stays one
  await expect(page.locator('[data-testid="graph-svg"] .gbox.g-io[aria-label^="Graph input "]')).toHaveCount(1);
});

test("on mcu with the application owning graph I/O, the keyword model's state stays in the arena and its buffer is named state", async ({ page }) => {
  test.skip(!haveModel(KEYWORD), NO_MODELS);
  await open(page, KEYWORD, '&target=mcu&io=application');
  // the seven SVDF memories (10,240 B) are the interpreter's, not the application's: the peak keeps them
  expect((await summary(page)).peak).toBe(11312);
  await ioBox(page, 'tensor_4').focus();
  await page.keyboard.press('Enter');
  await expectBufferOf(page, 'tensor_4');
  await expect(details(page).getByTestId('buffer-facts')).toContainText('activation · state');
});
