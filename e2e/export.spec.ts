// Saving, exporting and sharing like a person would: download the plan file and
// drop it back on the page (same peak, no planning, usable as a diff side);
// download the MiniMalloc CSVs and solve them with the command-line tool (same
// peak); the C header, ASCII chart, SVG and PNG; links that reopen the same
// view; model=<url> on another host with and without CORS.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { customOpModel } from './assumption-models';
import { batchModel, dropFile, haveModel, MODELS_DIR, NO_MODELS, readModel, serveModel, snap, summary, waitForError, waitForModel, waitForPlan, test } from './fixtures';

/** Planning and graph layout share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** Runs the command-line tool in this process; returns its exit code and stdout. */
function cli(args: readonly string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runCli(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** Clicks an export button and returns the downloaded file's name and bytes. */
async function download(page: Page, testId: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).first().click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: readFileSync(path) };
}

test('the saved plan file downloads and reopens by drop with the same peak, then serves as side A of a diff', async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 950 });
  await page.goto('/?dim.batch=2');
  await waitForPlan(page);
  const shown = await summary(page);
  const saved = await download(page, 'export-plan');
  expect(saved.name).toBe(`sample.${shown.target}.${shown.strategy}.batch-2.plan.json`);
  const json = JSON.parse(saved.bytes.toString('utf8')) as { format: string; plan: { peak: number; buffers: unknown[]; suggestions?: unknown[] }; settings: { dims: Record<string, number> } };
  expect(json).toMatchObject({ format: 'heapscope-plan', plan: { peak: shown.peak }, settings: { dims: { batch: 2 } } });
  // the suggestions the Details list, as plan --save writes them ([] when none)
  expect(Array.isArray(json.plan.suggestions)).toBe(true);
  expect(json.plan.buffers).toHaveLength(shown.buffers);

  // Plan B on screen (batch 4), then the saved batch-2 plan dropped on the page.
  await page.getByTestId('dims-panel').getByRole('spinbutton', { name: /(^| · )batch$/ }).fill('4');
  await page.keyboard.press('Enter');
  await page.waitForFunction((before) => window.heapscope?.summary().peak !== before && document.body.dataset.status === 'ready', shown.peak);
  await dropFile(page, saved.name, saved.bytes);
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog).toHaveAttribute('aria-label', 'Saved plan');
  await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(shown.peak));
  await expect(dialog.getByTestId('compare-heap-a').getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', String(shown.buffers));
  // The drop did not open it as a model, but the saved plan is what is on screen: the status and summary() describe it
  // (they went on describing the hidden batch-4 plan).
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  expect(await summary(page)).toMatchObject({ model: 'sample.onnx', peak: shown.peak, buffers: shown.buffers, target: shown.target, strategy: shown.strategy });
  // Saved again from the viewer it is no side of a comparison: no .a in its name.
  const again = await download(page, 'compare-save-a');
  expect(again.name).toBe(`sample.${shown.target}.${shown.strategy}.batch-2.plan.json`);
  await snap(page, 'export-saved-plan');

  await dialog.getByTestId('compare-saved-with-shown').click();
  await expect(dialog).toHaveAttribute('aria-label', 'Compare plans');
  await expect(dialog.getByTestId('diff-cause').first()).toHaveAttribute('data-kind', 'dim-changed');
  await expect(dialog.getByTestId('diff-cause').first()).toContainText('batch 2 → 4');
  // A comparison: summary() is the page's plan on screen again (batch 4), and each side saves as its side.
  expect((await summary(page)).peak).not.toBe(shown.peak);
  expect((await download(page, 'compare-save-a')).name).toBe(`sample.${shown.target}.${shown.strategy}.batch-2.a.plan.json`);
});

test('a plan saved by the command-line tool opens on a page with no model: its heap and numbers, as saved', async ({ page, consoleErrors }) => {
  // The page is opened on a model that is not there, on purpose: the browser logs its 404.
  consoleErrors.allow(/status of 404 .*\/e2e\/absent\.onnx/);
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-saved-'));
  const path = join(dir, 'cli.plan.json');
  // Exit 3: the sample does not fit the mcu's SRAM; the plan is saved all the same.
  expect([0, 3]).toContain(cli(['plan', 'public/sample.onnx', '--dim', 'batch=3', '--target', 'mcu', '--save', path]).code);
  const saved = JSON.parse(readFileSync(path, 'utf8')) as { model: string; plan: { peak: number; buffers: unknown[]; regions: unknown[] } };
  await page.route((url) => url.pathname === '/e2e/absent.onnx', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto('/?model=/e2e/absent.onnx');
  await waitForError(page, 'absent.onnx');
  await dropFile(page, 'cli.plan.json', readFileSync(path));
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(saved.plan.peak));
  await expect(dialog.getByTestId('saved-plan-facts')).toContainText('batch=3');
  await expect(dialog.getByTestId('saved-plan-facts')).toContainText('mcu');
  // Drawn from the file: every saved buffer, in a lane per region.
  await expect(dialog.getByTestId('compare-heap-a').getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', String(saved.plan.buffers.length));
  await expect(dialog.getByTestId('compare-heap-a').getByTestId('heap-lane')).toHaveCount(saved.plan.regions.length);
  // Its regions table reads whole: every heading ("lower bound" was cut to "lower …") and every size.
  const regions = dialog.getByTestId('saved-plan-regions');
  await expect(regions.locator('tbody tr')).toHaveCount(saved.plan.regions.length);
  const cut = await regions.locator('th, td').evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent));
  expect(cut).toEqual([]);
  // Nothing to compare it with: the page has no plan.
  await expect(dialog.getByTestId('compare-saved-with-shown')).toBeDisabled();
  // The saved plan is the plan on screen: the page said 'idle'/'error' and summary() model null.
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  expect(await summary(page)).toMatchObject({ model: saved.model, peak: saved.plan.peak, buffers: saved.plan.buffers.length, target: 'mcu' });
  await snap(page, 'export-cli-plan-opened');
});

test('a saved plan named by the link (model=) opens as a dropped one does, not as a model refused', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-linked-'));
  const path = join(dir, 'linked.plan.json');
  expect([0, 3]).toContain(cli(['plan', 'public/sample.onnx', '--dim', 'batch=3', '--target', 'mcu', '--save', path]).code);
  const saved = JSON.parse(readFileSync(path, 'utf8')) as { model: string; plan: { peak: number; strategy: string } };
  await serveModel(page, '/e2e/linked.plan.json', readFileSync(path));
  await page.goto('/?model=/e2e/linked.plan.json');
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(saved.plan.peak));
  await expect(dialog.getByTestId('saved-plan-facts')).toContainText('batch=3');
  await expect(page.getByTestId('error-message')).toHaveCount(0);
  // The saved plan is the plan on screen: the page said 'idle' and summary() model null.
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  expect(await summary(page)).toMatchObject({ model: saved.model, peak: saved.plan.peak, target: 'mcu', strategy: saved.plan.strategy });
  // The address bar still names the plan, so the link reopens it.
  expect(new URL(page.url()).searchParams.get('model')).toBe('/e2e/linked.plan.json');
});

test("a saved plan named by the link names the link's settings it does not take, as the plan keeps its own", async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-linked-'));
  const path = join(dir, 'linked.plan.json');
  expect([0, 3]).toContain(cli(['plan', 'public/sample.onnx', '--dim', 'batch=3', '--target', 'mcu', '--save', path]).code);
  await serveModel(page, '/e2e/linked.plan.json', readFileSync(path));
  await page.goto('/?model=/e2e/linked.plan.json&dim.batch=2&strategy=naive');
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('saved-plan-facts')).toContainText('batch=3');
  const notice = page.getByTestId('link-notice');
  await expect(notice.getByTestId('link-notice-entry')).toHaveText([
    'strategy=naive: does not apply to a saved plan, which keeps the settings it was saved with',
    'dim.batch=2: does not apply to a saved plan, which keeps the settings it was saved with',
  ]);
});

test('a plan saved before plans recorded whether every size was known reads as a lower estimate when it lists an unknown size', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-old-'));
  const model = join(dir, 'custom-op-with-a-long-name-saved-by-an-older-heapscope.onnx');
  writeFileSync(model, customOpModel());
  const path = join(dir, 'old.plan.json');
  cli(['plan', model, '--save', path]);
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { plan: { complete?: boolean; peak: number; assumptions: { unknown: unknown[] } } };
  expect(doc.plan.assumptions.unknown.length).toBeGreaterThan(0);
  delete doc.plan.complete;
  await page.goto('/');
  await waitForPlan(page);
  await dropFile(page, 'old.plan.json', Buffer.from(JSON.stringify(doc)));
  const dialog = page.getByTestId('compare-dialog');
  const peak = dialog.getByTestId('compare-summary-a').locator('strong');
  await expect(peak).toHaveText(/^≥ /);
  await expect(dialog.getByTestId('saved-plan-facts')).toContainText('a lower estimate');
  await expect(dialog.getByTestId('compare-heap-a').locator('text.heap-lane-label').first()).toContainText('peak ≥');
  await expect(dialog.getByTestId('compare-heap-a').getByTestId('heap-lane').first()).toContainText('peak at least');
  // the peak stays on one line beside a long file name
  const box = await peak.boundingBox();
  expect(box!.height).toBeLessThan(1.6 * Number.parseFloat(await peak.evaluate((e) => getComputedStyle(e).lineHeight === 'normal' ? getComputedStyle(e).fontSize : getComputedStyle(e).lineHeight)));
});

test('a broken plan file is refused with a sentence naming the file and the field', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page);
  const broken = JSON.stringify({ format: 'heapscope-plan', version: 1, model: 'x.onnx', settings: {}, nodes: [], plan: {} });
  await page.getByTestId('open-saved-plan').setInputFiles({ name: 'broken.plan.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
  await expect(page.getByTestId('compare-error')).toContainText('broken.plan.json');
  await expect(page.getByTestId('compare-error')).toContainText('settings');
  await expect(page.getByTestId('compare-dialog')).toHaveCount(0);
});

test('the exported MiniMalloc CSVs re-solve to the plan\'s peak with the command-line tool', async ({ page }) => {
  await page.goto('/?dim.batch=3');
  await waitForPlan(page);
  const { peak, target, strategy } = await summary(page);
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-csv-'));
  for (const kind of ['problem', 'solution']) {
    const csv = await download(page, `export-csv-${kind}`);
    expect(csv.name).toBe(`sample.${target}.${strategy}.batch-3.ram.${kind}.csv`);
    const text = csv.bytes.toString('utf8');
    // The problem leaves the offsets to the solver and keeps each buffer's alignment; the solution is plan --csv's file, byte for byte.
    expect(text.split('\n')[0]).toBe(kind === 'problem' ? 'id,lower,upper,size,alignment' : 'id,lower,upper,size,alignment,offset');
    if (kind === 'solution') {
      const cliCsv = join(dir, 'cli.csv');
      expect(cli(['plan', 'public/sample.onnx', '--dim', 'batch=3', '--target', String(target), '--strategy', String(strategy), '--csv', cliCsv]).err).toBe('');
      expect(text).toBe(readFileSync(cliCsv, 'utf8'));
    }
    const path = join(dir, csv.name);
    writeFileSync(path, csv.bytes);
    const solved = cli(['solve', path, '--json']);
    expect(solved.err).toBe('');
    expect(JSON.parse(solved.out)).toMatchObject({ peak, valid: true });
  }
});

test('the C header, ASCII chart and heap SVG and PNG describe the plan on screen', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page);
  const s = await summary(page);
  const header = (await download(page, 'export-c-header')).bytes.toString('utf8');
  expect(header).toContain(`#define HEAPSCOPE_PEAK_BYTES ${s.peak}UL`);
  expect(header).toMatch(/#ifndef HEAPSCOPE_PLAN_SAMPLE_H/);

  const ascii = await download(page, 'export-ascii');
  const planned = cli(['plan', 'public/sample.onnx', '--ascii']);
  expect(planned.code).toBe(0);
  expect(planned.out).toContain(ascii.bytes.toString('utf8').trim());

  const saved = await download(page, 'export-heap-svg');
  const svg = saved.bytes.toString('utf8');
  expect(saved.name).toBe(`sample.${s.target}.${s.strategy}.heap.svg`);
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg.match(/data-buffer="\d+"/g)?.length).toBe(s.buffers);
  // The title in human units with model, target and strategy; a legend; the peak chart.
  const shownPeak = (await page.getByTestId('heap-peak').locator('strong').textContent())!;
  expect(svg).toContain(`sample.onnx · peak ${shownPeak} · lower bound `);
  // The plan rests on the default batch the banner names: the image says so too.
  expect(s.warnings.some((w) => w.includes('batch=1'))).toBe(true);
  expect(svg).toContain(` · ${s.strategy} on ${s.target} · assumes batch=1 (default)</text>`);
  expect(svg).not.toContain(`${s.peak} bytes`);
  expect(svg).toMatch(/<g class="legend" data-legend="true">[\s\S]*>activation<\/text>[\s\S]*>lower bound<\/text>[\s\S]*>peak<\/text>/);
  expect(svg).toContain('Live bytes per kind and region');
  // The legend names what the one on screen names, no kind the plan lacks.
  expect(legendTexts(svg)).toEqual(await screenLegend(page));

  const pngFile = await download(page, 'export-heap-png');
  expect(pngFile.name).toBe(`sample.${s.target}.${s.strategy}.heap.png`);
  const png = pngFile.bytes;
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  // Width and height from the IHDR chunk: the SVG's 960 pixels at 2 device pixels each.
  expect(png.readUInt32BE(16)).toBe(1920);
  expect(png.readUInt32BE(20)).toBeGreaterThan(400);
  await page.goto('about:blank');
  await page.setContent(`<img src="data:image/png;base64,${png.toString('base64')}" style="width:960px">`);
  await snap(page, 'export-heap-png');
});

/** The heap SVG legend's words, without the size-limit line (the screen labels the limit at the end of the lane's title row). */
function legendTexts(svg: string): string[] {
  const legend = svg.match(/<g class="legend"[\s\S]*?<\/g>/)![0];
  return [...legend.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!).filter((t) => t !== 'size limit');
}

/** The words of the heap pane's legend. */
async function screenLegend(page: Page): Promise<string[]> {
  return (await page.locator('.heap-pane .heap-legend li').allTextContents()).map((t) => t.trim());
}

test("GPT-2 on cpu: the heap SVG's legend names only the kinds the screen's does, and its buffers carry their names", async ({ page }) => {
  const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(GPT2), NO_MODELS);
  await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
  await page.goto(`/?model=/e2e/${GPT2}&target=cpu`);
  await waitForModel(page, GPT2);
  await waitForPlan(page);
  const svg = (await download(page, 'export-heap-svg')).bytes.toString('utf8');
  const screen = await screenLegend(page);
  expect(screen).not.toContain('scratch');
  expect(legendTexts(svg)).toEqual(screen);
  const names = (JSON.parse(cli(['plan', fileURLToPath(new URL(GPT2, MODELS_DIR)), '--target', 'cpu', '--json']).out) as { buffers: { name: string }[] }).buffers.map((b) => b.name);
  const labels = [...svg.matchAll(/<text [^>]*data-label="\d+">([^<]*)<\/text>/g)].map((m) => m[1]!);
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(names.some((n) => n === label || n.startsWith(label.replace(/…$/, '')))).toBe(true);
});

test("GPT-2 with only past_seq_len set: the heap SVG's title states the default seq_len=128 the plan rests on, as the banner does", async ({ page }) => {
  const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(GPT2), NO_MODELS);
  await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
  await page.goto(`/?model=/e2e/${GPT2}&target=mcu&dim.past_seq_len=64`);
  await waitForModel(page, GPT2);
  await waitForPlan(page);
  const s = await summary(page);
  expect(s.warnings.some((w) => w.includes('total_seq_len=192'))).toBe(true);
  const svg = (await download(page, 'export-heap-svg')).bytes.toString('utf8');
  const title = [...svg.matchAll(/<text [^>]*data-title="true">([^<]*)<\/text>/g)].map((m) => m[1]!).join(' ');
  // The title wraps at its separators: a line may end before "assumes".
  expect(title).toMatch(/ · past_seq_len=64( · | )assumes batch_size=1, seq_len=128, total_seq_len=192 \(defaults\)$/);
});

test("the heap SVG's title names the dims and shapes the plan was made with, so a pasted image keeps them", async ({ page }) => {
  await page.goto('/?dim.batch=2&shape.image=2x3x96x96');
  await waitForPlan(page);
  const s = await summary(page);
  const svg = (await download(page, 'export-heap-svg')).bytes.toString('utf8');
  expect(svg).toContain(` · ${s.strategy} on ${s.target} · batch=2 · image=2×3×96×96</text>`);
});

test('the graph view saves as a standalone SVG and as PNG', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page);
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  const s = await summary(page);
  const saved = await download(page, 'export-graph-svg');
  expect(saved.name).toBe(`sample.${s.target}.${s.strategy}.graph.svg`);
  const svg = saved.bytes.toString('utf8');
  expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  // The page's stylesheets do not travel with the file: colours are presentation attributes (a style attribute breaks the CSP).
  expect(svg).toMatch(/ fill="rgb\(/);
  expect(svg).not.toMatch(/ style="/);
  expect(svg).toContain('stem/conv');
  expect(svg).toMatch(/sample\.onnx · peak [\d.]+ [KMG]?i?B · lower bound /);
  expect(svg).toContain('Scale: full size');
  expect(svg).toMatch(/<g class="legend" data-legend="true">[\s\S]*>operator<\/text>/);
  const pngFile = await download(page, 'export-graph-png');
  expect(pngFile.name).toBe(`sample.${s.target}.${s.strategy}.graph.png`);
  const png = pngFile.bytes;
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(png.readUInt32BE(16)).toBeGreaterThan(100);
  await page.goto('about:blank');
  await page.setContent(`<img src="data:image/png;base64,${png.toString('base64')}" style="max-width:100%;max-height:100vh">`);
  await snap(page, 'export-graph-png');
});

test('the URL follows the view, and a copied link reopens the same plan', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await waitForPlan(page);
  await page.getByTestId('target-select').selectOption('mcu');
  await waitForPlan(page);
  await page.getByTestId('strategy-select').selectOption('best-fit');
  await waitForPlan(page, 'best-fit');
  await page.getByTestId('dims-panel').getByRole('spinbutton', { name: /(^| · )batch$/ }).fill('3');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('dim.batch') === '3' && document.body.dataset.status === 'ready');
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toEqual({ target: 'mcu', strategy: 'best-fit', 'dim.batch': '3' });
  const before = await summary(page);

  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('export-note')).toHaveText('Link copied');
  await page.getByTestId('export-panel').scrollIntoViewIfNeeded();
  await snap(page, 'export-share-panel');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(page.url());

  const other = await context.newPage();
  await other.goto(copied);
  await waitForPlan(other, 'best-fit');
  // The same plan and settings; the graph's drawing time is the new page's own.
  const reopened = await summary(other);
  expect({ ...reopened, graph: undefined }).toEqual({ ...before, graph: undefined });
});

test('model=<url> on another host: loads with progress when CORS allows it, says CORS when not', async ({ page, consoleErrors }) => {
  // The browser logs the refused request of the host without CORS; the page says so in its banner.
  consoleErrors.allow(/closed\.onnx/);
  // A real second origin: a server in this process, one path with CORS allowed
  // (answered only once the test has seen the progress), one without.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = createServer((request, response) => {
    const body = Buffer.from(batchModel());
    if (request.url === '/shared.onnx') {
      void held.then(() => response.writeHead(200, { 'access-control-allow-origin': '*', 'content-length': body.length }).end(body));
    } else response.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await page.goto(`/?model=${encodeURIComponent(`${base}/shared.onnx`)}`);
    const progress = page.getByTestId('progress');
    await expect(progress).toContainText('shared.onnx');
    await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuetext', 'Waiting for the server');
    await snap(page, 'export-model-url-progress');
    release();
    await waitForModel(page, 'shared.onnx');
    expect(new URL(page.url()).searchParams.get('model')).toBe(`${base}/shared.onnx`);

    await page.goto(`/?model=${encodeURIComponent(`${base}/closed.onnx`)}`);
    await waitForError(page, 'closed.onnx');
    await expect(page.getByTestId('error-message')).toContainText('CORS');
    await expect(page.getByTestId('error-message')).toContainText(`${base}/closed.onnx`);
    await snap(page, 'export-model-url-cors');
  } finally {
    release();
    server.close();
  }
});

test('Open file takes a saved plan as a drop does, and refuses a broken one with the same sentence', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-picked-'));
  const path = join(dir, 'picked.plan.json');
  expect(cli(['plan', 'public/sample.onnx', '--dim', 'batch=2', '--save', path]).code).toBe(0);
  const saved = JSON.parse(readFileSync(path, 'utf8')) as { model: string; plan: { peak: number } };
  await page.goto('/');
  await waitForPlan(page);
  await page.locator('#open-file').setInputFiles(path);
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(saved.plan.peak));
  await expect(dialog.getByTestId('saved-plan-facts')).toContainText('batch=2');
  // The page's model stays behind it; summary() describes the saved plan on screen, then the model once it closes.
  expect(await summary(page)).toMatchObject({ model: saved.model, peak: saved.plan.peak });
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  expect((await summary(page)).model).toBe('sample.onnx');
  const broken = JSON.stringify({ format: 'heapscope-plan', version: 1, model: 'x.onnx', settings: {}, nodes: [], plan: {} });
  await page.locator('#open-file').setInputFiles({ name: 'broken.plan.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
  // Refused as a bad model file is: the banner names it, and the model on screen stays.
  await waitForError(page, 'broken.plan.json');
  await expect(page.getByTestId('error-message')).toContainText('settings');
  await expect(page.getByTestId('compare-error')).toHaveCount(0);
  expect((await summary(page)).model).toBe('sample.onnx');
});
