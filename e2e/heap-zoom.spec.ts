// Zoom to the selected buffer (issue 34): on the generated 80-layer decoder,
// a plan of thousands of steps, a buffer living a few steps is under two
// pixels wide in the whole view; selected from the tensor table, "Zoom to
// buffer" stretches the step axis so its lifetime takes a third of the width
// or more,
// Fit brings the whole plan back, and `z` in the heap does the same for a
// buffer selected by the graph's search.

import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { llamaModel } from '../src/model/testing/llama-model';
import { serveModel, snap, test, waitForModel, waitForPlan } from './fixtures';

const expect = baseExpect.configure({ timeout: 60_000 });

/** The steps the heap's step axis spans, as [from, to). */
async function shownSteps(page: Page): Promise<[number, number]> {
  const [from, to] = (await page.getByTestId('heap-canvas').getAttribute('data-steps'))!.split('-').map(Number);
  return [from!, to!];
}

/** The selected buffer's lifetime [start, end), as its details state it. */
async function lifetime(page: Page): Promise<[number, number]> {
  const text = (await page.getByTestId('selection-details').textContent())!;
  const m = /steps \[\s*(\d+),\s*(\d+)\)/.exec(text)!;
  return [Number(m[1]), Number(m[2])];
}

/** The plot's width in CSS pixels: the canvas less its byte axis (68) and right margin (14). */
async function plotWidth(page: Page): Promise<number> {
  return (await page.getByTestId('heap-canvas').boundingBox())!.width - 68 - 14;
}

test('a short-lived buffer of a long plan, selected in the table, is zoomed to from the heap; Fit and z', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, '/e2e/llama-80.onnx', llamaModel());
  await page.goto('/?model=/e2e/llama-80.onnx');
  await waitForModel(page, 'llama-80.onnx');
  await waitForPlan(page);
  const heap = page.getByTestId('heap-canvas');
  await expect(page.getByTestId('heap-zoom-buffer')).toHaveCount(0);

  await page.getByTestId('tensor-table').locator('input[type="search"]').fill('layers.40/mlp/act_fn/Sigmoid');
  await page.getByTestId('tensor-row').first().click();
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'buffer');
  const [start, end] = await lifetime(page);
  const [, steps] = await shownSteps(page);
  expect(steps).toBeGreaterThan(2000);
  const width = await plotWidth(page);
  // In the whole view the buffer is a line.
  expect(((end - start) / steps) * width).toBeLessThan(2);

  await page.getByTestId('heap-zoom-buffer').click();
  await expect(heap).not.toHaveAttribute('data-steps', `0-${steps}`);
  const [from, to] = await shownSteps(page);
  expect(from).toBeLessThanOrEqual(start);
  expect(to).toBeGreaterThanOrEqual(end);
  // Its lifetime now takes a third of the plot or more (60 % once it lives five steps).
  expect(((end - start) / (to - from)) * width).toBeGreaterThanOrEqual(width / 3 - 0.5);
  await expect(heap).toHaveAttribute('data-highlighted', /^[1-9]\d*$/);
  await snap(page, 'heap-zoom-to-buffer');

  await page.getByTestId('heap-fit').click();
  await expect(heap).toHaveAttribute('data-steps', `0-${steps}`);

  // A buffer selected by the graph's search: `z` in the heap zooms to it.
  const field = page.getByTestId('graph-search');
  await field.fill('layers.7/mlp/act_fn/Sigmoid');
  await field.press('Enter');
  await field.press('Enter');
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'buffer');
  const [start2, end2] = await lifetime(page);
  await page.getByTestId('heap-view').focus();
  await page.keyboard.press('z');
  await expect(heap).not.toHaveAttribute('data-steps', `0-${steps}`);
  const [from2, to2] = await shownSteps(page);
  expect(from2).toBeLessThanOrEqual(start2);
  expect(to2).toBeGreaterThanOrEqual(end2);
  expect(((end2 - start2) / (to2 - from2)) * width).toBeGreaterThanOrEqual(width / 3 - 0.5);
});
