// The Compare dialog on a small laptop window (1024×640) with a two-region B:
// each heap shows its regions one at a time when their lanes would be too
// short to read, as the page's heap does, with the same switcher (the region
// of a cause's buffers when one is picked); and no byte-axis label is drawn
// over another, even with every region drawn.

import { expect as baseExpect, type Locator, type Page } from '@playwright/test';
import { haveModel, NO_MODELS, readModel, serveModel, snap, test, textOverlaps, waitForModel, waitForPlan } from './fixtures';

/** Planning ultraface twice shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const ULTRAFACE = 'ultraface_RFB-320.onnx';

/** The least height of a heap lane, in CSS pixels (src/views/heap/heap-regions.ts). */
const READABLE_LANE = 100;

/** Opens ultraface on cpu (A, one region) compared with mcu (B: sram and ext-ram) at 1024×640. */
async function openCompare(page: Page): Promise<Locator> {
  await page.setViewportSize({ width: 1024, height: 640 });
  await serveModel(page, `/e2e/${ULTRAFACE}`, readModel(ULTRAFACE));
  await page.goto(`/?model=/e2e/${ULTRAFACE}&compare=1&b.target=mcu`);
  await waitForModel(page, ULTRAFACE);
  await waitForPlan(page);
  const dialog = page.getByTestId('compare-dialog');
  for (const side of ['a', 'b']) await expect(dialog.getByTestId(`compare-heap-${side}`).getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);
  return dialog;
}

/** The height of the shortest lane drawn in a side's heap. */
async function laneHeight(dialog: Locator, side: 'a' | 'b'): Promise<number> {
  return Number(await dialog.getByTestId(`compare-heap-${side}`).getByTestId('heap-canvas').getAttribute('data-lane-height'));
}

test('ultraface cpu against mcu at 1024×640: B shows one region at a time, every lane readable, no axis label over another', async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  test.setTimeout(120_000);
  const dialog = await openCompare(page);
  const heapB = dialog.getByTestId('compare-heap-b');
  const canvasB = heapB.getByTestId('heap-canvas');
  // B's two lanes were 15 px tall, "200 KiB" printed over "0 B": B now shows the region of its peak alone
  const switcher = heapB.getByTestId('heap-region');
  await expect(switcher).toBeVisible();
  await expect(switcher).toHaveAttribute('data-auto', 'true');
  await expect(canvasB).toHaveAttribute('data-lanes', '1');
  // A has one region: nothing to switch
  await expect(dialog.getByTestId('compare-heap-a').getByTestId('heap-region')).toHaveCount(0);
  expect(await laneHeight(dialog, 'a')).toBeGreaterThanOrEqual(READABLE_LANE);
  expect(await laneHeight(dialog, 'b')).toBeGreaterThanOrEqual(READABLE_LANE);
  expect(await textOverlaps(dialog.locator('.compare-heaps'), 1)).toEqual([]);
  await snap(page, 'compare-lanes-1024');

  // B shows ext-ram, the region of its peak; a cause whose buffer is in sram brings sram, with the buffer lit
  await expect(heapB.getByTestId('heap-lane')).toHaveAttribute('data-region', 'ext-ram');
  await dialog.getByTestId('diff-cause').filter({ hasText: "'Conv_37:im2col'" }).getByRole('button').first().click();
  await expect(heapB.getByTestId('heap-lane')).toHaveAttribute('data-region', 'sram');
  await expect(canvasB).toHaveAttribute('data-highlighted', '1');
  expect(await laneHeight(dialog, 'b')).toBeGreaterThanOrEqual(READABLE_LANE);

  // the other region, chosen, is drawn alone at the same readable height, whatever is pointed at
  await switcher.selectOption('ext-ram');
  await expect(heapB.getByTestId('heap-lane')).toHaveAttribute('data-region', 'ext-ram');
  await expect(switcher).toHaveAttribute('data-auto', 'false');
  expect(await laneHeight(dialog, 'b')).toBeGreaterThanOrEqual(READABLE_LANE);
  expect(await textOverlaps(dialog.locator('.compare-heaps'), 1)).toEqual([]);

  // every region at once, when asked for: short lanes, but still no label over another
  await switcher.selectOption('all');
  await expect(canvasB).toHaveAttribute('data-lanes', '2');
  await expect.poll(async () => textOverlaps(dialog.locator('.compare-heaps'), 1)).toEqual([]);
  await snap(page, 'compare-lanes-1024-all');
});

test("the page's heap with every region drawn in a short window: lanes at their least height, no axis label over another", async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  await page.setViewportSize({ width: 1024, height: 360 });
  await serveModel(page, `/e2e/${ULTRAFACE}`, readModel(ULTRAFACE));
  await page.goto(`/?model=/e2e/${ULTRAFACE}&target=mcu`);
  await waitForModel(page, ULTRAFACE);
  await waitForPlan(page);
  const heap = page.getByTestId('heap-pane');
  await heap.getByTestId('heap-region').selectOption('all');
  const canvas = heap.getByTestId('heap-canvas');
  await expect(canvas).toHaveAttribute('data-lanes', '2');
  // a lane this short had "200 KiB" printed over "0 B"
  expect(Number(await canvas.getAttribute('data-lane-height'))).toBeLessThan(40);
  await expect.poll(async () => textOverlaps(heap.locator('.heap-view'), 1)).toEqual([]);
  await snap(page, 'heap-all-regions-short');
});

test('ultraface cpu against mcu at 1024×640: the heap column fits the dialog, with no scrollbar', async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  test.setTimeout(120_000);
  const dialog = await openCompare(page);
  await expect(dialog.getByTestId('compare-heap-b').getByTestId('heap-canvas')).toHaveAttribute('data-lanes', '1');
  const column = dialog.locator('.compare-heaps');
  // both heaps at their least readable height and the legend: the column's whole height, once Close no longer takes a row of the header
  const fit = await column.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
  expect(fit.scroll - fit.client, 'the heap column scrolls').toBeLessThanOrEqual(1);
  expect(await laneHeight(dialog, 'a')).toBeGreaterThanOrEqual(READABLE_LANE);
  expect(await laneHeight(dialog, 'b')).toBeGreaterThanOrEqual(READABLE_LANE);
  await snap(page, 'compare-lanes-1024-fit');
});

test("ultraface on mcu: the heap header's title and Compare's figures name the peak the sum of each memory's own peak, as the headline does", async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  test.setTimeout(120_000);
  const sum = /peak [\d.]+ [KM]iB \(the sum of each memory's own peak, sram [\d.]+ [KM]iB \+ ext-ram [\d.]+ [KM]iB\)/;
  const dialog = await openCompare(page);
  // B on mcu adds two memories' peaks: its heap's title and its figure in the header each show the Σ, titled with each memory's peak; A on cpu has one memory
  const each = /^the sum of each memory's own peak, sram [\d.]+ [KM]iB \+ ext-ram [\d.]+ [KM]iB$/;
  const mark = dialog.getByTestId('compare-heap-b').locator('.compare-heap-title').getByTestId('peak-sum-mark');
  await expect(mark).toBeVisible();
  await expect(mark).toHaveAttribute('title', each);
  const figureB = dialog.getByTestId('compare-peak-b');
  await expect(figureB).toHaveAttribute('title', each);
  await expect(figureB.getByTestId('peak-sum-mark')).toBeVisible();
  await expect(figureB).toHaveText(/^Σ [\d.]+ [KM]iB$/);
  await expect(figureB.getByTestId('peak-sum-mark')).toHaveAttribute('aria-label', /^the sum of each memory's own peak, sram/);
  await expect(dialog.getByTestId('compare-heap-a').getByTestId('peak-sum-mark')).toHaveCount(0);
  await expect(dialog.getByTestId('compare-peak-a').getByTestId('peak-sum-mark')).toHaveCount(0);
  await expect(dialog.getByTestId('compare-peak-a')).not.toHaveAttribute('title', /./);
  await snap(page, 'compare-peak-sum-mark');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.goto(`/?model=/e2e/${ULTRAFACE}&target=mcu`);
  await waitForModel(page, ULTRAFACE);
  await waitForPlan(page);
  await expect(page.getByTestId('heap-peak')).toHaveAttribute('title', sum);
});
