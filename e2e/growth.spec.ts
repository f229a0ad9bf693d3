// The Growth view on tiny GPT-2: the peak against its sequence length, planned
// in the worker after the plan is shown; a click plans that length on the
// page, a shift-click opens it as the comparison's side B; and on a model with
// no symbolic dim, the batch of its fixed input through a shape override.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { ARTIFACTS_DIR, haveModel, NO_MODELS, readModel, serveModel, snap, summary, test, waitForModel, waitForPlan } from './fixtures';

/** Planning every point shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 60_000 });

const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
const SQUEEZENET = 'winml_SqueezeNet_fp16.onnx';
const RESNET = 'light_resnet50.onnx';

/** Opens `name` from the corpus by URL (so a comparison can read it again) and shows the Growth view. */
async function openWithGrowth(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, `/e2e/${name}`, readModel(name));
  await page.goto(`/?model=/e2e/${name}`);
  await waitForModel(page, name);
  await waitForPlan(page);
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  await expect(page.getByTestId('growth-pane')).toBeVisible();
}

/** Waits for the curve over `dim` to be planned; returns its points. */
async function grown(page: Page, dim: string) {
  await page.waitForFunction((d) => {
    const g = window.heapscope?.summary().growth;
    return g?.dim === d && g.status === 'done';
  }, dim);
  return (await summary(page)).growth!;
}

/** `plan --json` of the command-line tool on a corpus model: its peak and whether it fits. */
function cliPlan(name: string, args: readonly string[]): { peak: number; fits: boolean } {
  let out = '';
  const code = runCli(['plan', new URL(name, new URL('../../shared/models/', import.meta.url)).pathname, '--json', ...args], { out: (t) => (out += t), err: () => undefined });
  expect([0, 3]).toContain(code);
  return JSON.parse(out) as { peak: number; fits: boolean };
}

/** Clicks an export button and returns the downloaded file's name and text. */
async function download(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).first().click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

/** The dot of `value` in the chart. */
function dot(page: Page, value: number) {
  return page.getByTestId('growth-chart').locator(`circle[data-value="${value}"]`).first();
}


/** GPT-2 at 1280×800 with the Growth pane open on the dim it first offers, seq_len bound to 128 as its card suggests; returns that dim. */
async function openGpt2GrowthAt1280x800(page: Page): Promise<string> {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 800 });
  await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
  await page.goto(`/?model=/e2e/${GPT2}`);
  await waitForModel(page, GPT2);
  await waitForPlan(page);
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  const dim = (await grown(page, await page.getByTestId('growth-axis').inputValue())).dim;
  await page.getByTestId('growth-assumed-change').click();
  await page.waitForFunction((d) => {
    const s = window.heapscope?.summary();
    return document.body.dataset.status === 'ready' && s?.settings?.dims['seq_len'] === 128 && s.growth?.dim === d && s.growth.status === 'done';
  }, dim);
  return dim;
}

/** How many rings round the shown point's dots have their centre under the hover card, read from one drawing. */
function ringsCovered(page: Page): Promise<number> {
  return page.getByTestId('growth-chart').evaluate((chart) => {
    const b = chart.querySelector('[data-testid="growth-tooltip"]')!.getBoundingClientRect();
    return [...chart.querySelectorAll('circle.gr-ring')].filter((ring) => {
      const r = ring.getBoundingClientRect();
      const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
      return x >= b.left && x <= b.right && y >= b.top && y <= b.bottom;
    }).length;
  });
}

/** GPT-2 with a past on the mcu target, its Growth pane open on seq_len. */
async function openGpt2OnMcuBySeqLen(page: Page): Promise<void> {
  await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
  await page.goto(`/?model=/e2e/${GPT2}&target=mcu`);
  await waitForModel(page, GPT2);
  await waitForPlan(page);
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  await page.getByTestId('growth-axis').selectOption('seq_len');
}

test.describe('growth view', () => {
  test.skip(!haveModel(GPT2), NO_MODELS);

  test('draws the peak against seq_len, and a click plans that length', async ({ page }) => {
    await openWithGrowth(page, GPT2);
    await page.getByTestId('growth-axis').selectOption('seq_len');
    const curve = await grown(page, 'seq_len');
    // Powers of two up to eight times the default of 128.
    expect(curve.points.map((p) => p.value)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
    expect(curve.current).toBe(128);
    const onScreen = await summary(page);
    expect(curve.points.find((p) => p.value === 128)?.peak).toBe(onScreen.peak);
    for (const p of curve.points) expect(p.lowerBound).toBeLessThanOrEqual(p.peak);
    expect(curve.monotonic).toBe(true);
    await expect(page.getByTestId('growth-chart').locator('circle')).toHaveCount(11);
    await snap(page, 'growth-gpt2-1600x1000');

    await dot(page, 256).hover();
    const card = page.getByTestId('growth-tooltip');
    await expect(card).toHaveAttribute('data-value', '256');
    await expect(card).toContainText('seq_len = 256');
    const at256 = curve.points.find((p) => p.value === 256)!;
    await snap(page, 'growth-gpt2-hover');

    await dot(page, 256).click();
    await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.dims['seq_len'] === 256);
    const after = await summary(page);
    expect(after.settings?.dims).toEqual({ seq_len: 256 });
    expect(after.peak).toBe(at256.peak);
    expect(new URL(page.url()).searchParams.get('dim.seq_len')).toBe('256');
    // The curve holds for the new plan: it is kept, with the value on screen moved.
    const kept = await grown(page, 'seq_len');
    expect(kept.current).toBe(256);
    expect(kept.points).toEqual(curve.points);
  });

  test('on a decoder with a KV cache, Growth starts on the past sequence length the cache grows with, not the batch', async ({ page }) => {
    await openWithGrowth(page, GPT2);
    await expect(page.getByTestId('growth-axis')).toHaveValue('past_seq_len');
    const curve = await grown(page, 'past_seq_len');
    expect(curve.current).toBe(0);
    expect(curve.points[0]?.value).toBe(0);
    // The cache grows with it: the peak does too.
    expect(curve.points.at(-1)!.peak).toBeGreaterThan(curve.points[0]!.peak);
    await snap(page, 'growth-gpt2-past');
  });

  test('the total length, which the graph ties to the sequence and past lengths, is not offered, and the pane says what to sweep instead', async ({ page }) => {
    await openWithGrowth(page, GPT2);
    const offered = await page.getByTestId('growth-axis').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toContain('past_seq_len');
    expect(offered).toContain('seq_len');
    expect(offered).not.toContain('total_seq_len');
    await expect(page.locator('.growth-note')).toContainText(
      '"total_seq_len" is not offered: the graph ties total_seq_len to seq_len + past_seq_len, so it cannot vary alone; sweep past_seq_len or seq_len instead.',
    );
    await grown(page, 'past_seq_len');
  });

  test('a shift-click opens the point as side B of a comparison', async ({ page }) => {
    await openWithGrowth(page, GPT2);
    await page.getByTestId('growth-axis').selectOption('seq_len');
    const curve = await grown(page, 'seq_len');
    const shown = await summary(page);
    // Hovering rings the dot without replacing it: a click pressed on a dot is released on the same dot.
    const held = await dot(page, 512).elementHandle();
    await dot(page, 512).hover();
    await expect(page.locator('.growth-ring-layer circle.gr-ring')).toHaveCount(1);
    expect(await held!.evaluate((e) => e.isConnected)).toBe(true);
    await dot(page, 512).click({ modifiers: ['Shift'] });
    await expect(page.getByTestId('compare-dialog')).toBeVisible();
    await page.waitForFunction(() => window.heapscope?.summary().compare?.peakB != null);
    const after = await summary(page);
    expect(after.compare?.settings?.dims).toEqual({ seq_len: 512 });
    expect(after.compare?.peakB).toBe(curve.points.find((p) => p.value === 512)?.peak);
    expect(after.compare?.peakA).toBe(shown.peak);
    // The page's own plan is left alone.
    expect(after.settings?.dims).toEqual({});
    expect(after.peak).toBe(shown.peak);
  });

  test('a model without a symbolic dim grows by the batch of its fixed input', async ({ page }) => {
    test.skip(!haveModel(SQUEEZENET), NO_MODELS);
    await openWithGrowth(page, SQUEEZENET);
    await expect(page.getByTestId('growth-axis').locator('option')).toHaveText(['data_0 batch', 'data_0 image size']);
    const curve = await grown(page, 'data_0:0');
    expect(curve.points.map((p) => p.value)).toEqual([1, 2, 4, 8, 16]);
    await dot(page, 4).click();
    await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.shapes['data_0']?.[0] === 4);
    const after = await summary(page);
    expect(after.settings?.shapes).toEqual({ data_0: [4, 3, 224, 224] });
    expect(after.peak).toBe(curve.points.find((p) => p.value === 4)?.peak);
  });

  test("a shift-click on an image size compares the two shapes by name: the labels and the top cause give each side's input shape", async ({ page }) => {
    test.skip(!haveModel(SQUEEZENET), NO_MODELS);
    await openWithGrowth(page, SQUEEZENET);
    await page.getByTestId('growth-axis').selectOption({ label: 'data_0 image size' });
    const curve = await grown(page, 'data_0:2,3');
    const larger = curve.points.map((p) => p.value).find((v) => v > 224)!;
    await dot(page, larger).click({ modifiers: ['Shift'] });
    const dialog = page.getByTestId('compare-dialog');
    await expect(dialog).toBeVisible();
    await page.waitForFunction(() => window.heapscope?.summary().compare?.peakB != null);
    await expect(dialog.getByTestId('compare-label-a')).toHaveText('data_0=1×3×224×224');
    await expect(dialog.getByTestId('compare-label-b')).toHaveText(`data_0=1×3×${larger}×${larger}`);
    const top = dialog.getByTestId('diff-cause').first();
    await expect(top).toHaveAttribute('data-kind', 'input-changed');
    await expect(top).toContainText(`input data_0 shape changed (1×3×224×224 → 1×3×${larger}×${larger})`);
    await snap(page, 'growth-compare-image-size');
  });

  test('an embed with panes=growth draws the curve of its past sequence length', async ({ page }) => {
    await page.setViewportSize({ width: 900, height: 500 });
    await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
    await page.goto(`/?embed=1&panes=growth&model=/e2e/${GPT2}`);
    await waitForModel(page, GPT2);
    await expect(page.getByTestId('embed-workspace')).toHaveAttribute('data-panes', 'growth');
    const curve = await grown(page, 'past_seq_len');
    // a cache length starts at 0 on screen: the curve reaches a context of a thousand tokens, where the cache weighs
    expect(curve.points.map((p) => p.value)).toEqual([0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
    await expect(page.getByTestId('growth-chart').locator('circle')).toHaveCount(12);
    await snap(page, 'growth-embed-900x500');
  });

  test('the curve is saved as SVG on its own and under the heap', async ({ page }) => {
    await openWithGrowth(page, GPT2);
    await page.getByTestId('growth-axis').selectOption('seq_len');
    await grown(page, 'seq_len');
    const alone = await download(page, 'export-growth-svg');
    expect(alone.name).toMatch(/\.growth\.svg$/);
    expect(alone.text.match(/class="gr-dot/g)).toHaveLength(11);
    expect(alone.text).toContain('Peak against seq_len');
    const heap = await download(page, 'export-heap-svg');
    expect(heap.text).toContain('class="growth-svg"');
    expect(heap.text.match(/class="gr-dot/g)).toHaveLength(11);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    writeFileSync(new URL('growth-export.svg', ARTIFACTS_DIR), alone.text);
    // The saved file as a person sees it.
    await page.goto(new URL('growth-export.svg', ARTIFACTS_DIR).href);
    await snap(page, 'growth-export');
  });

  test('under the mcu size limits, the curve says where the plan stops fitting, as the command line plans it', async ({ page }) => {
    await page.setViewportSize({ width: 1600, height: 1000 });
    await openGpt2OnMcuBySeqLen(page);
    // Past the 8.5 MiB of sram and ext-ram together: 21 MiB at 4096.
    await page.getByTestId('growth-to').fill('4096');
    await page.getByTestId('growth-to').press('Enter');
    await page.waitForFunction(() => window.heapscope?.summary().growth?.points.at(-1)?.value === 4096);
    const curve = await grown(page, 'seq_len');
    expect(curve.points.at(-1)?.fits).toBe(false);
    const fitsUpTo = curve.fitsUpTo!;
    expect(fitsUpTo).toBeGreaterThan(1);
    expect(fitsUpTo).toBeLessThan(4096);
    for (const p of curve.points) expect(p.peak).toBe(cliPlan(GPT2, ['--target', 'mcu', '--dim', `seq_len=${p.value}`]).peak);
    expect(cliPlan(GPT2, ['--target', 'mcu', '--dim', `seq_len=${fitsUpTo}`]).fits).toBe(true);
    expect(cliPlan(GPT2, ['--target', 'mcu', '--dim', `seq_len=${fitsUpTo + 1}`]).fits).toBe(false);
    await expect(page.getByTestId('growth-verdict')).toContainText(`Fits up to seq_len=${fitsUpTo}.`);
    await expect(page.getByTestId('growth-chart').locator('line.gr-limit')).not.toHaveCount(0);
    await snap(page, 'growth-gpt2-mcu');
  });

  test('Cancel stops the curve and keeps its points; Plan again finishes it', async ({ page }) => {
    test.skip(!haveModel(RESNET), NO_MODELS);
    await openWithGrowth(page, RESNET);
    await grown(page, 'gpu_0/data_0:0');
    // 21 values of a 415-node ResNet-50's batch, 1 to 2^20. A click from outside
    // races the worker, which on a fast machine plans them all before the button
    // is still; the button is clicked in the render that shows it instead.
    await page.getByTestId('growth-to').fill('1048576');
    await page.evaluate(() => {
      const seen = new MutationObserver(() => {
        const cancel = document.querySelector<HTMLButtonElement>('[data-testid="growth-cancel"]');
        if (cancel === null) return;
        seen.disconnect();
        cancel.click();
      });
      seen.observe(document.body, { childList: true, subtree: true });
    });
    await page.getByTestId('growth-to').press('Enter');
    await expect(page.getByTestId('growth-cancelled')).toBeVisible();
    const stopped = (await summary(page)).growth!;
    expect(stopped.status).toBe('cancelled');
    expect(stopped.points.length).toBeLessThan(21);
    await page.getByTestId('growth-resume').click();
    const curve = await grown(page, 'gpu_0/data_0:0');
    expect(curve.points).toHaveLength(21);
    expect(curve.points.at(-1)?.value).toBe(2 ** 20);
  });
});

test('with the Growth pane open at 1280×720 the graph toolbar keeps one row, its title and its Find field room for six characters; previous, next and Fit are in the More menu', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await waitForPlan(page);
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  await expect(page.getByTestId('growth-pane')).toBeVisible();
  const field = page.getByTestId('graph-search');
  await field.fill('clip');
  await expect(page.getByTestId('graph-search-count')).toHaveText(/^–\/\d+$/);
  const row = await page.locator('.graph-toolbar').evaluate((bar) => {
    const input = bar.querySelector<HTMLInputElement>('[data-testid="graph-search"]')!;
    const context = document.createElement('canvas').getContext('2d')!;
    const style = getComputedStyle(input);
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const inner = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    const shown = [...bar.children].map((e) => e.getBoundingClientRect()).filter((b) => b.width > 1 && b.height > 1);
    const boxes = [...bar.querySelectorAll('input, button')].map((e) => e.getBoundingClientRect()).filter((b) => b.width > 0 && b.height > 0);
    const overlaps = boxes.some((a, i) => boxes.slice(i + 1).some((b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1));
    const own = bar.getBoundingClientRect();
    return { inner, six: context.measureText('0'.repeat(6)).width, tops: shown.map((b) => Math.round(b.top + b.height / 2)), overlaps, right: Math.max(...boxes.map((b) => b.right)), barRight: own.right, height: own.height };
  });
  expect(row.inner).toBeGreaterThanOrEqual(row.six);
  await expect(page.locator('#graph-title')).toHaveText(/graph/i);
  expect(await titleWhole(page, 'graph-title')).toBe(true);
  expect(row.overlaps).toBe(false);
  expect(row.right).toBeLessThanOrEqual(row.barRight);
  expect(row.height).toBeLessThanOrEqual(40);
  expect(Math.max(...row.tops) - Math.min(...row.tops)).toBeLessThanOrEqual(2);
  await snap(page, 'growth-open-graph-toolbar-1280x720');
  // What left the row is in the menu.
  await page.getByTestId('graph-more').click();
  await page.getByTestId('graph-menu-next').click();
  await expect(page.getByTestId('graph-search-count')).toHaveText(/^1\/\d+$/);
  await expect(page.locator('[data-testid="graph-svg"] [data-search="current"]')).toHaveCount(1);
  await page.getByTestId('graph-more').click();
  await page.getByTestId('graph-menu-fit').click();
  await expect(page.getByTestId('graph-more-menu')).toBeHidden();
});

/** Whether pane title `id` is drawn whole: wider than a pixel, inside its toolbar, not cut by its own box. */
function titleWhole(page: Page, id: string): Promise<boolean> {
  return page.locator(`#${id}`).evaluate((title) => {
    const r = title.getBoundingClientRect();
    const bar = title.parentElement!.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && title.scrollWidth <= title.clientWidth + 1 && r.left >= bar.left - 1 && r.right <= bar.right + 1;
  });
}

test('at 1024×640 with Growth open, every pane keeps its title and the graph status is one line, cut with an ellipsis and read whole in its title', async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await page.setViewportSize({ width: 1024, height: 640 });
  await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
  await page.goto(`/?model=/e2e/${GPT2}`);
  await waitForModel(page, GPT2);
  await waitForPlan(page);
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  await expect(page.getByTestId('growth-pane')).toBeVisible();
  await expect(page.getByTestId('graph-status')).toHaveAttribute('data-status', 'ready');
  // The graph pane's title was hidden below 215 px, the pane a Find field over the graph.
  for (const id of await page.locator('.pane-toolbar > h2.pane-title').evaluateAll((hs) => hs.map((h) => h.id))) expect(await titleWhole(page, id), id).toBe(true);
  await expect(page.locator('#graph-title')).toBeVisible();
  const status = page.getByTestId('graph-status-text');
  const line = await status.evaluate((s) => ({ height: s.getBoundingClientRect().height, lineHeight: Number.parseFloat(getComputedStyle(s).lineHeight) || 18, cut: s.scrollWidth > s.clientWidth, overflow: getComputedStyle(s).textOverflow }));
  // It wrapped to four lines: "39 nodes · / ELK / layered · / 601 ms".
  expect(line.height).toBeLessThanOrEqual(line.lineHeight * 1.5);
  expect(line.overflow).toBe('ellipsis');
  await expect(status).toHaveAttribute('title', /^39 nodes · (ELK layered|layered|simple layout) · \d+(\.\d)? m?s/);
  await snap(page, 'growth-open-panes-1024x640');
});

const LLAMA = 'tiny-llama-fp16/model.onnx';

/** Sets the range to `from`..`to` as a person does: from, Tab, to, Enter. */
async function typeRange(page: Page, from: number, to: number): Promise<void> {
  await page.getByTestId('growth-from').fill(String(from));
  await page.getByTestId('growth-from').press('Tab');
  await page.getByTestId('growth-to').fill(String(to));
  await page.getByTestId('growth-to').press('Enter');
}

/** Whether each region's title in the chart is drawn whole inside the chart. */
async function titlesInside(page: Page): Promise<{ text: string; right: number; width: number }[]> {
  return page.getByTestId('growth-chart').locator('svg.growth-svg').evaluate((svg) =>
    [...svg.querySelectorAll<SVGTextElement>('g.gr-panel > text')].filter((t) => t.getAttribute('font-weight') === '600').map((t) => ({
      text: t.textContent ?? '',
      right: Number(t.getAttribute('x')) + t.getComputedTextLength(),
      width: (svg as SVGSVGElement).width.baseVal.value,
    })),
  );
}

test.describe('growth view, read and driven whole', () => {
  test('at 1280×720 on tiny Llama the verdict wraps inside the pane, the long tensor name too', async ({ page }) => {
    test.skip(!haveModel(LLAMA), NO_MODELS);
    await page.setViewportSize({ width: 1280, height: 720 });
    await serveModel(page, '/e2e/tiny-llama.onnx', readModel(LLAMA));
    // the prefill length given in the link: the curve keeps it, and its verdict names the long mask tensor it cannot size
    await page.goto('/?model=/e2e/tiny-llama.onnx&dim.sequence_length=128');
    await waitForModel(page, 'tiny-llama.onnx');
    await waitForPlan(page);
    await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
    await page.getByTestId('growth-axis').selectOption('past_sequence_length');
    const curve = await grown(page, 'past_sequence_length');
    expect(curve.assumed).toEqual([]);
    await expect(page.getByTestId('growth-assumed')).toHaveCount(0);
    expect(curve.points.filter((p) => !p.complete).length).toBeGreaterThan(0);
    const verdict = page.getByTestId('growth-verdict');
    await expect(verdict).toContainText('planned');
    const box = await verdict.evaluate((p) => ({ scroll: p.scrollWidth, client: p.clientWidth, pane: p.closest('[data-testid="growth-pane"]')!.clientWidth }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    expect(box.client).toBeLessThanOrEqual(box.pane);
    await snap(page, 'growth-llama-1280x720');
  });

  test('on tiny Llama the cache-length curve is a decode step, says so, and one click plans it at the page\'s sequence length', async ({ page }) => {
    test.skip(!haveModel(LLAMA), NO_MODELS);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await serveModel(page, '/e2e/tiny-llama.onnx', readModel(LLAMA));
    await page.goto('/?model=/e2e/tiny-llama.onnx');
    await waitForModel(page, 'tiny-llama.onnx');
    await waitForPlan(page);
    await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
    await expect(page.getByTestId('growth-axis')).toHaveValue('past_sequence_length');
    const curve = await grown(page, 'past_sequence_length');
    expect(curve.assumed).toEqual([{ name: 'sequence_length', value: 1 }]);
    // every point is complete, and is the plan of that decode step as the command line gives it
    expect(curve.points.every((p) => p.complete)).toBe(true);
    for (const p of [curve.points[0]!, curve.points.at(-1)!]) {
      expect(p.peak).toBe(cliPlan(LLAMA, ['--dim', `past_sequence_length=${p.value}`, '--dim', 'sequence_length=1']).peak);
    }
    const note = page.getByTestId('growth-assumed');
    await expect(note).toContainText('sequence_length = 1 (a decode step: one new token, with past_sequence_length tokens in the cache)');
    await expect(note).toContainText('The plan on screen has sequence_length = 128: its peak is not on the curve.');
    await expect(page.getByTestId('growth-assumed-change')).toHaveText('Use sequence_length = 128');
    // what the points rest on, as `sweep` says it: the past inputs reused, and what keeping them adds at the largest value
    const last = curve.points.at(-1)!.value;
    const kept = curve.assumes.find((line) => line.startsWith('assumes the bytes of each past input of the KV cache are reused'));
    expect(kept).toContain(`holds past and present at once: at past_sequence_length=${last} (the largest value), `);
    await expect(page.getByTestId('growth-assumptions')).toContainText(`at past_sequence_length=${last} (the largest value), `);
    // the legend names the rule for what it marks: the value on screen, not a plan drawn on the curve (no diamond is)
    const legend = page.getByTestId('growth-chart').getByRole('list', { name: 'Legend' });
    await expect(legend.locator('li').filter({ hasText: /^value on screen \(its plan is not on the curve\)$/ })).toHaveCount(1);
    await expect(legend.locator('li').filter({ hasText: /^on screen$/ })).toHaveCount(0);
    await expect(page.getByTestId('growth-chart').locator('.gr-current-mark')).toHaveCount(0);
    // the page's own plan and link are untouched
    expect((await summary(page)).settings?.dims).toEqual({});
    await snap(page, 'growth-llama-decode-step');
    await page.getByTestId('growth-assumed-change').click();
    await page.waitForFunction(() => {
      const s = window.heapscope?.summary();
      return document.body.dataset.status === 'ready' && s?.settings?.dims['sequence_length'] === 128 && s.growth?.status === 'done';
    });
    const prefill = (await summary(page)).growth!;
    expect(prefill.assumed).toEqual([]);
    await expect(note).toHaveCount(0);
    // the plan on screen is on the curve again: its peak is the diamond, and the legend says "on screen"
    await expect(legend.locator('li').filter({ hasText: /^on screen$/ })).toHaveCount(1);
    await expect(page.getByTestId('growth-chart').locator('.gr-current-mark').first()).toBeVisible();
    // at the prefill length the mask takes no cache: a point past 0 is a lower estimate
    expect(prefill.points.at(-1)!.complete).toBe(false);
  });

  for (const [width, height] of [
    [1280, 720],
    [1600, 1000],
  ] as const) {
    test(`at ${width}×${height} under the mcu limits each region's title is drawn whole`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await openGpt2OnMcuBySeqLen(page);
      await grown(page, 'seq_len');
      const titles = await titlesInside(page);
      expect(titles.map((t) => t.text.split(/[ ·≤]/)[0])).toEqual(['sram', 'ext-ram']);
      for (const t of titles) expect(t.right, t.text).toBeLessThanOrEqual(t.width);
      await snap(page, `growth-gpt2-mcu-titles-${width}x${height}`);
    });
  }

  test('by keyboard: Tab reaches the chart, the arrows choose a point shown as hovering shows it, Enter plans it and Shift+Enter compares with it', async ({ page }) => {
    await openWithGrowth(page, GPT2);
    await page.getByTestId('growth-axis').selectOption('seq_len');
    await grown(page, 'seq_len');
    await page.getByTestId('growth-to').focus();
    await page.keyboard.press('Tab');
    const plot = page.locator('.growth-plot');
    await expect(plot).toBeFocused();
    expect(await plot.evaluate((e) => getComputedStyle(e).outlineStyle)).toBe('solid');
    // The value on screen is 128: the first step right is the next planned value.
    await page.keyboard.press('ArrowRight');
    const card = page.getByTestId('growth-tooltip');
    await expect(card).toHaveAttribute('data-value', '256');
    await expect(card).toContainText('Enter: plan this value');
    await expect(page.getByTestId('growth-announce')).toContainText('seq_len = 256: peak');
    await expect(page.getByTestId('growth-chart').locator('circle.gr-ring')).toHaveCount(1);
    await snap(page, 'growth-gpt2-keyboard');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.dims['seq_len'] === 256);
    expect((await summary(page)).peak).toBe(cliPlan(GPT2, ['--dim', 'seq_len=256']).peak);
    await expect(plot).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(card).toHaveAttribute('data-value', '512');
    await page.keyboard.press('Shift+Enter');
    await expect(page.getByTestId('compare-dialog')).toBeVisible();
    await page.waitForFunction(() => window.heapscope?.summary().compare?.peakB != null);
    const after = await summary(page);
    expect(after.compare?.settings?.dims).toEqual({ seq_len: 512 });
    expect(after.compare?.peakB).toBe(cliPlan(GPT2, ['--dim', 'seq_len=512']).peak);
    expect(after.settings?.dims).toEqual({ seq_len: 256 });
  });

  test("at 1280×800 the card of the point the arrows choose never covers that point's dot, though the card is as tall as the plot", async ({ page }) => {
    const dim = await openGpt2GrowthAt1280x800(page);
    await page.getByTestId('growth-to').focus();
    await page.keyboard.press('Tab');
    await expect(page.locator('.growth-plot')).toBeFocused();
    const card = page.getByTestId('growth-tooltip');
    const seen: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('ArrowRight');
      await expect(card).not.toHaveAttribute('data-value', seen.at(-1) ?? '');
      const value = (await card.getAttribute('data-value'))!;
      seen.push(value);
      expect(await ringsCovered(page), `the card of ${dim}=${value} covers its dot`).toBe(0);
      // and it still says the point's figures
      await expect(card).toContainText(`= ${value}`);
      await expect(card).toContainText(/peak .* lower bound/);
    }
    expect(new Set(seen).size).toBe(8);
    await snap(page, 'growth-gpt2-keyboard-card-clear-1280x800');
  });

  test("at 1280×800 the card of the point under the mouse never covers that point's dot", async ({ page }) => {
    const dim = await openGpt2GrowthAt1280x800(page);
    const { points } = await grown(page, dim);
    const card = page.getByTestId('growth-tooltip');
    for (const { value } of points) {
      // the pointer on the dot's centre, as a person points at it (the diamond of the value on screen lies over its dot)
      const box = (await dot(page, value).boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await expect(card).toHaveAttribute('data-value', String(value));
      expect(await ringsCovered(page), `the card of ${dim}=${value} covers the dot under the mouse`).toBe(0);
      await expect(card).toContainText(/peak .* lower bound/);
      if (value === points.at(-1)!.value) await snap(page, 'growth-gpt2-mouse-card-clear-1280x800');
    }
  });

  test('the value on screen outside the typed range is labelled on the axis under its diamond', async ({ page }) => {
    await openWithGrowth(page, GPT2);
    await page.getByTestId('growth-axis').selectOption('seq_len');
    await grown(page, 'seq_len');
    await typeRange(page, 3, 40);
    await page.waitForFunction(() => window.heapscope?.summary().growth?.points.at(-1)?.value === 40 && window.heapscope.summary().growth?.status === 'done');
    const chart = page.getByTestId('growth-chart');
    const tick = chart.locator('text.gr-current-tick');
    await expect(tick).toHaveText('128');
    // Both read from one drawing: the chart is drawn whole again on each change, so two reads could straddle a redraw.
    const apart = await chart.evaluate((c) => {
      const middle = (e: Element | null): number => (e === null ? Number.NaN : e.getBoundingClientRect().x + e.getBoundingClientRect().width / 2);
      return Math.abs(middle(c.querySelector('text.gr-current-tick')) - middle(c.querySelector('path.gr-current-mark')));
    });
    expect(apart).toBeLessThanOrEqual(1);
    await expect(chart.locator('g.gr-axis text', { hasText: /^40$/ })).toHaveCount(1);
    await snap(page, 'growth-gpt2-range-3-40');
  });

  test('a range is planned once both ends are typed, and an invalid one shows no curve under its error', async ({ page }) => {
    await openWithGrowth(page, GPT2);
    await page.getByTestId('growth-axis').selectOption('seq_len');
    await grown(page, 'seq_len');
    await page.getByTestId('growth-from').fill('5');
    await page.getByTestId('growth-from').press('Tab');
    await expect(page.getByTestId('growth-to')).toBeFocused();
    // Two frames for React to render and run its effects.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const between = (await summary(page)).growth!;
    expect(between.status).toBe('done');
    expect(between.points[0]?.value).toBe(1);
    await page.getByTestId('growth-to').fill('3');
    await page.getByTestId('growth-to').press('Enter');
    await expect(page.getByTestId('growth-range-error')).toBeVisible();
    await expect(page.getByTestId('growth-chart')).toHaveCount(0);
    await expect(page.getByTestId('growth-verdict')).toHaveCount(0);
    // summary() says the curve is not the one on screen, and why
    await expect.poll(async () => (await summary(page)).growth?.rangeError).toBe(await page.getByTestId('growth-range-error').textContent());
    await snap(page, 'growth-gpt2-range-error');
    await page.getByTestId('growth-to').fill('40');
    await page.getByTestId('growth-to').press('Enter');
    await expect(page.getByTestId('growth-range-error')).toHaveCount(0);
    await expect.poll(async () => (await summary(page)).growth?.rangeError).toBeNull();
    await page.waitForFunction(() => window.heapscope?.summary().growth?.points[0]?.value === 5 && window.heapscope.summary().growth?.status === 'done');
    expect((await summary(page)).growth!.points.map((p) => p.value)).toEqual([5, 8, 16, 32, 40]);
  });
});

/** The Growth pane at 1280×720 on `name`, served as `as`, its curve over `dim` planned. */
async function openAt1280(page: Page, name: string, as: string, dim: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, `/e2e/${as}`, readModel(name));
  await page.goto(`/?model=/e2e/${as}`);
  await waitForModel(page, as);
  await waitForPlan(page);
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  await page.getByTestId('growth-axis').selectOption(dim);
  await grown(page, dim);
}

/** Boxes of the chart's axis labels: the bytes left of each plot and the values under them. */
async function axisLabelBoxes(page: Page): Promise<{ text: string; left: number; top: number; right: number; bottom: number }[]> {
  return page.getByTestId('growth-chart').locator('svg.growth-svg').evaluate((svg) =>
    [...svg.querySelectorAll('g.gr-panel > text.gr-muted, g.gr-axis > text')].map((t) => {
      const b = t.getBoundingClientRect();
      return { text: t.textContent ?? '', left: b.left, top: b.top, right: b.right, bottom: b.bottom };
    }),
  );
}

test.describe('growth view at 1280×720', () => {
  test('the byte axis of GPT-2 by seq_len is labelled in round steps of the unit shown, from 0 B, up to the highest dot', async ({ page }) => {
    await openAt1280(page, GPT2, GPT2, 'seq_len');
    const chart = page.getByTestId('growth-chart');
    const labels = await chart.locator('g.gr-panel > text.gr-muted').allTextContents();
    expect(labels[0]).toBe('0 B');
    expect(labels.length).toBeGreaterThanOrEqual(2);
    const read = labels.slice(1).map((l) => /^(\d+(?:\.\d+)?) (B|KiB|MiB|GiB)$/.exec(l));
    for (const [i, m] of read.entries()) expect(m, labels[i + 1]).not.toBeNull();
    expect(new Set(read.map((m) => m![2])).size, labels.join(', ')).toBe(1);
    // Each label a whole multiple of one step of 1, 2 or 5 × 10^k, the step between neighbours.
    const numbers = [0, ...read.map((m) => Number(m![1]))];
    const step = numbers[1]!;
    const mantissa = step / 10 ** Math.floor(Math.log10(step));
    expect([1, 2, 5].some((k) => Math.abs(mantissa - k) < 1e-9), labels.join(', ')).toBe(true);
    numbers.forEach((n, i) => expect(n, labels.join(', ')).toBeCloseTo(i * step, 6));
    // The top of the plot is above the highest dot.
    const [back, highest] = await Promise.all([
      chart.locator('rect.gr-back').first().evaluate((r) => r.getBoundingClientRect().top),
      chart.locator('circle.gr-dot').evaluateAll((dots) => Math.min(...dots.map((d) => d.getBoundingClientRect().top))),
    ]);
    expect(highest).toBeGreaterThanOrEqual(back - 4);
    await snap(page, 'growth-gpt2-byte-ticks-1280x720');
  });

  test('on tiny Llama the Vary select shows past_sequence_length whole, inside the pane', async ({ page }) => {
    test.skip(!haveModel(LLAMA), NO_MODELS);
    await openAt1280(page, LLAMA, 'tiny-llama.onnx', 'past_sequence_length');
    const select = page.getByTestId('growth-axis');
    await expect(select).toHaveValue('past_sequence_length');
    const box = await select.evaluate((s: HTMLSelectElement) => {
      // The same select with no width cap and only the chosen option: the width its name needs.
      const alone = s.cloneNode(false) as HTMLSelectElement;
      alone.append(new Option(s.selectedOptions[0]!.text));
      alone.style.setProperty('width', 'max-content');
      alone.style.setProperty('max-width', 'none');
      s.parentElement!.append(alone);
      const needs = alone.getBoundingClientRect().width;
      alone.remove();
      const pane = s.closest('[data-testid="growth-pane"]')!.getBoundingClientRect();
      const own = s.getBoundingClientRect();
      return { needs, width: own.width, left: own.left, right: own.right, paneLeft: pane.left, paneRight: pane.right };
    });
    expect(box.width).toBeGreaterThanOrEqual(box.needs - 0.5);
    expect(box.left).toBeGreaterThanOrEqual(box.paneLeft);
    expect(box.right).toBeLessThanOrEqual(box.paneRight);
    await snap(page, 'growth-llama-vary-1280x720');
  });

  for (const [name, as, dim] of [
    [LLAMA, 'tiny-llama.onnx', 'past_sequence_length'],
    [GPT2, GPT2, 'seq_len'],
  ] as const) {
    test(`on ${as} by ${dim} the hover card covers no axis label at any point`, async ({ page }) => {
      test.skip(!haveModel(name), NO_MODELS);
      await openAt1280(page, name, as, dim);
      const labels = await axisLabelBoxes(page);
      expect(labels.length).toBeGreaterThan(2);
      const card = page.getByTestId('growth-tooltip');
      const values = (await summary(page)).growth!.points.map((p) => p.value);
      for (const value of values) {
        const at = await dot(page, value).evaluate((d) => {
          const b = d.getBoundingClientRect();
          return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
        });
        await page.mouse.move(at.x, at.y);
        await expect(card).toHaveAttribute('data-value', String(value));
        const b = (await card.boundingBox())!;
        const covered = labels.filter((l) => Math.min(b.x + b.width, l.right) - Math.max(b.x, l.left) > 0 && Math.min(b.y + b.height, l.bottom) - Math.max(b.y, l.top) > 0);
        expect(covered.map((l) => l.text), `the card of ${dim}=${value}`).toEqual([]);
        if (value === values.at(-1)) await snap(page, `growth-${as.replace(/\.onnx$/, '')}-card-1280x720`);
      }
    });
  }
});
