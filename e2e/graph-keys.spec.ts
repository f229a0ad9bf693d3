// One tab stop for the graph (issue 34), on GPT-2 with its KV cache: Tab
// enters the graph once, at one node, and the next Tab leaves it; arrow keys
// move between the nodes along the edges (Down to a consumer, Up back to its
// producer), each keeping its screen-reader label; Enter selects the node;
// Shift+Tab comes back to the node last visited.

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { graphSettled, haveModel, NO_MODELS, openDropped, readModel, showTensorTable, snap, startOnSmallModel, test, waitForModel } from './fixtures';

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
  // A screen reader hears the selected node as the current one, and only it.
  await expect(op).toHaveAttribute('aria-current', 'true');
  await expect(view.locator('[aria-current="true"]')).toHaveCount(1);
});

test('"/" and Ctrl+F with focus on a graph node open the graph\'s Find wherever the pointer is; focus in the tensors gives "/" to their filter', async ({ page }) => {
  test.skip(!haveModel('tiny-random-gpt2-fp32-past.onnx'), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openDropped(page, 'gpt2-past.onnx', readModel('tiny-random-gpt2-fp32-past.onnx'));
  await page.waitForFunction(() => window.heapscope?.summary().graph.status === 'drawn');
  const find = page.getByTestId('graph-search');
  const filter = page.locator('#tensor-search');
  const header = (await page.locator('header').boundingBox())!;
  await page.mouse.move(header.x + header.width / 2, header.y + header.height / 2); // the pointer away from every pane
  const enterGraph = async (): Promise<void> => {
    await page.getByTestId('graph-skip').focus();
    await page.keyboard.press('Tab');
    expect(await inGraph(page)).toBe(true);
    expect(await focusedBox(page)).toBeDefined();
  };
  await enterGraph();
  await page.keyboard.press('/');
  await expect(find).toBeFocused();
  await expect(filter).not.toBeFocused();
  await enterGraph();
  await page.keyboard.press('Control+f');
  await expect(find).toBeFocused();
  // Escape leaves Find: the query clears and focus is back on a node of the graph.
  await find.fill('attn');
  await page.keyboard.press('Escape');
  await expect(find).not.toBeFocused();
  await expect(find).toHaveValue('');
  expect(await inGraph(page)).toBe(true);
  expect(await focusedBox(page)).toBeDefined();

  // Focus in the tensor table wins over the pointer over the graph: "/" is the table's filter, Ctrl+F the browser's.
  const graph = (await page.getByTestId('graph-svg').boundingBox())!;
  await page.mouse.move(graph.x + graph.width / 2, graph.y + graph.height / 2);
  await page.getByTestId('table-body').focus();
  await page.keyboard.press('/');
  await expect(filter).toBeFocused();
  // The pointer over the graph still opens its Find while focus is in no pane with a find of its own.
  await page.getByTestId('heap-view').focus();
  await page.keyboard.press('/');
  await expect(find).toBeFocused();
});

test('skip links at the start of the tab order move focus into the graph, the heap and the tensors, and leave out a hidden pane', async ({ page }) => {
  test.skip(!haveModel('tiny-random-gpt2-fp32-past.onnx'), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openDropped(page, 'gpt2-past.onnx', readModel('tiny-random-gpt2-fp32-past.onnx'));
  await page.waitForFunction(() => window.heapscope?.summary().graph.status === 'drawn');
  const skip = (name: string) => page.getByRole('link', { name });
  await expect(skip('Skip to graph')).toHaveCount(1);
  // Each link's href names an element of the page, so it leads somewhere even without its script.
  const hrefs = await page.getByRole('navigation', { name: 'Skip links' }).getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs).toHaveLength(3);
  for (const href of hrefs) expect(await page.locator(href).count(), href).toBe(1);
  // Out of sight until focused.
  expect((await skip('Skip to graph').boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
  await page.keyboard.press('Tab');
  await expect(skip('Skip to graph')).toBeFocused();
  expect((await skip('Skip to graph').boundingBox())!.width).toBeGreaterThan(40);
  await snap(page, 'skip-link-focused');
  await page.keyboard.press('Enter');
  expect(await inGraph(page)).toBe(true);
  expect(await focusedBox(page)).toBeDefined(); // a node, so the arrows walk the graph at once

  await skip('Skip to graph').focus();
  await page.keyboard.press('Tab');
  await expect(skip('Skip to heap')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('heap-view')).toBeFocused();

  await skip('Skip to heap').focus();
  await page.keyboard.press('Tab');
  await expect(skip('Skip to tensors')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('table-body')).toBeFocused();

  // A collapsed pane has no link that would lead nowhere.
  await page.getByTestId('pane-toggles').locator('[data-pane="graph"]').click();
  await expect(skip('Skip to graph')).toHaveCount(0);
  await expect(skip('Skip to heap')).toHaveCount(1);
  await page.getByTestId('pane-toggles').locator('[data-pane="table"]').click();
  await expect(skip('Skip to tensors')).toHaveCount(0);
});

test('focus on a node of the first drawing stays on that node when the final layout replaces it', async ({ page, context }) => {
  // ELK's engine held back, so the quick first drawing stays on screen long enough to focus a node in it.
  await context.route(/\/assets\/engine-[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue();
  });
  await startOnSmallModel(page, 'focus-preview.onnx');
  const svg = page.getByTestId('graph-svg');
  await expect(svg).toHaveAttribute('data-final', 'false');
  const box = page.getByTestId('graph-view').locator('.gnode[data-focusable]').last();
  const id = (await box.getAttribute('data-focusable'))!;
  await box.focus();
  expect(await focusedBox(page)).toBe(id);
  await expect(svg).toHaveAttribute('data-final', 'true', { timeout: 60_000 });
  expect(await focusedBox(page)).toBe(id);
});

test('Enter on a group\'s Collapse leaves focus on the same group, now offering Expand, and back', async ({ page }) => {
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await graphSettled(page);
  const view = page.getByTestId('graph-view');
  await view.getByRole('button', { name: 'Collapse group block2' }).focus();
  await page.keyboard.press('Enter');
  await expect(view.getByRole('button', { name: /^Expand group block2/ })).toBeVisible();
  await graphSettled(page);
  await expect(view.getByRole('button', { name: /^Expand group block2/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(view.getByRole('button', { name: 'Collapse group block2' })).toBeVisible();
  await graphSettled(page);
  await expect(view.getByRole('button', { name: 'Collapse group block2' })).toBeFocused();
});

test('the arrow keys in the tensor table read out the row they select', async ({ page }) => {
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await showTensorTable(page);
  const said = page.getByTestId('table-said');
  await expect(said).toHaveAttribute('aria-live', 'polite');
  await page.getByTestId('table-body').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  const row = page.getByTestId('table-body').locator('[aria-rowindex="3"]');
  await expect(row).toHaveAttribute('aria-selected', 'true');
  const count = (await page.getByTestId('row-count').innerText()).replace(/ tensors$/, '');
  await expect(said).toContainText(`row 2 of ${count}`);
  await expect(said).toContainText((await row.getByTestId('cell-name').innerText()).trim());
});

test('Escape in Find leaves focus on the match Enter selected, and the view on it', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await graphSettled(page);
  const view = page.getByTestId('graph-view');
  await view.getByRole('button', { name: 'Conv block1/project' }).focus();
  await page.keyboard.press('/');
  await page.keyboard.type('softmax');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('selection-details')).toContainText('Softmax');
  await page.keyboard.press('Escape');
  const match = page.locator('.gnode[data-node="classifier/softmax"]');
  await expect(match).toBeFocused();
  await expect(page.getByTestId('selection-details')).toContainText('Softmax');
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  const pane = (await page.getByTestId('graph-svg').boundingBox())!;
  const box = (await match.boundingBox())!;
  expect(box.x >= pane.x && box.y >= pane.y && box.x + box.width <= pane.x + pane.width && box.y + box.height <= pane.y + pane.height).toBe(true);
});
