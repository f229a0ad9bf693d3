// The Growth chart in small panes: the plot keeps a readable height (the pane
// scrolls instead), the limit's label clears the axis ticks, and the range
// fields clear the text of the pane beside them.

import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { haveModel, NO_MODELS, readModel, serveModel, snap, test, textOverlaps, waitForModel, waitForPlan } from './fixtures';

/** Planning every point shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 60_000 });

const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
const LLAMA = 'tiny-llama-fp16/model.onnx';

/** Opens corpus model `name` by URL as `served` with `query` and waits for its plan and its growth curve. */
async function openGrown(page: Page, name: string, query: string, served = name): Promise<void> {
  await serveModel(page, `/e2e/${served}`, readModel(name));
  await page.goto(`/?model=/e2e/${served}&${query}`);
  await waitForModel(page, served);
  await waitForPlan(page);
  await expect(page.getByTestId('growth-pane')).toBeVisible();
  await page.waitForFunction(() => window.heapscope?.summary().growth?.status === 'done');
  await expect(page.getByTestId('growth-chart').locator('circle[data-value]').first()).toBeAttached();
}

/** The size of the chart's svg. */
function plotSize(page: Page): Promise<{ width: number; height: number }> {
  return page.getByTestId('growth-chart').locator('.growth-plot svg').first().evaluate((svg) => {
    const r = svg.getBoundingClientRect();
    return { width: r.width, height: r.height };
  });
}

/** The height of each region's plotted area (its back). */
function panelHeights(page: Page): Promise<number[]> {
  return page.getByTestId('growth-chart').locator('.growth-plot svg .gr-back').evaluateAll((backs) => backs.map((b) => b.getBoundingClientRect().height));
}

/** Pairs of the chart's text labels whose boxes overlap by more than a pixel. */
function chartTextOverlaps(page: Page): Promise<string[]> {
  return textOverlaps(page.getByTestId('growth-chart').locator('.growth-plot svg').first(), 1);
}

/** Controls of the growth pane drawn over anything outside that pane (the pane's visible box clips nothing it covers). */
function fieldsOutsidePane(page: Page): Promise<string[]> {
  return page.getByTestId('growth-pane').evaluate((pane) => {
    const p = pane.getBoundingClientRect();
    return [...pane.querySelectorAll('input, select')]
      .map((el) => ({ id: el.getAttribute('data-testid') ?? el.tagName, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.left < p.left - 1 || r.right > p.right + 1 || r.top < p.top - 1 || r.bottom > p.bottom + 1))
      .map(({ id, r }) => `${id} at ${Math.round(r.left)}..${Math.round(r.right)} × ${Math.round(r.top)}..${Math.round(r.bottom)} outside ${Math.round(p.left)}..${Math.round(p.right)} × ${Math.round(p.top)}..${Math.round(p.bottom)}`);
  });
}

/** The chart is readable: tall enough, each region's panel too, no label over another, the range fields inside the pane. */
async function expectReadable(page: Page): Promise<void> {
  const size = await plotSize(page);
  expect(size.height).toBeGreaterThanOrEqual(160);
  expect((await panelHeights(page)).length).toBeGreaterThan(0);
  for (const h of await panelHeights(page)) expect(h).toBeGreaterThanOrEqual(60);
  expect(await chartTextOverlaps(page)).toEqual([]);
  expect(await fieldsOutsidePane(page)).toEqual([]);
}

test('gpt2 on mcu at 900×800 with four panes: a readable chart, no label over another, the fields inside their pane', async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 900, height: 800 });
  await openGrown(page, GPT2, 'target=mcu&panes=graph,heap,growth,explain');
  await snap(page, 'growth-fit-gpt2-900');
  await expectReadable(page);
});

test('tiny llama at 1280×720 with growth among the panes: a readable chart', async ({ page }) => {
  test.skip(!haveModel(LLAMA), NO_MODELS);
  test.setTimeout(120_000);
  await openGrown(page, LLAMA, 'target=mcu&panes=graph,heap,growth,explain', 'tiny-llama.onnx');
  await snap(page, 'growth-fit-llama-1280');
  await expectReadable(page);
});

/** GPT-2 at `width`×`height` as it opens, then Growth opened from the top bar and its curve over past_seq_len planned. */
async function openGrowthFromBar(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
  await page.goto(`/?model=/e2e/${GPT2}`);
  await waitForModel(page, GPT2);
  await waitForPlan(page);
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  await page.getByTestId('growth-axis').selectOption('past_seq_len');
  await page.waitForFunction(() => window.heapscope?.summary().growth?.status === 'done');
}

test('at 1600×1000 with Growth opened from the top bar, its legend shows whole under the chart, nothing to scroll', async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  test.setTimeout(120_000);
  await openGrowthFromBar(page, 1600, 1000);
  await expect(page.getByTestId('growth-chart').locator('circle[data-value]').first()).toBeAttached();
  const fit = await page.getByTestId('growth-pane').evaluate((pane) => {
    const body = pane.querySelector('.growth-body')!;
    const legend = pane.querySelector('.growth-legend')!.getBoundingClientRect();
    return { legendBottom: legend.bottom, bodyBottom: body.getBoundingClientRect().bottom, overflow: body.scrollHeight - body.clientHeight };
  });
  // The plot had kept the height it was first drawn at, and the legend's last line ran under the pane's edge.
  expect(fit.legendBottom).toBeLessThanOrEqual(fit.bodyBottom + 1);
  expect(fit.overflow).toBeLessThanOrEqual(1);
  await expect(page.getByTestId('growth-chart').locator('.growth-legend li').last()).toBeInViewport({ ratio: 1 });
  await expectReadable(page);
  await snap(page, 'growth-fit-gpt2-legend-1600');
});

test('past_seq_len from 1 to 100000: every value under the plot is drawn whole inside the chart, 100000 last', async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  test.setTimeout(120_000);
  await openGrowthFromBar(page, 1600, 1000);
  await page.getByTestId('growth-from').fill('1');
  await page.getByTestId('growth-to').fill('100000');
  await page.getByTestId('growth-to').press('Enter');
  await expect(page.getByTestId('growth-chart').locator('circle[data-value="100000"]')).toBeAttached();
  await page.waitForFunction(() => window.heapscope?.summary().growth?.status === 'done');
  const svg = page.getByTestId('growth-chart').locator('.growth-plot svg').first();
  const labels = await svg.evaluate((s) => {
    const box = s.getBoundingClientRect();
    return [...s.querySelectorAll('g.gr-axis > text:not(.gr-axis-title)')].map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent ?? '', left: r.left - box.left, right: r.right - box.left, width: box.width };
    });
  });
  expect(labels.at(-1)?.text).toBe('100000');
  // Centred on the plot's right end, "100000" ran past the chart's edge and read "10000".
  for (const l of labels) expect(l.left >= 0 && l.right <= l.width, `${l.text} at ${l.left.toFixed(1)}..${l.right.toFixed(1)} of ${l.width}`).toBe(true);
  expect(await chartTextOverlaps(page)).toEqual([]);
  await snap(page, 'growth-fit-gpt2-100000');
});
