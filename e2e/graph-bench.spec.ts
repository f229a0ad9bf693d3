// Benchmark of the graph view in Chromium: a DenseNet-shaped model of about
// 1,750 nodes (bench/layout.ts writes it) opened by URL; prints the time from
// navigation to the preview and to the ELK layout drawn, ELK's time in the
// worker, and frame times while panning and zooming at a readable scale and
// with the whole graph in view. Asserts only that every node is drawn; the
// figures are printed. Run: HEAPSCOPE_BENCH=1 npx playwright test e2e/graph-bench.spec.ts

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { SHAPES, densenet } from '../bench/layout';
import { serveModel, snap, summary, waitForModel, test } from './fixtures';

test.use({ viewport: { width: 1600, height: 1000 } });

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

function stats(label: string, ms: readonly number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `${label}: ${ms.length} frames, median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
}

async function drag(page: Page, x: number, y: number, dx: number, dy: number, steps: number): Promise<void> {
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i += 1) await page.mouse.move(x + (dx * i) / steps, y + (dy * i) / steps);
  await page.mouse.up();
}

test('DenseNet-shaped graph of about 1,750 nodes: layout and frame times', async ({ page }) => {
  test.setTimeout(300_000);
  const shape = SHAPES.find((s) => s.blocks.length === 4 && s.growth === 8)!;
  await serveModel(page, '/e2e/densenet.onnx', densenet(shape));
  const started = Date.now();
  await page.goto('/?model=/e2e/densenet.onnx');
  await waitForModel(page, 'densenet.onnx');
  const opened = Date.now() - started;
  const s = await summary(page);
  await expect(page.locator('.gnode')).toHaveCount(s.nodes, { timeout: 120_000 }); // the preview (simple layout)
  const preview = Date.now() - started;
  await expect(page.getByTestId('graph-status')).toHaveAttribute('data-status', 'ready', { timeout: 240_000 });
  const drawn = Date.now() - started;
  await expect(page.locator('.gnode')).toHaveCount(s.nodes);
  const svg = page.getByTestId('graph-svg');
  const lines = [
    `${s.nodes} nodes, ${await page.locator('path.g-edge').count()} edges, engine ${await svg.getAttribute('data-engine')}`,
    `navigation → model ready ${opened} ms; → preview drawn ${preview} ms; → ELK layout drawn ${drawn} ms (ELK in the worker ${await svg.getAttribute('data-layout-ms')} ms)`,
  ];
  await snap(page, 'graph-densenet');
  const view = (await page.getByTestId('graph-view').boundingBox())!;
  const cx = view.x + view.width / 2;
  const cy = view.y + view.height / 2;
  lines.push(stats('pan at the start scale (labels shown)', await frames(page, () => drag(page, cx, cy, 0, -view.height * 0.8, 60))));
  lines.push(
    stats('wheel zoom out', await frames(page, async () => {
      await page.mouse.move(cx, cy);
      for (let i = 0; i < 12; i += 1) await page.mouse.wheel(0, 240);
    })),
  );
  lines.push(stats('pan zoomed out', await frames(page, () => drag(page, cx, cy, 0, -view.height * 0.8, 60))));
  await page.getByTestId('graph-fit').click();
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  lines.push(stats('pan with the whole graph in view (fit)', await frames(page, () => drag(page, cx, cy, 40, 200, 60))));
  await snap(page, 'graph-densenet-fit');
  console.log(`\nGraph view benchmark (Chromium, ${shape.name}):\n  ${lines.join('\n  ')}`);
});
