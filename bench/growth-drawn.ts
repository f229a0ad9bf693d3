// Time from asking the Growth view for a 12-point curve to its 12 dots drawn,
// for the largest model in ../shared/models (or the file given), in Chromium:
// each point inferred and planned in the worker after the plan is on screen,
// then drawn. The axis is the model's first (a symbolic dim, else the batch of
// a fixed input), over 1..2048: the powers of two, 12 values. Prints figures;
// never fails on time. Needs `npm run build` first.
//
//   npx tsx bench/growth-drawn.ts [--model FILE] [--repeat N]

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { describeSamples, largestModel, waitForDrawnPlan, withPreviewPage } from './heap-preview';

const { values } = parseArgs({ options: { model: { type: 'string' }, repeat: { type: 'string', default: '3' } } });
const repeat = Number(values.repeat);
const POINTS = 12;
const TO = 2 ** (POINTS - 1);


/** Waits until the curve has `count` points, is done, and shows that many dots. */
async function waitForCurve(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const g = window.heapscope?.summary().growth;
      return g?.status === 'done' && g.points.length === n && document.querySelectorAll('[data-testid="growth-chart"] circle.gr-dot').length === n;
    },
    count,
    { timeout: 600_000, polling: 'raf' },
  );
}

/** Applies the range 1..to and returns ms from pressing Enter to the curve drawn. */
async function timeCurve(page: Page, to: number): Promise<number> {
  const field = page.getByTestId('growth-to');
  await field.fill(String(to));
  const started = await page.evaluate(() => performance.now());
  await field.press('Enter');
  await waitForCurve(page, POINTS);
  return (await page.evaluate(() => performance.now())) - started;
}

const path = values.model ?? largestModel();
const name = basename(path);
await withPreviewPage('/', async (page) => {
  await page.route(
    (url) => url.pathname === `/bench/${name}`,
    (route) => route.fulfill({ status: 200, body: readFileSync(path), headers: { 'content-type': 'application/octet-stream' } }),
  );
  await page.goto(`${new URL(page.url()).origin}/?model=/bench/${name}`);
  await waitForDrawnPlan(page, name);
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  // The default curve first, so the timed ones start on an idle worker.
  await page.waitForFunction(() => window.heapscope?.summary().growth?.status === 'done', undefined, { timeout: 600_000 });
  await page.getByTestId('growth-from').fill('1');
  const times: number[] = [];
  for (let k = 0; k < repeat; k += 1) {
    // A different end each time (2048, 2047, ...) so no curve is kept from the last run: still 12 values.
    times.push(await timeCurve(page, TO - k));
  }
  const s = await page.evaluate(() => window.heapscope!.summary());
  const g = s.growth!;
  console.log(`growth curve to drawn: ${name} (${s.nodes} nodes, ${s.buffers} buffers, ${s.strategy} on ${s.target}), ${g.dim} over ${g.points.map((p) => p.value).join(', ')}`);
  console.log(`  ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')}; ${describeSamples(times)}`);
});
