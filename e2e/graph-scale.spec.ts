// The graph view on real-shaped models (issue 12): constants folded into their
// consumers with a toggle to show them, name-scope groups that collapse and
// expand, positions kept across a strategy change, the graph fitted on load
// (a decoder's on the main column of its top, not on its attention mask),
// search that finds a fusion unit, Escape and the skip link, and
// summary().graph. Screenshots of the Llama-shaped decoder and the DenseNet at
// 1280×720 go to e2e-artifacts/.

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { densenetModel } from '../src/model/testing/densenet-model';
import { LLAMA_80, llamaModel } from '../src/model/testing/llama-model';
import { graphAction, haveModel, NO_MODELS, readModel, serveModel, snap, startOnSmallModel, summary, test, waitForModel, waitForPlan } from './fixtures';

test.use({ viewport: { width: 1280, height: 720 } });

/** Waits until summary().graph says the plan on screen is drawn (or drawn with the simple layout). */
async function graphReady(page: Page): Promise<{ status: string; boxes: number; ms: number | null }> {
  await page.waitForFunction(() => ['drawn', 'simple'].includes(window.heapscope?.summary().graph.status ?? ''), undefined, { timeout: 60_000 });
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  return (await summary(page)).graph;
}

async function open(page: Page, name: string, bytes: Uint8Array, query = ''): Promise<void> {
  await serveModel(page, `/e2e/${name}`, bytes);
  await page.goto(`/?model=/e2e/${name}${query}`);
  await waitForModel(page, name);
  await graphReady(page);
}

/** The position of every drawn model node, by box id. */
async function positions(page: Page): Promise<Record<string, string>> {
  return page.locator('[data-testid="graph-svg"] .gbox.gnode').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-box')!, e.getAttribute('transform')!])));
}

const SMALL_DENSENET = { blocks: [3, 3, 3, 3], growth: 8, image: 32, constantWeights: true } as const;

test('a constant-heavy model shows no constant boxes by default, and shows them with the toggle', async ({ page }) => {
  await open(page, 'densenet-consts.onnx', densenetModel(SMALL_DENSENET));
  const constantBoxes = page.locator('.gnode .g-title', { hasText: /^ConstantOfShape$/ });
  await expect(constantBoxes).toHaveCount(0);
  const folded = await page.locator('.g-consts').count();
  expect(folded).toBeGreaterThan(10);
  const before = (await summary(page)).graph.boxes;
  await graphAction(page, 'graph-constants');
  await expect(page.getByTestId('graph-constants')).toHaveAttribute('aria-checked', 'true');
  await expect(constantBoxes.first()).toBeVisible({ timeout: 30_000 });
  const shown = await graphReady(page);
  expect(shown.boxes).toBeGreaterThan(before);
  expect(await constantBoxes.count()).toBe((await summary(page)).nodes - (await page.locator('.gnode .g-title:not(:text-is("ConstantOfShape"))').count()));
  await graphAction(page, 'graph-constants');
  await expect(constantBoxes).toHaveCount(0);
});

test('a strategy change leaves every node where it was', async ({ page }) => {
  await page.goto('/?target=accelerator');
  await waitForPlan(page);
  await graphReady(page);
  const before = await positions(page);
  expect(Object.keys(before).length).toBeGreaterThan(10);
  const strategy = (await summary(page)).strategy;
  const other = strategy === 'naive' ? 'tflm' : 'naive';
  await page.getByTestId('strategy-select').selectOption(other);
  await waitForPlan(page, other);
  await graphReady(page);
  expect(await positions(page)).toEqual(before);
});

/** The screen rectangles of the drawn boxes. */
async function boxRects(page: Page): Promise<DOMRect[]> {
  return page.locator('[data-testid="graph-svg"] .gbox').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
}

/** Gives ELK the time a free machine would: on a busy one it overruns its 2 s budget and the layered preview is kept. */
async function giveElkTime(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const original = window.setTimeout;
    window.setTimeout = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) => original(handler, ms === 2000 ? 120_000 : ms, ...rest)) as typeof window.setTimeout;
  });
}

test('the graph is fitted on load: a small model whole, a tall one from the top at a readable scale, across its width when that fits', async ({ page }) => {
  await startOnSmallModel(page);
  await graphReady(page);
  let view = (await page.getByTestId('graph-view').boundingBox())!;
  const small = await boxRects(page);
  expect(small.length).toBeGreaterThan(2);
  for (const b of small) {
    expect(b.left >= view.x - 1 && b.right <= view.x + view.width + 1 && b.top >= view.y - 1 && b.bottom <= view.y + view.height + 1).toBe(true);
  }
  await page.goto('/');
  await waitForPlan(page);
  await graphReady(page);
  view = (await page.getByTestId('graph-view').boundingBox())!;
  const tall = await boxRects(page);
  // Its labels are readable (scale 0.6 at least), and it is shown across its whole width unless that takes a smaller scale.
  const scale = Number(await page.getByTestId('graph-svg').getAttribute('data-scale'));
  expect(scale).toBeGreaterThanOrEqual(0.599);
  const inside = tall.filter((b) => b.left >= view.x - 1 && b.right <= view.x + view.width + 1);
  if (scale > 0.601) expect(inside).toHaveLength(tall.length);
  else expect(inside.length).toBeGreaterThan(tall.length / 2);
  const top = Math.min(...tall.map((b) => b.top));
  expect(top).toBeGreaterThanOrEqual(view.y - 1);
  expect(top).toBeLessThan(view.y + 60);
  const s = await summary(page);
  expect(s.graph.status).toBe('drawn');
  expect(s.graph.boxes).toBeGreaterThan(10);
  expect(typeof s.graph.ms).toBe('number');
  await snap(page, 'graph-sample-start');
});

test('a decoder\'s first view shows the main column of its top whole, not its attention mask alone', async ({ page }) => {
  const name = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(name), NO_MODELS);
  // ELK places the attention mask (the first input) far left of the main column, beside the node far down
  // that reads it: centred on it, the first view held 1 box of 45. On a busy machine ELK overruns its
  // 2 s budget and the layered preview, whose mask sits by the column, is kept; the page is given the
  // time a free machine would give ELK, so the view is judged on ELK's placement.
  await giveElkTime(page);
  await open(page, name, readModel(name));
  expect((await summary(page)).graph.status).toBe('drawn');
  await expect(page.getByTestId('graph-status')).toHaveAttribute('data-engine', 'elk');
  const view = (await page.getByTestId('graph-svg').boundingBox())!;
  const rects = await boxRects(page);
  const whole = rects.filter((b) => b.left >= view.x - 1 && b.right <= view.x + view.width + 1 && b.top >= view.y - 1 && b.bottom <= view.y + view.height + 1);
  expect(whole.length).toBeGreaterThanOrEqual(4);
  const cut = rects.filter((b) => b.top < view.y + view.height && b.bottom > view.y && b.width < view.width && ((b.left < view.x && b.right > view.x) || (b.left < view.x + view.width && b.right > view.x + view.width)));
  // A zigzag column leaves no offset that cuts nothing but the lone mask: a box may be cut at an edge, never more than half as many as are whole.
  expect(cut.length).toBeLessThan(whole.length / 2);
  // Its top is wider than this 253 px pane at the readable 0.6: it opens smaller, at no less than 0.35, to show that top whole.
  expect(Number(await page.getByTestId('graph-svg').getAttribute('data-scale'))).toBeGreaterThanOrEqual(0.35);
  await expect(page.locator('.gbox.g-io', { hasText: 'input_ids' })).toBeInViewport();
  await snap(page, 'graph-gpt2-past-start');
});

for (const [width, height] of [[1600, 1000], [1280, 720], [1024, 640]] as const) {
  test(`at ${width}×${height} gpt2's first view cuts no box of its first screen at the pane's left edge, its past KV cache whole`, async ({ page }) => {
    const name = 'tiny-random-gpt2-fp32-past.onnx';
    test.skip(!haveModel(name), NO_MODELS);
    // At the readable scale the graph is wider than the pane; centred on its token ids, the first view cut
    // the attention mask and the "past KV cache · layer 0" box beside the column at the pane's left edge.
    await page.setViewportSize({ width, height });
    await giveElkTime(page);
    await open(page, name, readModel(name));
    await expect(page.getByTestId('graph-status')).toHaveAttribute('data-engine', 'elk');
    const view = (await page.getByTestId('graph-svg').boundingBox())!;
    const rects = await boxRects(page);
    const graphLeft = Math.min(...rects.map((b) => b.left));
    expect(graphLeft, 'the graph is wider than the pane at this scale').toBeLessThan(view.x);
    const firstScreen = rects.filter((b) => b.top < view.y + view.height && b.bottom > view.y && b.width < view.width);
    expect(firstScreen.length).toBeGreaterThanOrEqual(4);
    const cutAtLeft = firstScreen.filter((b) => b.left < view.x - 1 && b.right > view.x + 1);
    expect(cutAtLeft).toEqual([]);
    const kv = (await page.locator('[data-testid="graph-svg"] .gbox[data-box="kv-in:#0"]').boundingBox())!;
    expect(kv.x).toBeGreaterThanOrEqual(view.x - 1);
    expect(kv.x + kv.width).toBeLessThanOrEqual(view.x + view.width + 1);
    await snap(page, `graph-gpt2-past-start-${width}`);
  });
}

for (const [width, height, query] of [[1280, 800, '&panes=graph,heap,growth,explain'], [1024, 640, '&panes=graph,heap,growth,explain']] as const) {
  test(`at ${width}×${height} with Growth open, gpt2's first view in the narrow graph pane cuts no box at the pane's left edge`, async ({ page }) => {
    const name = 'tiny-random-gpt2-fp32-past.onnx';
    test.skip(!haveModel(name), NO_MODELS);
    // Beside Growth the graph pane is too narrow for gpt2's top even at 0.35: the first view kept the offset
    // with the most inputs whole, and the "past KV cache · layer 0" box was cut at the pane's left edge.
    await page.setViewportSize({ width, height });
    await giveElkTime(page);
    await open(page, name, readModel(name), query);
    await expect(page.getByTestId('graph-status')).toHaveAttribute('data-engine', 'elk');
    await expect(page.getByTestId('growth-pane')).toBeVisible();
    const view = (await page.getByTestId('graph-svg').boundingBox())!;
    expect(view.width, 'the graph pane is narrow here').toBeLessThan(260);
    const rects = await boxRects(page);
    const firstScreen = rects.filter((b) => b.top < view.y + view.height && b.bottom > view.y && b.width < view.width);
    expect(firstScreen.length).toBeGreaterThanOrEqual(2);
    const cutAtLeft = firstScreen.filter((b) => b.left < view.x - 1 && b.right > view.x + 1);
    await snap(page, `graph-gpt2-past-start-growth-${width}`);
    expect(cutAtLeft).toEqual([]);
    const kv = page.locator('[data-testid="graph-svg"] .gbox[data-box="kv-in:#0"]');
    const box = (await kv.boundingBox())!;
    if (box.x + box.width > view.x && box.x < view.x + view.width) expect(box.x, 'the past KV cache starts inside the pane').toBeGreaterThanOrEqual(view.x - 1);
  });
}

for (const [width, height] of [[1600, 1000], [1280, 720]] as const) {
  test(`at ${width}×${height} tiny-llama opens showing its boxes, not its token ids alone over an empty pane`, async ({ page }) => {
    const name = 'tiny-llama-fp16/model.onnx';
    test.skip(!haveModel(name), NO_MODELS);
    // ELK lays the token ids out alone at the top, read only by the mask's subgraph far down: a first view
    // on the top at a readable scale showed that one box and its edge down an otherwise empty pane.
    await page.setViewportSize({ width, height });
    await open(page, 'model.onnx', readModel(name));
    const view = (await page.getByTestId('graph-svg').boundingBox())!;
    const rects = await boxRects(page);
    const whole = rects.filter((b) => b.left >= view.x - 1 && b.right <= view.x + view.width + 1 && b.top >= view.y - 1 && b.bottom <= view.y + view.height + 1);
    expect(rects.length).toBeGreaterThan(90);
    // Its fit is one its boxes can be told apart at (Fit's view): the graph is on screen (ELK's layout or, on a
    // busy machine, the layered one, whose last box may touch the pane's bottom edge).
    expect(whole.length).toBeGreaterThanOrEqual(0.9 * rects.length);
    expect(Math.min(...rects.map((b) => b.height))).toBeGreaterThanOrEqual(2);
    await snap(page, `graph-llama-start-${width}`);
  });
}

test('name-scope groups collapse and expand', async ({ page }) => {
  await open(page, 'llama-4.onnx', llamaModel({ ...LLAMA_80, layers: 4 }));
  const nodes = await page.locator('.gnode').count();
  const header = page.getByRole('button', { name: 'Collapse group layers.1' });
  await header.focus();
  await header.press('Enter');
  const collapsed = page.locator('.g-collapsed[data-cluster="sc:/model/layers.1"]');
  await expect(collapsed).toBeVisible();
  await graphReady(page);
  const members = Number((await collapsed.locator('.g-sub').textContent())!.match(/(\d+) nodes?/)![1]);
  expect(members).toBeGreaterThan(20);
  await expect(page.locator('.gnode')).toHaveCount(nodes - members);
  await collapsed.focus();
  await collapsed.press('Enter');
  await expect(collapsed).toHaveCount(0);
  await expect(page.locator('.gnode')).toHaveCount(nodes);
});

test('search finds a fusion unit by its name', async ({ page }) => {
  await page.goto('/?target=accelerator');
  await waitForPlan(page);
  await graphReady(page);
  expect((await summary(page)).fusionUnits).toBeGreaterThan(0);
  const unit = (await page.locator('.g-group-tfu, .g-group-dw-pw').first().getAttribute('data-box'))!;
  await page.getByTestId('graph-search').fill(unit.replace(/^fu:/, ''));
  await page.getByTestId('graph-search').press('Enter');
  await expect(page.locator(`[data-box="${unit}"]`)).toHaveClass(/g-current/);
  await expect(page.getByTestId('graph-search-count')).toHaveText(/^1\/\d+$/);
});

test('Escape clears the selection and the skip link jumps from the graph to the heap', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page);
  await graphReady(page);
  await page.locator('.gnode').nth(1).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.gnode.g-emphasized').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('.gnode.g-emphasized')).toHaveCount(0);
  await page.getByTestId('graph-fit').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('graph-skip')).toBeFocused();
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="heap-pane"]') !== null)).toBe(true);
});

test('an 80-layer decoder opens as a few dozen groups; ONNX-style DenseNet-121 is drawn', async ({ page }) => {
  test.setTimeout(180_000);
  await open(page, 'llama-80.onnx', llamaModel());
  const llama = await summary(page);
  expect(llama.graph.status).toBe('drawn');
  expect(llama.graph.boxes).toBeLessThanOrEqual(40);
  await expect(page.locator('.g-collapsed').first()).toBeVisible();
  // At 1280×720 its top (the mask and rotary groups either side of the column) is wider than the pane at 0.6:
  // it opens smaller, every box of the first screen whole, the heavy groups (the runs of layers) marked.
  expect(Number(await page.getByTestId('graph-svg').getAttribute('data-scale'))).toBeGreaterThanOrEqual(0.35);
  const view = (await page.getByTestId('graph-svg').boundingBox())!;
  const firstScreen = (await boxRects(page)).filter((b) => b.top < view.y + view.height && b.bottom > view.y);
  expect(firstScreen.filter((b) => b.bottom <= view.y + view.height + 1 && (b.left < view.x - 1 || b.right > view.x + view.width + 1))).toEqual([]);
  expect(await page.locator('.g-collapsed.g-heavy').count()).toBeGreaterThanOrEqual(LLAMA_80.layers / 10 - 1);
  await snap(page, 'graph-llama-80');
  await open(page, 'densenet-121.onnx', densenetModel());
  const densenet = await summary(page);
  expect(densenet.graph.status).toBe('drawn');
  await expect(page.locator('.gnode .g-title', { hasText: /^ConstantOfShape$/ })).toHaveCount(0);
  await snap(page, 'graph-densenet-121');
});

test('a selected node lists the weights and constants folded into it', async ({ page }) => {
  await open(page, 'densenet-consts.onnx', densenetModel(SMALL_DENSENET));
  await page.locator('.gnode', { has: page.locator('.g-consts') }).filter({ has: page.locator('.g-title', { hasText: /^Conv$/ }) }).first().click();
  const listed = page.getByTestId('node-constants');
  await expect(listed).toBeVisible();
  await expect(listed).toContainText('1 weight and constants');
  await expect(listed.locator('li')).toHaveCount(1);
  await expect(listed.locator('li')).toContainText('from ConstantOfShape');
});

test('an expanded 80-layer decoder draws only what is around the view, and search brings its last layer into view', async ({ page }) => {
  test.setTimeout(180_000);
  await open(page, 'llama-80.onnx', llamaModel());
  await graphAction(page, 'graph-expand-all');
  const all = await graphReady(page);
  expect(all.boxes).toBeGreaterThan(5000);
  const drawn = await page.locator('[data-testid="graph-svg"] [data-box]').count();
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThan(all.boxes / 4);
  await page.getByTestId('graph-search').fill('/model/layers.79/self_attn/o_proj/MatMul');
  await page.getByTestId('graph-search').press('Enter');
  const last = page.locator('.gbox[data-node="/model/layers.79/self_attn/o_proj/MatMul"]');
  await expect(last).toHaveClass(/g-current/);
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  await expect(last).toBeInViewport();
  await snap(page, 'graph-llama-80-expanded');
});
