// The graph view as a person uses it: the sample laid out with one box per
// node, clicking a node emphasizes its buffers in the heap, a buffer picked in
// the heap emphasizes its producer and consumers here, a step shows its node,
// search with next and previous, fit, the compute-unit functions of the phone
// target collapsing and expanding, and both colour schemes.

import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import { runCli } from '../cli/main';
import type {} from '../src/app/page-api';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { ARTIFACTS_DIR, dropFile, HEAP_ROW_HEIGHT, graphAction, haveModel, graphSettled, heapDrawn, hoverSomeBuffer, NO_MODELS, readModel, serveModel, showTensorTable, snap, startOnSmallModel, summary, test, waitForModel, waitForPlan } from './fixtures';

test.use({ viewport: { width: 1600, height: 1000 } });

/** Waits until the graph shows a finished layout; returns how many model nodes it draws. */
async function graphDrawn(page: Page): Promise<number> {
  await expect(page.getByTestId('graph-status')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^\d+$/);
  return page.locator('[data-testid="graph-svg"] .gnode').count();
}

async function openSample(page: Page, query = ''): Promise<void> {
  await page.goto(`/${query}`);
  await waitForPlan(page);
  await graphDrawn(page);
}

/** Saves a screenshot of the graph pane alone as e2e-artifacts/<name>.png. */
async function snapGraph(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.getByTestId('graph-pane').screenshot({ path: new URL(`${name}.png`, ARTIFACTS_DIR).pathname, animations: 'disabled' });
}

/** True when `inner` lies inside the graph view on screen. */
async function inView(page: Page, inner: Locator): Promise<boolean> {
  const view = await page.getByTestId('graph-view').boundingBox();
  const box = await inner.boundingBox();
  if (view === null || box === null) return false;
  return box.x >= view.x - 1 && box.y >= view.y - 1 && box.x + box.width <= view.x + view.width + 1 && box.y + box.height <= view.y + view.height + 1;
}

/** Whether `inner` shows at least in part in the graph view. */
async function meetsView(page: Page, inner: Locator): Promise<boolean> {
  const view = await page.getByTestId('graph-view').boundingBox();
  const box = await inner.boundingBox();
  if (view === null || box === null) return false;
  return box.x < view.x + view.width && box.y < view.y + view.height && box.x + box.width > view.x && box.y + box.height > view.y;
}

async function emphasizedNodes(page: Page): Promise<string[]> {
  return page.locator('.gnode[data-emphasized="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-node') ?? '').sort());
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByTestId('graph-search').fill(text);
}

test('the sample is laid out with one box per model node, edges labelled with shape and size', async ({ page }) => {
  await openSample(page);
  const s = await summary(page);
  expect(await graphDrawn(page)).toBe(s.nodes);
  const indices = await page.locator('.gnode').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-node-index'))).sort((a, b) => a - b));
  expect(indices).toEqual(Array.from({ length: s.nodes }, (_, i) => i));
  const labels = await page.locator('.g-edge-label').allTextContents();
  expect(labels.length).toBeGreaterThanOrEqual(s.nodes);
  expect(labels).toContain('1×3×160×160 · 300 KiB'); // the image input of the sample
  await expect(page.locator('.gnode.g-alias').first()).toBeAttached(); // the plan's removable/in-place ops
  await snap(page, 'graph-sample');
  await snapGraph(page, 'graph-sample-pane');
});

test('clicking a graph node selects it and emphasizes its buffers in the heap', async ({ page }) => {
  await openSample(page);
  await heapDrawn(page);
  await search(page, 'block2/depthwise');
  await page.getByTestId('graph-search').press('Enter');
  const node = page.locator('.gnode[data-node="block2/depthwise"]');
  await expect.poll(() => inView(page, node)).toBe(true);
  await node.click();
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'node');
  await expect(page.getByTestId('selection-details')).toContainText('block2/depthwise');
  await expect(node).toHaveAttribute('data-emphasized', 'true');
  await snapGraph(page, 'graph-node-selected');
  await snap(page, 'graph-node-selected-page');
  const owned = (await node.getAttribute('data-buffers'))!.split(',').filter(Boolean).map(Number);
  expect(owned.length).toBeGreaterThan(0);
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const body = page.locator('.heap-table-body');
  for (const i of [...owned, owned[0] === 0 ? 1 : 0]) {
    await body.evaluate((el, top) => (el.scrollTop = top), i * HEAP_ROW_HEIGHT);
    const row = page.locator(`[data-testid="heap-row"][aria-rowindex="${i + 2}"]`);
    await expect(row).toHaveAttribute('aria-selected', owned.includes(i) ? 'true' : 'false');
  }
  // The tensor table marks the node's output and scrolls it into view; an input of the node is not marked.
  await showTensorTable(page);
  const marked = page.locator('[data-testid="tensor-row"][aria-selected="true"]');
  await expect(marked.first()).toBeInViewport();
  const markedNames = await marked.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));
  const io = page.getByTestId('selection-details').getByTestId('node-io');
  const outputs = await io.locator('tr[data-role="out"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tensor')));
  const inputs = await io.locator('tr[data-role="in"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tensor')));
  expect(outputs.length).toBeGreaterThan(0);
  for (const name of outputs) expect(markedNames).toContain(name);
  for (const name of inputs) expect(markedNames).not.toContain(name);
});

test('a selected node lists its attributes and each input and output with dtype and shape, as Netron does', async ({ page }) => {
  await openSample(page);
  await search(page, 'stem/conv');
  await page.getByTestId('graph-search').press('Enter');
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'node');
  const attributes = details.getByTestId('node-attributes');
  await expect(attributes.locator('[data-attribute="kernel_shape"] td')).toHaveText('[3, 3]');
  await expect(attributes.locator('[data-attribute="strides"] td')).toHaveText('[2, 2]');
  await expect(attributes.locator('[data-attribute="pads"] td')).toHaveText('[1, 1, 1, 1]');
  await expect(attributes.locator('[data-attribute="group"] td')).toHaveText('1');
  const io = details.getByTestId('node-io');
  await expect(io.locator('[data-tensor="image"]')).toContainText('float32[1×3×160×160]');
  await expect(io.locator('[data-tensor="stem/conv/weight"]')).toContainText('float32[16×3×3×3]');
  const output = io.locator('[data-tensor="stem/conv_out"]');
  await expect(output).toContainText('out');
  await expect(output).toContainText('float32[1×16×80×80]');
  await snap(page, 'node-signature');
  // An output's name leads to its buffer.
  await output.getByRole('button').click();
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  await expect(details).toContainText('stem/conv_out');
});

test('a buffer picked in the heap emphasizes its producer and consumers and brings them into view', async ({ page }) => {
  await openSample(page);
  await heapDrawn(page);
  const at = await hoverSomeBuffer(page);
  const name = await page.locator('.heap-tooltip-name').innerText();
  await page.mouse.click(at.x, at.y);
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'buffer');
  const expected = await page.evaluate((tensor) => {
    const names = new Set<string>();
    for (const el of document.querySelectorAll<SVGGElement>('.gnode')) if ((el.dataset.outputs ?? '').split('\n').includes(tensor)) names.add(el.dataset.node!);
    for (const path of document.querySelectorAll<SVGPathElement>('path.g-edge')) {
      if (!(path.dataset.values ?? '').split('\n').includes(tensor)) continue;
      const target = document.querySelector<SVGGElement>(`.gnode[data-box="${path.dataset.to}"]`);
      if (target) names.add(target.dataset.node!);
    }
    return [...names].sort();
  }, name);
  expect(expected.length).toBeGreaterThan(0);
  await expect.poll(() => emphasizedNodes(page)).toEqual(expected);
  const producer = page.locator('.gnode[data-emphasized="true"]').first();
  await expect.poll(() => inView(page, producer)).toBe(true);
  await expect(page.locator('path.g-edge.g-emphasized').first()).toBeAttached();
  await snapGraph(page, 'graph-buffer-selected');
});

test('a step selected in the heap emphasizes the node executing there', async ({ page }) => {
  await openSample(page);
  await heapDrawn(page);
  const axis = page.getByTestId('heap-step-axis');
  const box = await axis.boundingBox();
  await axis.click({ position: { x: (box?.width ?? 100) / 2, y: (box?.height ?? 20) / 2 } });
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'step');
  const executing = await details.locator('.link-button').first().innerText();
  await expect.poll(() => emphasizedNodes(page)).toEqual([executing]);
  await expect.poll(() => inView(page, page.locator(`.gnode[data-node="${executing}"]`))).toBe(true);
});

test('search by op type, node or tensor name steps through the matches and centres each', async ({ page }) => {
  await openSample(page);
  const count = page.getByTestId('graph-search-count');
  await search(page, 'clip');
  const clips = await page.locator('.gnode').evaluateAll((els) => els.filter((e) => e.querySelector('.g-title')?.textContent === 'Clip').length);
  await expect(count).toHaveText(`–/${clips}`);
  const input = page.getByTestId('graph-search');
  await input.press('Enter');
  await expect(count).toHaveText(`1/${clips}`);
  await input.press('Enter');
  await expect(count).toHaveText(`2/${clips}`);
  const current = page.locator('.gbox.g-current');
  await expect(current).toHaveCount(1);
  await expect(current.locator('.g-title')).toHaveText('Clip');
  await expect.poll(() => inView(page, current)).toBe(true);
  await input.press('Shift+Enter');
  await expect(count).toHaveText(`1/${clips}`);
  await page.getByTestId('graph-search-prev').click();
  await expect(count).toHaveText(`${clips}/${clips}`);
  await expect.poll(() => inView(page, page.locator('.gbox.g-current'))).toBe(true);
  await snapGraph(page, 'graph-search');
  await page.getByTestId('graph-search-next').click();
  await expect(count).toHaveText(`1/${clips}`);
  await search(page, 'relu6_max'); // a tensor every Clip reads
  await expect(count).toHaveText(`–/${clips}`);
  await search(page, 'no such thing');
  await expect(count).toHaveText('0/0');
  await expect(page.getByRole('search').getByText('no match')).toHaveCount(1); // said to a screen reader
  await expect(page.getByTestId('graph-search-next')).toBeDisabled();
});

test('at 1280×720 a search with no match keeps the text typed readable beside its count', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openSample(page);
  const input = page.getByTestId('graph-search');
  await input.fill('zzznomatch');
  await expect(page.getByTestId('graph-search-count')).toHaveText('0/0');
  await expect(page.getByRole('search')).toHaveAttribute('data-none', 'true');
  // "no match" took 57 of the field's 85 px, leaving the text 26 px: "ch" of "zzznomatch". Eight characters show now.
  const room = await input.evaluate((e: HTMLInputElement) => {
    const style = getComputedStyle(e);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontSize} ${style.fontFamily}`;
    return { inner: e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight), eight: context.measureText('znomatch').width };
  });
  expect(room.inner).toBeGreaterThanOrEqual(room.eight);
  // A match brings the step buttons back.
  await input.fill('clip');
  await expect(page.getByTestId('graph-search-next')).toBeEnabled();
  await expect(page.getByTestId('graph-search-next')).toBeVisible();
  await input.fill('zzznomatch');
  await page.locator('.graph-toolbar').screenshot({ path: new URL('graph-find-no-match-1280.png', ARTIFACTS_DIR).pathname });
});

test('fit brings the whole graph into view after zooming in', async ({ page }) => {
  await openSample(page);
  const view = page.getByTestId('graph-view');
  await view.focus();
  for (let i = 0; i < 4; i += 1) await view.press('+');
  const nodes = page.locator('.gnode');
  // Counted in one pass in the page: a box at a time, a poll outlasted its timeout on a busy machine.
  const visible = (): Promise<number> =>
    page.evaluate(() => {
      const v = document.querySelector('[data-testid="graph-view"]')!.getBoundingClientRect();
      return [...document.querySelectorAll('.gnode')].filter((el) => {
        const b = el.getBoundingClientRect();
        return b.width > 0 && b.left >= v.left - 1 && b.top >= v.top - 1 && b.right <= v.right + 1 && b.bottom <= v.bottom + 1;
      }).length;
    });
  expect(await visible()).toBeLessThan(await nodes.count());
  await page.getByTestId('graph-fit').click();
  await expect.poll(visible).toBe(await nodes.count());
  await snapGraph(page, 'graph-fit');
});

test('clicking the minimap moves the view there', async ({ page }) => {
  await openSample(page);
  const output = page.locator('.g-io[data-box^="out:"]');
  expect(await inView(page, output)).toBe(false); // the sample opens on its top
  const map = (await page.getByTestId('graph-minimap').boundingBox())!;
  await page.mouse.click(map.x + map.width / 2, map.y + map.height - 2);
  await expect.poll(() => inView(page, output)).toBe(true);
  await snapGraph(page, 'graph-minimap-bottom');
});

test('a real model dropped on the page is drawn with one box per node', async ({ page }) => {
  const name = 'light_resnet50.onnx';
  test.skip(!haveModel(name), NO_MODELS);
  await startOnSmallModel(page);
  await dropFile(page, name, readModel(name));
  await waitForModel(page, name);
  const s = await summary(page);
  // ONNX's test models rebuild each weight with a ConstantOfShape: folded into its consumer until shown.
  expect(await graphDrawn(page)).toBeLessThan(s.nodes);
  await graphAction(page, 'graph-constants');
  await expect(page.locator('[data-testid="graph-svg"] .gnode')).toHaveCount(s.nodes, { timeout: 60_000 });
  await snapGraph(page, 'graph-resnet50');
});

test('the phone target groups compute-unit functions that collapse and expand', async ({ page }) => {
  await openSample(page, '?target=phone');
  await page.waitForFunction(() => window.heapscope?.summary().target === 'phone');
  const s = await summary(page);
  expect(await graphDrawn(page)).toBe(s.nodes);
  const functions = await page.locator('.g-group-function').count();
  expect(functions).toBeGreaterThan(1);
  await snapGraph(page, 'graph-phone-functions');
  const header = page.getByRole('button', { name: /^Collapse function / }).first();
  const label = (await header.getAttribute('aria-label'))!;
  const name = label.replace('Collapse function ', '');
  await header.click();
  const collapsed = page.locator(`.g-collapsed[data-cluster="fn:${name}"]`);
  await expect(collapsed).toBeVisible();
  const members = Number((await collapsed.locator('.g-sub').textContent())!.match(/(\d+) nodes?/)![1]);
  expect(members).toBeGreaterThan(0);
  expect(await graphDrawn(page)).toBe(s.nodes - members);
  await snapGraph(page, 'graph-phone-collapsed');
  await collapsed.focus();
  await collapsed.press('Enter');
  await expect(collapsed).toHaveCount(0);
  expect(await graphDrawn(page)).toBe(s.nodes);
  await graphAction(page, 'graph-collapse-all');
  await expect(page.locator('.g-collapsed')).toHaveCount(functions);
  await expect(page.locator('.gnode')).toHaveCount(0);
  await graphAction(page, 'graph-expand-all');
  await expect(page.locator('.g-collapsed')).toHaveCount(0);
  expect(await graphDrawn(page)).toBe(s.nodes);
});

test('the ⋯ menu is a menu to the keyboard: the arrows move between its items, Escape gives focus back to its button', async ({ page }) => {
  await openSample(page, '?target=phone');
  await page.waitForFunction(() => window.heapscope?.summary().target === 'phone');
  const more = page.getByTestId('graph-more');
  const menu = page.getByRole('menu', { name: 'More graph actions' });
  await expect(more).toHaveAttribute('aria-haspopup', 'menu');
  await more.focus();
  await more.press('Enter');
  await expect(menu).toBeVisible();
  // A 1600-pixel toolbar keeps previous, next and Fit out of the menu: the first item on screen takes focus.
  const collapse = menu.getByRole('menuitem', { name: 'Collapse all' });
  const expand = menu.getByRole('menuitem', { name: 'Expand all' });
  await expect(collapse).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(expand).toBeFocused();
  await page.keyboard.press('End');
  const last = menu.locator('[role^="menuitem"]:visible').last();
  await expect(last).toBeFocused();
  await page.keyboard.press('ArrowDown'); // wraps round
  await expect(collapse).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(last).toBeFocused();
  await page.keyboard.press('Home');
  await expect(collapse).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(more).toBeFocused();
  // ↓ on the button opens the menu too; Enter on an item runs it and focus goes back to the button.
  await page.keyboard.press('ArrowDown');
  await expect(collapse).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect(page.locator('.g-collapsed').first()).toBeVisible();
  await expect(more).toBeFocused();
});

test('the accelerator target draws every fusion unit as a group that collapses to one box', async ({ page }) => {
  await openSample(page, '?target=accelerator');
  await page.waitForFunction(() => window.heapscope?.summary().target === 'accelerator');
  const s = await summary(page);
  expect(s.fusionUnits).toBeGreaterThan(0);
  expect(await graphDrawn(page)).toBe(s.nodes);
  await expect(page.locator('.g-group-tfu, .g-group-dw-pw')).toHaveCount(s.fusionUnits);
  await snapGraph(page, 'graph-accelerator-fusion');
  // Collapse all closes the top-level groups: the name scopes, with the fusion units inside them.
  await graphAction(page, 'graph-collapse-all');
  await expect(page.locator('.g-collapsed').first()).toBeVisible();
  await expect(page.getByTestId('graph-status')).toHaveAttribute('data-status', 'ready');
  const hidden = await page.locator('.g-collapsed .g-sub').evaluateAll((els) => els.reduce((n, e) => n + Number(/(\d+) nodes?/.exec(e.textContent ?? '')![1]), 0));
  expect(hidden).toBeGreaterThan(0);
  expect(await graphDrawn(page)).toBeLessThan(s.nodes);
  await snapGraph(page, 'graph-accelerator-collapsed');
  // A fusion unit is found by its name inside its collapsed scope: the scope opens and the unit's frame is the current match.
  await search(page, 'tfu0');
  await page.getByTestId('graph-search').press('Enter');
  await expect(page.getByTestId('graph-search-count')).toHaveText(/^1\/\d+$/);
  const unit = page.locator('[data-box="fu:tfu0"]');
  await expect(unit).toHaveClass(/g-current/);
  await expect.poll(() => meetsView(page, unit)).toBe(true); // a frame may be taller than the view
});

test('a selected node says why it is or is not in a fusion unit, as the CLI does', async ({ page }) => {
  await openSample(page, '?target=phone');
  await page.waitForFunction(() => window.heapscope?.summary().target === 'phone');
  let out = '';
  expect(runCli(['plan', 'public/sample.onnx', '--target', 'phone', '--json'], { out: (t) => (out += t), err: () => undefined })).toBe(0);
  const { fusionExplanations, functions } = JSON.parse(out) as {
    fusionExplanations: { node: string; unit?: string; reason: string }[];
    functions: { name: string; unit: string; nodes: string[] }[];
  };
  const fused = fusionExplanations.find((e) => e.unit !== undefined)!;
  await search(page, fused.node);
  await page.getByTestId('graph-search').press('Enter');
  await page.locator(`.gnode[data-node="${fused.node}"]`).click();
  await expect(page.getByTestId('fusion-reason')).toHaveText(`in fusion unit ${fused.unit}: ${fused.reason}`);
  const fn = functions.find((f) => f.nodes.includes(fused.node))!;
  await expect(page.getByTestId('node-placement')).toContainText(`runs on ${fn.unit} in function ${fn.name}`);
  await snap(page, 'graph-fusion-reason');
});

/** x -> Relu -> If(cond) { then: Neg, Sigmoid; else: Abs } -> Softmax -> y */
function ifModel(): Uint8Array {
  const branch = (name: string, ops: readonly string[]): GraphBuilder => {
    const b = new GraphBuilder(name);
    let t = 'h';
    for (const op of ops) t = b.node(op, [t], {}, { name: `${name}/${op.toLowerCase()}` });
    b.output(t, 'float32', [1, 64]);
    return b;
  };
  const g = new GraphBuilder('branchy');
  const x = g.input('x', 'float32', [1, 64]);
  const cond = g.input('cond', 'bool', []);
  g.nodeOutputs('Relu', [x], ['h'], {}, { name: 'relu' });
  const [picked] = g.nodeOutputs('If', [cond], ['picked'], { then_branch: branch('then', ['Neg', 'Sigmoid']), else_branch: branch('else', ['Abs']) }, { name: 'choose' });
  g.output(g.node('Softmax', [picked!], { axis: 1 }, { name: 'softmax' }), 'float32', [1, 64]);
  return g.toBytes({ opset: 17 });
}

test('the bodies of an If open inside its box and close again', async ({ page }) => {
  await serveModel(page, '/e2e/branchy.onnx', ifModel());
  await page.goto('/?model=/e2e/branchy.onnx');
  await waitForModel(page, 'branchy.onnx');
  expect(await graphDrawn(page)).toBe(3);
  await page.getByRole('button', { name: 'Show the 2 bodies of If choose' }).click();
  await expect(page.locator('.g-group-body')).toHaveCount(2);
  await expect(page.locator('.g-group-body .g-group-name')).toHaveText(['then ', 'else ']);
  await expect(page.locator('.g-body-op')).toHaveCount(3);
  await expect(page.locator('.g-body-op .g-title')).toHaveText(['Neg', 'Sigmoid', 'Abs']);
  expect(await graphDrawn(page)).toBe(3); // the If still counts as one node of the model
  await snapGraph(page, 'graph-if-bodies');
  await page.getByRole('button', { name: 'Hide the bodies of If choose' }).press('Enter');
  await expect(page.locator('.g-group-body')).toHaveCount(0);
});

test('graph nodes are reached with Tab and the arrow keys, and selected with Enter', async ({ page }) => {
  await openSample(page);
  await page.getByTestId('graph-fit').focus();
  await page.keyboard.press('Tab'); // the skip link to the heap
  await expect(page.getByTestId('graph-skip')).toBeFocused();
  await page.keyboard.press('Tab'); // the graph's one tab stop: its topmost box, the header of the first group
  await expect(page.locator('[data-testid="graph-view"] :focus')).toHaveAttribute('aria-label', /^Collapse group /);
  // Down, to the graph input and along the edges to the first node.
  const focused = page.locator('.gnode:focus');
  for (let i = 0; i < 10 && (await focused.count()) === 0; i += 1) await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('data-node-index', '0');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'node');
  await expect(focused).toHaveAttribute('data-emphasized', 'true');
});

test('the dark colour scheme draws the graph on a dark background', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openSample(page, '?target=phone');
  await search(page, 'block2/depthwise');
  await page.getByTestId('graph-search').press('Enter');
  const node = page.locator('.gnode[data-node="block2/depthwise"]');
  await expect.poll(() => inView(page, node)).toBe(true);
  await node.click();
  await snap(page, 'graph-dark');
  await snapGraph(page, 'graph-dark-pane');
});

test('a small graph is drawn at once while the layout worker is still starting, then ELK\'s layout replaces it', async ({ page, context }) => {
  // ELK's engine (the layout worker's import) held back 8 s: a busy machine took 5 s to start the worker
  await context.route(/\/assets\/engine-[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 8000));
    await route.continue();
  });
  await startOnSmallModel(page, 'slow-layout.onnx');
  const svg = page.getByTestId('graph-svg');
  await expect(svg).toHaveAttribute('data-boxes', /^[1-9]\d*$/, { timeout: 3000 });
  await expect(svg).toHaveAttribute('data-final', 'false');
  await expect(svg).toHaveAttribute('data-final', 'true', { timeout: 60_000 });
});

test('edge labels never run into one another: GPT-2 with a past, laid out by ELK or the layered layout', async ({ page }) => {
  const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(GPT2), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await startOnSmallModel(page);
  await dropFile(page, GPT2, readModel(GPT2));
  await waitForModel(page, GPT2);
  const svg = page.getByTestId('graph-svg');
  await expect(svg).toHaveAttribute('data-final', 'true', { timeout: 60_000 });
  const boxes = await page.locator('.g-edge-label').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { text: el.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }),
  );
  expect(boxes.length).toBeGreaterThan(30);
  const overlapping: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      // a pixel of slack for the text's stroke
      if (a.right - 1 > b.left && b.right - 1 > a.left && a.bottom - 1 > b.top && b.bottom - 1 > a.top) overlapping.push(`${a.text} | ${b.text}`);
    }
  }
  expect(overlapping).toEqual([]);
  // a label left out for want of room is the hover title of its edge
  const leftOut = page.locator('.g-edge[data-label-left-out="true"]');
  for (const edge of await leftOut.all()) await expect(edge.locator('title')).toHaveText(/ · /);
});

test('on the phone target, the headers of compute-unit partitions around single nodes never run into one another', async ({ page }) => {
  test.skip(!haveModel('tiny-random-gpt2-fp32-past.onnx'), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, '/e2e/gpt2.onnx', readModel('tiny-random-gpt2-fp32-past.onnx'));
  await page.goto('/?target=phone&model=/e2e/gpt2.onnx');
  await waitForModel(page, 'gpt2.onnx');
  await waitForPlan(page);
  await graphSettled(page);
  const titles = page.locator('[data-testid="graph-svg"] .g-group-title');
  const boxes = await titles.evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', ...e.getBoundingClientRect().toJSON() }) as { text: string; left: number; right: number; top: number; bottom: number }));
  expect(boxes.filter((b) => /^▾ npu#\d+ /.test(b.text)).length).toBeGreaterThan(2);
  const clashes: string[] = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) clashes.push(`${a.text} | ${b.text}`);
  }));
  expect(clashes).toEqual([]);
  // a header cut to its frame keeps its whole text as its tooltip
  await expect(page.locator('[data-testid="graph-svg"] .g-group-title > title').first()).toHaveText(/^npu#\d+ on npu · 1 node$/);
});
