// Embeds that choose their panes (panes= in the URL, the panes attribute of
// <heapscope-view>): each choice at 480×320 shows its panes readable inside
// the frame (tabs when several), the page itself never scrolls, the graph
// pane shows nodes with readable labels at 640×400, and a 480×320 frame or
// web component keeps the assumptions banner to one line with a styled button.

import { expect as baseExpect, type Locator, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import type {} from '../src/embed/heapscope-view';
import { hoverSomeBuffer, snap, summary, test, waitForPlan } from './fixtures';

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
    // The legend names only what the diagram draws, so its one line shows every key whole.
    const keys = await pane.locator('.heap-legend').evaluate((legend) => {
      const line = legend.getBoundingClientRect();
      return [...legend.querySelectorAll('li')].map((li) => {
        const r = li.getBoundingClientRect();
        return { text: li.textContent, whole: r.left >= line.left && r.right <= line.right && r.top >= line.top && r.bottom <= line.bottom };
      });
    });
    expect(keys.filter((k) => !k.whole).map((k) => k.text)).toEqual([]);
    expect(keys.map((k) => k.text)).toEqual(expect.arrayContaining(['activation', 'lower bound', 'peak']));
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
  // Readable labels: the first view of a small pane is drawn at 0.85 or more, so 12 px titles are 10 px on screen.
  expect(Number(await page.getByTestId('graph-svg').getAttribute('data-scale'))).toBeGreaterThanOrEqual(0.85);
  const titles = await page.locator('[data-testid="graph-svg"] .gbox .g-title').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
  expect(titles.length).toBeGreaterThan(0);
  expect(Math.min(...titles)).toBeGreaterThanOrEqual(10);
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

test('a 480×320 frame of the docs\' demo keeps the assumptions banner, one line that opens, beside a readable heap', async ({ page }) => {
  // The docs embed the page in 480×320 frames; a short frame hid the banner, so nothing said the plan rests on a default batch.
  await page.setViewportSize({ width: 480, height: 320 });
  await page.goto('/?embed=1&model=sample.onnx&target=mcu&panes=heap,explain');
  await waitForPlan(page);
  expect((await summary(page)).warnings.some((w) => w.startsWith('Plan assumes default batch=1'))).toBe(true);
  const banner = page.getByTestId('assumptions-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('data-compact', 'true');
  await expect(banner).toContainText('batch=1');
  const line = (await banner.boundingBox())!;
  expect(line.height).toBeLessThanOrEqual(24);
  // the line is whole: the banner is as tall as its text needs, not cut at its foot
  expect(await banner.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(0);
  expect(line.y + line.height).toBeLessThanOrEqual(320);
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);
  expect(Number(await page.getByTestId('heap-canvas').getAttribute('data-lane-height'))).toBeGreaterThanOrEqual(60);
  await snap(page, 'embed-480x320-heap-banner');
  const canvas = page.getByTestId('heap-canvas');
  const before = { box: await canvas.boundingBox(), lane: await canvas.getAttribute('data-lane-height') };
  await page.getByTestId('assumptions-more').click();
  await expect(page.getByTestId('assumption-fix').first()).toBeVisible();
  const scroll = await page.evaluate(() => ({ x: document.documentElement.scrollWidth, y: document.documentElement.scrollHeight }));
  expect(scroll).toEqual({ x: 480, y: 320 });
  // The opened banner and its fixer lie over the diagram, inside the frame, and scroll within it: the heap keeps its size.
  await page.getByTestId('assumption-fix').first().click();
  const field = banner.locator('input').first();
  await expect(field).toBeFocused();
  await expect(field).toBeInViewport();
  const opened = (await banner.boundingBox())!;
  expect(opened.y + opened.height).toBeLessThanOrEqual(320);
  await snap(page, 'embed-480x320-heap-fixer');
  expect({ box: await canvas.boundingBox(), lane: await canvas.getAttribute('data-lane-height') }).toEqual(before);
  // Closed again, the one line is back where it was.
  await page.getByTestId('assumptions-less').click();
  await expect(page.getByTestId('assumptions-more')).toBeVisible();
  expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(24);
  expect({ box: await canvas.boundingBox(), lane: await canvas.getAttribute('data-lane-height') }).toEqual(before);
});

test('in a 480×320 web component the assumptions banner is one styled line that opens into the whole banner', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto('/docs/demo.html');
  await page.evaluate(() => {
    const element = document.createElement('heapscope-view');
    element.className = 'demo-small';
    element.id = 'small-heap';
    element.setAttribute('src', '../sample.onnx');
    element.setAttribute('target', 'mcu');
    element.setAttribute('panes', 'heap');
    document.body.prepend(element);
  });
  const element = page.locator('#small-heap');
  await expect(element).toHaveAttribute('data-status', 'ready');
  const pane = (await element.getByTestId('heap-pane').boundingBox())!;
  expect(pane.height).toBeLessThanOrEqual(320);
  const banner = element.getByTestId('assumptions-banner');
  await expect(banner).toHaveAttribute('data-compact', 'true');
  // One line of the pane, not half of it; the diagram keeps a readable lane.
  expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(24);
  expect(Number(await element.getByTestId('heap-canvas').getAttribute('data-lane-height'))).toBeGreaterThanOrEqual(60);
  // The button is a link-like button of the page, not the browser's grey default.
  const more = element.getByTestId('assumptions-more');
  const style = await more.evaluate((e) => {
    const c = getComputedStyle(e);
    return { background: c.backgroundColor, border: c.borderTopStyle, cursor: c.cursor, weight: c.fontWeight };
  });
  expect(style).toEqual({ background: 'rgba(0, 0, 0, 0)', border: 'none', cursor: 'pointer', weight: '600' });
  await snap(page, 'embed-component-480x320-banner');
  // It opens into every line with its fix, and closes again.
  await more.click();
  await expect(element.getByTestId('assumption').first()).toBeVisible();
  await expect(element.getByTestId('assumption-fix').first()).toBeVisible();
  await element.getByTestId('assumptions-less').click();
  await expect(element.getByTestId('assumptions-more')).toBeVisible();
});

test('the full view of an embed opens on the panes it showed, and the page\'s toggles keep panes= in step', async ({ page, context }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await page.goto('/?embed=1&panes=growth,explain');
  await waitForPlan(page);
  const href = await page.locator('a.embed-open').getAttribute('href');
  expect(new URL(href!).searchParams.get('panes')).toBe('growth,explain');

  const full = await context.newPage();
  await full.setViewportSize({ width: 1600, height: 1000 });
  await full.goto(href!);
  await waitForPlan(full);
  await expect(full.getByTestId('pane-toggles')).toBeVisible();
  const pressed = (pane: string) => full.getByTestId('pane-toggles').locator(`[data-pane="${pane}"]`);
  await expect(full.getByTestId('growth-pane')).toBeVisible();
  await expect(full.getByTestId('details-pane').first()).toBeVisible();
  await expect(full.getByTestId('graph-pane')).toBeHidden();
  await expect(full.getByTestId('heap-pane')).toBeHidden();
  for (const [pane, on] of [['graph', false], ['heap', false], ['growth', true], ['details', true], ['sidebar', true], ['table', true]] as const) {
    await expect(pressed(pane)).toHaveAttribute('aria-pressed', String(on));
  }
  // The curve is planned for the pane shown at start, as after a click on its toggle.
  await full.waitForFunction(() => window.heapscope?.summary().growth?.status === 'done');

  await pressed('heap').click();
  await expect(full.getByTestId('heap-pane')).toBeVisible();
  await expect.poll(() => new URL(full.url()).searchParams.get('panes')).toBe('heap,growth,explain');
  // The tensor table is not one of the panes a link names: its toggle leaves panes= as it is.
  await pressed('table').click();
  await expect(full.getByTestId('tensor-table')).toBeHidden();
  expect(new URL(full.url()).searchParams.get('panes')).toBe('heap,growth,explain');
  // The address reopens the same panes.
  await full.reload();
  await waitForPlan(full);
  await expect(full.getByTestId('heap-pane')).toBeVisible();
  await expect(full.getByTestId('growth-pane')).toBeVisible();
  await expect(full.getByTestId('graph-pane')).toBeHidden();
  await snap(full, 'full-view-of-growth-embed');
  await full.close();
});

test('at 480×320 the heap`s hover card fits the pane: name, bytes, offset and lifetime, the rest left to a click', async ({ page }) => {
  await page.setViewportSize({ width: 480, height: 320 });
  await page.goto('/?embed=1&target=mcu&panes=graph,heap');
  await waitForPlan(page);
  await page.getByTestId('embed-workspace').getByRole('tab', { name: 'Heap' }).click();
  await hoverSomeBuffer(page);
  const card = page.getByTestId('heap-tooltip');
  await expect(card).toHaveAttribute('data-compact', 'true');
  const [cardBox, viewBox] = [await card.boundingBox(), await page.getByTestId('heap-view').boundingBox()];
  expect(cardBox!.y).toBeGreaterThanOrEqual(viewBox!.y - 0.5);
  expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(viewBox!.y + viewBox!.height + 0.5);
  await expect(card.locator('dt:visible')).toHaveText(['Bytes', 'Offset', 'Lifetime']);
  await snap(page, 'embed-480x320-heap-card');
});

test('four panes side by side need 320 px each: a 640 px frame shows them as tabs, a 1280 px one side by side', async ({ page }) => {
  const url = '/?embed=1&target=mcu&panes=graph,heap,chart,explain';
  await page.setViewportSize({ width: 640, height: 400 });
  await page.goto(url);
  await waitForPlan(page);
  const workspace = page.getByTestId('embed-workspace');
  await expect(workspace).toHaveAttribute('data-tabs', 'true');
  await page.setViewportSize({ width: 1280, height: 400 });
  await expect(workspace).toHaveAttribute('data-tabs', 'false');
  // two panes keep the width they had: side by side from 640 px
  await page.setViewportSize({ width: 640, height: 400 });
  await page.goto('/?embed=1&target=mcu&panes=graph,heap');
  await waitForPlan(page);
  await expect(workspace).toHaveAttribute('data-tabs', 'false');
});
