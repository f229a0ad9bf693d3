// Reading the generated 80-layer Llama-shaped decoder (issue 34) at 1280×720:
// after Expand all (about 5,000 boxes in one long column), Fit frames the top
// of the graph at a scale whose labels read (9 px titles or more) instead of
// shrinking it to a strip with labels under a pixel; box labels drop whole
// leading scopes, so no layer number is ever cut short. With
// HEAPSCOPE_DECODER_SHOTS set, a last test writes the screenshots of the
// first view, Fit, Expand all + Fit and a search at 1280×720 and 1600×1000 to
// /tmp/shots-decoder/ (not part of the normal run).

import { mkdirSync } from 'node:fs';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { graphAction, graphSettled, openDecoder, snap, test } from './fixtures';

const expect = baseExpect.configure({ timeout: 60_000 });



/** A box wholly inside the graph pane: its node name, its label's text and the label's height on screen. */
interface ShownBox {
  readonly node: string | null;
  readonly io: boolean; // a graph input or output
  readonly sub: string;
  readonly titleHeight: number;
}

/** The boxes the graph pane shows whole, measured in the page in one pass. */
async function shownBoxes(page: Page): Promise<ShownBox[]> {
  return page.evaluate(() => {
    const v = document.querySelector('[data-testid="graph-view"]')!.getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid="graph-svg"] .gbox')]
      .filter((el) => {
        const b = el.getBoundingClientRect();
        return b.width > 0 && b.left >= v.left - 1 && b.top >= v.top - 1 && b.right <= v.right + 1 && b.bottom <= v.bottom + 1;
      })
      .map((el) => ({
        node: el.getAttribute('data-node'),
        io: el.classList.contains('g-io'),
        sub: el.querySelector(':scope > .g-sub')?.textContent ?? '',
        titleHeight: el.querySelector(':scope > .g-title')?.getBoundingClientRect().height ?? 0,
      }));
  });
}

/** The numbers of `text`, whole. */
const numbers = (text: string): string[] => text.match(/\d+/g) ?? [];

test('after Expand all, Fit shows the top of the 80-layer decoder with labels that read, and no label cuts a layer number', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDecoder(page);
  await graphAction(page, 'graph-expand-all');
  await graphSettled(page);
  expect((await page.evaluate(() => window.heapscope!.summary().graph.boxes))).toBeGreaterThan(5000);
  await page.getByTestId('graph-fit').click();
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  // 12 px titles at scale 0.75 or more: 9 px on screen.
  expect(Number(await page.getByTestId('graph-svg').getAttribute('data-scale'))).toBeGreaterThanOrEqual(0.75);
  await expect.poll(async () => (await shownBoxes(page)).length).toBeGreaterThanOrEqual(6);
  const shown = await shownBoxes(page);
  const titled = shown.filter((b) => b.titleHeight > 0);
  expect(titled.length).toBeGreaterThanOrEqual(6);
  for (const b of titled) expect(b.titleHeight).toBeGreaterThanOrEqual(9);
  // The top of the graph: a graph input is in view.
  expect(shown.some((b) => b.io)).toBe(true);
  await snap(page, 'decoder-expanded-fit');

  // A long name in layer 40 keeps its layer's number whole.
  const field = page.getByTestId('graph-search');
  await field.fill('/model/layers.40/mlp/act_fn/Sigmoid');
  await field.press('Enter');
  const sigmoid = page.locator('.gbox[data-node="/model/layers.40/mlp/act_fn/Sigmoid"]');
  await expect(sigmoid).toHaveClass(/g-current/);
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  await expect(sigmoid.locator(':scope > .g-sub')).toHaveText('…/layers.40/mlp/act_fn/Sigmoid');
  // Every label on screen shows only whole numbers of its node's name.
  const around = (await shownBoxes(page)).filter((b) => b.node !== null && b.sub !== '');
  expect(around.length).toBeGreaterThan(3);
  for (const b of around) {
    const whole = new Set(numbers(b.node!));
    for (const n of numbers(b.sub)) expect(whole.has(n), `${b.node} shown as ${b.sub}`).toBe(true);
  }
  await snap(page, 'decoder-layer-40-label');

  // A search landing on a group wider than the pane shows it from its top-left corner, its title whole.
  await field.fill('layers.40/mlp');
  await field.press('Enter');
  await expect(page.getByTestId('graph-search-count')).toHaveText(/^1\/\d+$/);
  const current = page.locator('.g-current');
  await expect(current).toHaveCount(1);
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  const corner = await current.evaluate((el) => {
    const v = document.querySelector('[data-testid="graph-view"]')!.getBoundingClientRect();
    const b = el.getBoundingClientRect();
    return { left: b.left - v.left, top: b.top - v.top, wider: b.width > v.width };
  });
  expect(corner.left).toBeGreaterThanOrEqual(-1);
  expect(corner.top).toBeGreaterThanOrEqual(-1);
  await snap(page, 'decoder-search-layers-40-mlp');
});

test('at 1600×1000, Fit after Expand all cuts no box at the pane\'s sides, leaves the margin, and keeps the boxes out from under the minimap', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openDecoder(page);
  await graphAction(page, 'graph-expand-all');
  await graphSettled(page);
  await page.getByTestId('graph-fit').click();
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  const seen = await page.evaluate(() => {
    const v = document.querySelector('[data-testid="graph-view"]')!.getBoundingClientRect();
    const m = document.querySelector('[data-testid="graph-minimap"]')!.getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid="graph-svg"] [data-box]')]
      .map((el) => {
        const shape = el.querySelector(':scope > .g-box, :scope > .g-group-frame') ?? el;
        const b = shape.getBoundingClientRect();
        return { id: el.getAttribute('data-box')!, leaf: el.classList.contains('gbox'), left: b.left - v.left, right: b.right - v.left, top: b.top - v.top, bottom: b.bottom - v.top, underMinimap: b.left < m.right && b.right > m.left && b.top < m.bottom && b.bottom > m.top };
      })
      .filter((b) => b.right > 0 && b.left < v.width && b.bottom > 0 && b.top < v.height && b.right - b.left < v.width - 16)
      .map((b) => ({ ...b, width: v.width, height: v.height }));
  });
  // The boxes of the first screen (wholly within its height) are whole, 8 px in from the sides, or out of view.
  const first = seen.filter((b) => b.top >= 0 && b.bottom <= b.height);
  expect(first.length).toBeGreaterThanOrEqual(6);
  for (const b of first) {
    expect(b.left, `${b.id} cut at the left edge`).toBeGreaterThanOrEqual(7);
    expect(b.right, `${b.id} cut at the right edge`).toBeLessThanOrEqual(b.width - 7);
  }
  expect(first.some((b) => b.id.startsWith('in:'))).toBe(true);
  // No box narrower than the pane, whole or reaching below, lies under the minimap.
  expect(seen.filter((b) => b.leaf && b.underMinimap).map((b) => b.id)).toEqual([]);
  expect(seen.filter((b) => !b.leaf && b.underMinimap).map((b) => b.id)).toEqual([]);
  await snap(page, 'decoder-expanded-fit-1600x1000');
});

const SHOTS = process.env.HEAPSCOPE_DECODER_SHOTS !== undefined;
const SHOTS_DIR = '/tmp/shots-decoder';

for (const [width, height] of [
  [1280, 720],
  [1600, 1000],
] as const) {
  test(`screenshots of the decoder at ${width}×${height}: first view, Fit, Expand all + Fit, a search`, async ({ page }) => {
    test.skip(!SHOTS, 'writes screenshots for a person to look at; set HEAPSCOPE_DECODER_SHOTS to run');
    test.setTimeout(400_000);
    mkdirSync(SHOTS_DIR, { recursive: true });
    const shot = (name: string) => page.screenshot({ path: `${SHOTS_DIR}/${width}x${height}-${name}.png`, animations: 'disabled' });
    await page.setViewportSize({ width, height });
    await openDecoder(page);
    await shot('1-first-view');
    await page.getByTestId('graph-fit').click();
    await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
    await shot('2-fit');
    await graphAction(page, 'graph-expand-all');
    await graphSettled(page);
    await page.getByTestId('graph-fit').click();
    await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
    await shot('3-expand-all-fit');
    const field = page.getByTestId('graph-search');
    await field.fill('layers.40/mlp');
    await field.press('Enter');
    await expect(page.getByTestId('graph-search-count')).toHaveText(/^1\/\d+$/);
    await expect(page.locator('.g-current')).toHaveCount(1);
    await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
    await shot('4-search-layers-40-mlp');
  });
}
