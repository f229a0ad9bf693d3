// Helpers of the specs that read the heap's Table view: opening it as a person
// does (the Heap view's Table button, then the first row drawn), measuring that
// its body fits across the pane, and reading the bytes and offsets of the rows shown.

import { expect, type Locator, type Page } from '@playwright/test';

/** Switches the heap pane to its Table view and waits for a row; returns the table. */
export async function openHeapTable(page: Page): Promise<Locator> {
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const table = page.getByRole('table', { name: 'Buffers of the plan' });
  await expect(table.getByTestId('heap-row').first()).toBeVisible();
  return table;
}

/** Expects the table's body to fit across its pane, never scrolled sideways; returns the body's box, what a column must end inside. */
export async function bodyFitsAcross(table: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const body = table.getByRole('rowgroup').nth(1);
  expect(await body.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the table scrolls sideways').toBe(true);
  return (await body.boundingBox())!;
}

/** The bytes of the rows drawn, top to bottom, as each row's Bytes cell gives them (data-bytes). */
export async function shownBytes(table: Locator): Promise<number[]> {
  const rows = await table.getByTestId('heap-row').evaluateAll((els) =>
    els.map((el) => ({ top: el.getBoundingClientRect().top, bytes: Number(el.querySelector('[data-testid="heap-cell-bytes"]')?.getAttribute('data-bytes')) })),
  );
  return rows.sort((a, b) => a.top - b.top).map((r) => r.bytes);
}

/** The Offset cells drawn: each one's text, whether it carries the shares-bytes mark, and whether its figure is cut (an ellipsis, or wider than its cell). */
export async function shownOffsets(table: Locator): Promise<{ text: string; shared: boolean; cut: boolean }[]> {
  return table.getByTestId('heap-cell-offset').evaluateAll((cells) =>
    cells.map((el) => ({
      text: el.textContent ?? '',
      shared: el.querySelector('[data-testid="heap-shares"]') !== null,
      cut: el.scrollWidth > el.clientWidth,
    })),
  );
}
