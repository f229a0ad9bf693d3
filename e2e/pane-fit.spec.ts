// Panes keep their text readable at laptop sizes: Compare's changed buffers
// keep a name column wide enough to read, the heap pane's figures are never
// cut inside a number, and the side bar and the Details pane never scroll
// sideways under long names.

import { existsSync, readFileSync } from 'node:fs';
import { expect as baseExpect, type Locator, type Page } from '@playwright/test';
import { haveModel, NO_MODELS, openDropped, readModel, snap, test, waitForPlan } from './fixtures';

/** Planning real models on mcu shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
const LLAMA = 'tiny-llama-fp16/model.onnx';
const PERSON = 'tflite/tflm_person_detect.tflite';

/** How far `element`'s content runs past its box, sideways, in pixels (0 when it fits). */
function sidewaysOverflow(element: Locator): Promise<number> {
  return element.evaluate((el) => Math.max(0, el.scrollWidth - el.clientWidth));
}

async function openAt(page: Page, width: number, height: number, model: string, query: string): Promise<void> {
  await page.setViewportSize({ width, height });
  await openDropped(page, model, readModel(model), `/?${query}`);
}

test("at 1024×640 Compare's changed buffers keep a readable name column beside their sizes and offsets", async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await openAt(page, 1024, 640, GPT2, '');
  await page.getByRole('button', { name: 'Side bar' }).click();
  const panel = page.getByTestId('compare-panel');
  await panel.locator('[data-dim="past_seq_len"]').fill('256');
  await panel.getByTestId('compare-run').click();
  const table = page.getByTestId('compare-dialog').getByTestId('diff-buffers');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const heading = table.locator('th').nth(1);
  await expect(heading).toHaveText('buffer');
  const width = (await heading.boundingBox())!.width;
  await snap(page, 'pane-fit-compare-1024');
  expect(width, 'the buffer column is too narrow to read a name').toBeGreaterThanOrEqual(80);
  expect(await sidewaysOverflow(table), 'the table runs past its pane').toBe(0);
  // Each offset reads whole: it wraps after its arrow rather than be cut.
  for (const cell of await table.locator('tbody tr td:nth-child(5)').all()) {
    expect(await sidewaysOverflow(cell), `offset "${await cell.textContent()}" is cut`).toBe(0);
  }
  // The name cut to fit keeps the whole name in its title.
  const name = table.locator('tbody tr td:nth-child(2)').first();
  await expect(name).toHaveAttribute('title', /\S/);
});

/** Each figure of the heap pane's header that is cut: an ellipsis, or a pair that runs past the pane. */
function cutFigures(page: Page): Promise<string[]> {
  return page.getByTestId('heap-pane').evaluate((pane) => {
    const numbers = pane.querySelector('[data-testid="heap-peak"]')!;
    const right = pane.getBoundingClientRect().right;
    const cut = [...numbers.querySelectorAll<HTMLElement>('.heap-pair')].filter((pair) => pair.getBoundingClientRect().right > right + 0.5).map((pair) => pair.textContent ?? '');
    const boxes = [numbers, ...numbers.querySelectorAll('*')].filter((el) => getComputedStyle(el).display !== 'inline');
    for (let el = numbers.parentElement; el !== null && el !== pane; el = el.parentElement) boxes.push(el);
    for (const el of boxes) if (el.scrollWidth > el.clientWidth + 1) cut.push(`${el.className} runs ${el.scrollWidth - el.clientWidth} px past its box`);
    return cut;
  });
}

for (const [width, height] of [[1024, 640], [1280, 720]] as const) {
  test(`at ${width}×${height} the heap pane's figures of tiny-llama on mcu are whole: the header wraps between figures rather than cut a number`, async ({ page }) => {
    test.skip(!haveModel(LLAMA), NO_MODELS);
    await openAt(page, width, height, LLAMA, 'target=mcu&panes=graph,heap,growth,explain');
    const numbers = page.getByTestId('heap-peak');
    await expect(numbers).toHaveAttribute('title', /peak .* · bound .* · best/);
    await snap(page, `pane-fit-heap-header-llama-${width}`);
    expect(await cutFigures(page)).toEqual([]);
    await expect(numbers).toContainText(/peak [\d.]+ MiB \(sum of 2 memories\) · bound [\d.]+ MiB/);
  });
}

test("at 1024×640 with the side bar open the heap pane's figures of GPT-2 on mcu are whole", async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await openAt(page, 1024, 640, GPT2, 'target=mcu');
  for (const pane of ['Side bar', 'Growth']) {
    const toggle = page.getByRole('button', { name: pane, exact: true });
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  }
  await waitForPlan(page);
  await snap(page, 'pane-fit-heap-header-gpt2-1024');
  expect(await cutFigures(page)).toEqual([]);
});

/** What runs past `container`'s right edge or makes a box in it scroll sideways: a few words of each. */
function sidewaysRuns(container: Locator): Promise<string[]> {
  return container.evaluate((root) => {
    const right = root.getBoundingClientRect().right;
    const runs: string[] = [];
    for (const el of [root, ...root.querySelectorAll<HTMLElement>('*')]) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || el.closest('[hidden]')) continue;
      const scrolls = /auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const rect = el.getBoundingClientRect();
      if (scrolls || (rect.width > 0 && rect.right > right + 1)) runs.push(`${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? '').slice(0, 40)}`);
    }
    return runs.slice(0, 8);
  });
}

test('at 1280×720 the side bar never scrolls sideways: the diagnostics of tiny-llama wrap their long names', async ({ page }) => {
  test.skip(!haveModel(LLAMA), NO_MODELS);
  await openAt(page, 1280, 720, LLAMA, '');
  const diagnostics = page.getByTestId('diagnostics');
  await diagnostics.scrollIntoViewIfNeeded();
  await expect(diagnostics).toContainText('external-data');
  await snap(page, 'pane-fit-sidebar-diagnostics-llama-1280');
  expect(await sidewaysRuns(page.locator('.sidebar'))).toEqual([]);
});

for (const [width, height, model, query] of [
  [1600, 1000, PERSON, ''],
  [1024, 640, LLAMA, 'target=mcu'],
  [1024, 640, LLAMA, ''],
] as const) {
  test(`at ${width}×${height} the Details pane of ${model}${query ? ` (${query})` : ''} never scrolls sideways: long names wrap`, async ({ page }) => {
    test.skip(!haveModel(model), NO_MODELS);
    await openAt(page, width, height, model, query);
    const details = page.getByTestId('details-pane');
    await expect(details.getByTestId('peak-live')).toBeVisible();
    await expect(details.getByTestId('strategy-comparison')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    await snap(page, `pane-fit-details-${model.replace(/\W+/g, '-')}-${width}`);
    expect(await sidewaysRuns(details)).toEqual([]);
  });
}

test('at 640×400 an embed whose Details refer to "own" in the header shows that figure in its header', async ({ page }) => {
  await page.setViewportSize({ width: 640, height: 400 });
  await page.goto('/?embed=1&panes=heap,explain&model=sample.onnx&target=mcu');
  await waitForPlan(page);
  const details = page.getByTestId('embed-workspace');
  await expect(details).toContainText('"own" in the header');
  const own = /, ([\d.]+ (?:KiB|MiB)), "own" in the header/.exec((await details.textContent())!)![1]!;
  await snap(page, 'pane-fit-embed-own-640');
  const header = page.getByTestId('embed-peak');
  await expect(header).toContainText(`own ${own}`);
  expect(await sidewaysOverflow(page.locator('.embed-caption'))).toBe(0);
  expect(await header.evaluate((el) => el.getBoundingClientRect().bottom <= el.closest('.embed-caption')!.getBoundingClientRect().bottom + 0.5)).toBe(true);
});

test("at 1024×640 the heap table says which buffer shares another's bytes: ultraface's Relu in place over its Conv's output", async ({ page }) => {
  const file = 'ultraface_RFB-320.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await openAt(page, 1024, 640, file, '');
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const table = page.getByRole('table', { name: 'Buffers of the plan' });
  const row = table.locator('[data-testid="heap-row"][data-name="247"]');
  await expect(row).toBeVisible();
  // 247 (Relu_1's output) sits at 246's offset while 246 is live: the row says so where the offset is read.
  const mark = row.getByTestId('heap-shares');
  await expect(mark).toBeVisible();
  await expect(mark).toHaveAttribute('title', /^shares bytes with 246\b/);
  const body = table.getByRole('rowgroup').nth(1);
  const [m, b] = [(await mark.boundingBox())!, (await body.boundingBox())!];
  expect(m.x + m.width, 'the mark is in view without scrolling sideways').toBeLessThanOrEqual(b.x + b.width);
  // A buffer of its own bytes has no mark.
  await expect(table.locator('[data-testid="heap-row"][data-name="246"]').getByTestId('heap-shares')).toHaveCount(0);
  // The column at the table's end names it too.
  await expect(row.getByTestId('heap-cell-shares')).toHaveText('246');
  await snap(page, 'pane-fit-heap-table-shares-1024');
});

test("a Loop's body has one colour and one name in the heap, its legend and the live-bytes chart", async ({ page }) => {
  const path = '/usr/share/libonnx-testdata/data/node/test_loop11/model.onnx';
  test.skip(!existsSync(path), 'needs the ONNX backend test data (libonnx-testdata)');
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDropped(page, 'model.onnx', readFileSync(path), '/');
  const pane = page.getByTestId('heap-pane');
  const chart = pane.getByTestId('peak-chart');
  await expect(chart).toBeVisible();
  // The body's block is grey in the heap: the legend names that grey, and the chart counts its bytes in a row of that grey.
  const key = pane.getByRole('list', { name: 'Legend' }).locator('li', { hasText: 'subgraph body' });
  await expect(key).toBeVisible();
  const grey = await key.locator('.swatch').evaluate((el) => getComputedStyle(el).backgroundColor);
  await expect(chart).toHaveAttribute('data-kinds', /(^|,)subgraph(,|$)/);
  const row = chart.locator('.pc-cell[data-kind="subgraph"] .pc-area');
  expect(await row.evaluate((el) => getComputedStyle(el).fill)).toBe(grey);
  await expect(chart.locator('text', { hasText: /^subgraph body/ })).toHaveCount(1);
  // Nothing of the body is counted as an activation: the activation row, if any, holds no bytes at the peak.
  const activation = chart.locator('text', { hasText: /^activation/ });
  if ((await activation.count()) > 0) await expect(activation).toHaveText(/^activation\b.* 0 B/);
  await snap(page, 'pane-fit-loop-body');
});
