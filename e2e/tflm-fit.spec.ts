// TensorFlow Lite Micro's models at laptop sizes, read like a person would:
// the heap's table fits across its pane, Details keeps each figure with its
// unit on one line, the live-bytes chart says what its figures are, and a
// size limit on the arena says what its line is.

import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { NO_MODELS, haveModel, readModel, serveModel, snap, test, waitForModel } from './fixtures';
import { bodyFitsAcross, openHeapTable } from './heap-table';

const PERSON = 'tflite/tflm_person_detect.tflite';
const SPEECH = 'tflite/tflm_micro_speech_quantized.tflite';
const VELA = 'tflite/tflm_person_detect_vela.tflite';

/** Opens `file` of the corpus on target tflm with `params` and waits for its plan. */
async function openTflm(page: Page, file: string, params = ''): Promise<void> {
  test.skip(!haveModel(file), NO_MODELS);
  const name = file.split('/').pop()!;
  await serveModel(page, `/e2e/${name}`, readModel(file));
  await page.goto(`/?model=/e2e/${name}&target=tflm${params}`);
  await waitForModel(page, name);
  await page.waitForFunction(() => window.heapscope?.summary().target === 'tflm' && document.body.dataset.status === 'ready');
}

for (const size of [{ width: 1280, height: 720 }, { width: 1024, height: 640 }]) {
  test(`micro_speech on tflm at ${size.width}×${size.height}: the heap table fits across its pane, a cut word keeps its whole text in a title, and a size rounded up to the alignment says so`, async ({ page }) => {
    await page.setViewportSize(size);
    await openTflm(page, SPEECH);
    const table = await openHeapTable(page);
    // It was 920 px wide in a 436 px pane: Kind and Op off to the right, Op cut as "DEPTHW" with no ellipsis.
    const box = await bodyFitsAcross(table);
    // Every column shown ends inside the pane, its header too.
    const shown = await table.locator('[role="columnheader"], [role="cell"]').evaluateAll((els) =>
      els.filter((el) => (el as HTMLElement).offsetParent !== null).map((el) => {
        const r = el.getBoundingClientRect();
        const cell = el.getAttribute('role') === 'cell';
        return { text: el.textContent ?? '', right: r.right, cut: cell && el.scrollWidth > el.clientWidth + 1, title: el.getAttribute('title') ?? '', ellipsis: getComputedStyle(el).textOverflow };
      }),
    );
    expect(shown.length).toBeGreaterThan(8);
    for (const cell of shown) {
      expect(cell.right, `"${cell.text}" ends inside the pane`).toBeLessThanOrEqual(box.x + box.width + 1);
      if (cell.cut) {
        expect(cell.ellipsis, `"${cell.text}" is cut with an ellipsis`).toBe('ellipsis');
        expect(cell.title, `"${cell.text}" keeps its whole text in a title`).not.toBe('');
      }
    }
    // Reshape_1 is planned at 1,968 B, its tensor is 1,960 B (the Tensors table's 1.91 KiB): the cell says why it differs.
    const reshape = table.locator('[data-testid="heap-row"][data-name$="Reshape_1"]').first();
    const bytes = reshape.getByTestId('heap-cell-bytes');
    await expect(bytes).toHaveAttribute('data-bytes', '1968');
    await expect(bytes).toHaveAttribute('title', /1,968 B reserved: its 1,960 B rounded up to the region's alignment/);
    await expect(bytes).toContainText('*');
    await snap(page, `tflm-heap-table-${size.width}`);
  });
}

test('person_detect on tflm at 1280×720: Details keeps each figure with its unit on one line, and every row of the live-bytes chart says its figure is at the peak', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openTflm(page, PERSON);
  // "I/O 0 B" sat beside a 9 KiB I/O bar at step 0: the figure is the bytes at the peak step.
  const chart = page.getByTestId('heap-pane').getByTestId('peak-chart');
  await expect(chart).toBeVisible();
  // Each row's label says so, or the column says it once over them.
  const texts = await chart.locator('text.pc-muted').allTextContents();
  const labels = texts.filter((t) => /^(total|activation|I\/O|KV cache|scratch|cache|copy) /.test(t));
  expect(labels.length).toBeGreaterThan(1);
  if (!texts.includes('rows at peak:')) for (const label of labels) expect(label).toMatch(/(at peak|@peak)( · largest free .*)?$/);
  for (const label of labels) expect(label).not.toContain('…');

  await page.getByTestId('graph-search').fill('CONV_2D_2');
  await page.getByTestId('graph-search').press('Enter');
  await page.locator('.gnode[data-node="CONV_2D_2"]').click();
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'node');
  // "36.0 KiB" read "36. / 0 / KiB" on three lines, "16 · 64 B" on three.
  const broken = await details.evaluate((root) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      for (const m of (node.textContent ?? '').matchAll(/\d[\d.,]*\s(?:B|KiB|MiB|GiB)\b/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
    return out;
  });
  expect(broken).toEqual([]);
  await expect(details.getByText('36.0 KiB')).toBeVisible();
  await snap(page, 'tflm-details-figures');
});

test('person_detect on tflm under a 60 KiB limit at 1280×720: the lane names the limit and says its line is the limit less the tail', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openTflm(page, PERSON, '&region.arena.limit=60KiB');
  const region = await page.evaluate(() => window.heapscope!.summary());
  expect(region.fits).toBe(false);
  const label = page.getByTestId('heap-lane-limit');
  // It read only "over by 20.4 KiB", beside a line at 33.6 KiB.
  await expect(label).toHaveText(/^limit 60\.0 KiB/);
  const text = (await label.textContent())!;
  if (text.includes('=')) expect(text).toMatch(/^limit 60\.0 KiB − 26\.4 KiB tail( and planning)? = 33\.6 KiB/);
  await snap(page, 'tflm-arena-limit');
});

test("Vela's person_detect on tflm under an 80 KiB limit: its arena of at least 73.1 KiB fits only as far as known, as a plan with sizes unknown does", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openTflm(page, VELA, '&region.arena.limit=80KiB');
  const summary = await page.evaluate(() => window.heapscope!.summary());
  // complete keeps its meaning (every tensor's size is known); the ethos-u kernel's scratch is not, so the arena is a lower estimate
  expect([summary.fits, summary.complete, summary.lowerEstimate]).toEqual([true, true, true]);
  // Details said "Fits: every region is within its size limit." beside "Arena to declare ≥ 73.1 KiB … A lower estimate".
  const fit = page.getByTestId('headline-fit');
  await expect(fit).toHaveText(/^Fits only as far as known: every region is within its size limit with the scratch requests known; the arena is a lower estimate/);
  await snap(page, 'tflm-vela-fit-as-far-as-known');
});

test('person_detect on tflm with Growth open: nothing to vary, and no advice to vary a dim on another target, which has none either', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openTflm(page, PERSON, '&panes=growth,heap,explain');
  const pane = page.getByTestId('growth-pane');
  await expect(pane).toContainText('no dim changes it');
  // It said "Vary a dim on another target." where target=cpu says "Nothing to vary: the model has no symbolic dim."
  await expect(pane).toContainText('Nothing to vary on any target either: the model has no symbolic dim.');
  await expect(pane).not.toContainText('another target');
  // summary().growth was null beside the pane's refusal; it carries it, as it does a curve refused for a tied dim
  const said = (await pane.getByTestId('growth-none').textContent())!;
  const growth = await page.evaluate(() => window.heapscope!.summary().growth);
  expect(growth).toMatchObject({ dim: '', status: 'failed', points: [], rangeError: null, error: said });
  expect(growth!.error).toContain('Nothing to vary on any target either');
  await snap(page, 'tflm-growth-nothing-to-vary');
  // closing the pane takes the refusal out of the summary
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  await expect(pane).toBeHidden();
  await expect.poll(() => page.evaluate(() => window.heapscope!.summary().growth)).toBeNull();
});
