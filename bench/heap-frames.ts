// Frame times of the heap diagram while panning a plan of 50,000 buffers
// (synthetic, through the bench=1 page hook) in Chromium: requestAnimationFrame
// deltas recorded in the page while the mouse drags the canvas, zoomed in 2x
// and 16x. Prints figures; never fails on time. Needs `npm run build` first.
//
//   npx tsx bench/heap-frames.ts [--buffers N]

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import type { BenchHook } from '../src/app/bench-hook';
import { describeSamples, ROOT, waitForDrawnPlan, withPreviewPage } from './heap-preview';

const { values } = parseArgs({ options: { buffers: { type: 'string', default: '50000' } } });
const count = Number(values.buffers);
if (!Number.isSafeInteger(count) || count <= 0) throw new Error(`--buffers must be a whole number above 0, got ${values.buffers}`);

/**
 * Starts recording rAF deltas and draws (writes of the canvas' data-buffer-count).
 * Sent as source text: tsx would wrap named functions in a helper the page lacks.
 */
const RECORDER = `(() => {
  const bench = { frames: [], draws: 0, callbacks: [], on: true };
  window.bench = bench;
  const original = window.bench0 ??= window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => original((t) => {
    const s = performance.now();
    callback(t);
    if (bench.on) bench.callbacks.push(performance.now() - s);
  });
  const canvas = document.querySelector('[data-testid="heap-canvas"]');
  new MutationObserver((records) => { bench.draws += records.length; }).observe(canvas, { attributes: true, attributeFilter: ['data-buffer-count'] });
  let last = performance.now();
  original(function loop(t) {
    bench.frames.push(t - last);
    last = t;
    if (bench.on) original(loop);
  });
})()`;

async function startRecording(page: Page): Promise<void> {
  await page.evaluate(RECORDER);
}

/** What one panning run recorded. */
interface Recording {
  readonly frames: number[]; // rAF deltas, ms
  readonly draws: number; // heap redraws
  readonly callbacks: number[]; // ms spent in the page's own rAF callbacks (the heap's draws)
}

async function stopRecording(page: Page): Promise<Recording> {
  return page.evaluate(() => {
    const w = window as unknown as { bench: Recording & { on: boolean } };
    w.bench.on = false;
    return { frames: w.bench.frames.slice(1), draws: w.bench.draws, callbacks: w.bench.callbacks.filter((ms) => ms > 0.05) };
  });
}

/** Zooms to `scale` at the canvas centre, then drags left and right for `passes` passes. */
async function pan(page: Page, scale: number, passes: number): Promise<Recording> {
  const box = await page.getByTestId('heap-canvas').boundingBox();
  if (box === null) throw new Error('the heap canvas is not on screen');
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height * 0.35;
  await page.getByRole('button', { name: 'Fit' }).first().click();
  await page.mouse.move(cx, cy);
  for (let k = 1; k < scale; k *= 2) await page.mouse.wheel(0, -500); // d3-zoom: x2 per 500 px of wheel
  await page.waitForTimeout(300);
  await startRecording(page);
  await page.mouse.down();
  for (let pass = 0; pass < passes; pass += 1) {
    const dx = pass % 2 === 0 ? -box.width * 0.3 : box.width * 0.3;
    await page.mouse.move(cx + dx, cy + (pass % 2 === 0 ? -40 : 40), { steps: 60 });
  }
  await page.mouse.up();
  return stopRecording(page);
}

await withPreviewPage('/?bench=1', async (page) => {
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && typeof (window.heapscope as unknown as Partial<BenchHook>)?.loadSyntheticPlan === 'function');
  const started = Date.now();
  const buildMs = await page.evaluate((n) => (window.heapscope as unknown as BenchHook).loadSyntheticPlan(n), count);
  await waitForDrawnPlan(page, `synthetic-${count}.plan`);
  console.log(`heap diagram, ${count.toLocaleString('en-US')} synthetic buffers (Chromium, ${page.viewportSize()?.width}x${page.viewportSize()?.height}, software canvas)`);
  console.log(`  plan built in ${buildMs.toFixed(0)} ms; first drawn ${Date.now() - started} ms after the request`);
  const shot = resolve(ROOT, 'e2e-artifacts', `heap-synthetic-${count}.png`);
  await page.screenshot({ path: shot });
  console.log(`  screenshot: ${shot}`);
  for (const scale of [2, 16]) {
    const { frames, draws, callbacks } = await pan(page, scale, 6);
    console.log(`  panning at ${scale}x zoom: frame ${describeSamples(frames)}; ${draws} redraws`);
    console.log(`    draw time per redraw: ${describeSamples(callbacks)}`);
  }
});
