// The heap's table view as a person reads a decoder's plan in the narrow heap
// pane: sorted by a click or a key on a header (largest bytes one click away),
// the table fitting across the pane (the columns least read left out), and
// a row of the sorted table selecting its buffer everywhere.

import { expect } from '@playwright/test';
import type {} from '../src/app/page-api';
import { NO_MODELS, haveModel, openDropped, readModel, snap, summary, test } from './fixtures';
import { bodyFitsAcross, openHeapTable, shownBytes } from './heap-table';

test.use({ viewport: { width: 1280, height: 720 } });

test('GPT-2 on an MCU: the heap table sorts by its headers, keeps the names in view in a narrow pane, and a sorted row selects its buffer', async ({ page }) => {
  test.skip(!haveModel('tiny-random-gpt2-fp32-past.onnx'), NO_MODELS);
  await openDropped(page, 'gpt2-past.onnx', readModel('tiny-random-gpt2-fp32-past.onnx'), '/?target=mcu');
  const table = await openHeapTable(page);
  const planOrder = await shownBytes(table);

  // Largest first is one click on Bytes.
  const bytes = table.getByRole('columnheader', { name: 'Bytes' });
  await expect(bytes).toHaveAttribute('aria-sort', 'none');
  await bytes.getByRole('button').click();
  await expect(bytes).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(async () => {
    const shown = await shownBytes(table);
    return shown.length > 0 && shown.every((b, k) => k === 0 || shown[k - 1]! >= b) && shown[0] === Math.max(...planOrder, ...shown);
  }).toBe(true);
  await snap(page, 'heap-table-by-bytes');

  // Enter and Space on a focused header sort too, and the other header lets go.
  const offset = table.getByRole('columnheader', { name: 'Offset' });
  await offset.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(offset).toHaveAttribute('aria-sort', 'ascending');
  await expect(bytes).toHaveAttribute('aria-sort', 'none');
  await page.keyboard.press('Space');
  await expect(offset).toHaveAttribute('aria-sort', 'descending');
  await bytes.getByRole('button').click();
  await expect(bytes).toHaveAttribute('aria-sort', 'descending');

  // The pane is narrower than every column: the table still fits across it, never sideways, with the names at the
  // left and the columns least read left to Details; Kind stays as the diagram's colour chip, its words for screen
  // readers (it was left out, so a KV cache row looked like any other).
  const box = await bodyFitsAcross(table);
  const first = table.getByTestId('heap-row').first();
  const name = first.getByRole('cell').first();
  await expect.poll(async () => Math.round((await name.boundingBox())!.x - box.x)).toBe(0);
  await expect(name).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Kind' })).toBeVisible();
  // the largest rows, sorted by bytes, are the decoder's KV cache (present.N)
  const kv = table.locator('[data-testid="heap-cell-kind"][data-class="kv"]').first();
  await expect(kv).toHaveText(/^(input|output) · KV cache(, spilled: it wanted sram)?$/);
  await expect(kv.locator('.swatch-kv')).toBeVisible();
  for (const label of ['Buffer', 'Bytes', 'Offset', 'Lifetime', 'Kind']) {
    const header = (await table.getByRole('columnheader', { name: label }).boundingBox())!;
    expect(header.x + header.width, `${label} ends inside the pane`).toBeLessThanOrEqual(box.x + box.width + 1);
  }
  await snap(page, 'heap-table-narrow');

  // The largest buffer's row selects it in every view: the details, the row itself, the tensor table.
  const largest = await shownBytes(table).then((b) => b[0]!);
  const row = table.locator(`[data-testid="heap-row"]:has([data-bytes="${largest}"])`).first();
  const bufferName = (await row.getAttribute('data-name'))!;
  await row.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'buffer');
  await expect(page.getByTestId('selection-details')).toContainText(bufferName.slice(0, 12));
});

for (const { width, height } of [
  { width: 1024, height: 640 },
  { width: 1280, height: 720 },
  { width: 1600, height: 1000 },
]) {
  test(`GPT-2 on an MCU at ${width}×${height}: the heap table keeps Kind, its figures whole, and gives the names the room`, async ({ page }) => {
    test.skip(!haveModel('tiny-random-gpt2-fp32-past.onnx'), NO_MODELS);
    await page.setViewportSize({ width, height });
    await openDropped(page, 'gpt2-past.onnx', readModel('tiny-random-gpt2-fp32-past.onnx'), '/?target=mcu');
    const table = await openHeapTable(page);
    const box = await bodyFitsAcross(table);
    // at 1280 Kind was left out while Lifetime and Region kept their width and the names were cut ("…tention_mask")
    const width_ = async (label: string) => (await table.getByRole('columnheader', { name: label }).boundingBox())!;
    for (const label of ['Buffer', 'Bytes', 'Offset', 'Lifetime', 'Region', 'Kind']) {
      const header = await width_(label);
      expect(header.x + header.width, `${label} ends inside the table`).toBeLessThanOrEqual(box.x + box.width + 1);
    }
    expect((await width_('Buffer')).width).toBeGreaterThan((await width_('Lifetime')).width);
    expect((await width_('Buffer')).width).toBeGreaterThan((await width_('Region')).width);
    // a KV cache row and a spilled row are told apart from the rest, in colour and in words
    const kv = table.locator('[data-testid="heap-row"][data-name="past_0"]').getByTestId('heap-cell-kind');
    await expect(kv).toHaveAttribute('data-class', 'kv');
    await expect(kv).toHaveAttribute('title', 'input · KV cache');
    await expect(kv.locator('.swatch-kv')).toBeVisible();
    const spilled = table.locator('[data-testid="heap-cell-kind"][data-spilled="true"]').first();
    await expect(spilled).toHaveAttribute('title', /, spilled: it wanted sram$/);
    await expect(spilled.locator('.spill-mark')).toBeVisible();
    // no figure is cut: bytes, offsets and lifetimes read whole
    const cut = await table.getByTestId('heap-row').evaluateAll((rows) =>
      rows.flatMap((row) => [1, 2, 3].map((k) => row.children[k] as HTMLElement).filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.innerText)),
    );
    expect(cut).toEqual([]);
    await snap(page, `heap-table-gpt2-${width}`);
  });
}

for (const { width, height, shown } of [
  { width: 1600, height: 1000, shown: ['Buffer', 'Bytes', 'Offset', 'Lifetime', 'Region', 'Kind'] },
  { width: 1280, height: 720, shown: ['Buffer', 'Bytes', 'Offset', 'Lifetime', 'Region', 'Kind'] },
]) {
  test(`ultraface on an MCU at ${width}×${height}: the table and the live-bytes chart each have their own room, and Chart looks pressed exactly while the chart shows`, async ({ page }) => {
    const file = 'ultraface_RFB-320.onnx';
    test.skip(!haveModel(file), NO_MODELS);
    await page.setViewportSize({ width, height });
    await openDropped(page, file, readModel(file), '/?target=mcu');
    const table = await openHeapTable(page);
    const chart = page.getByTestId('heap-pane').getByTestId('peak-chart');
    await expect(chart).toBeVisible();
    // Every buffer of both regions is listed and charted: the table has no region switcher to bring one back.
    await expect(table).toHaveAttribute('aria-rowcount', String((await summary(page)).buffers + 1));
    await expect(chart).toHaveAttribute('data-regions', '2');
    const [t, c] = [(await table.boundingBox())!, (await chart.boundingBox())!];
    const apart = t.x + t.width <= c.x + 1 || c.x + c.width <= t.x + 1 || t.y + t.height <= c.y + 1 || c.y + c.height <= t.y + 1;
    expect(apart).toBe(true);
    // The first columns are read whole, not cut at the chart's edge.
    for (const label of shown) {
      const header = (await table.getByRole('columnheader', { name: label }).boundingBox())!;
      expect(header.x + header.width, `${label} ends inside the table`).toBeLessThanOrEqual(t.x + t.width + 1);
    }
    await snap(page, `heap-table-with-chart-${width}`);

    // The toggle's look follows its state, with the pointer on it or away.
    const toggle = page.getByTestId('heap-chart-toggle');
    // Each look is read once settled, not halfway through the button's fade.
    await toggle.evaluate((el) => (el.style.transition = 'none'));
    const look = () => toggle.evaluate((el) => getComputedStyle(el).backgroundColor);
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await page.mouse.move(0, 0);
    const pressed = await look();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(chart).toHaveCount(0);
    const hovered = await look();
    await page.mouse.move(0, 0);
    const released = await look();
    expect(hovered).not.toBe(pressed);
    expect(released).not.toBe(pressed);
    await toggle.click();
    await expect(chart).toBeVisible();
    expect(await look()).toBe(pressed);
  });
}

test('FastestDet on mcu at 1280×720: over two regions the narrow table keeps its Region column, so two offsets of 0 are told apart, and still fits', async ({ page }) => {
  test.skip(!haveModel('FastestDet.onnx'), NO_MODELS);
  await openDropped(page, 'FastestDet.onnx', readModel('FastestDet.onnx'), '/?target=mcu');
  const table = await openHeapTable(page);
  await expect(table.getByRole('columnheader', { name: 'Region' })).toBeVisible();
  const regions = await table.getByTestId('heap-row').evaluateAll((rows) => rows.map((row) => (row.children[4] as HTMLElement).innerText.trim()));
  expect(regions.every((r) => r === 'sram' || r === 'ext-ram')).toBe(true);
  const box = await bodyFitsAcross(table);
  const header = (await table.getByRole('columnheader', { name: 'Region' }).boundingBox())!;
  expect(header.x + header.width).toBeLessThanOrEqual(box.x + box.width + 1);
  await snap(page, 'heap-table-regions-1280');
});
