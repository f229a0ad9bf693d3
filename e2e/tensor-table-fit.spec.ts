// The Tensors table fits across its pane at laptop sizes, as the heap's table
// does: a narrow pane leaves out the columns least read, and the sizes in the
// Bytes column are always read whole, never cut at the pane's edge.

import { expect as baseExpect, type Locator, type Page } from '@playwright/test';
import { haveModel, NO_MODELS, readModel, serveModel, showTensorTable, snap, test, waitForModel, waitForPlan } from './fixtures';

/** Planning a real model on mcu shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const FILE = 'ultraface_RFB-320.onnx';

/** Each header shown and each Bytes cell in view that runs past the table's right edge, with how far. */
function pastTheEdge(table: Locator): Promise<string[]> {
  return table.evaluate((el) => {
    const right = el.getBoundingClientRect().right;
    const shown = (cell: Element): boolean => {
      const box = cell.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    };
    const cells = [...el.querySelectorAll('[role="columnheader"]'), ...el.querySelectorAll('[data-testid="cell-bytes"]')].filter(shown);
    return cells.flatMap((cell) => {
      const over = cell.getBoundingClientRect().right - right;
      return over > 0.5 ? [`${cell.textContent} ends ${Math.round(over)} px past the pane`] : [];
    });
  });
}

async function openUltraface(page: Page, width: number, height: number): Promise<Locator> {
  await page.setViewportSize({ width, height });
  await serveModel(page, `/e2e/${FILE}`, readModel(FILE));
  await page.goto(`/?model=/e2e/${FILE}&target=mcu`);
  await waitForModel(page, FILE);
  await waitForPlan(page);
  return page.getByTestId('tensor-table').getByRole('table');
}

async function expectFits(page: Page, table: Locator, shot: string): Promise<void> {
  await expect(table.getByTestId('cell-bytes').first()).toBeVisible();
  await expect.poll(() => pastTheEdge(table)).toEqual([]);
  await expect(table.getByRole('columnheader', { name: 'Bytes' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Name' })).toBeVisible();
  // A size reads whole: its cell is as wide as its text.
  const cut = await table.getByTestId('cell-bytes').evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent));
  expect(cut).toEqual([]);
  await snap(page, shot);
}

test('at 1024×640 with the side bar open, the Tensors table leaves out columns and shows every size whole', async ({ page }) => {
  test.skip(!haveModel(FILE), NO_MODELS);
  const table = await openUltraface(page, 1024, 640);
  await page.getByRole('button', { name: 'Side bar' }).click();
  await showTensorTable(page);
  await expectFits(page, table, 'tensor-table-fit-1024-sidebar');
  // The table never scrolls sideways.
  const body = page.getByTestId('table-body');
  expect(await body.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

test('narrowed from 1920×1080 to 1024×640 with the side bar open, the Tensors table still fits its pane', async ({ page }) => {
  test.skip(!haveModel(FILE), NO_MODELS);
  const table = await openUltraface(page, 1920, 1080);
  const sideBar = page.getByRole('button', { name: 'Side bar' });
  if ((await sideBar.getAttribute('aria-pressed')) !== 'true') await sideBar.click();
  await showTensorTable(page);
  // Wide, every column shows.
  for (const label of ['#', 'Name', 'Op', 'Kind', 'DType', 'Shape', 'Bytes']) await expect(table.getByRole('columnheader', { name: label, exact: true })).toBeVisible();
  await page.setViewportSize({ width: 1024, height: 640 });
  await showTensorTable(page);
  await expectFits(page, table, 'tensor-table-fit-resized-1024');
});
