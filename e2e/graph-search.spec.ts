// Search that goes all the way (issue 34) on the generated 80-layer Llama
// decoder at 1280×720: "/" and Ctrl+F over the graph focus its search; a node
// inside a collapsed group is counted as itself, and Enter opens the groups on
// its path, selects it, brings it into view and lights its buffers in the
// heap; Shift+Enter steps back; several matches in one group count each; and
// a click on a tensor-table row selects that tensor everywhere.

import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { llamaModel } from '../src/model/testing/llama-model';
import { branchModel } from './assumption-models';
import { graphSettled, haveModel, NO_MODELS, openDecoder, openDropped, readModel, serveModel, snap, test, waitForModel, waitForPlan } from './fixtures';

const expect = baseExpect.configure({ timeout: 60_000 });


async function openLlama(page: Page): Promise<void> {
  await serveModel(page, '/e2e/llama-80.onnx', llamaModel());
  await page.goto('/?model=/e2e/llama-80.onnx');
  await waitForModel(page, 'llama-80.onnx');
  await waitForPlan(page);
  await graphSettled(page);
}

test('search on the 80-layer decoder opens the groups on the way, selects the match, shows it and lights its buffers', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openLlama(page);
  const field = page.getByTestId('graph-search');
  const pane = page.getByTestId('graph-svg');
  // "/" and Ctrl+F go to the graph's search while the pointer is over the graph.
  const box = (await pane.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.keyboard.press('/');
  await expect(field).toBeFocused();
  await field.blur();
  await page.keyboard.press('Control+f');
  await expect(field).toBeFocused();

  const name = '/model/layers.40/mlp/act_fn/Sigmoid';
  const node = page.locator(`.gbox[data-node="${name}"]`);
  await expect(node).toHaveCount(0); // hidden in the collapsed "layers 40–49"
  await field.fill('layers.40/mlp/act_fn/Sigmoid');
  const count = page.getByTestId('graph-search-count');
  // The node and the tensor it writes: each counted, though one collapsed box shows both.
  await expect(count).toHaveText('–/2');
  await field.press('Enter');
  await expect(count).toHaveText('1/2');
  await expect(node).toHaveClass(/g-current/);
  await expect(node).toHaveAttribute('data-emphasized', 'true');
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'node');
  await expect(page.getByTestId('selection-details')).toContainText(name);
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-highlighted', /^[1-9]\d*$/);
  await expect(pane).not.toHaveAttribute('data-moving', 'true');
  await expect(node).toBeInViewport();
  await snap(page, 'search-llama-80-1280x720');

  // The tensor it writes: its buffer is selected.
  await field.press('Enter');
  await expect(count).toHaveText('2/2');
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'buffer');
  await field.press('Shift+Enter');
  await expect(count).toHaveText('1/2');
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'node');

  // Every Sigmoid counts, not the eight collapsed boxes holding them.
  await field.fill('Sigmoid');
  await expect(count).toHaveText(`–/${80 + 80}`); // per layer: the MLP's Sigmoid and the tensor it writes
});

test('at 1600×1000, a click on a tensor-table row selects that tensor in every view', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openLlama(page);
  await page.getByTestId('tensor-table').locator('input[type="search"]').fill('layers.3/self_attn/o_proj/MatMul');
  const row = page.getByTestId('tensor-row').first();
  const tensor = (await row.getAttribute('data-name'))!;
  await row.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  await expect(details).toContainText(tensor);
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-highlighted', /^[1-9]\d*$/);
  // The graph marks the node writing it (inside its collapsed group, the group's box).
  await expect(page.locator('[data-testid="graph-svg"] [data-emphasized="true"]').first()).toBeAttached();
  await snap(page, 'tensor-row-selected-1600x1000');
});

test('search finds the nodes inside an If, shows the body that holds the match and selects its If', async ({ page }) => {
  await openDropped(page, 'vad.onnx', branchModel());
  await graphSettled(page);
  const field = page.getByTestId('graph-search');
  const count = page.getByTestId('graph-search-count');
  // then/relu and else/relu are in the bodies; nothing of the main graph is named relu.
  await field.fill('relu');
  await expect(count).toHaveText('–/2');
  await field.fill('else relu');
  await expect(count).toHaveText('–/1');
  const body = page.locator('[data-box="n1/g1/0"]');
  await expect(body).toHaveCount(0); // the If's bodies start hidden
  await field.press('Enter');
  await expect(count).toHaveText('1/1');
  await expect(body).toHaveCount(1);
  await expect(body).toHaveClass(/g-current/);
  await expect(body).toBeInViewport();
  await expect(page.getByTestId('selection-details')).toContainText('vad/If_0');
});


test('on the 80-layer decoder, the current match of "layers.40/mlp" wears its own colour and a ring, the other matches keep their outline', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openDecoder(page);
  const field = page.getByTestId('graph-search');
  const count = page.getByTestId('graph-search-count');
  await field.fill('layers.40/mlp');
  await expect(count).toHaveText('–/14');
  const pane = page.getByTestId('graph-svg');
  const current = pane.locator('[data-search="current"]');
  const matches = pane.locator('[data-search="match"]');
  // The group first, then the nodes inside it: the current one is marked so on a group and on a node.
  for (const step of ['1/14', '2/14', '3/14']) {
    await field.press('Enter');
    await expect(count).toHaveText(step);
    await expect(pane).not.toHaveAttribute('data-moving', 'true');
    await expect(current).toHaveCount(1);
    await expect(current.getByTestId('graph-current-ring')).toHaveCount(1);
    await expect(pane.getByTestId('graph-current-ring')).toHaveCount(1);
  }
  // At 3/14 the group is open: the other matches of it are drawn, each outlined as a match.
  await expect.poll(() => matches.count()).toBeGreaterThanOrEqual(3);
  await graphSettled(page);
  const outline = (el: Element) => {
    const shape = el.querySelector(':scope > .g-box, :scope > .g-group-frame')!;
    const style = getComputedStyle(shape);
    return { stroke: style.stroke, width: Number.parseFloat(style.strokeWidth) * Number(document.querySelector('[data-testid="graph-svg"]')!.getAttribute('data-scale')) };
  };
  const mine = await current.evaluate(outline);
  const theirs = await matches.first().evaluate(outline);
  const plain = await pane.locator('.gbox:not([data-search])').first().evaluate(outline);
  expect(theirs.stroke).not.toBe(plain.stroke);
  expect(mine.stroke).not.toBe(theirs.stroke);
  expect(mine.width).toBeGreaterThan(theirs.width);
  // The ring stands clear of the box on every side, on screen.
  const [ring, box] = await current.evaluate((el) => [el.querySelector(':scope > .g-current-ring')!, el.querySelector(':scope > .g-box, :scope > .g-group-frame')!].map((e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }));
  expect(box!.left - ring!.left).toBeGreaterThanOrEqual(3);
  expect(box!.top - ring!.top).toBeGreaterThanOrEqual(3);
  expect(ring!.right - box!.right).toBeGreaterThanOrEqual(3);
  expect(ring!.bottom - box!.bottom).toBeGreaterThanOrEqual(3);
  await snap(page, 'search-current-match-1600x1000');
  // Leaving the search takes the marks away.
  await field.press('Escape');
  await expect(pane.locator('[data-search]')).toHaveCount(0);
  await expect(pane.getByTestId('graph-current-ring')).toHaveCount(0);
});

/**
 * Holds back the layout worker's final placement until `window.releaseLayout()`: the preview stays on screen for as
 * long as a test needs, however fast ELK is on the machine. Only the page's side of the worker is wrapped.
 */
async function holdFinalLayout(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Handler = ((event: MessageEvent) => void) | null;
    const held: (() => void)[] = [];
    let holding = true;
    const Real = window.Worker;
    class HeldWorker extends Real {
      private readonly layout: boolean;
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        this.layout = options?.name === 'heapscope-layout';
      }
      override set onmessage(handler: Handler) {
        if (!this.layout || handler === null) {
          super.onmessage = handler;
          return;
        }
        super.onmessage = (event: MessageEvent) => {
          const data = event.data as { type?: string; final?: boolean };
          if (holding && data.type === 'placed' && data.final === true) held.push(() => handler.call(this, event));
          else handler.call(this, event);
        };
      }
      override get onmessage(): Handler {
        return super.onmessage;
      }
    }
    window.Worker = HeldWorker;
    (window as unknown as { releaseLayout: () => void }).releaseLayout = () => {
      holding = false;
      for (const deliver of held.splice(0)) deliver();
    };
  });
}

test('at 1600×1000, Enter while the layout is still a preview brings the match into view, and the final layout keeps it there', async ({ page }) => {
  const ultraface = 'ultraface_RFB-320.onnx';
  test.skip(!haveModel(ultraface), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await holdFinalLayout(page);
  await serveModel(page, '/e2e/ultraface.onnx', readModel(ultraface));
  await page.goto('/?target=mcu&model=/e2e/ultraface.onnx');
  await waitForModel(page, 'ultraface.onnx');
  await waitForPlan(page);
  const field = page.getByTestId('graph-search');
  await field.fill('Conv_37');
  // Enter while the preview is on screen; its final layout is held back until the camera has come to rest on the match.
  await expect(page.getByTestId('graph-status')).toContainText('Preview shown');
  await field.press('Enter');
  const pane = page.getByTestId('graph-svg');
  await expect(page.getByTestId('selection-details')).toContainText('Conv_37');
  // In the page, frame by frame: once the camera has come to rest with the match whole in the pane (the preview still
  // the layout shown), the final layout is let through; from then on every frame until it is drawn and still must
  // show the match whole in the pane.
  await page.evaluate(() => {
    const w = window as unknown as { watch: { released: boolean; statusThen: string; on: number; off: number; watching: boolean }; releaseLayout: () => void };
    const pane = document.querySelector('[data-testid="graph-svg"]')!;
    const inPane = (): boolean => {
      const p = pane.getBoundingClientRect();
      const b = pane.querySelector('.gbox[data-node="Conv_37"]')?.getBoundingClientRect();
      return b !== undefined && b.width > 0 && b.left >= p.left && b.right <= p.right && b.top >= p.top && b.bottom <= p.bottom;
    };
    const watch = { released: false, statusThen: '', on: 0, off: 0, watching: true };
    w.watch = watch;
    const tick = (): void => {
      if (!watch.released) {
        if (inPane() && !pane.hasAttribute('data-moving')) {
          watch.released = true;
          watch.statusThen = window.heapscope!.summary().graph.status;
          w.releaseLayout();
        }
      } else if (inPane()) watch.on += 1;
      else watch.off += 1;
      if (watch.watching) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.waitForFunction(() => (window as unknown as { watch: { released: boolean } }).watch.released);
  await page.waitForFunction(() => window.heapscope?.summary().graph.status === 'drawn');
  await expect(pane).toHaveAttribute('data-final', 'true');
  await expect(pane).not.toHaveAttribute('data-moving', 'true');
  const watch = await page.evaluate(() => {
    const w = window as unknown as { watch: { statusThen: string; on: number; off: number; watching: boolean } };
    w.watch.watching = false;
    return w.watch;
  });
  expect(watch.statusThen, 'the graph status when the match came to rest in the pane').toBe('pending');
  expect(watch.on).toBeGreaterThan(0);
  expect(watch.off, 'frames with the match off screen while the final layout replaced the preview').toBe(0);
  await expect(page.locator('.gbox[data-node="Conv_37"]')).toHaveClass(/g-current/);
  await snap(page, 'search-during-preview-1600x1000');
});

test('with reduced motion asked for, Find jumps the graph to its match without animating the view', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await graphSettled(page);
  const svg = page.getByTestId('graph-svg');
  // Every view the graph shows from here on, and whether it was ever marked as moving.
  await page.evaluate(() => {
    const w = window as unknown as { moved: string[]; views: Set<string> };
    w.moved = [];
    w.views = new Set();
    const svg = document.querySelector('[data-testid="graph-svg"]')!;
    const root = svg.querySelector(':scope > g')!;
    new MutationObserver(() => {
      if (svg.getAttribute('data-moving') === 'true') w.moved.push('moving');
      w.views.add(root.getAttribute('transform') ?? '');
    }).observe(svg, { subtree: true, attributes: true, attributeFilter: ['data-moving', 'transform'] });
  });
  const before = await svg.locator(':scope > g').getAttribute('transform');
  await page.getByTestId('graph-search').fill('classifier/softmax');
  await page.getByTestId('graph-search').press('Enter');
  await expect(page.getByTestId('selection-details')).toContainText('Softmax');
  await expect.poll(() => svg.locator(':scope > g').getAttribute('transform')).not.toBe(before);
  const seen = await page.evaluate(() => {
    const w = window as unknown as { moved: string[]; views: Set<string> };
    return { moved: w.moved.length, views: w.views.size };
  });
  expect(seen.moved).toBe(0);
  expect(seen.views, 'views between the first and the match').toBe(1);
});
