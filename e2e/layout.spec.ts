// The page on a laptop screen (1280×720) and a large one (1600×1000): no two
// controls overlap, every heap region drawn is tall enough to read, the peak
// chart sits beside the heap, panes collapse and give their room to the
// others, tabbing through the page never scrolls the header away; and the
// screenshots of docs/ on a real model.

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { haveModel, NO_MODELS, readModel, serveModel, snap, test, waitForModel, waitForPlan } from './fixtures';

/** The least height of a heap lane, in CSS pixels (src/views/heap/heap-regions.ts). */
const READABLE_LANE = 100;

/** Boxes of the visible controls (buttons, fields, selects, tabs, lane titles) that overlap another, as text. */
async function overlappingControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'button, select, input:not(.visually-hidden):not([type=file]), label.button, [role=tab], .heap-lane-label, .pane-title';
    /** The part of `element` its scrolling and clipping ancestors let show. */
    const visibleBox = (element: Element): DOMRect => {
      let box = element.getBoundingClientRect();
      for (let a = element.parentElement; a !== null; a = a.parentElement) {
        if (getComputedStyle(a).overflow === 'visible') continue;
        const c = a.getBoundingClientRect();
        const [left, top] = [Math.max(box.left, c.left), Math.max(box.top, c.top)];
        box = new DOMRect(left, top, Math.max(0, Math.min(box.right, c.right) - left), Math.max(0, Math.min(box.bottom, c.bottom) - top));
      }
      return box;
    };
    const boxes = [...document.querySelectorAll<HTMLElement | SVGElement>(selector)]
      .map((element) => ({ element, box: visibleBox(element) }))
      .filter(({ element, box }) => box.width > 0 && box.height > 0 && element.closest('[hidden]') === null && getComputedStyle(element).visibility !== 'hidden');
    const name = (e: Element): string => `${e.tagName.toLowerCase()}"${(e.textContent ?? e.getAttribute('aria-label') ?? '').trim().slice(0, 30)}"`;
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (w > 1 && h > 1) out.push(`${name(a.element)} overlaps ${name(b.element)}`);
      }
    }
    return out;
  });
}

/** Opens the sample on mcu (two memory regions) at `width`×`height`. */
async function openMcu(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.goto('/?target=mcu');
  await waitForPlan(page);
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^\d+$/);
}

test('at 1280×720 the tensor table starts collapsed, no controls overlap, each heap region is readable and the peak chart is beside the heap', async ({ page }) => {
  await openMcu(page, 1280, 720);
  // As the README says: on a laptop screen the tensor table starts collapsed, its toggle there to restore it.
  await expect(page.getByTestId('tensor-table')).toBeHidden();
  await expect(page.getByTestId('pane-toggles').locator('[data-pane="table"]')).toHaveAttribute('aria-pressed', 'false');
  // The heap takes the window's height below the header.
  const heap = (await page.getByTestId('heap-pane').boundingBox())!;
  expect(heap.height).toBeGreaterThan(600);
  expect(await overlappingControls(page)).toEqual([]);
  const canvas = page.getByTestId('heap-canvas');
  expect(Number(await canvas.getAttribute('data-lane-height'))).toBeGreaterThanOrEqual(READABLE_LANE);
  const chart = page.getByTestId('peak-chart');
  await expect(chart).toBeVisible();
  // The chart shows the regions the diagram shows: a total and one cell per kind for each.
  const lanes = Number(await canvas.getAttribute('data-lanes'));
  expect(await chart.getAttribute('data-regions')).toBe(String(lanes));
  await expect(chart.locator('.pc-cell')).toHaveCount(lanes * (1 + (await chart.getAttribute('data-kinds'))!.split(',').length));
  await snap(page, 'layout-1280x720');

  // Every region at once when asked for, or one at a time with the switcher, which gives that region the whole height.
  const regions = page.getByTestId('heap-region');
  await regions.selectOption('all');
  await expect(canvas).toHaveAttribute('data-lanes', '2');
  const shared = Number(await canvas.getAttribute('data-lane-height'));
  await regions.selectOption({ index: 1 });
  await expect(canvas).toHaveAttribute('data-lanes', '1');
  const alone = Number(await canvas.getAttribute('data-lane-height'));
  expect(alone).toBeGreaterThanOrEqual(READABLE_LANE);
  expect(alone).toBeGreaterThan(shared * 1.8);
});

test('at 1280×720 panes collapse and the others take their room', async ({ page }) => {
  await openMcu(page, 1280, 720);
  const heap = page.getByTestId('heap-pane');
  const before = (await heap.boundingBox())!;
  const toggles = page.getByTestId('pane-toggles');
  await toggles.locator('[data-pane="graph"]').click();
  await toggles.locator('[data-pane="sidebar"]').click();
  await expect(page.getByTestId('graph-pane')).toBeHidden();
  await expect.poll(async () => (await heap.boundingBox())!.width).toBeGreaterThan(before.width + 300);
  // The tensor table, restored, takes its room from the heap, and gives it back when collapsed again.
  const tall = (await heap.boundingBox())!.height;
  await toggles.locator('[data-pane="table"]').click();
  await expect(page.getByTestId('tensor-table')).toBeVisible();
  await expect.poll(async () => (await heap.boundingBox())!.height).toBeLessThan(tall - 100);
  await toggles.locator('[data-pane="table"]').click();
  await expect(page.getByTestId('tensor-table')).toBeHidden();
  await expect.poll(async () => (await heap.boundingBox())!.height).toBeGreaterThan(tall - 1);
  expect(Number(await page.getByTestId('heap-canvas').getAttribute('data-lane-height'))).toBeGreaterThanOrEqual(READABLE_LANE);
  expect(await overlappingControls(page)).toEqual([]);
  // Separators still resize what is shown.
  const separator = page.getByRole('separator', { name: 'Resize the heap and the details' });
  const width = (await heap.boundingBox())!.width;
  await separator.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await heap.boundingBox())!.width).toBeGreaterThan(width + 10);
});

test('tabbing through the whole page keeps the header in view and never scrolls the page', async ({ page }) => {
  await openMcu(page, 1280, 720);
  const header = page.locator('header.header');
  let visited = 0;
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press('Tab');
    const state = await page.evaluate(() => ({
      scroll: (document.scrollingElement?.scrollTop ?? 0) + window.scrollY,
      headerTop: document.querySelector('header.header')!.getBoundingClientRect().top,
      focused: document.activeElement?.tagName ?? '',
    }));
    expect(state.scroll, `after ${i + 1} tabs (${state.focused})`).toBe(0);
    expect(state.headerTop, `after ${i + 1} tabs (${state.focused})`).toBe(0);
    if (state.focused !== 'BODY') visited += 1;
  }
  expect(visited).toBeGreaterThan(40);
  await expect(header).toBeInViewport();
});

test('at 1600×1000 every region shows at once beside the chart, with the tensor table', async ({ page }) => {
  await openMcu(page, 1600, 1000);
  await expect(page.getByTestId('tensor-table')).toBeVisible();
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-lanes', '2');
  expect(Number(await page.getByTestId('heap-canvas').getAttribute('data-lane-height'))).toBeGreaterThanOrEqual(READABLE_LANE);
  await expect(page.getByTestId('peak-chart')).toBeVisible();
  expect(await overlappingControls(page)).toEqual([]);
  await snap(page, 'layout-1600x1000');
});

const DOCS_MODEL = 'ultraface_RFB-320.onnx';

test('screenshots of a real model for docs/ at 1280×720 and 1600×1000', async ({ page }) => {
  test.skip(!haveModel(DOCS_MODEL), NO_MODELS);
  await serveModel(page, `/e2e/${DOCS_MODEL}`, readModel(DOCS_MODEL));
  for (const [width, height] of [[1280, 720], [1600, 1000]] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/?model=/e2e/${DOCS_MODEL}&target=mcu`);
    await waitForModel(page, DOCS_MODEL);
    await waitForPlan(page);
    await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^\d+$/);
    await page.waitForFunction(() => window.heapscope?.summary().graph.status !== 'pending');
    expect(await overlappingControls(page)).toEqual([]);
    // The docs' copies are refreshed only when asked for, so a test run leaves the checkout as it was.
    if (process.env.HEAPSCOPE_DOCS_SHOTS === '1') await page.screenshot({ path: `docs/screenshot-${width}x${height}.png`, animations: 'disabled' });
    else await snap(page, `docs-screenshot-${width}x${height}`);
  }
});

/** Boxes of the graph's first screen that its pane's left or right edge cuts, as text. */
async function boxesCutByPaneEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const svg = document.querySelector('[data-testid="graph-svg"]')!;
    const pane = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('g.gbox')]
      .map((g) => ({ id: g.getAttribute('data-box') ?? '', box: g.querySelector('rect.g-box')!.getBoundingClientRect() }))
      .filter(({ box }) => box.top < pane.bottom && box.bottom > pane.top && box.width < pane.width)
      .filter(({ box }) => (box.left < pane.left && box.right > pane.left) || (box.left < pane.right && box.right > pane.right))
      .map(({ id, box }) => `${id} at ${Math.round(box.left - pane.left)}..${Math.round(box.right - pane.left)} of ${Math.round(pane.width)}`);
  });
}

test('at 1280×720 the first view of GPT-2, wider than its pane at the readable scale, shows the top of its main column: inputs whole, more boxes whole than cut at the pane edge', async ({ page }) => {
  const model = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(model), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, `/e2e/${model}`, readModel(model));
  await page.goto(`/?model=/e2e/${model}`);
  await waitForModel(page, model);
  await page.waitForFunction(() => window.heapscope?.summary().graph.status === 'drawn');
  // Its top (inputs, attention mask, past KV cache) is wider than the 253 px pane at 0.6: under ELK's layout it opens
  // smaller, that top whole from its left (graph-scale.spec.ts); the layered preview, kept on a busy machine, zigzags.
  // Whole: inside the pane on every side. A zigzag column leaves no offset that cuts nothing but one lone box,
  // so the view may cut a box at an edge, never more than it shows whole. Which boxes these are depends on the
  // layout engine that won.
  const whole = await page.evaluate(() => {
    const pane = document.querySelector('[data-testid="graph-svg"]')!.getBoundingClientRect();
    return [...document.querySelectorAll('g.gbox')]
      .map((g) => ({ id: g.getAttribute('data-box') ?? '', box: g.querySelector('rect.g-box')!.getBoundingClientRect() }))
      .filter(({ box: b }) => b.left >= pane.left && b.right <= pane.right && b.top >= pane.top && b.bottom <= pane.bottom)
      .map(({ id }) => id);
  });
  expect(whole.length).toBeGreaterThanOrEqual(4);
  expect(whole.filter((id) => id.startsWith('in:')).length).toBeGreaterThan(0);
  expect((await boxesCutByPaneEdge(page)).length).toBeLessThan(whole.length / 2);
  await snap(page, 'gpt2-first-view-1280x720');
});

test('in a short window the heap draws the peak region alone and its switcher says why', async ({ page }) => {
  await openMcu(page, 1280, 480);
  const regions = page.getByTestId('heap-region');
  await expect(regions).toHaveAttribute('data-auto', 'true');
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-lanes', '1');
  const shown = await regions.inputValue();
  expect(shown).not.toBe('all');
  await expect(regions).toHaveAttribute('title', new RegExp(`^${shown} alone, the region of the peak: the pane is too short`));
  await regions.selectOption('all');
  await expect(regions).toHaveAttribute('title', 'Regions drawn in the diagram');
});
