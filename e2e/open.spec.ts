// Opening models like a person would: the sample at start, a drop, the file
// picker, a model URL with dims; then reading the summary and the tensor table.

import { existsSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import {
  test,
  NO_MODELS,
  SAMPLE_PATH,
  batchModel,
  chainModel,
  dropFile,
  haveModel,
  readModel,
  serveModel,
  snap,
  startOnSmallModel,
  summary,
  waitForModel,
  showTensorTable,
} from './fixtures';

const ULTRAFACE = 'ultraface_RFB-320.onnx';

/** The number shown in a stat tile, as a number. */
async function statNumber(page: Page, testId: string): Promise<number> {
  return Number((await page.getByTestId(testId).innerText()).replace(/,/g, ''));
}

test('opens the sample at start and publishes its summary', async ({ page }) => {
  test.skip(!existsSync(SAMPLE_PATH), 'public/sample.onnx is not generated yet');
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  // Everything runs locally: no request leaves the app's own origin.
  const origin = new URL(page.url()).origin;
  expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
  expect(requests).toContain(`${origin}/sample.onnx`);
  const s = await summary(page);
  expect(s).toMatchObject({ model: 'sample.onnx', strategy: 'best', fusionUnits: 0, error: null });
  expect(s.lowerBound).toBeGreaterThan(0);
  expect(s.peak).toBeGreaterThanOrEqual(Number(s.lowerBound));
  expect(s.nodes).toBeGreaterThan(10);
  expect(await statNumber(page, 'stat-nodes')).toBe(s.nodes);
  expect(s.buffers).toBeGreaterThan(0);
  expect(s.buffers).toBeLessThanOrEqual(await statNumber(page, 'stat-activations'));
  await expect(page.getByTestId('dims-panel').getByRole('spinbutton', { name: /(^| · )batch$/ })).toHaveValue(/^\d+$/);
  await showTensorTable(page);
  await expect(page.getByTestId('tensor-row').first()).toBeVisible();
  await snap(page, 'sample');
});

test('a dropped model replaces the shown one; the table searches and sorts', async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  await startOnSmallModel(page);
  await dropFile(page, ULTRAFACE, readModel(ULTRAFACE), { screenshot: 'drag-over' });
  await waitForModel(page, ULTRAFACE);
  const s = await summary(page);
  expect(s.nodes).toBe(await statNumber(page, 'stat-nodes'));
  expect(s.buffers).toBeGreaterThan(50);
  await expect(page.getByTestId('current-file')).toContainText(ULTRAFACE);
  await snap(page, 'dropped-ultraface');

  await showTensorTable(page);
  const rows = page.getByTestId('tensor-row');
  const total = await page.getByTestId('row-count').innerText();
  await page.getByLabel('Search tensors by name, op, node or dtype').fill('conv');
  await expect(page.getByTestId('row-count')).toContainText(' of ');
  for (const row of await rows.all()) {
    const text = [await row.getByTestId('cell-name').innerText(), await row.getByTestId('cell-op').innerText(), await row.getByTestId('cell-dtype').innerText()];
    expect(text.join(' ').toLowerCase()).toContain('conv');
  }
  await snap(page, 'search-conv');
  await page.getByLabel('Search tensors by name, op, node or dtype').fill('');
  await expect(page.getByTestId('row-count')).toHaveText(total);

  await page.getByTestId('kind-filter').getByText('Run-time').click();
  await expect(page.getByRole('radio', { name: /^Run-time/ })).toBeChecked();
  await expect(page.getByTestId('row-count')).toContainText(`${s.buffers} of `);
  const kinds = await rows.locator('.kind').allInnerTexts();
  expect(kinds.length).toBeGreaterThan(5);
  for (const kind of kinds) expect(['input', 'activation', 'output']).toContain(kind);
  await snap(page, 'runtime-tensors');
  await page.getByTestId('kind-filter').getByText('All').click();
  await expect(page.getByTestId('row-count')).toHaveText(total);

  const bytesHeader = page.getByRole('columnheader', { name: 'Bytes' });
  await bytesHeader.getByRole('button').click();
  await expect(bytesHeader).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await visibleBytes(page);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await bytesHeader.getByRole('button').press('Enter');
  await expect(bytesHeader).toHaveAttribute('aria-sort', 'descending');
  const descending = await visibleBytes(page);
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  expect(descending[0]).toBeGreaterThan(ascending[0] ?? 0);
  await expect(page.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'none');
  await snap(page, 'sorted-by-bytes');
});

/** Bytes of the rows in view, in display order (rows of unknown size are skipped). */
async function visibleBytes(page: Page): Promise<number[]> {
  const cells = page.getByTestId('tensor-row').getByTestId('cell-bytes');
  const values = await cells.evaluateAll((els) => els.map((el) => el.getAttribute('data-bytes')));
  return values.filter((v): v is string => v !== null).map(Number);
}

test('the file picker opens tiny-llama; a new dim value re-infers without reloading', async ({ page }) => {
  const name = 'tiny-llama-fp32-missing-external-data.onnx';
  test.skip(!haveModel(name), NO_MODELS);
  await startOnSmallModel(page);
  await page.getByLabel('Open file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: readModel(name) });
  await waitForModel(page, name);
  const dims = page.getByTestId('dim');
  expect(await dims.count()).toBeGreaterThan(0);
  const dim = dims.filter({ hasText: /seq/i }).first();
  const input = dim.getByRole('spinbutton');
  const before = await page.getByTestId('stat-activation-bytes').getAttribute('title');
  const value = Number(await input.inputValue());
  await expect(dim.getByTestId('dim-source')).toHaveText('default');
  await input.fill(String(value * 4 + 8));
  await input.press('Enter');
  await expect(dim.getByTestId('dim-source')).toHaveText('set');
  await expect(page.getByTestId('stat-activation-bytes')).not.toHaveAttribute('title', before ?? '');
  await waitForModel(page, name);
  const after = await page.getByTestId('stat-activation-bytes').getAttribute('title');
  expect(Number(after?.replace(/\D/g, ''))).toBeGreaterThan(Number(before?.replace(/\D/g, '')));
  await expect(input).toHaveValue(String(value * 4 + 8));
  await snap(page, 'dims-changed');
  await dim.getByRole('button', { name: /Reset/ }).click();
  await expect(page.getByTestId('stat-activation-bytes')).toHaveAttribute('title', before ?? '');
  await expect(dim.getByTestId('dim-source')).toHaveText('default');
});

test('a dim value out of range is refused in words beside its field, and the plan on screen stays', async ({ page }) => {
  const name = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(name), NO_MODELS);
  await serveModel(page, `/e2e/${name}`, readModel(name));
  await page.goto(`/?model=/e2e/${name}`);
  await waitForModel(page, name);
  const before = (await summary(page)).peak;
  const dim = page.locator('[data-testid="dim"][data-dim="seq_len"]');
  const input = dim.getByRole('spinbutton');
  await input.fill('99999999999999999999');
  await input.press('Enter');
  await expect(dim.getByTestId('dim-error')).toHaveText('99999999999999999999 is not a whole number from 0 to 2,147,483,647; the plan keeps 128.');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(dim.getByTestId('dim-source')).toHaveText('default');
  expect((await summary(page)).peak).toBe(before);
  await input.fill('64');
  await input.press('Enter');
  await expect(dim.getByTestId('dim-error')).toHaveCount(0);
  await expect(dim.getByTestId('dim-source')).toHaveText('set');
});

test('a dim typed in the side bar is planned on Enter or on leaving its field, never at a keystroke; a value too large stays in the field, refused, until corrected or Escape', async ({ page }) => {
  const name = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(name), NO_MODELS);
  await serveModel(page, `/e2e/${name}`, readModel(name));
  await page.goto(`/?model=/e2e/${name}`);
  await waitForModel(page, name);
  const before = await summary(page);
  // Every page status published from here on: a plan started shows as "loading".
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { statusesSeen: seen });
    new MutationObserver(() => seen.push(document.body.dataset.status ?? '')).observe(document.body, { attributes: true, attributeFilter: ['data-status'] });
  });
  const statuses = () => page.evaluate(() => (window as unknown as { statusesSeen: string[] }).statusesSeen.splice(0));
  const dim = page.locator('[data-testid="dim"][data-dim="past_seq_len"]');
  const input = dim.getByRole('spinbutton');
  const error = dim.getByTestId('dim-error');
  const linked = () => new URL(page.url()).searchParams.get('dim.past_seq_len');
  const typeOver = async (text: string) => {
    await input.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(text);
  };

  await typeOver('1024');
  expect(await statuses()).toEqual([]);
  expect((await summary(page)).settings?.dims).not.toHaveProperty('past_seq_len');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.dims['past_seq_len'] === 1024);
  expect((await statuses()).filter((s) => s === 'loading')).toHaveLength(1);
  const at1024 = await summary(page);
  expect(at1024.peak).toBeGreaterThan(before.peak ?? Infinity);
  expect(linked()).toBe('1024');

  // 2^31 is one past the largest dim: refused on Enter and again on Tab, the text kept beside its message.
  await typeOver('2147483648');
  await page.keyboard.press('Enter');
  const refusal = '2147483648 is not a whole number from 0 to 2,147,483,647; the plan keeps 1,024.';
  await expect(error).toHaveText(refusal);
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Tab');
  await expect(input).not.toBeFocused();
  await expect(input).toHaveValue('2147483648');
  await expect(error).toHaveText(refusal);
  await snap(page, 'dim-refused');
  await input.focus();
  await page.keyboard.press('Escape');
  await expect(input).toHaveValue('1024');
  await expect(error).toHaveCount(0);

  // 1e3 is no whole number's text: refused on leaving the field, then corrected.
  await typeOver('1e3');
  await page.keyboard.press('Tab');
  await expect(error).toHaveText('1e3 is not a whole number from 0 to 2,147,483,647; the plan keeps 1,024.');
  await typeOver('64');
  await expect(error).toHaveCount(0);
  expect(await statuses()).toEqual([]);
  expect((await summary(page)).peak).toBe(at1024.peak);
  expect(linked()).toBe('1024');
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.dims['past_seq_len'] === 64);
  expect(linked()).toBe('64');
  await expect(input).toHaveAttribute('aria-invalid', 'false');
});

test('model= and dim.NAME= URL parameters open a model with bound dims', async ({ page }) => {
  await serveModel(page, '/e2e/batch.onnx', batchModel());
  await page.goto('/?model=/e2e/batch.onnx&dim.batch=3');
  await waitForModel(page, 'batch.onnx');
  const dim = page.getByTestId('dim').filter({ hasText: 'batch' });
  await expect(dim.getByRole('spinbutton')).toHaveValue('3');
  await expect(dim.getByTestId('dim-source')).toHaveText('set');
  // y is float32 [batch, 4]: 3 × 4 × 4 bytes.
  await showTensorTable(page);
  const y = page.locator('[data-testid="tensor-row"][data-name="y"]');
  await expect(y.getByTestId('cell-shape')).toHaveText('3×4');
  await expect(y.getByTestId('cell-bytes')).toHaveAttribute('data-bytes', '48');
  await dim.getByRole('spinbutton').fill('10');
  await dim.getByRole('spinbutton').press('Enter');
  await expect(y.getByTestId('cell-bytes')).toHaveAttribute('data-bytes', '160');
  expect((await summary(page)).buffers).toBe(3);
});

test('a tensor selected outside the table, far down a model of 10,001 tensors, is scrolled into the table\'s view', async ({ page }) => {
  await serveModel(page, '/e2e/chain-10000.onnx', chainModel(10_000));
  await page.goto('/?model=/e2e/chain-10000.onnx&select=buffer:9000');
  await waitForModel(page, 'chain-10000.onnx');
  await showTensorTable(page);
  const picked = page.locator('[data-testid="tensor-row"][aria-selected="true"]');
  await expect(picked).toHaveCount(1);
  await expect(picked).toBeInViewport();
  expect(await page.getByTestId('table-body').evaluate((el) => el.scrollTop)).toBeGreaterThan(1000);
});

test('a model of 10,001 tensors renders only the rows in view and scrolls to the last', async ({ page }) => {
  await startOnSmallModel(page);
  await dropFile(page, 'chain-10000.onnx', chainModel(10_000));
  await waitForModel(page, 'chain-10000.onnx');
  await showTensorTable(page);
  await expect(page.getByTestId('row-count')).toHaveText('10,001 tensors');
  const rendered = await page.getByTestId('tensor-row').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(120);
  await page.getByTestId('table-body').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(page.locator('[data-testid="tensor-row"][data-name="y"]')).toBeVisible();
  expect(await page.getByTestId('tensor-row').count()).toBeLessThan(120);
  await page.getByLabel('Search tensors by name, op, node or dtype').fill('t9999');
  await expect(page.getByTestId('row-count')).toHaveText('1 of 10,001 tensors');
  await snap(page, 'chain-10000');
});

test('the tensor rows are walked from the keyboard: ↓ ↑ select the next and previous, Home and End the ends, each kept in view', async ({ page }) => {
  test.slow(); // each key re-selects in the graph, heap and table of a 10,001-tensor model
  await serveModel(page, '/e2e/chain-10000.onnx', chainModel(10_000));
  await page.goto('/?model=/e2e/chain-10000.onnx');
  await waitForModel(page, 'chain-10000.onnx');
  await showTensorTable(page);
  const body = page.getByTestId('table-body');
  const row = (index: number) => page.locator(`[data-testid="tensor-row"][aria-rowindex="${index + 2}"]`);
  const details = page.getByTestId('selection-details');
  await row(1).click();
  await expect(body).toBeFocused();
  await expect(row(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(row(2)).toHaveAttribute('aria-selected', 'true');
  await expect(row(1)).toHaveAttribute('aria-selected', 'false');
  // selected in every view, as a click does
  await expect(details).toContainText((await row(2).getAttribute('data-name'))!);
  await page.keyboard.press('ArrowUp');
  await expect(row(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  const last = row(10_000);
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(last).toBeInViewport();
  expect(await body.evaluate((el) => el.scrollTop)).toBeGreaterThan(100_000);
  await page.keyboard.press('ArrowUp');
  await expect(row(9_999)).toHaveAttribute('aria-selected', 'true');
  await expect(row(9_999)).toBeInViewport();
  await page.keyboard.press('Home');
  await expect(row(0)).toHaveAttribute('aria-selected', 'true');
  await expect(row(0)).toBeInViewport();
  await page.keyboard.press('ArrowUp'); // stays on the first
  await expect(row(0)).toHaveAttribute('aria-selected', 'true');
  const before = await details.innerText();
  await page.keyboard.press('Enter');
  await expect(row(0)).toHaveAttribute('aria-selected', 'true');
  expect(await details.innerText()).toBe(before);
  await expect(body).toBeFocused();
  // Still only the rows in view are in the page.
  expect(await page.getByTestId('tensor-row').count()).toBeLessThan(120);
});
