// Heap diagrams on small windows with two regions: no byte-axis label is
// drawn over another, however short the lanes.

import { expect as baseExpect } from '@playwright/test';
import { haveModel, NO_MODELS, readModel, serveModel, snap, test, textOverlaps, waitForModel, waitForPlan } from './fixtures';

/** Planning ultraface shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const ULTRAFACE = 'ultraface_RFB-320.onnx';

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
