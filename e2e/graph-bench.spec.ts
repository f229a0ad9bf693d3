// Benchmark of the graph view in Chromium on the real-shaped models of
// bench/layout.ts (ONNX-style DenseNet-121, a paddle2onnx-style model, an
// 80-layer Llama decoder), each opened by URL at 1280×720: prints the time from
// the plan to the graph drawn (summary().graph.ms), the engine, and frame times
// (p50/p95) while panning and zooming, then with every group expanded (and
// fitted). Screenshots of the first view at 1280×720 and 1600×1000 and of the
// expanded graph go to e2e-artifacts/. Asserts only that each graph is drawn.
// Run: HEAPSCOPE_BENCH=1 npx playwright test e2e/graph-bench.spec.ts

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { BENCH_MODELS } from '../bench/layout';
import { graphAction, serveModel, snap, summary, test, waitForModel } from './fixtures';

test.use({ viewport: { width: 1280, height: 720 } });

/** Frame intervals (ms) recorded while `act` runs. */
async function frames(page: Page, act: () => Promise<void>): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__frames = [];
    w.__recording = true;
    let last = performance.now();
    const tick = (now: number): void => {
      w.__frames.push(now - last);
      last = now;
      if (w.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await act();
  return page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__recording = false;
    return w.__frames.slice(1);
  });
}

function stats(ms: readonly number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `${ms.length} frames, p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
}

async function drag(page: Page, x: number, y: number, dx: number, dy: number, steps: number): Promise<void> {
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i += 1) await page.mouse.move(x + (dx * i) / steps, y + (dy * i) / steps);
  await page.mouse.up();
}

for (const m of BENCH_MODELS) {
  test(`graph view of ${m.name}: time to drawn and frame times`, async ({ page }) => {
    test.setTimeout(180_000);
    await serveModel(page, `/e2e/${m.name}`, m.bytes());
    await page.goto(`/?model=/e2e/${m.name}`);
    await waitForModel(page, m.name);
    await page.waitForFunction(() => ['drawn', 'simple'].includes(window.heapscope?.summary().graph.status ?? ''), undefined, { timeout: 120_000 });
    const s = await summary(page);
    expect(s.graph.boxes).toBeGreaterThan(0);
    const engine = await page.getByTestId('graph-status').getAttribute('data-engine');
    await snap(page, `graph-bench-${m.name.replace(/\.onnx$/, '')}`);
    const view = (await page.getByTestId('graph-view').boundingBox())!;
    const cx = view.x + view.width / 2;
    const cy = view.y + view.height / 2;
    const pan = await frames(page, () => drag(page, cx, cy, 0, -view.height * 0.6, 40));
    const wheel = await frames(page, async () => {
      await page.mouse.move(cx, cy);
      for (let i = 0; i < 10; i += 1) await page.mouse.wheel(0, 200);
    });
    let expanded = '';
    if ((await page.getByTestId('graph-expand-all').count()) > 0) {
      const clicked = Date.now();
      await graphAction(page, 'graph-expand-all');
      await page.waitForFunction(() => ['drawn', 'simple'].includes(window.heapscope?.summary().graph.status ?? ''), undefined, { timeout: 120_000 });
      const drawnMs = Date.now() - clicked;
      const all = await summary(page);
      const panAll = await frames(page, () => drag(page, cx, cy, 0, -view.height * 0.6, 40));
      const fit = await frames(page, async () => {
        await page.getByTestId('graph-fit').click();
        await page.waitForFunction(() => document.querySelector('[data-testid="graph-svg"]')?.getAttribute('data-moving') !== 'true');
      });
      await snap(page, `graph-bench-${m.name.replace(/\.onnx$/, '')}-expanded`);
      expanded = `\n  all groups expanded: ${all.graph.boxes} boxes (${all.graph.status}), click → drawn ${drawnMs} ms; pan ${stats(panAll)}; fit ${stats(fit)}`;
    }
    // The first view at a larger window.
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto(`/?model=/e2e/${m.name}`);
    await waitForModel(page, m.name);
    await page.waitForFunction(() => ['drawn', 'simple'].includes(window.heapscope?.summary().graph.status ?? ''), undefined, { timeout: 120_000 });
    await snap(page, `graph-bench-${m.name.replace(/\.onnx$/, '')}-1600x1000`);
    console.log(`\n${m.name}: ${s.nodes} nodes, ${s.graph.boxes} boxes, ${engine}, plan → drawn ${s.graph.ms} ms\n  pan ${stats(pan)}\n  wheel zoom ${stats(wheel)}${expanded}`);
  });
}
