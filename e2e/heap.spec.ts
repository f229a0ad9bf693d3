// The heap diagram as a person uses it: the plan of the opened model drawn as
// one rectangle per buffer, hover for facts, click to select, the step axis and
// arrow keys to walk through time, the table view, and re-planning with
// another strategy or target.

import { expect } from '@playwright/test';
import type {} from '../src/app/page-api';
import { NO_MODELS, batchModel, dropFile, haveModel, heapDrawn, hoverSomeBuffer, readModel, serveModel, snap, startOnSmallModel, summary, waitForModel, waitForPlan, test } from './fixtures';

const RESNET = 'light_resnet50.onnx';
const ULTRAFACE = 'ultraface_RFB-320.onnx';

test('the sample is planned and drawn: one rectangle per buffer, bound and peak shown', async ({ page }) => {
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await waitForPlan(page);
  const s = await summary(page);
  expect(s.strategy).toBe('best');
  expect(s.buffers).toBeGreaterThan(10);
  expect(s.lowerBound).toBeLessThanOrEqual(s.peak!);
  expect(await heapDrawn(page)).toBe(s.buffers);
  await expect(page.getByTestId('heap-peak')).toHaveAttribute('data-peak', String(s.peak));
  const region = page.getByTestId('region-row').first();
  await expect(region).toHaveAttribute('data-peak', String(s.peak));
  await expect(region).toHaveAttribute('data-lower-bound', String(s.lowerBound));
  await snap(page, 'heap-sample');
});

test('hovering a buffer shows its facts; clicking selects it', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page);
  await heapDrawn(page);
  const at = await hoverSomeBuffer(page);
  const tooltip = page.getByTestId('heap-tooltip');
  await expect(tooltip).toContainText('Lifetime');
  await expect(tooltip).toContainText('Offset');
  await expect(tooltip.getByTestId('tooltip-bytes')).toContainText(/\d/);
  const name = await tooltip.locator('.heap-tooltip-name').innerText();
  await snap(page, 'heap-tooltip');
  await page.mouse.click(at.x, at.y);
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  await expect(details).toContainText(name);
  await page.mouse.move(at.x, at.y + 1);
  await snap(page, 'heap-buffer-selected');
  await page.mouse.move(5, 5);
  await expect(tooltip).toHaveCount(0);
});

test('the step axis and the arrow keys select a step and list every live buffer', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page);
  await heapDrawn(page);
  const axis = page.getByTestId('heap-step-axis');
  const box = await axis.boundingBox();
  await axis.click({ position: { x: 2, y: (box?.height ?? 20) / 2 } });
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'step');
  await expect(details).toContainText('Step 0');
  await page.getByTestId('heap-view').press('ArrowRight');
  await expect(details).toContainText('Step 1');
  await expect(details.getByTestId('live-count')).toContainText(/^[1-9]\d* buffers live/);
  await page.getByTestId('peak-step').click();
  const peakStep = await page.getByTestId('peak-step').innerText();
  await expect(details).toContainText(peakStep.replace('step', 'Step'));
  await snap(page, 'heap-step-selected');
});

test('the keys walk time from a selected buffer\'s first step; Home and End go to the ends; ↑ and ↓ move between the buffers live at the step', async ({ page }) => {
  await page.goto('/?target=mcu&select=buffer:4');
  await waitForPlan(page);
  await heapDrawn(page);
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  const lifetime = () => details.innerText().then((text) => /steps \[(\d+), (\d+)\)/.exec(text)!.slice(1).map(Number) as [number, number]);
  const [start] = await lifetime();
  expect(start).toBeGreaterThan(1); // so that step 0 (where → went) is not the step after it
  const view = page.getByTestId('heap-view');
  await view.focus();
  await page.keyboard.press('ArrowRight');
  await expect(details).toHaveAttribute('data-kind', 'step');
  await expect(details).toContainText(`Step ${start + 1}:`);
  await page.goto(`/?target=mcu&select=buffer:4`);
  await waitForPlan(page);
  await view.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(details).toContainText(`Step ${start - 1}:`);
  await page.keyboard.press('End');
  const steps = Number((await page.getByTestId('heap-canvas').getAttribute('data-steps'))!.split('-')[1]);
  await expect(details).toContainText(`Step ${steps - 1}:`);
  await page.keyboard.press('Home');
  await expect(details).toContainText('Step 0:');
  await page.keyboard.press('ArrowRight');
  await expect(details).toContainText('Step 1:');
  // ↓ picks the topmost buffer live at step 1, the next ↓ the one drawn below it, ↑ back up.
  await page.keyboard.press('ArrowDown');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  const name = details.locator('strong').first();
  const top = await name.innerText();
  const [from, to] = await lifetime();
  expect(from <= 1 && 1 < to).toBe(true);
  await page.keyboard.press('ArrowDown');
  await expect(name).not.toHaveText(top);
  const [from2, to2] = await lifetime();
  expect(from2 <= 1 && 1 < to2).toBe(true);
  await page.keyboard.press('ArrowUp');
  await expect(name).toHaveText(top);
  // Time walks on from the step the buffer was reached at.
  await page.keyboard.press('ArrowRight');
  await expect(details).toContainText('Step 2:');
});

test('a screen reader hears where the arrow keys went in the heap: the step with its node and live bytes, then the buffer with its size and lifetime', async ({ page }) => {
  await page.goto('/?target=mcu');
  await waitForPlan(page);
  await heapDrawn(page);
  const said = page.getByTestId('heap-said');
  await expect(said).toHaveAttribute('aria-live', 'polite');
  const details = page.getByTestId('selection-details');
  await page.getByTestId('heap-view').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(details).toContainText('Step 1:');
  // The same node and count of live buffers Details shows for the step.
  const step = (await details.locator('p').first().innerText()).replace(/^Step 1: /, '');
  const live = (await page.getByTestId('live-count').innerText()).trim();
  await expect(said).toHaveText(`step 1, ${step}, ${live}`);
  await page.keyboard.press('ArrowDown');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  const name = await details.locator('strong').first().innerText();
  const [from, to] = /steps \[(\d+), (\d+)\)/.exec(await details.innerText())!.slice(1).map(Number) as [number, number];
  await expect(said).toContainText(name);
  await expect(said).toContainText(to - 1 === from ? `live at step ${from} only` : `live from step ${from} through step ${to - 1}`);
});

test('↑ and ↓ keep the step marked while they move between the buffers live at it', async ({ page }) => {
  await page.goto('/?target=mcu');
  await waitForPlan(page);
  await heapDrawn(page);
  const canvas = page.getByTestId('heap-canvas');
  const details = page.getByTestId('selection-details');
  await page.getByTestId('heap-view').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(details).toContainText('Step 2:');
  await expect(canvas).toHaveAttribute('data-step', '2');
  await page.keyboard.press('ArrowDown');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  await expect(canvas).toHaveAttribute('data-step', '2');
  const name = details.locator('strong').first();
  const top = await name.innerText();
  await page.keyboard.press('ArrowDown');
  await expect(name).not.toHaveText(top);
  await expect(canvas).toHaveAttribute('data-step', '2');
  await snap(page, 'heap-step-kept-on-buffer');
  // ← walks on from the marked step, and ↓ enters the buffers live at the new one.
  await page.keyboard.press('ArrowLeft');
  await expect(details).toContainText('Step 1:');
  await expect(canvas).toHaveAttribute('data-step', '1');
  await page.keyboard.press('ArrowDown');
  await expect(canvas).toHaveAttribute('data-step', '1');
  await page.keyboard.press('Escape');
  await expect(canvas).not.toHaveAttribute('data-step', /./);
});

test('the table view lists every buffer of the plan', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page);
  const s = await summary(page);
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const table = page.getByRole('table', { name: 'Buffers of the plan' });
  await expect(table).toHaveAttribute('aria-rowcount', String(s.buffers + 1));
  await expect(table.getByTestId('heap-row').first()).toBeVisible();
  await table.getByTestId('heap-row').first().click();
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'buffer');
  await snap(page, 'heap-table');
});

test('a plan of no bytes draws no lane but says why, in the heap and its chart, and a region left empty is named under the lanes', async ({ page }) => {
  await serveModel(page, '/e2e/empty.onnx', batchModel());
  await page.goto('/?model=/e2e/empty.onnx&target=mcu&dim.batch=0');
  await waitForModel(page, 'empty.onnx');
  await waitForPlan(page);
  expect((await summary(page)).peak).toBe(0);
  const pane = page.getByTestId('heap-pane');
  const nothing = 'sram and ext-ram hold nothing: no buffer to draw';
  await expect(pane.getByTestId('heap-empty-regions')).toHaveText(nothing);
  await expect(pane.getByTestId('peak-chart-empty-regions')).toHaveText(nothing);
  // no lane, so no address axis from 0 B to a made-up 1 B, and no legend of lines drawn nowhere
  await expect(pane.getByTestId('heap-canvas')).toHaveCount(0);
  await expect(pane.getByText('1 B', { exact: true })).toHaveCount(0);
  await expect(pane.getByRole('list', { name: 'Legend' })).toHaveCount(0);
  await expect(page.getByTestId('heap-peak')).toHaveAttribute('data-peak', '0');
  await snap(page, 'heap-no-bytes');
  // Details names no step as the peak's, where nothing is live: no buffer holds a byte; the table lists the buffers and selects one
  await expect(page.getByTestId('peak-empty')).toHaveText(/^No buffer holds a byte \(all \d+ buffers are 0 B\), so there is no peak step to explain\.$/);
  await expect(page.getByTestId('peak-step')).toHaveCount(0);
  const details = page.getByTestId('selection-details');
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const table = page.getByRole('table', { name: 'Buffers of the plan' });
  await expect(table).toHaveAttribute('aria-rowcount', '4');
  await table.getByTestId('heap-row').nth(1).click();
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Diagram' }).click();
  await expect(pane.getByTestId('heap-empty-regions')).toHaveText(nothing);

  // 4 × 4 floats all fit sram: ext-ram has no lane nor chart, and says so
  await page.goto('/?model=/e2e/empty.onnx&target=mcu&dim.batch=4');
  await waitForModel(page, 'empty.onnx');
  await waitForPlan(page);
  await expect(pane.getByTestId('heap-canvas')).toHaveAttribute('data-lanes', '1');
  await expect(pane.getByTestId('heap-empty-regions')).toHaveText('ext-ram holds nothing, so it has no lane');
  await expect(pane.getByTestId('peak-chart-empty-regions')).toHaveText('ext-ram holds nothing, so it has no chart');
  await snap(page, 'heap-empty-region');
});

test('changing the strategy re-plans in the worker and changes the peak shown', async ({ page }) => {
  await startOnSmallModel(page);
  await page.goto('/');
  await waitForPlan(page, 'best');
  const best = await summary(page);
  await page.getByTestId('strategy-select').selectOption('naive');
  await waitForPlan(page, 'naive');
  const naive = await summary(page);
  expect(naive.model).toBe('sample.onnx');
  expect(naive.peak).toBeGreaterThan(best.peak!);
  expect(naive.lowerBound).toBe(best.lowerBound);
  await expect(page.getByTestId('heap-peak')).toHaveAttribute('data-peak', String(naive.peak));
  expect(await heapDrawn(page)).toBe(naive.buffers);
  await snap(page, 'heap-naive');
});

test('a real model dropped on the page is planned and drawn; the mcu target adds a lane per region', async ({ page }) => {
  test.skip(!haveModel(RESNET), NO_MODELS);
  await startOnSmallModel(page);
  await dropFile(page, RESNET, readModel(RESNET));
  await waitForModel(page, RESNET);
  await waitForPlan(page);
  const s = await summary(page);
  expect(await heapDrawn(page)).toBe(s.buffers);
  await snap(page, 'heap-resnet50');
  await page.getByTestId('target-select').selectOption('mcu');
  await page.waitForFunction(() => window.heapscope?.summary().target === 'mcu' && document.body.dataset.status === 'ready');
  const mcu = await summary(page);
  expect(await page.getByTestId('region-row').count()).toBe(2);
  // A pane too short for two readable lanes shows one region at a time: ask for all of them.
  await page.getByTestId('heap-region').selectOption('all');
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-lanes', '2');
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', String(mcu.buffers));
  await snap(page, 'heap-resnet50-mcu');
});

test('the dark colour scheme draws the heap on a dark background', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await waitForPlan(page);
  await heapDrawn(page);
  await snap(page, 'heap-dark');
});

test('at 1280×720 the lane title reads whole inside the diagram and the "0 B" tick label is not clipped', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await waitForPlan(page);
  await heapDrawn(page);
  const view = page.getByTestId('heap-view');
  const label = view.locator('text.heap-lane-label').first();
  await expect(label).toContainText(/^ram · peak \S+ \S+ · (lower )?bound \S+ \S+$/);
  const facts = await view.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const title = el.querySelector('text.heap-lane-label')!.getBoundingClientRect();
    const svg = el.querySelector('svg.heap-overlay')!.getBoundingClientRect();
    const clip = el.querySelector('svg.heap-overlay clipPath rect')!;
    const clipTop = svg.top + Number(clip.getAttribute('y'));
    const clipBottom = clipTop + Number(clip.getAttribute('height'));
    const zero = [...el.querySelectorAll('svg.heap-overlay .tick text')].find((t) => t.textContent === '0 B')!.getBoundingClientRect();
    return { left: box.left, right: box.right, titleLeft: title.left, titleRight: title.right, clipTop, clipBottom, zeroTop: zero.top, zeroBottom: zero.bottom };
  });
  expect(facts.titleLeft).toBeGreaterThanOrEqual(facts.left);
  expect(facts.titleRight).toBeLessThanOrEqual(facts.right);
  // The lowest lane's 0 B sits on the plot's bottom edge: its label, above and below it, lies inside the clip.
  expect(facts.zeroTop).toBeGreaterThanOrEqual(facts.clipTop);
  expect(facts.zeroBottom).toBeLessThanOrEqual(facts.clipBottom + 0.5);
  await snap(page, 'heap-lane-title-1280x720');
});

test('the wheel zooms the heap about the pointer: the buffer under it stays under it, and its card goes until the pointer moves', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('/?target=mcu');
  await waitForPlan(page);
  const tooltip = page.getByTestId('heap-tooltip');
  const at = await hoverSomeBuffer(page);
  const name = (await tooltip.locator('.heap-tooltip-name').textContent())!;
  for (let tick = 0; tick < 3; tick += 1) await page.mouse.wheel(0, -120);
  await expect(tooltip).toHaveCount(0);
  // a pixel away and back: the pointer is over the same buffer, zoomed about it
  await page.mouse.move(at.x + 1, at.y);
  await page.mouse.move(at.x, at.y);
  await expect(tooltip.locator('.heap-tooltip-name')).toHaveText(name);
});

test('a zoomed heap follows a selection made out of its sight: a tensor-table row, and End', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('/?select=buffer:9');
  await waitForPlan(page);
  const heap = page.getByTestId('heap-canvas');
  await page.getByTestId('heap-view').focus();
  await page.keyboard.press('z');
  await expect(heap).not.toHaveAttribute('data-steps', '0-52');
  const steps = async (): Promise<[number, number]> => (await heap.getAttribute('data-steps'))!.split('-').map(Number) as [number, number];
  const [from, to] = await steps();
  expect(to).toBeLessThan(20);
  // the table picks the model's output, live at the last steps, out of the zoomed view's sight
  await page.getByTestId('tensor-table').locator('input[type="search"]').fill('probabilities');
  await page.getByTestId('tensor-row').first().click();
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'buffer');
  await expect.poll(steps).not.toEqual([from, to]);
  const [start, end] = (/steps \[\s*(\d+),\s*(\d+)\)/.exec((await page.getByTestId('selection-details').textContent())!)!).slice(1).map(Number);
  const [shownFrom, shownTo] = await steps();
  expect(shownFrom).toBeLessThanOrEqual(start!);
  expect(shownTo).toBeGreaterThanOrEqual(end!);
  // zoomed to the first buffer again, End selects the last step: the view goes there
  await page.goto('/?select=buffer:9');
  await waitForPlan(page);
  await page.getByTestId('heap-view').focus();
  await page.keyboard.press('z');
  await expect(heap).not.toHaveAttribute('data-steps', '0-52');
  await page.keyboard.press('End');
  await expect.poll(async () => (await steps())[1]).toBeGreaterThanOrEqual(52);
});

for (const size of [{ width: 1920, height: 1080 }, { width: 1024, height: 640 }]) {
  test(`ultraface on mcu at ${size.width}×${size.height}: the sram limit's label covers no buffer and the curves' key covers no curve`, async ({ page }) => {
    test.skip(!haveModel(ULTRAFACE), NO_MODELS);
    await page.setViewportSize(size);
    await serveModel(page, '/e2e/ultraface.onnx', readModel(ULTRAFACE));
    await page.goto('/?model=/e2e/ultraface.onnx&target=mcu');
    await waitForModel(page, 'ultraface.onnx');
    await page.waitForFunction(() => window.heapscope?.summary().target === 'mcu' && document.body.dataset.status === 'ready');
    await heapDrawn(page);
    await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-lanes', '2');
    // The limit labels, where they show on the page.
    const labels = await page.getByTestId('heap-lane-limit').evaluateAll((els) =>
      els.filter((e) => (e.textContent ?? '') !== '').map((e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent!, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      }),
    );
    expect(labels.map((l) => l.text)).toEqual([expect.stringMatching(/^limit 512 KiB/), expect.stringMatching(/limit 8\.00 MiB/)]);
    // No buffer under any part of a label: the heap's hit test finds none there, so no buffer's card opens
    // (ultraface's sram lane had "scores" and others under "limit 512 KiB" at the lane's top right).
    const tooltip = page.getByTestId('heap-tooltip');
    for (const label of labels) {
      for (const fy of [0.2, 0.5, 0.8]) {
        for (let k = 0; k <= 6; k += 1) {
          await page.mouse.move(1, 1);
          await expect(tooltip).toBeHidden();
          const x = label.left + 1 + ((label.right - label.left - 2) * k) / 6;
          const y = label.top + (label.bottom - label.top) * fy;
          await page.mouse.move(x, y);
          await expect(tooltip, `a buffer under "${label.text}" at ${x.toFixed(0)},${y.toFixed(0)}`).toBeHidden();
        }
      }
    }
    // Nor is anything of a buffer (its fill or its name) painted on the canvas under a label.
    const painted = await page.getByTestId('heap-canvas').evaluate((el, boxes) => {
      const canvas = el as HTMLCanvasElement;
      const r = canvas.getBoundingClientRect();
      const scale = canvas.width / r.width;
      return boxes.map((b) => {
        const [x, y] = [Math.floor((b.left - r.left) * scale), Math.floor((b.top - r.top) * scale)];
        const [w, h] = [Math.ceil((b.right - b.left) * scale), Math.ceil((b.bottom - b.top) * scale)];
        const pixels = canvas.getContext('2d')!.getImageData(x, y, w, h).data;
        let count = 0;
        for (let k = 3; k < pixels.length; k += 4) if (pixels[k]! > 0) count += 1;
        return count;
      });
    }, labels);
    expect(painted).toEqual(labels.map(() => 0));
    // The lane titles and the limit labels share a row without running into each other.
    const titles = await page.locator('text.heap-lane-label').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ right: r.right, top: r.top })));
    labels.forEach((label, i) => expect(titles[i]!.right).toBeLessThanOrEqual(label.left));
    // The key naming the sram and ext-ram curves: the curves under it stay below its box (1.5 px lines).
    const key = (await page.getByTestId('heap-canvas').getAttribute('data-curve-key'))!.split(',').map(Number);
    const [, , , keyBottom, curveTop] = key as [number, number, number, number, number];
    expect(keyBottom).toBeLessThan(curveTop! - 0.75);
    await snap(page, `heap-ultraface-mcu-${size.width}x${size.height}`);
  });
}
