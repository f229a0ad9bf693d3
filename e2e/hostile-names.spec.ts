// Models with hostile names open like any other: op types and dims named after
// Object.prototype members, names with control characters (the SVG exports stay
// well-formed XML and the PNG export works), and a 1 MB name (cut, with the
// whole text on demand).

import { readFileSync } from 'node:fs';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { controlNamesModel, longNamesModel, prototypeNamesModel } from '../src/model/testing/hostile-models';
import { dropFile, snap, summary, waitForModel, waitForPlan, test } from './fixtures';

/** Planning and graph layout share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

async function download(page: Page, testId: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).first().click()]);
  return readFileSync(await file.path());
}

/** Parses `svg` as XML in the page; returns the parser's error text, or '' when well-formed. */
async function xmlError(page: Page, svg: string): Promise<string> {
  return page.evaluate((text) => new DOMParser().parseFromString(text, 'image/svg+xml').querySelector('parsererror')?.textContent ?? '', svg);
}

test('op types and dims named constructor, toString, valueOf, hasOwnProperty, __proto__ open and re-plan', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page);
  await dropFile(page, 'prototype-names.onnx', prototypeNamesModel());
  await waitForModel(page, 'prototype-names.onnx');
  const s = await summary(page);
  expect(s.error ?? null).toBeNull();
  expect(s.nodes).toBe(8);
  await page.goto('/?dim.__proto__=5&dim.constructor=3');
  await waitForPlan(page);
  await dropFile(page, 'prototype-names.onnx', prototypeNamesModel());
  await waitForModel(page, 'prototype-names.onnx');
  expect((await summary(page)).error ?? null).toBeNull();
  await snap(page, 'prototype-names');
});

test('names with control characters give well-formed SVG exports and a PNG', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await waitForPlan(page);
  await dropFile(page, 'control-names.onnx', controlNamesModel());
  await waitForModel(page, 'control-names.onnx');
  await waitForPlan(page);
  const heap = (await download(page, 'export-heap-svg')).toString('utf8');
  expect(heap).toContain('\ufffd');
  expect(await xmlError(page, heap)).toBe('');
  const png = await download(page, 'export-heap-png');
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  const graph = (await download(page, 'export-graph-svg')).toString('utf8');
  expect(await xmlError(page, graph)).toBe('');
  expect((await download(page, 'export-graph-png')).subarray(1, 4).toString('latin1')).toBe('PNG');
});

test('a 1 MB tensor name is cut in the details, with the whole text on demand in a bounded box', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await waitForPlan(page);
  await dropFile(page, 'long-names.onnx', longNamesModel());
  await waitForModel(page, 'long-names.onnx');
  await waitForPlan(page);
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const table = page.getByRole('table', { name: 'Buffers of the plan' });
  await table.getByTestId('heap-row').filter({ hasText: 'tensor-abc' }).first().click();
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  expect((await details.boundingBox())!.height).toBeLessThan(600);
  await details.getByTestId('long-name-more').click();
  const full = details.getByTestId('long-name-full');
  await expect(full).toBeVisible();
  expect(await full.evaluate((el) => el.textContent?.length)).toBe(1 << 20);
  expect((await full.boundingBox())!.height).toBeLessThan(400);
  await snap(page, 'long-names');
});
