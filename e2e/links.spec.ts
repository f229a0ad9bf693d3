// Share links: the address bar holds every setting that changes the plan or the
// view, and opening the copied link gives the same summary() (peak, strategy,
// settings, the graph's collapsed groups, an open comparison's B); a link made
// for a local file asks for that file and keeps the rest.

import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { detectorModel, vadModel } from '../src/model/testing/assumption-models';
import { LLAMA_80, llamaModel } from '../src/model/testing/llama-model';
import { packingModel } from '../src/model/testing/search-model';
import { graphAction, graphSettled, haveModel, NO_MODELS, readModel, serveModel, snap, summary, test, waitForModel, waitForPlan } from './fixtures';

/** Planning B and laying out graphs share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** Waits until the comparison dialog holds both plans; returns the summary then. */
async function waitForComparison(page: Page) {
  await page.waitForFunction(() => window.heapscope?.summary().compare != null, undefined, { timeout: 60_000 });
  return summary(page);
}

/** Waits until the graph is drawn and still; returns the summary then. */
async function waitForGraph(page: Page) {
  await page.waitForFunction(() => ['drawn', 'simple'].includes(window.heapscope?.summary().graph.status ?? ''), undefined, { timeout: 60_000 });
  await expect(page.getByTestId('graph-svg')).not.toHaveAttribute('data-moving', 'true');
  return summary(page);
}

/** Opens `search`, waits for its plan, and returns the summary and the address bar's search once it settled. */
async function openLink(page: Page, search: string) {
  await page.goto(`/${search}`);
  await waitForPlan(page);
  const shown = await summary(page);
  return { shown, search: new URL(page.url()).search };
}

/** The copied link reopens the same plan: same peak, strategy and settings. */
async function roundTrip(page: Page, search: string) {
  const first = await openLink(page, search);
  const again = await openLink(page, first.search);
  expect(again.shown.peak).toBe(first.shown.peak);
  expect(again.shown.strategy).toBe(first.shown.strategy);
  expect(again.shown.settings).toEqual(first.shown.settings);
  expect(again.search).toBe(first.search);
  return first;
}

test('target, strategy, dims and the fusion switch survive a link: fusion off stays off', async ({ page }) => {
  const off = await roundTrip(page, '?target=accelerator&strategy=best&dim.batch=4&fusion=0');
  expect(off.shown.settings).toMatchObject({ target: 'accelerator', strategy: 'best', fusion: false, dims: { batch: 4 } });
  expect(off.search).toContain('fusion=0');
  const on = await openLink(page, '?target=accelerator&strategy=best&dim.batch=4');
  expect(on.shown.settings?.fusion).toBe(true);
  expect(on.shown.peak).not.toBe(off.shown.peak);
});

test('edited region fields and the compute-unit switch survive a link', async ({ page }) => {
  const roomy = await roundTrip(page, '?target=mcu&region.sram.limit=67108864&region.sram.align=32');
  expect(roomy.shown.settings?.fields).toEqual({ sram: { sizeLimit: 67108864, alignment: 32 } });
  expect(roomy.shown.fits).toBe(true);
  const units = await roundTrip(page, '?target=phone&units=0');
  expect(units.shown.settings).toMatchObject({ target: 'phone', computeUnits: false });
});

test('a size in a link takes the units the Size limit field takes, and the link the page writes back reopens it', async ({ page }) => {
  const linked = await roundTrip(page, '?target=mcu&region.sram.limit=100KiB&region.ext-ram.limit=8M');
  expect(linked.shown.settings?.fields).toEqual({ sram: { sizeLimit: 102_400 }, 'ext-ram': { sizeLimit: 8_388_608 } });
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'sram size limit' })).toHaveValue('100 KiB');
});

test('tensor shapes and graph-input values survive a link', async ({ page }) => {
  await serveModel(page, '/e2e/vad.onnx', vadModel());
  const open = await openLink(page, '?model=/e2e/vad.onnx');
  expect(open.shown.warnings.join(' ')).toMatch(/sr/);
  const bound = await roundTrip(page, '?model=/e2e/vad.onnx&input.sr=8000');
  expect(bound.shown.settings?.inputValues).toEqual({ sr: [8000] });
  expect(bound.shown.warnings).toEqual([]);
  expect(bound.shown.peak).toBeLessThan(open.shown.peak!);
  await serveModel(page, '/e2e/detector.onnx', detectorModel());
  const shaped = await roundTrip(page, '?model=/e2e/detector.onnx&shape.image=1x3x96x96');
  expect(shaped.shown.settings?.shapes).toEqual({ image: [1, 3, 96, 96] });
});

test('the search budget survives a link; a bad one is reported and left out', async ({ page }) => {
  // A packing best's search proves within the budget, so the peak does not depend on the machine's speed.
  await serveModel(page, '/e2e/packing.onnx', packingModel(40, 3));
  const budgeted = await roundTrip(page, '?model=/e2e/packing.onnx&units=0&region.ram.align=1&budget=5000');
  expect(budgeted.shown.settings).toMatchObject({ budgetMs: 5000, computeUnits: false, fields: { ram: { alignment: 1 } } });
  expect(budgeted.search).toContain('budget=5000');
  const warnings: string[] = [];
  page.on('console', (message) => void (message.type() === 'warning' && warnings.push(message.text())));
  const bad = await openLink(page, '?model=/e2e/packing.onnx&units=0&region.ram.align=1&budget=soon');
  expect(bad.shown.settings?.budgetMs).toBeNull();
  expect(bad.search).not.toContain('budget');
  expect(warnings.join('\n')).toContain('budget=soon');
});

test('the selection survives a link', async ({ page }) => {
  const linked = await openLink(page, '?select=step:3');
  expect(linked.search).toContain('select=step%3A3');
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'step');
  await expect(page.getByTestId('selection-details')).toContainText(/step 3\b/i);
});

test('a link made for a local file asks for it again and applies its settings when it is opened', async ({ page }) => {
  await page.goto('/?file=detector.onnx&dim.image:2=320&dim.image:3=320&target=mcu');
  await expect(page.getByTestId('expected-file')).toContainText('detector.onnx');
  expect((await summary(page)).model).toBeNull();
  await page.locator('#open-file').setInputFiles({ name: 'detector.onnx', mimeType: 'application/octet-stream', buffer: Buffer.from(detectorModel()) });
  await waitForPlan(page);
  const shown = await summary(page);
  expect(shown.settings).toMatchObject({ target: 'mcu', dims: { 'image:2': 320, 'image:3': 320 } });
  expect(new URL(page.url()).search).toContain('file=detector.onnx');
});

test('a link made for a local file opened with another file says so, applies only the settings that do not depend on the model, and names the rest', async ({ page }) => {
  const warnings = consoleWarnings(page);
  await page.goto('/?file=tiny-random-gpt2-fp32-past.onnx&dim.past_seq_len=64&group.sc%3A%2Fstem=closed&target=mcu');
  await expect(page.getByTestId('expected-file')).toContainText('tiny-random-gpt2-fp32-past.onnx');
  await page.locator('#open-file').setInputFiles({ name: 'detector.onnx', mimeType: 'application/octet-stream', buffer: Buffer.from(detectorModel()) });
  await waitForPlan(page);
  const shown = await summary(page);
  expect(shown).toMatchObject({ model: 'detector.onnx', settings: { target: 'mcu', dims: {} } });
  const notice = page.getByTestId('link-notice');
  // the file line is no parameter left out: target=mcu applied
  await expect(notice.getByRole('paragraph').first()).toHaveText('The link was made for another file, and 2 parameters of it were left out');
  await expect(notice.getByTestId('link-notice-entry')).toHaveText([
    'file=tiny-random-gpt2-fp32-past.onnx: the link was made for this file, and detector.onnx was opened instead; target=mcu applied to it, the settings of the model it was made for did not',
    'dim.past_seq_len=64: a setting of the model the link was made for, not applied to detector.onnx',
    'group.sc:/stem=closed: a setting of the model the link was made for, not applied to detector.onnx',
  ]);
  // the other file's graph opens on its own first view, not on the groups of the graph the link was made for
  expect((await waitForGraph(page)).graph.collapsed).toEqual([]);
  expect(warnings.join('\n')).toContain('ignored URL parameter dim.past_seq_len=64: a setting of the model the link was made for');
  await expect.poll(() => new URL(page.url()).search).toBe('?target=mcu&file=detector.onnx');
  await snap(page, 'links-file-other');
});

test("an open comparison survives a link: B's other dims and strategy give the same peaks A and B", async ({ page }) => {
  await page.goto('/?dim.batch=1');
  await waitForPlan(page);
  const panel = page.getByTestId('compare-panel');
  await panel.locator('[data-dim="batch"]').fill('4');
  await panel.getByTestId('compare-strategy').selectOption('tflm');
  await panel.getByTestId('compare-run').click();
  const first = await waitForComparison(page);
  expect(first.compare?.settings).toMatchObject({ target: 'cpu', strategy: 'tflm', dims: { batch: 4 } });
  expect(first.compare?.peakA).toBe(first.peak);
  const search = new URL(page.url()).search;
  expect(search).toBe('?dim.batch=1&compare=1&b.strategy=tflm&b.dim.batch=4');

  await page.goto(`/${search}`);
  await waitForPlan(page);
  const again = await waitForComparison(page);
  expect(again.peak).toBe(first.peak);
  expect(again.settings).toEqual(first.settings);
  expect(again.compare).toEqual(first.compare);
  expect(new URL(page.url()).search).toBe(search);
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toHaveAttribute('data-peak', String(first.compare!.peakB));
  await snap(page, 'links-compare-reopened');

  // B's plan file is named by its model, target, strategy and dims, as the page's exports are.
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('compare-save-b').click()]);
  expect(download.suggestedFilename()).toBe('sample.cpu.tflm.batch-4.b.plan.json');
  // Closing the comparison takes it out of the link.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => new URL(page.url()).search).toBe('?dim.batch=1');
});

test("a comparison's B with another target and its fields survives a link", async ({ page }) => {
  await page.goto('/?compare=1&b.target=accelerator&b.fusion=0&b.strategy=best');
  await waitForPlan(page);
  const first = await waitForComparison(page);
  expect(first.compare).toMatchObject({ target: 'accelerator', strategy: 'best', settings: { target: 'accelerator', fusion: false } });
  const search = new URL(page.url()).search;
  expect(search).toBe('?compare=1&b.target=accelerator&b.strategy=best&b.fusion=0');
  await page.goto(`/${search}`);
  await waitForPlan(page);
  expect((await waitForComparison(page)).compare).toEqual(first.compare);
});

test('collapsed and expanded graph groups survive a link', async ({ page }) => {
  await serveModel(page, '/e2e/llama-4.onnx', llamaModel({ ...LLAMA_80, layers: 4 }));
  await page.goto('/?model=/e2e/llama-4.onnx');
  await waitForPlan(page);
  expect((await waitForGraph(page)).graph.collapsed).toEqual([]);
  // The group's header may lie outside the pane's view: the keyboard reaches it.
  const header = page.getByRole('button', { name: 'Collapse group layers.1' });
  await header.focus();
  await header.press('Enter');
  const collapsed = page.locator('.g-collapsed[data-cluster="sc:/model/layers.1"]');
  await expect(collapsed).toBeVisible();
  const shown = await waitForGraph(page);
  expect(shown.graph.collapsed).toEqual(['sc:/model/layers.1']);
  const search = new URL(page.url()).search;
  expect(search).toBe('?model=%2Fe2e%2Fllama-4.onnx&group.sc%3A%2Fmodel%2Flayers.1=closed');
  const boxes = shown.graph.boxes;

  await page.goto(`/${search}`);
  await waitForPlan(page);
  const again = await waitForGraph(page);
  expect(again.graph.collapsed).toEqual(['sc:/model/layers.1']);
  expect(again.graph.boxes).toBe(boxes);
  await expect(collapsed).toBeVisible();
  expect(new URL(page.url()).search).toBe(search);

  // Collapse all is one parameter, and so is everything expanded again.
  await graphAction(page, 'graph-collapse-all');
  await expect.poll(() => new URL(page.url()).search).toBe('?model=%2Fe2e%2Fllama-4.onnx&groups=closed');
  const closed = (await waitForGraph(page)).graph.collapsed;
  expect(closed.length).toBeGreaterThan(0);
  await page.goto(`/${new URL(page.url()).search}`);
  await waitForPlan(page);
  expect((await waitForGraph(page)).graph.collapsed).toEqual(closed);
  await graphAction(page, 'graph-expand-all');
  await expect.poll(() => new URL(page.url()).search).toBe('?model=%2Fe2e%2Fllama-4.onnx');
});

/** Collects the page's console warnings from now on. */
function consoleWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (message) => void (message.type() === 'warning' && warnings.push(message.text())));
  return warnings;
}

test('a field the target refuses is left out alone, named in a warning, and the rest of the link applies', async ({ page }) => {
  const warnings = consoleWarnings(page);
  const linked = await openLink(page, '?target=mcu&region.nope.limit=5&region.sram.align=3&region.sram.limit=67108864&weights=nowhere&spill=off');
  expect(linked.shown.settings).toMatchObject({ target: 'mcu', spill: false });
  expect(linked.shown.settings?.fields).toEqual({ sram: { sizeLimit: 67108864 } });
  const said = warnings.join('\n');
  expect(said).toMatch(/region\.nope\.limit=5: target mcu has no region "nope"/);
  expect(said).toContain('region.sram.align=3: sram alignment must be a power of two, got 3');
  expect(said).toMatch(/weights=nowhere: target mcu has no region "nowhere"/);
  await expect(page.getByTestId('settings-error')).toHaveCount(0);
  // The address bar keeps what was applied, and only that.
  expect(linked.search).toBe('?target=mcu&region.sram.limit=67108864&spill=off');
});

test('the parameters a link left out are named on the page too, until dismissed', async ({ page }) => {
  const linked = await openLink(page, '?target=mcu&dim.batch=-3&region.nope.limit=5&region.sram.limit=abc');
  expect(linked.shown.settings).toMatchObject({ target: 'mcu' });
  const notice = page.getByTestId('link-notice');
  await expect(notice).toBeVisible();
  await expect(notice.getByRole('paragraph').first()).toHaveText('3 parameters of the link were left out');
  const entries = await notice.getByTestId('link-notice-entry').allTextContents();
  expect(entries).toEqual([
    'dim.batch=-3: a dim is a length, a whole number from 0 to 2147483647, not negative',
    expect.stringMatching(/^region\.sram\.limit=abc: sram size limit must be a number of bytes \(units: .*\), got "abc"; none: no limit$/),
    expect.stringMatching(/^region\.nope\.limit=5: target mcu has no region "nope"/),
  ]);
  await notice.getByRole('button', { name: 'Dismiss the note about the link' }).click();
  await expect(notice).toHaveCount(0);
  // a link that applies whole says nothing
  await openLink(page, '?target=mcu&dim.batch=2');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('an empty model parameter is named on the page, and the sample opens instead', async ({ page }) => {
  const warnings = consoleWarnings(page);
  const linked = await openLink(page, '?model=&dim.batch=2');
  expect(linked.shown).toMatchObject({ model: 'sample.onnx', error: null, settings: { dims: { batch: 2 } } });
  const notice = page.getByTestId('link-notice');
  await expect(notice.getByRole('paragraph').first()).toHaveText('A parameter of the link was left out');
  await expect(notice.getByTestId('link-notice-entry')).toHaveText(["model=: the link's model parameter is empty, so the sample opens instead"]);
  expect(warnings.join('\n')).toContain("ignored URL parameters model=: the link's model parameter is empty");
  expect(linked.search).toBe('?dim.batch=2');
});

test('a parameter given twice takes the last value, as the command-line tool does, and the page names both', async ({ page }) => {
  // ?target=mcu&target=cpu planned for mcu without a word, where `plan --target mcu --target cpu` plans for cpu with a note
  const warnings = consoleWarnings(page);
  const linked = await openLink(page, '?target=mcu&target=cpu');
  expect(linked.shown).toMatchObject({ model: 'sample.onnx', error: null, settings: { target: 'cpu' } });
  const notice = page.getByTestId('link-notice');
  await expect(notice.getByTestId('link-notice-entry')).toHaveText(['target given twice ("mcu", then "cpu"): the last applies']);
  expect(warnings.join('\n')).toContain('target given twice ("mcu", then "cpu"): the last applies');
  // cpu is the default target: the address bar keeps neither value
  expect(linked.search).toBe('');
  await snap(page, 'link-param-twice');
});

test('a dim the model does not have and a selection of nothing on screen are named in warnings and the link notice, and leave the settings and the address bar', async ({ page }) => {
  const warnings = consoleWarnings(page);
  await page.goto('/?target=mcu&region.nope.limit=5&dim.nosuch=3&dim.batch=2&select=buffer:999999');
  await waitForPlan(page);
  await expect.poll(() => warnings.join('\n')).toContain('select=buffer:999999: the plan has no buffer 999999');
  const said = warnings.join('\n');
  expect(said).toMatch(/ignored URL parameter dim\.nosuch=3: the model has no dim nosuch \(its dims: batch\)/);
  // The page names them with the parameter left out before the model was read.
  const notice = page.getByTestId('link-notice');
  await expect(notice.getByRole('paragraph').first()).toHaveText('3 parameters of the link were left out');
  await expect(notice.getByTestId('link-notice-entry')).toHaveText([
    /^region\.nope\.limit=5: target mcu has no region "nope"/,
    'dim.nosuch=3: the model has no dim nosuch (its dims: batch)',
    /^select=buffer:999999: the plan has no buffer 999999 \(it has \d+\)$/,
  ]);
  const shown = await summary(page);
  expect(shown.settings?.dims).toEqual({ batch: 2 });
  await expect.poll(() => new URL(page.url()).searchParams.get('select')).toBeNull();
  expect(new URL(page.url()).search).toBe('?target=mcu&dim.batch=2');
  await snap(page, 'links-not-in-model');
  // A selection that is there is kept, and nothing is said.
  const quiet = consoleWarnings(page);
  await page.goto('/?select=buffer:0');
  await waitForPlan(page);
  await expect.poll(() => new URL(page.url()).searchParams.get('select')).toBe('buffer:0');
  expect(quiet.join('\n')).not.toContain('select=');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('a shape, an input value and a graph group that name nothing in the model are named in warnings and the link notice, and leave the address bar', async ({ page }) => {
  const warnings = consoleWarnings(page);
  await page.goto('/?shape.nosuch=1x2&input.foo=3&group.zz=open&dim.batch=2');
  await waitForPlan(page);
  await waitForGraph(page);
  const notice = page.getByTestId('link-notice');
  // The group is known to be missing once the graph has its groups, which may be before or after the model's check.
  await expect
    .poll(async () => (await notice.getByTestId('link-notice-entry').allTextContents()).sort())
    .toEqual(['group.zz=open: the graph has no group zz', 'input.foo=3: the model has no input foo (its inputs: image)', 'shape.nosuch=1x2: the model has no tensor nosuch']);
  await expect(notice.getByRole('paragraph').first()).toHaveText('3 parameters of the link were left out');
  const said = warnings.join('\n');
  expect(said).toContain('ignored URL parameter shape.nosuch=1x2: the model has no tensor nosuch');
  expect(said).toContain('ignored URL parameter input.foo=3: the model has no input foo');
  expect(said).toContain('ignored URL parameter group.zz=open: the graph has no group zz');
  const shown = await summary(page);
  expect(shown.settings?.dims).toEqual({ batch: 2 });
  await expect.poll(() => new URL(page.url()).search).toBe('?dim.batch=2');
});

test("a real model's link with a shape for a tensor it lacks tells it once, in the link notice, not again in Diagnostics", async ({ page }) => {
  test.skip(!haveModel('ultraface_RFB-320.onnx'), NO_MODELS);
  await serveModel(page, '/e2e/ultraface.onnx', readModel('ultraface_RFB-320.onnx'));
  await page.goto('/?model=/e2e/ultraface.onnx&shape.nosuch=1x2');
  await waitForPlan(page);
  await expect(page.getByTestId('link-notice').getByTestId('link-notice-entry')).toHaveText(['shape.nosuch=1x2: the model has no tensor nosuch']);
  // the notice is the one place on the page that names it
  await expect(page.getByText(/nosuch/)).toHaveCount(1);
  // neither the explanation's Diagnostics nor the side bar's (ultraface has none of its own, so that list is absent) tells it again
  await expect(page.getByTestId('plan-diagnostics')).toContainText('concat-copy');
  await expect(page.getByTestId('plan-diagnostics')).not.toContainText('unused-binding');
  await expect(page.getByTestId('diagnostics')).toHaveCount(0);
});

test('an unknown target or strategy is left out with a warning, and the plan is made with the defaults', async ({ page }) => {
  const warnings = consoleWarnings(page);
  const linked = await openLink(page, '?target=gpu&strategy=quantum&dim.batch=2');
  expect(linked.shown).toMatchObject({ strategy: 'best', error: null, settings: { target: 'cpu', dims: { batch: 2 } } });
  expect(linked.shown.peak).toBeGreaterThan(0);
  const said = warnings.join('\n');
  expect(said).toMatch(/target=gpu: unknown target preset "gpu"/);
  expect(said).toMatch(/strategy=quantum: unknown strategy "quantum"/);
  expect(linked.search).toBe('?dim.batch=2');
});

test("a comparison's B parameter that makes no plan is left out with a warning, and the comparison opens with the rest", async ({ page }) => {
  const warnings = consoleWarnings(page);
  await page.goto('/?compare=1&b.target=nosuch&b.strategy=tflm');
  await waitForPlan(page);
  expect((await waitForComparison(page)).compare).toMatchObject({ target: 'cpu', strategy: 'tflm' });
  expect(warnings.join('\n')).toMatch(/b\.target=nosuch: unknown target preset "nosuch"/);
  await expect.poll(() => new URL(page.url()).search).toBe('?compare=1&b.strategy=tflm');

  await page.goto('/?compare=1&b.target=mcu&b.region.nope.limit=4');
  await waitForPlan(page);
  expect((await waitForComparison(page)).compare).toMatchObject({ target: 'mcu', settings: { target: 'mcu' } });
  expect(warnings.join('\n')).toMatch(/b\.region\.nope\.limit=4: target mcu has no region "nope"/);
  await expect.poll(() => new URL(page.url()).search).toBe('?compare=1&b.target=mcu');
});

test("a comparison's B dim, shape or input value that names nothing in the model is named as A's are, and leaves B and the address bar", async ({ page }) => {
  const warnings = consoleWarnings(page);
  await page.goto('/?compare=1&b.dim.batch=4&b.dim.nope=3&b.shape.nope=1x3&b.input.nope=1&b.target=mcu&b.region.nope.limit=1KiB');
  await waitForPlan(page);
  const shown = await waitForComparison(page);
  expect(shown.compare?.settings).toMatchObject({ target: 'mcu', dims: { batch: 4 }, shapes: {}, inputValues: {} });
  const notice = page.getByTestId('link-notice');
  await expect(notice.getByRole('paragraph').first()).toHaveText('4 parameters of the link were left out');
  // the size as the link wrote it, not as the page reads it
  await expect(notice.getByTestId('link-notice-entry')).toHaveText([
    /^b\.region\.nope\.limit=1KiB: target mcu has no region "nope"/,
    'b.dim.nope=3: the model has no dim nope (its dims: batch)',
    'b.shape.nope=1x3: the model has no tensor nope',
    /^b\.input\.nope=1: the model has no input nope \(its inputs: /,
  ]);
  const said = warnings.join('\n');
  for (const entry of ['b.dim.nope=3: the model has no dim nope', 'b.shape.nope=1x3: the model has no tensor nope', 'b.input.nope=1: the model has no input nope']) expect(said).toContain(`ignored URL parameter ${entry}`);
  await expect.poll(() => new URL(page.url()).search).toBe('?compare=1&b.target=mcu&b.dim.batch=4');
  await snap(page, 'links-compare-not-in-model');
});

test("a link's selection is brought into the graph's view once the graph is drawn: the last node of an 80-layer decoder", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, '/e2e/decoder-80.onnx', llamaModel(LLAMA_80, { externalWeights: 'decoder-80.onnx.data' }));
  await page.goto('/?model=/e2e/decoder-80.onnx&dim.past=127&select=node:/lm_head/MatMul');
  await waitForModel(page, 'decoder-80.onnx');
  await waitForPlan(page);
  await graphSettled(page);
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'node');
  // the selected box lies inside the graph's pane (it was left below the first view, at the top of the graph)
  const pane = (await page.getByTestId('graph-svg').boundingBox())!;
  const box = page.locator('[data-node="/lm_head/MatMul"]').first();
  await expect.poll(async () => {
    const b = await box.boundingBox();
    return b !== null && b.y >= pane.y && b.y + b.height <= pane.y + pane.height && b.x + b.width > pane.x && b.x < pane.x + pane.width;
  }, { timeout: 30_000 }).toBe(true);
});

test("select=buffer: with a number the views show as a buffer's name points to that buffer's id: ultraface's '252' is a tensor name, not an id", async ({ page }) => {
  test.skip(!haveModel('ultraface_RFB-320.onnx'), NO_MODELS);
  await serveModel(page, '/e2e/ultraface.onnx', readModel('ultraface_RFB-320.onnx'));
  await page.goto('/?model=/e2e/ultraface.onnx&select=buffer:252');
  await waitForPlan(page);
  // the id the page writes when that buffer is selected, as the heap table's row gives it
  const entry = page.getByTestId('link-notice').getByTestId('link-notice-entry');
  await expect(entry).toHaveText(/^select=buffer:252: the plan has no buffer 252 \(it has \d+\); the buffer named 252 is select=buffer:\d+ \(the link takes a buffer's id\)$/);
  const id = /is select=buffer:(\d+) /.exec((await entry.textContent())!)![1];
  await page.goto(`/?model=/e2e/ultraface.onnx&select=buffer:${id}`);
  await waitForPlan(page);
  await expect(page.getByTestId('selection-details').locator('p.mono strong')).toHaveText('252');
});

test('a link that opens Compare and leaves a parameter out shows its notice in the dialog, where it is read, reached by Tab and dismissed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?compare=1&b.dim.batch=4&b.dim.nope=3');
  await waitForPlan(page);
  await waitForComparison(page);
  const dialog = page.getByTestId('compare-dialog');
  const notice = page.getByTestId('link-notice');
  await expect(notice).toHaveCount(1);
  await expect(notice.getByTestId('link-notice-entry')).toHaveText(['b.dim.nope=3: the model has no dim nope (its dims: batch)']);
  // nothing of the dialog lies over the notice: the point at its middle is the notice's own
  const onTop = await notice.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && el.contains(hit);
  });
  expect(onTop).toBe(true);
  // the dialog keeps the keyboard: its Dismiss button is one of the stops of Tab
  const dismiss = notice.getByRole('button', { name: 'Dismiss the note about the link' });
  for (let i = 0; i < 30 && !(await dismiss.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
  await expect(dismiss).toBeFocused();
  await snap(page, 'links-compare-notice-in-dialog');
  await page.keyboard.press('Enter');
  await expect(notice).toHaveCount(0);
  await expect(dialog).toBeVisible();
  // closed, the dialog leaves the page without the notice dismissed in it
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});
