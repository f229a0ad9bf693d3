// One tab stop for the graph (issue 34), on GPT-2 with its KV cache: Tab
// enters the graph once, at one node, and the next Tab leaves it; arrow keys
// move between the nodes along the edges (Down to a consumer, Up back to its
// producer), each keeping its screen-reader label; Enter selects the node;
// Shift+Tab comes back to the node last visited.

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { haveModel, NO_MODELS, openDropped, readModel, test } from './fixtures';

const inGraph = (page: Page) => page.evaluate(() => document.activeElement?.closest('[data-testid="graph-view"]') !== null);
const focusedBox = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-focusable') ?? undefined);

test('Tab enters the graph at one node and leaves it; arrows follow the edges; Enter selects', async ({ page }) => {
  test.skip(!haveModel('tiny-random-gpt2-fp32-past.onnx'), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openDropped(page, 'gpt2-past.onnx', readModel('tiny-random-gpt2-fp32-past.onnx'));
  await page.waitForFunction(() => window.heapscope?.summary().graph.status === 'drawn');
  const view = page.getByTestId('graph-view');
  // Of every node, input, output and group header drawn, one takes Tab; the pane itself none.
  expect(await view.locator('[data-focusable]').count()).toBeGreaterThan(20);
  await expect(view.locator('[tabindex="0"]')).toHaveCount(1);
  await expect(view).toHaveAttribute('tabindex', '-1');

  await page.getByTestId('graph-skip').focus();
  await page.keyboard.press('Tab');
  expect(await inGraph(page)).toBe(true);
  const entry = (await focusedBox(page))!;
  expect(entry).toBeDefined();
  await page.keyboard.press('Tab');
  expect(await inGraph(page)).toBe(false);
  await page.keyboard.press('Shift+Tab');
  expect(await focusedBox(page)).toBe(entry);

  // Down along the edges until an op: each step goes to a box the last one feeds.
  const isOp = () => page.evaluate(() => document.activeElement?.classList.contains('gnode') === true);
  let at = entry;
  for (let i = 0; i < 8 && !(await isOp()); i += 1) {
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedBox(page)).not.toBe(at);
    const next = (await focusedBox(page))!;
    await expect(page.locator(`.g-edge[data-from="${at}"][data-to="${next}"]`)).toHaveCount(1);
    at = next;
  }
  expect(await isOp()).toBe(true);
  const node = page.locator(`[data-focusable="${at}"]`);
  await expect(node).toHaveAttribute('aria-label', /\S/);
  // Up goes back to a producer of it.
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => focusedBox(page)).not.toBe(at);
  await expect(page.locator(`.g-edge[data-from="${(await focusedBox(page))!}"][data-to="${at}"]`)).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => focusedBox(page)).toBe(at);
  // Still one tab stop, now the node visited last.
  await expect(view.locator('[tabindex="0"]')).toHaveCount(1);
  await expect(view.locator('[tabindex="0"]')).toHaveAttribute('data-focusable', at);

  const op = page.locator('.gnode:focus');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'node');
  await expect(page.getByTestId('selection-details')).toContainText((await op.getAttribute('data-node'))!);
});
