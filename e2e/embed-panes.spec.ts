// Embeds that choose their panes (panes= in the URL, the panes attribute of
// <heapscope-view>): each choice at 480×320 shows its panes readable inside
// the frame (tabs when several), the page itself never scrolls, and the graph
// pane shows nodes at 640×400.

import { expect as baseExpect, type Locator, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import type {} from '../src/embed/heapscope-view';
import { snap, test, waitForPlan } from './fixtures';

/** Planning and graph layout share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const CHOICES = ['heap,explain', 'graph', 'chart', 'explain', 'heap', 'graph,heap,chart,explain'] as const;

/** Checks that pane `name` is on screen, inside the frame, tall enough and showing its content. */
async function checkPane(page: Page, name: string, size: { width: number; height: number }): Promise<void> {
  const pane = paneOf(page, name);
  await expect(pane).toBeVisible();
  const box = (await pane.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(size.height + 1);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width + 1);
  expect(box.height, `${name} pane height`).toBeGreaterThanOrEqual(size.height * 0.6);
  if (name === 'heap') {
    const canvas = page.getByTestId('heap-canvas');
    await expect(canvas).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);
    expect(Number(await canvas.getAttribute('data-lane-height'))).toBeGreaterThanOrEqual(60);
  } else if (name === 'chart') {
    await expect(pane.locator('.pc-cell').first()).toBeVisible();
    const chart = (await pane.locator('svg.peak-chart-svg').boundingBox())!;
    expect(chart.height).toBeGreaterThanOrEqual(150);
  } else if (name === 'explain') {
    await expect(pane.getByTestId('explanation')).toBeVisible();
    await expect(pane.getByTestId('explanation')).toContainText('Peak');
  } else {
    await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
    await expectNodesInView(pane);
  }
}

function paneOf(page: Page, name: string): Locator {
  return page.getByTestId({ graph: 'graph-pane', heap: 'heap-pane', chart: 'embed-chart', explain: 'embed-explain' }[name]!);
}

/** At least one graph box lies inside the graph pane's visible area. */
async function expectNodesInView(pane: Locator): Promise<void> {
  await expect
    .poll(() =>
      pane.evaluate((element) => {
        const area = element.getBoundingClientRect();
        return [...element.querySelectorAll('.gbox')].filter((g) => {
          const r = g.getBoundingClientRect();
          return r.width > 0 && r.right > area.left && r.left < area.right && r.bottom > area.top + 40 && r.top < area.bottom;
        }).length;
      }),
    )
    .toBeGreaterThan(0);
}

for (const choice of CHOICES) {
  test(`an embed with panes=${choice} is readable at 480×320`, async ({ page }) => {
    const size = { width: 480, height: 320 };
    await page.setViewportSize(size);
    await page.goto(`/?embed=1&target=mcu&panes=${choice}`);
    await waitForPlan(page);
    const workspace = page.getByTestId('embed-workspace');
    await expect(workspace).toHaveAttribute('data-panes', choice);
    const panes = choice.split(',');
    await expect(workspace).toHaveAttribute('data-tabs', String(panes.length > 1));
    for (const name of panes) {
      if (panes.length > 1) await workspace.getByRole('tab', { name: { graph: 'Graph', heap: 'Heap', chart: 'Chart', explain: 'Why this peak' }[name]! }).click();
      await checkPane(page, name, size);
      const scroll = await page.evaluate(() => ({ x: document.documentElement.scrollWidth, y: document.documentElement.scrollHeight }));
      expect(scroll.x).toBeLessThanOrEqual(size.width);
      expect(scroll.y).toBeLessThanOrEqual(size.height);
      await snap(page, `embed-480x320-${choice.replace(/,/g, '-')}-${name}`);
    }
  });
}

test('the embedded graph pane shows nodes at 640×400 beside the heap', async ({ page }) => {
  await page.setViewportSize({ width: 640, height: 400 });
  await page.goto('/?embed=1');
  await waitForPlan(page);
  await expect(page.getByTestId('embed-workspace')).toHaveAttribute('data-tabs', 'false');
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  await expectNodesInView(page.getByTestId('graph-pane'));
  await snap(page, 'embed-640x400');
});

test('<heapscope-view panes> shows the panes it names and follows the attribute', async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 1000 });
  await page.goto('/docs/demo.html');
  const element = page.getByTestId('demo-panes-element');
  await expect(element).toHaveAttribute('data-status', 'ready');
  await expect(element.getByTestId('embed-explain').getByTestId('explanation')).toBeVisible();
  await expect(element.getByTestId('heap-pane')).toHaveCount(0);
  await element.evaluate((el) => el.setAttribute('panes', 'chart'));
  await expect(element.getByTestId('embed-chart').locator('.pc-cell').first()).toBeVisible();
  await expect(element.getByTestId('embed-explain')).toHaveCount(0);
  for (const id of ['demo-panes-heap-explain', 'demo-panes-chart', 'demo-panes-graph']) {
    const frame = page.frameLocator(`[data-testid="${id}"]`);
    await expect(frame.getByTestId('embed-workspace')).toBeVisible();
  }
  await element.scrollIntoViewIfNeeded();
  await snap(page, 'embed-demo-panes');
});
