// The Tensors table's kind filter with a search typed: each filter's count
// says how many of its tensors the search lets through ("6 of 57"; "6" in a
// narrow pane), the rows the table lists when that filter is chosen, and its
// total again once the search is cleared.

import { expect, type Locator } from '@playwright/test';
import type {} from '../src/app/page-api';
import { showTensorTable, snap, test, waitForModel } from './fixtures';

const KINDS = ['all', 'runtime', 'weights', 'constants'] as const;
type Kind = (typeof KINDS)[number];
const LABELS = { all: 'All', runtime: 'Run-time', weights: 'Weights', constants: 'Constants' } as const;

/** The kind filter's segment (its label) for `kind`. */
function segment(filter: Locator, kind: Kind): Locator {
  return filter.locator('label').filter({ has: filter.page().locator(`input[value="${kind}"]`) });
}

/** The count shown in the kind filter's segment for `kind`. */
function segmentCount(filter: Locator, kind: Kind): Locator {
  return segment(filter, kind).locator('.segment-count');
}

/** "1,234" as a number. */
const count = (text: string): number => Number(text.replace(/,/g, ''));

test('with a search typed, the kind filter counts the tensors each filter lists, as the table shows them', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await showTensorTable(page);
  const filter = page.getByTestId('kind-filter');
  const search = page.getByLabel('Search tensors by name, op, node or dtype');
  const totals = {} as Record<Kind, number>;
  for (const kind of KINDS) totals[kind] = count(await segmentCount(filter, kind).innerText());
  expect(totals.all).toBeGreaterThan(totals.runtime);

  // block3's weights and activations match; the filters read "All 110 · Run-time 53 · Weights 57 · Constants 0" whatever the search
  await search.fill('block3');
  const matched = {} as Record<Kind, number>;
  for (const kind of KINDS) {
    // each read its total alone, though the table listed "12 of 110 tensors"
    await expect(segmentCount(filter, kind)).toHaveText(new RegExp(`^[\\d,]+ of ${totals[kind].toLocaleString('en-US')}$`), { useInnerText: true });
    matched[kind] = count((await segmentCount(filter, kind).innerText()).split(' of ')[0]!);
  }
  expect(matched.runtime).toBeGreaterThan(0);
  expect(matched.weights).toBeGreaterThan(0);
  expect(matched.all).toBeLessThan(totals.all);
  expect(matched.all).toBe(matched.runtime + matched.weights + matched.constants);
  await snap(page, 'tensor-search-counts');
  // each filter, chosen, lists as many rows as its count said
  for (const kind of KINDS) {
    await segment(filter, kind).click();
    await expect(page.getByRole('radio', { name: new RegExp(`^${LABELS[kind]}`) })).toBeChecked();
    await expect(page.getByTestId('row-count')).toHaveText(`${matched[kind]} of ${totals.all} tensors`);
  }
  await expect(segment(filter, 'weights')).toHaveAttribute('title', `Initializers stored in the file: ${matched.weights} of ${totals.weights} match the search`);

  // a pane under 1000 px (1024 px with the side bar open) keeps the toolbar to one line: each count is the rows it
  // lists, the whole in its title, and the search and the row count stay in view
  await page.setViewportSize({ width: 1024, height: 900 });
  const sidebar = page.getByTestId('pane-toggles').locator('[data-pane="sidebar"]');
  if ((await sidebar.getAttribute('aria-pressed')) !== 'true') await sidebar.click();
  for (const kind of KINDS) await expect(segmentCount(filter, kind)).toHaveText(String(matched[kind]), { useInnerText: true });
  await expect(segment(filter, 'runtime')).toHaveAttribute('title', new RegExp(`: ${matched.runtime} of ${totals.runtime} match the search$`));
  await expect(page.getByTestId('row-count')).toBeInViewport({ ratio: 1 });
  expect(await page.locator('.tensors-toolbar').evaluate((bar) => bar.scrollWidth - bar.clientWidth)).toBe(0);
  await snap(page, 'tensor-search-counts-narrow');

  await search.fill('');
  for (const kind of KINDS) await expect(segmentCount(filter, kind)).toHaveText(totals[kind].toLocaleString('en-US'));
});
