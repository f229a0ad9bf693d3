// The page in a narrow window (900×800, 800×700) on a decoder: no two panes
// overlap, the live-bytes chart under the heap stays clear of the diagram and
// its legend, and every control of the header and the heap's toolbar shows
// its whole label; with the Growth pane open too, and with the side bar
// brought back (it starts collapsed below 1100 px).

import { expect, type Page } from '@playwright/test';
import { haveModel, NO_MODELS, readModel, serveModel, snap, test, waitForPlan } from './fixtures';

const LLAMA = 'tiny-llama-fp16/model.onnx';
const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';

/** The panes of the page, as "name: box" for each pair whose boxes overlap. */
async function overlappingPanes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const panes = [...document.querySelectorAll<HTMLElement>('.workspace .pane, .workspace .sidebar')]
      .filter((p) => p.parentElement?.closest('.pane') === null && p.closest('[hidden]') === null)
      .map((p) => ({ name: p.dataset.testid ?? p.getAttribute('aria-labelledby') ?? p.className, box: p.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0);
    const out: string[] = [];
    for (let i = 0; i < panes.length; i += 1) {
      for (let j = i + 1; j < panes.length; j += 1) {
        const [a, b] = [panes[i]!, panes[j]!];
        const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (w > 1 && h > 1) out.push(`${a.name} overlaps ${b.name}`);
      }
    }
    return out;
  });
}

/** Vertical overlap, in pixels, of the live-bytes chart with the heap diagram and with its legend. */
async function chartOverDiagram(page: Page): Promise<{ diagram: number; legend: number }> {
  return page.evaluate(() => {
    const box = (selector: string): DOMRect => document.querySelector(selector)!.getBoundingClientRect();
    const chart = box('[data-testid="peak-chart"]');
    const over = (other: DOMRect): number => {
      const w = Math.min(chart.right, other.right) - Math.max(chart.left, other.left);
      const h = Math.min(chart.bottom, other.bottom) - Math.max(chart.top, other.top);
      return w > 0 && h > 0 ? h : 0;
    };
    return { diagram: over(box('.heap-pane .heap-overlay')), legend: over(box('.heap-pane .heap-legend')) };
  });
}

/** Controls of the header and the heap's toolbar whose label is cut, or that reach past the window's right edge. */
async function cutControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('.header button, .header label.button, .heap-pane .pane-toolbar button')];
    const out: string[] = [];
    for (const c of controls) {
      const box = c.getBoundingClientRect();
      if (box.width === 0) continue;
      const text = (c.textContent ?? '').trim();
      if (c.scrollWidth > c.clientWidth) out.push(`"${text}" cut: ${c.scrollWidth} > ${c.clientWidth}`);
      if (box.right > window.innerWidth) out.push(`"${text}" past the window's edge`);
    }
    const region = document.querySelector<HTMLSelectElement>('[data-testid="heap-region"]');
    // The switcher's option text in the page's font, and room for its arrow.
    if (region !== null) {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(region).font;
      probe.textContent = region.selectedOptions[0]?.textContent ?? '';
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width + 16;
      probe.remove();
      if (region.clientWidth < need) out.push(`region switcher ${region.clientWidth} px for "${probe.textContent}"`);
    }
    const chip = document.querySelector('[data-testid="current-file"]')!.getBoundingClientRect();
    if (chip.width < 120) out.push(`model chip ${chip.width} px`);
    return out;
  });
}

/** Opens `name` of the corpus at `width` × `height`, served by URL as a user's link would. */
async function openAt(page: Page, name: string, width: number, height: number, target = ''): Promise<void> {
  await page.setViewportSize({ width, height });
  await serveModel(page, `/e2e/${name}`, readModel(name));
  if (name === LLAMA) await serveModel(page, `/e2e/${name}.data`, readModel(`${name}.data`));
  await page.goto(`/?model=/e2e/${name}${target}`);
  await waitForPlan(page);
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^\d+$/);
}

/** Every check of this file on the page as it is. */
async function expectTidy(page: Page): Promise<void> {
  expect(await overlappingPanes(page)).toEqual([]);
  expect(await chartOverDiagram(page)).toEqual({ diagram: 0, legend: 0 });
  expect(await cutControls(page)).toEqual([]);
}

for (const [width, height] of [
  [900, 800],
  [800, 700],
] as const) {
  test(`at ${width}×${height} a decoder's panes do not overlap, the live-bytes chart is clear of the diagram and every label is whole`, async ({ page }) => {
    test.skip(!haveModel(LLAMA), NO_MODELS);
    await openAt(page, LLAMA, width, height);
    await expect(page.getByTestId('peak-chart')).toBeVisible();
    await expectTidy(page);
    await snap(page, `narrow-llama-${width}x${height}`);

    // The Growth pane too: the others make room and keep their tools whole.
    await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
    await expect(page.getByTestId('pane-toggles').locator('[data-pane="growth"]')).toHaveAttribute('aria-pressed', 'true');
    await expectTidy(page);
    for (const pane of await page.locator('[data-testid="views"] > .split-item:not([hidden])').all()) {
      expect((await pane.boundingBox())!.width).toBeGreaterThanOrEqual(140);
    }
    await snap(page, `narrow-llama-growth-${width}x${height}`);
  });

  test(`at ${width}×${height} on mcu two regions keep their switcher and the side bar, brought back, does not cover the views`, async ({ page }) => {
    test.skip(!haveModel(GPT2), NO_MODELS);
    await openAt(page, GPT2, width, height, '&target=mcu');
    const sidebar = page.getByTestId('pane-toggles').locator('[data-pane="sidebar"]');
    // Beside a side bar the views had under 200 px each: in a narrow window it starts collapsed.
    await expect(sidebar).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByTestId('heap-region')).toBeVisible();
    await expectTidy(page);
    await sidebar.click();
    await expect(page.getByRole('complementary', { name: 'Model details' })).toBeVisible();
    expect(await overlappingPanes(page)).toEqual([]);
    expect(await cutControls(page)).toEqual([]);
    await snap(page, `narrow-gpt2-mcu-sidebar-${width}x${height}`);
  });
}
