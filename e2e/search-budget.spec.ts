// best's search budget, used like a person would: pick a budget beside the
// strategy on a model whose packing the portfolio does not solve, watch the
// search's time, best peak and proven bound, press Cancel and keep the best plan
// found (valid, no higher than the portfolio's); "optimal (proven)" only after a
// proof; the budget is noted as best's only under another strategy.

import { readFileSync } from 'node:fs';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { packingModel } from '../src/model/testing/search-model';
import { serveModel, snap, summary, waitForPlan, test } from './fixtures';

/** Planning shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 60_000 });

/** What the exact search needs on the cpu preset: alignment 1 and no compute-unit partition. */
const SEARCHABLE = 'units=0&region.ram.align=1';

/** Opens packingModel(count, seed) with the searchable cpu settings and `more` link parameters. */
async function openPacking(page: Page, count: number, seed: number, more = ''): Promise<void> {
  await serveModel(page, `/e2e/packing-${count}-${seed}.onnx`, packingModel(count, seed));
  await page.goto(`/?model=/e2e/packing-${count}-${seed}.onnx&${SEARCHABLE}${more}`);
  await waitForPlan(page);
}

/** Waits until the page is ready with a plan made for `budgetMs` (null: the default). */
async function waitForBudgetPlan(page: Page, budgetMs: number | null): Promise<void> {
  await page.waitForFunction(
    (ms) => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.budgetMs === ms && document.querySelector('[data-testid="progress"]') === null,
    budgetMs,
  );
}

/** The plan file the page saves, as its buffers. */
async function savedBuffers(page: Page) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-plan').click()]);
  const saved = JSON.parse(readFileSync(await file.path(), 'utf8')) as {
    plan: { peak: number; buffers: { id: number; size: number; start: number; end: number; offset: number; region: string; alias?: unknown }[] };
  };
  return saved.plan;
}

test('a budgeted search shows its progress; Cancel keeps the best plan found, valid and no higher than the portfolio', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPacking(page, 1000, 5);
  const before = await summary(page);
  await expect(page.getByTestId('plan-proof')).toHaveAttribute('data-proven', 'false');

  await page.getByTestId('budget-select').selectOption('30000');
  const search = page.getByTestId('search-progress');
  await expect(search).toHaveAttribute('data-peak', /^\d+$/);
  const portfolioPeak = Number(await search.getAttribute('data-peak'));
  const bound = Number(await search.getAttribute('data-bound'));
  expect(bound).toBeLessThanOrEqual(portfolioPeak);
  await expect(search).toContainText('of 30 s');
  // The time spent moves while the search runs.
  const elapsed = Number(await search.getAttribute('data-elapsed-ms'));
  await page.waitForFunction((t) => Number(document.querySelector('[data-testid="search-progress"]')?.getAttribute('data-elapsed-ms')) > t, elapsed);
  await snap(page, 'search-budget-progress');

  await page.getByTestId('search-cancel').click();
  await waitForBudgetPlan(page, 30_000);
  const after = await summary(page);
  expect(after.peak).toBeLessThanOrEqual(portfolioPeak);
  expect(after.peak).toBeGreaterThanOrEqual(after.lowerBound!);
  expect(after.peak).toBeLessThanOrEqual(before.peak!);
  const proof = page.getByTestId('plan-proof');
  // Stopped by Cancel, long before the budget or the search's node limit: cut short by 'time', not proven.
  await expect(proof).toHaveAttribute('data-stopped-by', 'time');
  await expect(proof).toHaveAttribute('data-proven', 'false');
  await expect(proof).toContainText('% above the lower bound');
  await expect(proof).not.toContainText('optimal (proven)');
  await snap(page, 'search-budget-cancelled');

  // The kept plan holds up on its own: no two buffers of a region that live at once share a byte.
  const plan = await savedBuffers(page);
  expect(plan.peak).toBe(after.peak);
  const placed = plan.buffers.filter((b) => b.alias === undefined && b.size > 0);
  const overlapping: string[] = [];
  for (const a of placed) {
    for (const b of placed) {
      if (a.id >= b.id || a.region !== b.region || a.end <= b.start || b.end <= a.start) continue;
      if (a.offset + a.size > b.offset && b.offset + b.size > a.offset) overlapping.push(`${a.id} and ${b.id}`);
    }
  }
  expect(placed.length).toBeGreaterThan(200);
  expect(overlapping).toEqual([]);
});

test('"optimal (proven)" appears once the search proves the plan, and the budget is noted as best\'s only', async ({ page }) => {
  await openPacking(page, 40, 3, '&budget=5000');
  await waitForBudgetPlan(page, 5000);
  const proof = page.getByTestId('plan-proof');
  await expect(proof).toHaveText('optimal (proven)');
  await expect(proof).toHaveAttribute('data-proven', 'true');
  const shown = await summary(page);
  expect(shown.peak).toBe(shown.lowerBound);
  await expect(page.getByTestId('budget-select')).toHaveValue('5000');
  await expect(page.getByTestId('budget-note')).toHaveCount(0);

  // naive has no search: the budget stays set, noted as best's only, and naive's plan is not called proven.
  await page.getByTestId('strategy-select').selectOption('naive');
  await waitForPlan(page, 'naive');
  await expect(page.getByTestId('budget-note')).toContainText('applies to best only');
  const naive = await summary(page);
  if (naive.peak! > naive.lowerBound!) await expect(proof).toHaveAttribute('data-proven', 'false');
});
