// A new dim value re-infers and re-plans the model but leaves its graph's
// structure alone: the graph pane keeps its boxes drawn throughout (never an
// empty pane while a layout runs) and keeps the camera where the user put it.
// A model of another structure still gets its own layout and first view.

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { dropFile, haveModel, NO_MODELS, openDropped, readModel, serveModel, snap, summary, test, waitForModel, waitForPlan } from './fixtures';

const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';

/** Waits until the graph of the plan on screen is drawn (its final layout). */
async function graphDrawn(page: Page): Promise<void> {
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().graph.status === 'drawn');
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
}

/** The transform of the graph's drawing (the camera), as d3-zoom set it. */
async function camera(page: Page): Promise<string | null> {
  return page.getByTestId('graph-svg').locator(':scope > g').last().getAttribute('transform');
}

/**
 * Starts counting the graph's drawn boxes on every animation frame; the
 * fewest seen (0 for a frame without a graph) is read back by `fewestBoxes`.
 */
async function watchBoxes(page: Page): Promise<void> {
  await page.evaluate(() => {
    const count = (): number => document.querySelectorAll('[data-testid="graph-svg"] [data-box]').length;
    const w = window as unknown as { fewestBoxes: number; watching: boolean };
    w.fewestBoxes = count();
    w.watching = true;
    const tick = (): void => {
      w.fewestBoxes = Math.min(w.fewestBoxes, count());
      if (w.watching) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** The names of the model nodes drawn as boxes. */
async function drawnNodes(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll('[data-testid="graph-svg"] [data-node]')].map((e) => e.getAttribute('data-node')!));
}

async function fewestBoxes(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = window as unknown as { fewestBoxes: number; watching: boolean };
    w.watching = false;
    return w.fewestBoxes;
  });
}

test('a new seq_len keeps the graph drawn and the camera where it was; another model gets its own first view', async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await openDropped(page, 'gpt2-past.onnx', readModel(GPT2));
  await graphDrawn(page);
  const before = await summary(page);
  const boxes = before.graph.boxes;
  expect(boxes).toBeGreaterThan(0);

  // Move the camera away from the first view: zoom in and pan with the keyboard.
  const view = page.getByTestId('graph-view');
  await view.focus();
  await view.press('+');
  await view.press('ArrowRight');
  await view.press('ArrowDown');
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  const moved = await camera(page);
  expect(moved).not.toBeNull();

  await watchBoxes(page);
  const dim = page.locator('[data-testid="dim"][data-dim="seq_len"]');
  await dim.getByRole('spinbutton').fill('64');
  await dim.getByRole('spinbutton').press('Enter');
  await page.waitForFunction((peak) => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak !== peak, before.peak);
  await graphDrawn(page);
  const after = await summary(page);
  expect(after.settings?.dims).toEqual({ seq_len: 64 });
  expect(after.graph.boxes).toBe(boxes);
  // Boxes on screen in every frame from the change to the new plan's drawing.
  expect(await fewestBoxes(page)).toBeGreaterThan(0);
  expect(await camera(page)).toBe(moved);
  // The edge labels show the new shapes.
  await expect(page.getByTestId('graph-svg').getByText(/×64×/).first()).toBeAttached();
  await snap(page, 'relayout-seq-len-64');

  // Another model: a fresh layout of its own boxes, seen from its first view.
  const gpt2Nodes = await drawnNodes(page);
  expect(gpt2Nodes.length).toBeGreaterThan(0);
  await dropFile(page, 'squeezenet.onnx', readModel('light_squeezenet.onnx'));
  await waitForModel(page, 'squeezenet.onnx');
  await waitForPlan(page);
  await graphDrawn(page);
  const shown = await drawnNodes(page);
  expect(shown.length).toBeGreaterThan(0);
  expect(shown.filter((n) => gpt2Nodes.includes(n))).toEqual([]);
  expect(await camera(page)).not.toBe(moved);
});

/** Whether the graph's topmost box (its input) lies whole inside the graph pane, as the first view shows it. */
async function topBoxWhole(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const pane = document.querySelector('[data-testid="graph-svg"]')!.getBoundingClientRect();
    const boxes = [...document.querySelectorAll('[data-testid="graph-svg"] g.gbox')].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0);
    const top = boxes.reduce((a, b) => (b.top < a.top ? b : a));
    return top.left >= pane.left && top.right <= pane.right && top.top >= pane.top && top.bottom <= pane.bottom;
  });
}

test('a new target that changes the graph\'s groups shows the graph from its first view again, unless the user moved the view', async ({ page }) => {
  const fastestDet = 'FastestDet.onnx';
  test.skip(!haveModel(fastestDet), NO_MODELS);
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('/');
  await waitForPlan(page);
  await dropFile(page, fastestDet, readModel(fastestDet));
  await waitForModel(page, fastestDet);
  await waitForPlan(page);
  await graphDrawn(page);
  expect(await topBoxWhole(page)).toBe(true);
  for (const target of ['accelerator', 'phone']) {
    await page.getByTestId('target-select').selectOption(target);
    await page.waitForFunction((t) => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.target === t, target);
    await graphDrawn(page);
    expect(await topBoxWhole(page), `after target ${target}`).toBe(true);
  }
  await snap(page, 'relayout-target-phone');

  // Moved by the user, the view stays where it was put.
  await page.getByTestId('graph-svg').hover();
  await page.mouse.wheel(0, 400);
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  const moved = await camera(page);
  await page.getByTestId('target-select').selectOption('accelerator');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.target === 'accelerator');
  await graphDrawn(page);
  expect(await camera(page)).toBe(moved);
});

test('a narrower graph pane (Growth opened) shows the first view made for its width, unless the user moved the view', async ({ page, context }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  const open = async (p: Page, panes: string): Promise<void> => {
    await p.setViewportSize({ width: 1600, height: 1000 });
    await serveModel(p, `/e2e/${GPT2}`, readModel(GPT2));
    await p.goto(`/?model=/e2e/${GPT2}${panes}`);
    await waitForModel(p, GPT2);
    await graphDrawn(p);
  };
  // The first view of the graph in the pane beside an open Growth pane, opened so.
  const other = await context.newPage();
  await open(other, '&panes=graph,heap,growth,explain');
  const besideGrowth = await camera(other);
  await other.close();

  await open(page, '');
  const wide = await camera(page);
  expect(wide).not.toBe(besideGrowth);
  const toggle = (pane: string) => page.getByTestId('pane-toggles').locator(`[data-pane="${pane}"]`).click();
  await toggle('growth');
  await expect(page.getByTestId('growth-pane')).toBeVisible();
  await expect.poll(() => camera(page)).toBe(besideGrowth);
  const narrowWidth = await page.getByTestId('graph-svg').getAttribute('width');
  await snap(page, 'relayout-narrower-pane');
  await toggle('growth');
  await expect.poll(() => camera(page)).toBe(wide);

  // A view the user moved stays where the user left it.
  const graph = page.getByTestId('graph-svg');
  const box = (await graph.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await expect(graph).not.toHaveAttribute('data-moving', 'true');
  await expect.poll(() => camera(page)).not.toBe(wide);
  const moved = await camera(page);
  await toggle('growth');
  await expect(page.getByTestId('growth-pane')).toBeVisible();
  // The drawing has its new width: the pane's size effects ran in that render.
  await expect(graph).toHaveAttribute('width', narrowWidth!);
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  expect(await camera(page)).toBe(moved);
});
