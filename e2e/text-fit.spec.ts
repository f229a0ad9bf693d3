// Figures and messages keep their room at 1280×720: the heap pane's figures
// on one line, the peak chart's headroom line told apart from the lower bound
// with a key of its own, Compare's sizes whole, an error banner one row of up to three lines,
// numbers with their unit never broken across lines, and no byte tick's label
// under a heap lane's title; and, at 1280×720 and 1600×1000, the regions
// table's Gap column beside an open Growth pane, Compare's filters, Compare's
// bytes moved, Compare's side labels and the Growth chart's axis name read
// whole; Growth's hover card whole and broken only between words in the
// narrow pane; names cut at their start keep their glyphs whole; and the heap
// table's offsets read whole at 1280×720 and 1440×900, the shares-bytes mark beside them;
// the graph's Find keeps the name typed whole beside its match count, and a graph group's
// title starting left of the view reads from the view's edge, cut at its end.

import { expect as baseExpect, type Locator, type Page } from '@playwright/test';
import { ARTIFACTS_DIR, dropFile, graphSettled, haveModel, NO_MODELS, openDropped, readModel, serveModel, snap, test, textOverlaps, waitForError, waitForModel, waitForPlan } from './fixtures';
import { bodyFitsAcross, openHeapTable, shownOffsets } from './heap-table';

/** Planning real models on mcu shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const SQUEEZENET = 'light_squeezenet.onnx';
const FASTESTDET = 'FastestDet.onnx';
const RESNET = 'light_resnet50.onnx';
const LLAMA = 'tiny-llama-fp16/model.onnx';
const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
const PERSON = 'tflite/tflm_person_detect.tflite';
const VELA = 'tflite/tflm_person_detect_vela.tflite';
const MEDIAPIPE = 'tflite/mediapipe_selfie_segmentation.tflite';

/** How many lines the text of `element` takes (distinct tops of its text's boxes). */
function lineCount(element: Locator): Promise<number> {
  return element.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set<number>();
    for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top));
    // Boxes of one line share a baseline band: merge tops a few pixels apart.
    const sorted = [...tops].sort((a, b) => a - b);
    return sorted.filter((t, i) => i === 0 || t - sorted[i - 1]! > 6).length;
  });
}

/** True when the element's text is cut (an ellipsis, or content wider than its box). */
function isClipped(element: Locator): Promise<boolean> {
  return element.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || (el.textContent ?? '').includes('…'));
}

/** The text of each line `element` takes, in order (its characters grouped by the top of their boxes). */
function lineTexts(element: Locator): Promise<string[]> {
  return element.evaluate((el) => {
    const lines: { top: number; text: string }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i += 1) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = [...range.getClientRects()].find((r) => r.height > 0);
        if (rect === undefined) continue;
        const last = lines.at(-1);
        if (last !== undefined && Math.abs(last.top - rect.top) <= 6) last.text += text[i];
        else lines.push({ top: rect.top, text: text[i]! });
      }
    }
    return lines.map((l) => l.text);
  });
}

/** Each side label of the Compare dialog: its text, and whether it is cut. */
async function sideLabels(page: Page): Promise<{ text: string; cut: boolean }[]> {
  const dialog = page.getByTestId('compare-dialog');
  return Promise.all(
    ['a', 'b'].map(async (side) => {
      const label = dialog.getByTestId(`compare-label-${side}`);
      return { text: (await label.textContent()) ?? '', cut: await isClipped(label) };
    }),
  );
}

/** Each of Compare's arena and B − A texts with a line box outside the dialog's header, or cut: its test id. */
function arenaTextsOutside(page: Page): Promise<string[]> {
  return page.getByTestId('compare-dialog').evaluate((dialog) => {
    const header = dialog.querySelector('.compare-header')!.getBoundingClientRect();
    const ids = ['compare-arena-a', 'compare-arena-b', 'compare-delta'];
    return ids.filter((id) => {
      const el = dialog.querySelector(`[data-testid="${id}"]`);
      if (el === null) return true;
      const range = document.createRange();
      range.selectNodeContents(el);
      const outside = [...range.getClientRects()].some((r) => r.width > 0 && (r.left < header.left - 0.5 || r.right > header.right + 0.5 || r.bottom > header.bottom + 0.5));
      return outside || el.scrollWidth > el.clientWidth + 1;
    });
  });
}

/** The sample at batch 1 (and `query`), compared with batch 4: the Compare dialog opens. */
async function compareSampleBatch4(page: Page, query = ''): Promise<void> {
  await page.goto(`/?dim.batch=1${query}`);
  await waitForModel(page, 'sample.onnx');
  await waitForPlan(page);
  const panel = page.getByTestId('compare-panel');
  await panel.locator('[data-dim="batch"]').fill('4');
  await panel.getByTestId('compare-run').click();
}

/** `file` from the corpus served as /e2e/`as`, its plan on screen, and Growth's curve along the axis it starts on (or `axis`) done. */
async function growthOn(page: Page, file: string, as: string, axis?: string): Promise<void> {
  await serveModel(page, `/e2e/${as}`, readModel(file));
  await page.goto(`/?model=/e2e/${as}`);
  await waitForModel(page, as);
  await waitForPlan(page);
  await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
  if (axis !== undefined) await page.getByTestId('growth-axis').selectOption(axis);
  await page.waitForFunction(() => window.heapscope?.summary().growth?.status === 'done');
}

async function openAt1280(page: Page, model: string, query: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDropped(page, model, readModel(model), `/?${query}`);
}

test("at 1280×720 the heap pane's figures take one line, with no pair of label and value broken, and the whole text in a title", async ({ page }) => {
  test.skip(!haveModel(SQUEEZENET) || !haveModel(FASTESTDET), NO_MODELS);
  await openAt1280(page, SQUEEZENET, 'target=mcu');
  const numbers = page.getByTestId('heap-peak');
  // on mcu the peak adds sram's and ext-ram's, and the title says so as the headline does
  await expect(numbers).toHaveAttribute('title', /peak 5\.30 MiB \(the sum of each memory's own peak, sram [\d.]+ KiB \+ ext-ram 4\.85 MiB\) · bound 4\.85 MiB · .*best/);
  expect(await lineCount(numbers)).toBe(1);
  await expect(page.getByTestId('strategy-bound')).toBeAttached();
  await snap(page, 'text-fit-heap-header-squeezenet-mcu');

  await openAt1280(page, FASTESTDET, 'target=mcu&strategy=greedy-breadth');
  await waitForPlan(page, 'greedy-breadth');
  expect(await lineCount(numbers)).toBe(1);
  await expect(numbers).toHaveAttribute('title', /greedy-breadth/);
  await snap(page, 'text-fit-heap-header-fastestdet-greedy');
});

test("at 1280×720 the heap pane's figures keep the strategy's name whole: ResNet-50 on mcu, FastestDet with greedy-breadth", async ({ page }) => {
  test.skip(!haveModel(RESNET) || !haveModel(FASTESTDET), NO_MODELS);
  const numbers = page.getByTestId('heap-peak');
  const strategy = page.getByTestId('heap-strategy');
  for (const [model, query, name] of [[RESNET, 'target=mcu', 'best (best-fit)'], [FASTESTDET, 'target=mcu&strategy=greedy-breadth', 'greedy-breadth']] as const) {
    await openAt1280(page, model, query);
    await waitForPlan(page, name.split(' ')[0]);
    await expect(strategy).toHaveText(name);
    await expect(numbers).toHaveAttribute('title', new RegExp(`own bound: .* · ${name.replace(/[()]/g, '\\$&')}$`));
    expect(await lineCount(numbers)).toBe(1);
    expect(await isClipped(strategy), `${model}: the strategy's name is cut`).toBe(false);
    const [inner, outer] = await Promise.all([strategy.boundingBox(), numbers.boundingBox()]);
    expect(inner!.x + inner!.width, `${model}: the strategy's name runs past the pane`).toBeLessThanOrEqual(outer!.x + outer!.width + 0.5);
    // At 1280×720 the shorter words leave every figure whole too.
    expect(await isClipped(numbers), `${model}: the figures are cut`).toBe(false);
    await snap(page, `text-fit-heap-header-strategy-${model.replace('.onnx', '')}`);
  }
});

test("at 1280×720 no label of the model card takes more than two lines, and the activation figure's says the rest in its title", async ({ page }) => {
  test.skip(!haveModel(RESNET), NO_MODELS);
  await openAt1280(page, RESNET, 'target=mcu');
  const card = page.getByTestId('model-summary');
  const labels = card.locator('.stat-label');
  await expect(labels).toHaveCount(3);
  for (const label of await labels.all()) expect(await lineCount(label), await label.innerText()).toBeLessThanOrEqual(2);
  const stat = page.getByTestId('stat-activation-bytes');
  await expect(stat.locator('..').locator('.stat-label')).toHaveAttribute('title', 'Activation data without reuse (unpadded)');
  await snap(page, 'text-fit-model-card-resnet');
});

test('the peak chart draws the largest free block in a look of its own, named in a visible key, apart from the lower bound', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await waitForPlan(page);
  const chart = page.getByTestId('peak-chart');
  const styleOf = (selector: string) =>
    chart.locator(selector).first().evaluate((el) => {
      const s = getComputedStyle(el);
      return { stroke: s.stroke, dash: s.strokeDasharray };
    });
  const free = await styleOf('.pc-free');
  const bound = await styleOf('.pc-bound');
  expect(free.stroke).not.toBe(bound.stroke);
  expect(free.dash).not.toBe(bound.dash);
  // The heap's legend says green dashed is the lower bound; the chart's key names its own line.
  const key = chart.getByTestId('peak-chart-key');
  await expect(key).toBeVisible();
  await expect(key).toContainText('largest free block');
  const swatch = await key.locator('.pc-key-free').evaluate((el) => getComputedStyle(el).borderTopColor);
  expect(swatch).toBe(free.stroke);
  await snap(page, 'text-fit-peak-chart-key');
});

test("at 1280×720 the peak chart's key takes one line in its narrow column, each line named in full in its title", async ({ page }) => {
  test.skip(!haveModel(RESNET), NO_MODELS);
  await openAt1280(page, RESNET, 'target=mcu');
  const key = page.getByTestId('peak-chart').getByTestId('peak-chart-key');
  await expect(key).toBeVisible();
  expect(await lineCount(key)).toBe(1);
  expect(await isClipped(key)).toBe(false);
  await expect(key.locator('[data-key="bound"]')).toHaveAttribute('title', /^lower bound/);
  await expect(key.locator('[data-key="free"]')).toHaveAttribute('title', /^largest free block/);
  await snap(page, 'text-fit-peak-chart-key-resnet');
});

test("Compare's buffer table at 1280×720 shows its headings and the A and B sizes whole", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await compareSampleBatch4(page);
  const table = page.getByTestId('compare-dialog').getByTestId('diff-buffers');
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const headings = await table.locator('thead th').evaluateAll((ths) => ths.map((th) => ({ text: th.textContent, cut: th.scrollWidth > th.clientWidth + 1 })));
  expect(headings.map((h) => h.text)).toContain('offset A → B');
  expect(headings.filter((h) => h.cut).map((h) => h.text)).toEqual([]);
  for (const column of [3, 4]) {
    const cells = rows.locator(`td:nth-child(${column})`);
    const cut = await cells.evaluateAll((tds) => tds.filter((td) => td.scrollWidth > td.clientWidth + 1).map((td) => td.textContent));
    expect(cut, `column ${column}`).toEqual([]);
  }
  await snap(page, 'text-fit-compare-1280');
});

test('a truncated .tflite opened over a model: the banner shows the cause, the bytes the file has, without Details, at 1600×1000 and 1280×720', async ({ page }) => {
  test.skip(!haveModel(PERSON), NO_MODELS);
  const cut = readModel(PERSON).subarray(0, 100_000);
  for (const [width, height] of [
    [1600, 1000],
    [1280, 720],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    await waitForPlan(page);
    await dropFile(page, 'trunc.tflite', cut);
    await waitForError(page, 'trunc.tflite');
    const banner = page.getByTestId('error-banner');
    const message = page.getByTestId('error-message');
    await expect(message).toContainText('but the file has only 100,000 bytes');
    // The whole message in view, in at most three lines: no Details needed to read the cause.
    expect(await message.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1), `${width}`).toBe(true);
    expect(await message.evaluate((el) => el.clientHeight / parseFloat(getComputedStyle(el).lineHeight))).toBeLessThanOrEqual(3.2);
    await expect(banner.getByRole('button', { name: 'Details' })).toHaveCount(0);
    await expect(page.locator('body')).toHaveAttribute('data-status', 'error');
    await snap(page, `text-fit-error-trunc-tflite-${width}`);
  }
});

test('an error banner at 1280×720 is one row of at most three lines, with the whole message on demand, and Dismiss', async ({ page }) => {
  test.skip(!haveModel(SQUEEZENET), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await waitForPlan(page);
  const tflite = readModel('tflite/tflm_person_detect.tflite');
  for (const [file, bytes] of [
    ['trunc.tflite', tflite.subarray(0, 3000)],
    ['trunc.onnx', readModel(SQUEEZENET).subarray(0, 3000)],
  ] as const) {
    await dropFile(page, file, bytes);
    await waitForError(page, file);
    const banner = page.getByTestId('error-banner');
    const message = page.getByTestId('error-message');
    const full = (await message.textContent()) ?? '';
    expect(full.length).toBeGreaterThan(20);
    // One row: as tall as three lines of its message and padding at most.
    const box = (await banner.boundingBox())!;
    expect(box.height, file).toBeLessThanOrEqual(80);
    expect(await message.evaluate((el) => el.clientHeight / parseFloat(getComputedStyle(el).lineHeight))).toBeLessThanOrEqual(3.2);
    await expect(banner).toHaveAttribute('title', new RegExp(`Could not open ${file.replace('.', '\\.')}`));
    await snap(page, `text-fit-error-${file.replace('.', '-')}-line`);
    if (await message.evaluate((el) => el.scrollHeight > el.clientHeight + 1)) {
      await banner.getByRole('button', { name: 'Details' }).click();
      await expect(banner).toHaveAttribute('data-expanded', 'true');
      expect(await isClipped(message)).toBe(false);
    }
    await snap(page, `text-fit-error-${file.replace('.', '-')}-details`);
    await banner.getByRole('button', { name: 'Dismiss error' }).click();
    await expect(banner).toHaveCount(0);
  }
});

test('numbers with their unit never break: the regions table at 1280×720, the peak chart headers at 1280 and 1600', async ({ page }) => {
  test.skip(!haveModel(SQUEEZENET), NO_MODELS);
  await openAt1280(page, SQUEEZENET, 'target=mcu');
  const cells = page.locator('.regions-table td');
  await expect(cells.first()).toBeVisible();
  const broken = await cells.evaluateAll((tds) =>
    tds
      .filter((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        return tops.size > 1;
      })
      .map((td) => td.textContent),
  );
  expect(broken).toEqual([]);
  await snap(page, 'text-fit-regions-1280');
  for (const size of [{ width: 1280, height: 720 }, { width: 1600, height: 1000 }]) {
    await page.setViewportSize(size);
    const headers = page.getByTestId('peak-chart').locator('.pc-region > text');
    await expect(headers.first()).toBeVisible();
    const texts = await headers.allTextContents();
    expect(texts.filter((t) => t.includes('…')), `${size.width}: ${texts.join(' | ')}`).toEqual([]);
    expect(texts.join(' ')).toMatch(/bound 4\.85 MiB/);
  }
  await snap(page, 'text-fit-peak-chart-1600');
});

test("at 1280×720 no byte tick's label of the heap sits under a lane's title: GPT-2 with a past of 64 on cpu", async ({ page }) => {
  const file = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, `/e2e/${file}`, readModel(file));
  await page.goto(`/?model=/e2e/${file}&target=cpu&dim.past_seq_len=64`);
  await waitForModel(page, file);
  await waitForPlan(page);
  const heap = page.getByTestId('heap-view');
  await expect(heap.locator('.heap-lane-label').first()).toHaveText(/^ram · peak /);
  const overlaps = await heap.evaluate((root) => {
    const boxOf = (e: Element) => e.getBoundingClientRect();
    const meet = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const titles = [...root.querySelectorAll('.heap-lane-label')].map((e) => ({ text: e.textContent ?? '', box: boxOf(e) }));
    const ticks = [...root.querySelectorAll('.heap-lane-axis .tick text')].map((e) => ({ text: e.textContent ?? '', box: boxOf(e) }));
    return ticks.flatMap((tick) => titles.filter((title) => meet(tick.box, title.box)).map((title) => `${tick.text} under ${title.text}`));
  });
  expect(overlaps).toEqual([]);
  expect(await heap.locator('.heap-lane-axis .tick text').count()).toBeGreaterThanOrEqual(3);
  await snap(page, 'text-fit-heap-ticks');
});

for (const [width, height] of [[1280, 720], [1600, 1000]] as const) {
  test(`at ${width}×${height} with Growth open the regions table names every figure, inside the details column and inside its cell`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/?target=mcu');
    await waitForModel(page, 'sample.onnx');
    await waitForPlan(page);
    await page.getByTestId('pane-toggles').locator('[data-pane="growth"]').click();
    await expect(page.getByTestId('growth-pane')).toBeVisible();
    const explanation = page.getByTestId('explanation');
    await expect(explanation.getByTestId('region-row')).toHaveCount(2);
    // Columns under their heading, or (too narrow for four) each figure on its own line after its name.
    const named = await explanation.evaluate((box) => ({
      heading: getComputedStyle(box.querySelector('.regions-table thead')!).display !== 'none',
      labels: [...box.querySelectorAll('.regions-table tbody td')].map((td) => getComputedStyle(td, '::before').content),
    }));
    if (named.heading) await expect(explanation.locator('.regions-table thead th', { hasText: 'Gap' })).toBeVisible();
    else expect(named.labels).toEqual(['"Peak"', '"Bound"', '"Gap"', '"Peak"', '"Bound"', '"Gap"']);
    // The details column beside Growth at 1280 is too narrow for four columns of whole figures.
    if (width === 1280) expect(named.heading).toBe(false);
    const cells = await explanation.evaluate((box) => {
      const o = box.getBoundingClientRect();
      const inside = (r: DOMRect, b: DOMRect) => r.left >= b.left - 0.5 && r.right <= b.right + 0.5;
      return [...box.querySelectorAll('.regions-table th, .regions-table td')].filter((el) => el.checkVisibility()).map((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        return { text: el.textContent, inCell: inside(text, el.getBoundingClientRect()), inColumn: inside(el.getBoundingClientRect(), o) && inside(text, o) };
      });
    });
    expect(cells.filter((c) => !c.inColumn).map((c) => c.text), 'cells past the details column').toEqual([]);
    expect(cells.filter((c) => !c.inCell).map((c) => c.text), 'figures past their cell').toEqual([]);
    await snap(page, `text-fit-regions-table-growth-${width}`);
  });

  test(`at ${width}×${height} Compare's filters each read whole on one line, inside the dialog`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await compareSampleBatch4(page, '&target=mcu');
    const dialog = page.getByTestId('compare-dialog');
    const filters = dialog.getByRole('group', { name: 'Show buffers' }).getByRole('button');
    await expect(filters).toHaveCount(10);
    await expect(dialog.getByTestId('diff-filter-off-chip')).toHaveText('off-chip 0');
    const column = (await dialog.getByTestId('diff-buffers').boundingBox())!;
    for (const filter of await filters.all()) {
      const name = await filter.innerText();
      expect(await lineCount(filter), `${name} takes one line`).toBe(1);
      expect(await isClipped(filter), `${name} is cut`).toBe(false);
      const box = (await filter.boundingBox())!;
      expect(box.x + box.width, `${name} runs past the buffer table's column`).toBeLessThanOrEqual(column.x + column.width + 0.5);
    }
    await snap(page, `text-fit-compare-filters-${width}`);
  });

  test(`at ${width}×${height} Compare's bytes moved read whole: every region, figure and heading of both tables, no figure broken from its unit`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/?target=mcu&spill=off&compare=1&b.target=mcu');
    await waitForPlan(page);
    const section = page.getByTestId('compare-dialog').getByTestId('diff-moved');
    await expect(section.getByTestId('diff-moved-region')).toHaveCount(2);
    await expect(section.getByTestId('diff-moved-buffer').first()).toBeVisible();
    const cells = await section.evaluate((root) =>
      // A buffer's name is cut at its start by design, its whole name in its title.
      [...root.querySelectorAll('th, td:not(.diff-name)')].map((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const box = el.getBoundingClientRect();
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const text = el.textContent ?? '';
        return {
          text,
          cut: el.scrollWidth > el.clientWidth + 1 || text.includes('…') || rects.some((r) => r.left < box.left - 0.5 || r.right > box.right + 0.5),
          lines: new Set(rects.map((r) => Math.round(r.top))).size,
          figure: /^[+−]?[\d.]+ [KMG]?i?B$/.test(text.trim()),
        };
      }),
    );
    expect(cells.length).toBeGreaterThan(10);
    expect(cells.filter((c) => c.cut).map((c) => c.text), 'cells cut').toEqual([]);
    expect(cells.filter((c) => c.figure && c.lines > 1).map((c) => c.text), 'figures broken across lines').toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await snap(page, `text-fit-compare-moved-${width}`);
  });

  test(`at ${width}×${height} the Growth chart names its axis whole inside the chart: tiny Llama by past_sequence_length`, async ({ page }) => {
    test.skip(!haveModel(LLAMA), NO_MODELS);
    await page.setViewportSize({ width, height });
    await growthOn(page, LLAMA, 'tiny-llama.onnx', 'past_sequence_length');
    const svg = page.getByTestId('growth-chart').locator('svg.growth-svg');
    const texts = await svg.evaluate((chart) => {
      const o = chart.getBoundingClientRect();
      return [...chart.querySelectorAll('text')].map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent ?? '', inside: r.left >= o.left - 0.5 && r.right <= o.right + 0.5 && r.bottom <= o.bottom + 0.5 };
      });
    });
    expect(texts.filter((t) => !t.inside).map((t) => t.text), 'labels past the chart').toEqual([]);
    const axis = texts.map((t) => t.text).join(' ');
    expect(axis).toContain('past_sequence_length');
    expect(axis).toContain('(log scale; 0 set apart)');
    await snap(page, `text-fit-growth-axis-llama-${width}`);
  });
}

for (const [width, height] of [[1280, 720], [1600, 1000]] as const) {
  test(`at ${width}×${height} Compare's header names A and B whole: person_detect on tflm against its Vela file`, async ({ page }) => {
    test.skip(!haveModel(PERSON) || !haveModel(VELA), NO_MODELS);
    await page.setViewportSize({ width, height });
    await serveModel(page, '/e2e/tflm_person_detect.tflite', readModel(PERSON));
    await page.goto('/?model=/e2e/tflm_person_detect.tflite&target=tflm');
    await waitForModel(page, 'tflm_person_detect.tflite');
    await waitForPlan(page);
    await page.getByTestId('compare-file').setInputFiles({ name: 'tflm_person_detect_vela.tflite', mimeType: 'application/octet-stream', buffer: readModel(VELA) });
    await expect(page.getByTestId('compare-dialog').getByTestId('compare-delta')).toBeVisible();
    expect(await sideLabels(page)).toEqual([
      { text: 'tflm_person_detect.tflite', cut: false },
      { text: 'tflm_person_detect_vela.tflite', cut: false },
    ]);
    expect(await arenaTextsOutside(page), 'arena texts cut or outside the header').toEqual([]);
    await snap(page, `text-fit-compare-labels-person-${width}`);
  });

  test(`at ${width}×${height} Compare's arenas read whole for MediaPipe against itself: '≥' and the file as it is beside the plan written`, async ({ page }) => {
    test.skip(!haveModel(MEDIAPIPE), NO_MODELS);
    await page.setViewportSize({ width, height });
    await serveModel(page, '/e2e/mediapipe_selfie_segmentation.tflite', readModel(MEDIAPIPE));
    await page.goto('/?model=/e2e/mediapipe_selfie_segmentation.tflite&target=tflm');
    await waitForModel(page, 'mediapipe_selfie_segmentation.tflite');
    await waitForPlan(page);
    await page.getByTestId('compare-file').setInputFiles({ name: 'mediapipe_selfie_segmentation.tflite', mimeType: 'application/octet-stream', buffer: readModel(MEDIAPIPE) });
    const dialog = page.getByTestId('compare-dialog');
    await expect(dialog.getByTestId('compare-delta')).toContainText('for the files as they are');
    await expect(dialog.getByTestId('compare-arena-a')).toContainText('≥ 4.05 MiB as it is · ≥ 3.55 MiB with the plan written');
    expect(await arenaTextsOutside(page), 'arena texts cut or outside the header').toEqual([]);
    // no figure is broken from its unit or its '≥'
    for (const id of ['compare-arena-a', 'compare-arena-b', 'compare-delta']) {
      for (const line of (await lineTexts(dialog.getByTestId(id))).map((l) => l.trim())) {
        expect(line, `${id}: a line starts with a unit`).not.toMatch(/^(MiB|KiB|B)\b(?! − A|'s)/);
        expect(line, `${id}: a line ends inside a figure`).not.toMatch(/(≥|\d)$/);
      }
    }
    expect(await sideLabels(page)).toEqual([
      { text: 'mediapipe_selfie_segmentation.tflite', cut: false },
      { text: 'mediapipe_selfie_segmentation.tflite', cut: false },
    ]);
    await snap(page, `text-fit-compare-arenas-mediapipe-${width}`);
  });
}

test("at 1280×720 a shift-click on GPT-2's Growth point names every dim of both sides, the varied past_seq_len too", async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await growthOn(page, GPT2, GPT2);
  await page.getByTestId('growth-chart').locator('circle[data-value="8"]').first().click({ modifiers: ['Shift'], force: true });
  await page.waitForFunction(() => window.heapscope?.summary().compare?.peakB != null);
  expect(await sideLabels(page)).toEqual([
    { text: 'seq_len=128 · total_seq_len=128 · past_seq_len=0', cut: false },
    { text: 'seq_len=1 · total_seq_len=9 · past_seq_len=8', cut: false },
  ]);
  await snap(page, 'text-fit-compare-labels-gpt2-shift');
});

test("at 1280×720 Growth's hover card on tiny Llama breaks only between words, keeps each figure whole and shows its last line", async ({ page }) => {
  test.skip(!haveModel(LLAMA), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await growthOn(page, LLAMA, 'tiny-llama.onnx', 'past_sequence_length');
  const card = page.getByTestId('growth-tooltip');
  for (const value of [4, 8]) {
    await page.getByTestId('growth-chart').locator(`circle[data-value="${value}"]`).first().hover({ force: true });
    await expect(card).toHaveAttribute('data-value', String(value));
    const name = await lineTexts(card.locator('strong'));
    expect(name.join(''), `${value}`).toBe(`past_sequence_length = ${value}`);
    expect.soft(name.slice(0, -1).filter((line) => !/[_ ]$/.test(line)), `${value}: the dim's name broken inside a word`).toEqual([]);
    const lines = (await Promise.all((await card.locator(':scope > *').all()).map(lineTexts))).flat();
    const text = (await card.textContent()) ?? '';
    expect.soft(text).toContain('largest buffer 62.5 KiB logits');
    expect.soft(await isClipped(card.locator('.growth-largest')), `${value}: the largest buffer is cut`).toBe(false);
    expect.soft(text).not.toContain('…');
    for (const figure of text.match(/[\d.]+ [KMG]?i?B/g) ?? []) expect.soft(lines.some((line) => line.includes(figure)), `${value}: ${figure} broken across lines in ${lines.join(' / ')}`).toBe(true);
    // The whole card shows: not cut at its bottom, and inside the pane (growth.spec.ts checks it covers no axis label).
    const shown = await card.evaluate((el) => {
      const pane = el.closest('[data-testid="growth-pane"]')!.getBoundingClientRect();
      const last = el.lastElementChild!.getBoundingClientRect();
      const own = el.getBoundingClientRect();
      return { cut: el.scrollHeight > el.clientHeight + 1, lastBottom: last.bottom, cardTop: own.top, cardBottom: own.bottom, paneTop: pane.top, paneBottom: pane.bottom, viewport: window.innerHeight };
    });
    expect.soft(shown.cut, `${value}: the card is cut`).toBe(false);
    expect.soft(shown.lastBottom).toBeLessThanOrEqual(shown.cardBottom);
    expect.soft(shown.cardBottom).toBeLessThanOrEqual(Math.min(shown.paneBottom, shown.viewport));
    expect.soft(shown.cardTop).toBeGreaterThanOrEqual(shown.paneTop);
    await expect(card).toContainText('Shift-click: compare with it');
    await snap(page, `text-fit-growth-card-llama-${value}`);
  }
});

test("at 1280×720 names cut at their start keep their first and last glyph inside their box: Compare's buffers and the heap table", async ({ page }) => {
  test.skip(!haveModel(PERSON), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, '/e2e/person.tflite', readModel(PERSON));
  /** Names whose glyphs reach the edge of their box, where its clip, snapped to whole pixels, shaves them. */
  const shaved = (root: Locator, names: string) =>
    root.evaluate(
      (host, selector) =>
        [...host.querySelectorAll(selector)].flatMap((bdi) => {
          const cell = bdi.parentElement!;
          const box = cell.getBoundingClientRect();
          if (box.width === 0) return [];
          const range = document.createRange();
          range.selectNodeContents(bdi);
          const text = range.getBoundingClientRect();
          // A name cut at its start runs past its box's left edge by design; its end, and a whole name's start, may not.
          const cut = cell.scrollWidth > cell.clientWidth;
          return (!cut && text.left < box.left + 0.5) || text.right > box.right - 0.5 ? [`${bdi.textContent}: ${text.left}–${text.right} in ${box.left}–${box.right}`] : [];
        }),
      names,
    );
  await page.goto('/?model=/e2e/person.tflite&target=tflm&compare=1&b.strategy=naive');
  await waitForPlan(page);
  const buffers = page.getByTestId('compare-dialog').getByTestId('diff-buffers');
  await expect(buffers.locator('tbody tr').first()).toBeVisible();
  expect(await buffers.locator('td.diff-name bdi').count()).toBeGreaterThan(10);
  expect.soft(await shaved(buffers, 'td.diff-name bdi'), "Compare's buffers").toEqual([]);
  await snap(page, 'text-fit-truncate-start-compare');
  await page.getByTestId('compare-dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const heap = page.getByTestId('heap-table');
  await expect(heap.locator('.truncate-start > bdi').first()).toBeVisible();
  expect.soft(await shaved(heap, '.truncate-start > bdi'), 'the heap table').toEqual([]);
  await snap(page, 'text-fit-truncate-start-heap-table');
});

test("at 1600×1000 Growth's hover card on GPT-2 keeps a short buffer name whole on one line: present_0, not present_ / 0", async ({ page }) => {
  test.skip(!haveModel(GPT2), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await growthOn(page, GPT2, GPT2, 'past_seq_len');
  const card = page.getByTestId('growth-tooltip');
  const values = await page.getByTestId('growth-chart').locator('circle.gr-dot').evaluateAll((dots) => [...new Set(dots.map((d) => d.getAttribute('data-value')!))]);
  let named = 0;
  for (const value of values) {
    await page.getByTestId('growth-chart').locator(`circle[data-value="${value}"]`).first().hover({ force: true });
    await expect(card).toHaveAttribute('data-value', value);
    const largest = card.locator('.growth-largest .growth-name');
    if ((await largest.count()) === 0) continue;
    named++;
    const name = (await largest.textContent())!;
    const lines = await lineTexts(largest);
    expect.soft(lines, `${value}: ${name} broken though shorter than a line`).toEqual([name]);
    if (value === '256') await snap(page, 'text-fit-growth-card-gpt2-256');
  }
  expect(named).toBeGreaterThan(0);
});

// With the dims bound at their defaults (the same plan) the banner keeps to the attention workspace line and the diagram
// has room for both regions' lanes; with the dims unbound the banner's dims line takes four more lines, the diagram
// draws sram alone, and the chart beside it had dropped ext-ram's block without a word.
for (const [banner, dims, drawn] of [
  ['the one-line banner', '&dim.batch_size=1&dim.seq_len=128&dim.total_seq_len=128&dim.past_seq_len=0', 2],
  ['the dims line in the banner', '', 1],
] as const) {
  test(`GPT-2 on mcu at 1024×640 with Growth open and ${banner}: the live-bytes chart beside the heap keeps each region's rows apart, no label drawn over another, and names a region it leaves out`, async ({ page }) => {
    test.skip(!haveModel(GPT2), NO_MODELS);
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1024, height: 640 });
    await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
    await page.goto(`/?model=/e2e/${GPT2}&target=mcu&panes=growth,heap,explain${dims}`);
    await waitForModel(page, GPT2);
    await waitForPlan(page);
    const chart = page.getByTestId('heap-pane').getByTestId('peak-chart');
    await expect(chart.locator('.pc-region')).toHaveCount(drawn);
    // every region of the plan is drawn, or a visible line in the chart names it and how to see it
    const regions = await chart.locator('.pc-region').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-region')));
    for (const region of ['sram', 'ext-ram'].filter((r) => !regions.includes(r))) {
      const note = chart.getByTestId('peak-chart-not-shown');
      await expect(note).toContainText(`${region} not shown: too little room`);
      await expect(note).toBeInViewport({ ratio: 1 });
    }
    // sram's "scratch 3.91 KiB @peak" sat over ext-ram's "peak 176 KiB" header, and sram's scratch cell lay under ext-ram's block.
    const overlaps = await textOverlaps(chart, 0.5);
    const blocksOut = await chart.evaluate((root) => {
      const out: string[] = [];
      // each region's cells and labels stay inside its block: none reaches below the next block's top
      const blocks = [...root.querySelectorAll('.pc-region')].map((g) => g.getBoundingClientRect());
      blocks.slice(1).forEach((next, k) => {
        if (blocks[k]!.bottom > next.top + 0.5 && blocks[k]!.left < next.right && next.left < blocks[k]!.right) out.push(`block ${k} reaches into block ${k + 1}`);
      });
      const svg = root.querySelector('svg')!.getBoundingClientRect();
      blocks.forEach((b, k) => {
        if (b.bottom > svg.bottom + 0.5) out.push(`block ${k} runs past the chart`);
      });
      return out;
    });
    expect([...overlaps, ...blocksOut]).toEqual([]);
    // a row left out for want of room is said to be
    const shown = await chart.locator('.pc-region').first().locator('.pc-cell').count();
    const kinds = await chart.locator('.pc-region').first().evaluate((g) => g.getAttribute('data-rows'));
    if (kinds !== null && shown < Number(kinds)) await expect(chart.locator('.pc-region').first().locator('.pc-left-out')).toContainText('left out');
    await snap(page, `peak-chart-1024-gpt2-mcu${dims === '' ? '-dims-line' : ''}`);
  });
}

for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
  test(`at ${width}×${height} the heap table shows every offset whole, also after the shares-bytes mark: ultraface on mcu`, async ({ page }) => {
    const file = 'ultraface_RFB-320.onnx';
    test.skip(!haveModel(file), NO_MODELS);
    await page.setViewportSize({ width, height });
    await openDropped(page, file, readModel(file), '/?target=mcu');
    const table = await openHeapTable(page);
    const offsets = await shownOffsets(table);
    // rows drawn include a buffer sharing bytes at a seven-digit offset (2,457,600), the widest figure after the mark
    expect(offsets.some((o) => o.shared && o.text.replace(/\D/g, '').length >= 7)).toBe(true);
    expect(offsets.filter((o) => o.cut || o.text.includes('…')).map((o) => o.text)).toEqual([]);
    await bodyFitsAcross(table);
    await snap(page, `text-fit-heap-table-offsets-${width}`);
  });
}

/** The side bar's selects whose chosen option does not fit in them, as "label: option" (the option's words measured in the select's font, against its room inside its padding and arrow). */
function cutSelects(page: Page): Promise<string[]> {
  return page.locator('aside.sidebar select').evaluateAll((selects) => {
    const context = document.createElement('canvas').getContext('2d')!;
    return (selects as HTMLSelectElement[]).flatMap((el) => {
      if (el.getClientRects().length === 0) return [];
      const style = getComputedStyle(el);
      // the shorthand `font` of a select reads empty in Chromium: set it from its parts
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = el.selectedOptions[0]?.text ?? '';
      // Chromium draws its arrow inside the padding box, about 20 px
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return context.measureText(text).width <= room ? [] : [`${el.labels?.[0]?.textContent ?? el.id}: ${text}`];
    });
  });
}

for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
  test(`at ${width}×${height} every select of the side bar shows its chosen value whole, on cpu and on mcu`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    for (const target of ['cpu', 'mcu']) {
      await page.goto(`/?target=${target}`);
      await waitForPlan(page);
      await expect(page.getByTestId('strategy-select')).toBeVisible();
      expect(await page.locator('aside.sidebar select').count()).toBeGreaterThan(4);
      expect(await cutSelects(page), `target ${target}`).toEqual([]);
    }
    await snap(page, `text-fit-side-bar-selects-${width}`);
  });
}

/** The graph's Find field: whether the text typed fits in it, and whether the match count's box covers that text. */
function findFieldRoom(page: Page): Promise<{ fits: boolean; countOverText: boolean; countInside: boolean }> {
  return page.locator('.graph-toolbar').evaluate((bar) => {
    const input = bar.querySelector<HTMLInputElement>('[data-testid="graph-search"]')!;
    const count = bar.querySelector('[data-testid="graph-search-count"]')!.getBoundingClientRect();
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const box = input.getBoundingClientRect();
    const width = context.measureText(input.value).width;
    const left = box.left + parseFloat(style.paddingLeft);
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    // the glyphs' band: the font's size about the field's middle
    const size = parseFloat(style.fontSize);
    const text = { left, right: left + width, top: box.top + box.height / 2 - size / 2, bottom: box.top + box.height / 2 + size / 2 };
    const countOverText = Math.min(count.right, text.right) - Math.max(count.left, text.left) > 0.5 && Math.min(count.bottom, text.bottom) - Math.max(count.top, text.top) > 0.5;
    const own = bar.getBoundingClientRect();
    const countInside = count.width > 1 && count.left >= own.left && count.right <= own.right && count.top >= own.top && count.bottom <= own.bottom;
    return { fits: width <= room + 0.5 && input.scrollWidth <= input.clientWidth, countOverText, countInside };
  });
}

test("at 1280×720 the graph's Find keeps an op's name whole beside its match count: 'Sigmoid' in FastestDet, and 'Transpose'", async ({ page }) => {
  test.skip(!haveModel(FASTESTDET), NO_MODELS);
  await openAt1280(page, FASTESTDET, '');
  const field = page.getByTestId('graph-search');
  const count = page.getByTestId('graph-search-count');
  // "Sigmoi" showed beside "1/4": the count took 23 of the field's 85 px
  await field.fill('Sigmoid');
  await field.press('Enter');
  await expect(count).toHaveText('1/4');
  expect(await findFieldRoom(page)).toEqual({ fits: true, countOverText: false, countInside: true });
  await page.locator('.graph-toolbar').screenshot({ path: new URL('text-fit-graph-find-sigmoid-1280.png', ARTIFACTS_DIR).pathname });
  await field.fill('Transpose');
  await field.press('Enter');
  await expect(count).toHaveText(/^1\/\d{2}$/);
  expect(await findFieldRoom(page)).toEqual({ fits: true, countOverText: false, countInside: true });
  // the toolbar's other controls stay on its row, whole
  for (const id of ['graph-search-prev', 'graph-search-next', 'graph-more', 'graph-fit']) await expect(page.getByTestId(id)).toBeVisible();
});

/** The group titles in the graph's view: where each starts against the view's left edge, its text, whether it ends cut, and its hover title. */
function groupTitlesInView(page: Page): Promise<{ left: number; text: string; cut: boolean; whole: string | undefined }[]> {
  return page.getByTestId('graph-view').evaluate((view) => {
    const own = view.getBoundingClientRect();
    return [...view.querySelectorAll<SVGTextElement>('text.g-group-title')].flatMap((t) => {
      const r = t.getBoundingClientRect();
      if (r.right <= own.left || r.left >= own.right || r.bottom <= own.top || r.top >= own.bottom) return [];
      const text = [...t.querySelectorAll('tspan')].map((s) => s.textContent ?? '').join('').trim();
      return [{ left: r.left - own.left, text, cut: text.endsWith('…'), whole: t.querySelector('title')?.textContent ?? undefined }];
    });
  });
}

test("at 1280×720 a graph group's title starting left of the view reads from the view's edge, cut at its end and whole on hover: FastestDet panned after Fit", async ({ page }) => {
  test.skip(!haveModel(FASTESTDET), NO_MODELS);
  await openAt1280(page, FASTESTDET, '');
  await graphSettled(page);
  // Fit animates; a drag begun before it ends stops the view part way, wherever a busy machine had it
  await page.getByTestId('graph-fit').click();
  await graphSettled(page);
  const view = (await page.getByTestId('graph-view').boundingBox())!;
  // the graph dragged 140 px left: backbone's, stage2's and their groups' frames start left of the view
  await page.mouse.move(view.x + 200, view.y + 300);
  await page.mouse.down();
  await page.mouse.move(view.x + 60, view.y + 300, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await groupTitlesInView(page)).filter((t) => t.left < -0.5).map((t) => t.text)).toEqual([]);
  const titles = await groupTitlesInView(page);
  expect(titles.map((t) => t.text)).toEqual(expect.arrayContaining([expect.stringMatching(/^▾ backbone /), expect.stringMatching(/^▾ stage2 /)]));
  // a title cut is cut at its end, and says all of itself on hover
  const cut = titles.filter((t) => t.cut);
  expect(cut.length).toBeGreaterThan(0);
  for (const t of cut) expect(t.whole, t.text).toMatch(new RegExp(`^${t.text.replace(/^▾ /, '').replace(/…$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await page.locator('.graph-pane').screenshot({ path: new URL('text-fit-graph-group-titles-panned-1280.png', ARTIFACTS_DIR).pathname });
});

test("at 683×384 (1366×768 zoomed 200%) Details' op type stays one word, cut with an ellipsis and whole in its title, not broken mid-word", async ({ page }) => {
  const resnet = 'light_resnet50.onnx';
  test.skip(!haveModel(resnet), NO_MODELS);
  await page.setViewportSize({ width: 683, height: 384 });
  await serveModel(page, `/e2e/${resnet}`, readModel(resnet));
  await page.goto(`/?model=/e2e/${resnet}&select=node:n5`);
  await waitForModel(page, resnet);
  await waitForPlan(page);
  const op = page.getByTestId('selection-details').locator('strong').first();
  await expect(op).toHaveText('BatchNormalization');
  // One line box: the word is not split across two lines.
  expect(await op.evaluate((e) => e.getClientRects().length)).toBe(1);
  await expect(op).toHaveAttribute('title', 'BatchNormalization');
});
