// The page around the model: progress and cancel, the keyboard, the embed
// view, and the dark colour scheme.

import { expect } from '@playwright/test';
import type {} from '../src/app/page-api';
import { batchModel, dropFile, serveModel, showTensorTable, snap, startOnSmallModel, summary, waitForError, waitForModel, test } from './fixtures';

test('a slow download shows progress and can be cancelled, keeping the model', async ({ page }) => {
  await startOnSmallModel(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === '/sample.onnx',
    async (route) => {
      await held;
      // The cancelled request is gone by now; fulfilling it may fail, which is fine.
      await route.fulfill({ body: Buffer.from(batchModel()) }).catch(() => undefined);
    },
  );
  await page.getByRole('button', { name: 'Open sample' }).click();
  await page.waitForFunction(() => document.body.dataset.status === 'loading');
  const progress = page.getByRole('progressbar', { name: 'Opening sample.onnx' });
  await expect(progress).toBeVisible();
  await snap(page, 'loading');
  await page.getByTestId('progress').getByRole('button', { name: 'Cancel' }).click();
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  await expect(progress).toHaveCount(0);
  expect((await summary(page)).model).toBe('start.onnx');
  release();
  await page.getByRole('button', { name: 'Open sample' }).click();
  await waitForModel(page, 'sample.onnx');
});

test('the page works from the keyboard: "/" searches, Enter sorts, Tab reaches the dims', async ({ page }) => {
  await startOnSmallModel(page);
  await showTensorTable(page);
  await page.getByTestId('table-body').focus();
  await page.keyboard.press('/');
  await expect(page.getByLabel('Search tensors by name, op, node or dtype')).toBeFocused();
  await page.keyboard.type('sigmoid');
  await expect(page.getByTestId('row-count')).toHaveText('1 of 3 tensors');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('row-count')).toHaveText('3 tensors');
  const nameHeader = page.getByRole('columnheader', { name: 'Name' });
  await nameHeader.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByTestId('cell-name').first()).toHaveText('h');
  const batch = page.getByRole('spinbutton', { name: 'batch' });
  await batch.focus();
  await page.keyboard.press('ArrowUp');
  await expect(batch).toHaveValue('2');
  await expect(page.locator('[data-name="y"]').getByTestId('cell-bytes')).toHaveAttribute('data-bytes', '32');
});

test('without Worker support the model is decoded on the main thread', async ({ page }) => {
  await page.addInitScript(() => {
    Reflect.deleteProperty(window, 'Worker');
  });
  await startOnSmallModel(page);
  expect(await page.evaluate(() => typeof Worker)).toBe('undefined');
  await showTensorTable(page);
  await page.getByRole('spinbutton', { name: 'batch' }).fill('5');
  await expect(page.locator('[data-name="y"]').getByTestId('cell-bytes')).toHaveAttribute('data-bytes', '80');
});

test('embed=1 shows the model without the header, side bar or table', async ({ page }) => {
  await serveModel(page, '/e2e/start.onnx', batchModel());
  await page.goto('/?model=/e2e/start.onnx&embed=1');
  await waitForModel(page, 'start.onnx');
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(page.getByTestId('tensor-row')).toHaveCount(0);
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);
  await snap(page, 'embed');
});

test('the dark colour scheme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await startOnSmallModel(page);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(19, 21, 25)');
  await dropFile(page, 'error.onnx', new Uint8Array(0));
  await waitForError(page, 'error.onnx');
  await snap(page, 'dark');
});
