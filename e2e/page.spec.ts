// The page around the model: progress and cancel, the keyboard, the embed
// view, and the dark colour scheme.

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { batchModel, dropFile, serveModel, showTensorTable, snap, startOnSmallModel, summary, waitForError, waitForModel, test } from './fixtures';

test('a slow download shows progress and can be cancelled, keeping the model', async ({ page }) => {
  await startOnSmallModel(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === '/sample.onnx',
    async (route) => {
      await held;
      // The cancelled request is gone by now; fulfilling it may fail, which is fine.
      await route.fulfill({ body: Buffer.from(batchModel()) }).catch(() => undefined);
    },
  );
  await page.getByRole('button', { name: 'Open sample' }).click();
  await page.waitForFunction(() => document.body.dataset.status === 'loading');
  const progress = page.getByRole('progressbar', { name: 'Opening sample.onnx' });
  await expect(progress).toBeVisible();
  await snap(page, 'loading');
  await page.getByTestId('progress').getByRole('button', { name: 'Cancel' }).click();
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  await expect(progress).toHaveCount(0);
  expect((await summary(page)).model).toBe('start.onnx');
  release();
  await page.getByRole('button', { name: 'Open sample' }).click();
  await waitForModel(page, 'sample.onnx');
});

test('the page works from the keyboard: "/" searches, Enter sorts, Tab reaches the dims', async ({ page }) => {
  await startOnSmallModel(page);
  await showTensorTable(page);
  await page.getByTestId('table-body').focus();
  await page.keyboard.press('/');
  await expect(page.getByLabel('Search tensors by name, op, node or dtype')).toBeFocused();
  await page.keyboard.type('sigmoid');
  await expect(page.getByTestId('row-count')).toHaveText('1 of 3 tensors');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('row-count')).toHaveText('3 tensors');
  const nameHeader = page.getByRole('columnheader', { name: 'Name' });
  await nameHeader.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByTestId('cell-name').first()).toHaveText('h');
  const batch = page.getByRole('spinbutton', { name: 'batch' });
  await batch.focus();
  await page.keyboard.press('ArrowUp');
  await expect(batch).toHaveValue('2');
  await expect(page.locator('[data-name="y"]').getByTestId('cell-bytes')).toHaveAttribute('data-bytes', '32');
});

test('Open file, reached with Tab, opens the picker on Enter as on Space, and its focus ring stands out from the button and the header in both schemes', async ({ page }) => {
  await startOnSmallModel(page);
  const input = page.locator('#open-file');
  await page.getByRole('button', { name: 'Open sample' }).focus();
  await page.keyboard.press('Tab');
  await expect(input).toBeFocused();
  const chooser = page.waitForEvent('filechooser', { timeout: 5_000 });
  // Playwright starts catching the picker without waiting for it to take hold: a round trip to the page lets it.
  await page.evaluate(() => undefined);
  await page.keyboard.press('Enter');
  expect((await chooser).isMultiple()).toBe(false);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.getByRole('button', { name: 'Open sample' }).focus();
    await page.keyboard.press('Tab');
    await expect(input).toBeFocused();
    const ring = await focusRing(page, 'label[for="open-file"]');
    // WCAG 2.2 non-text contrast: the ring's outer edge against the header around it, its inner edge against the button.
    expect(contrast(ring.outer, ring.page), `${colorScheme}: ring against the header`).toBeGreaterThanOrEqual(3);
    expect(contrast(ring.inner, ring.button), `${colorScheme}: ring against the button`).toBeGreaterThanOrEqual(3);
    await snap(page, `open-file-focus-${colorScheme}`);
  }
});

test('every control reached with Tab shows a focus ring that stands out: a plain button, a pane toggle drawn inside its segment', async ({ page }) => {
  await startOnSmallModel(page);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const sample = page.getByRole('button', { name: 'Open sample' });
    await sample.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(sample).toBeFocused();
    const ring = await focusRing(page, '.header-actions > button');
    // the ring around a plain button: its outer edge against the header, where the old 35 % tint read 1.6:1
    expect(contrast(ring.outer, ring.page), `${colorScheme}: ring of Open sample against the header`).toBeGreaterThanOrEqual(3);
    const toggle = page.locator('.segmented button').first();
    await toggle.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(toggle).toBeFocused();
    // a segment draws its ring inside: one inset layer, against the segment's own background
    const inside = await toggle.evaluate((element) => {
      const shadow = getComputedStyle(element).boxShadow;
      const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
      const paint = (color: string) => {
        canvas.fillStyle = 'white';
        canvas.fillRect(0, 0, 1, 1);
        canvas.fillStyle = color;
        canvas.fillRect(0, 0, 1, 1);
        const [r, g, b] = canvas.getImageData(0, 0, 1, 1).data;
        return [r!, g!, b!] as const;
      };
      let around: Element | null = element;
      while (around !== null && /^(transparent|rgba\(0, 0, 0, 0\))$/.test(getComputedStyle(around).backgroundColor)) around = around.parentElement;
      return { inset: shadow.includes('inset'), ring: paint(shadow.replace(/(\s+-?[\d.]+px)+(\s+inset)?$/, '')), under: paint(getComputedStyle(around ?? document.body).backgroundColor) };
    });
    expect(inside.inset, `${colorScheme}: the segment's ring is inset`).toBe(true);
    expect(contrast(inside.ring, inside.under), `${colorScheme}: ring of a pane toggle against its segment`).toBeGreaterThanOrEqual(3);
  }
});

type Rgb = readonly [number, number, number];

/**
 * The focus ring (box-shadow) of `selector`: its outermost and innermost layers' colours, each laid over the
 * page around the element, and the element's and that page's own backgrounds, as opaque sRGB.
 */
async function focusRing(page: Page, selector: string): Promise<{ outer: Rgb; inner: Rgb; button: Rgb; page: Rgb }> {
  return page.evaluate((sel) => {
    const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    /** `color` painted over `under`, read back as sRGB (resolves color-mix and color() too). */
    const paint = (color: string, under: string): [number, number, number] => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = under;
      canvas.fillRect(0, 0, 1, 1);
      canvas.fillStyle = color;
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b] = canvas.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!];
    };
    const element = document.querySelector(sel)!;
    let around = element.parentElement;
    while (around !== null && /^(transparent|rgba\(0, 0, 0, 0\))$/.test(getComputedStyle(around).backgroundColor)) around = around.parentElement;
    const pageColor = getComputedStyle(around ?? document.body).backgroundColor;
    // Layers are comma-separated outside parentheses, each "<colour> 0px 0px 0px <spread>", the first drawn on top.
    const layers = getComputedStyle(element).boxShadow.split(/,(?![^(]*\))/).map((layer) => layer.trim());
    const colorOf = (layer: string) => layer.replace(/(\s+-?[\d.]+px)+$/, '');
    const spreadOf = (layer: string) => Number(/(-?[\d.]+)px$/.exec(layer)?.[1] ?? 0);
    const bySpread = [...layers].sort((a, b) => spreadOf(a) - spreadOf(b));
    return {
      outer: paint(colorOf(bySpread.at(-1)!), pageColor),
      inner: paint(colorOf(bySpread[0]!), pageColor),
      button: paint(getComputedStyle(element).backgroundColor, pageColor),
      page: paint(pageColor, 'white'),
    };
  }, selector);
}

/** WCAG's contrast ratio of two sRGB colours. */
function contrast(a: Rgb, b: Rgb): number {
  const luminance = (c: Rgb) => {
    const [r, g, bl] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

test('without Worker support the model is decoded on the main thread', async ({ page }) => {
  await page.addInitScript(() => {
    Reflect.deleteProperty(window, 'Worker');
  });
  await startOnSmallModel(page);
  expect(await page.evaluate(() => typeof Worker)).toBe('undefined');
  await showTensorTable(page);
  await page.getByRole('spinbutton', { name: 'batch' }).fill('5');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-name="y"]').getByTestId('cell-bytes')).toHaveAttribute('data-bytes', '80');
});

test('embed=1 shows the model without the header, side bar or table', async ({ page }) => {
  await serveModel(page, '/e2e/start.onnx', batchModel());
  await page.goto('/?model=/e2e/start.onnx&embed=1');
  await waitForModel(page, 'start.onnx');
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(page.getByTestId('tensor-row')).toHaveCount(0);
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);
  await snap(page, 'embed');
});

test('the dark colour scheme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await startOnSmallModel(page);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(19, 21, 25)');
  await dropFile(page, 'error.onnx', new Uint8Array(0));
  await waitForError(page, 'error.onnx');
  await snap(page, 'dark');
});

test('with reduced motion asked for, the progress line under the header stands still', async ({ page }) => {
  await startOnSmallModel(page);
  // The line of a task whose progress is unknown, as the page draws it, with the page's own styles.
  const slides = () =>
    page.evaluate(() => {
      const track = document.createElement('div');
      track.className = 'progress-track progress-indeterminate';
      const fill = document.createElement('div');
      fill.className = 'progress-fill';
      track.append(fill);
      document.querySelector('.app')!.append(track);
      const name = getComputedStyle(fill).animationName;
      track.remove();
      return name;
    });
  expect(await slides()).toBe('progress-slide');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await slides()).toBe('none');
});
