// The memory map on the page: the settings' spill switch (the CLI's --spill)
// re-plans and travels in the link as spill=off, giving the plan the command
// line gives with the same switch; the side bar's memory map and summary()
// give every region's figures as plan --json does, also with the weights
// copied to a RAM region and graph I/O owned by the application (bytes moved
// included), and so does the heap's SVG export (its memory-map bars, and each
// limit line where the arena runs out of room under the weights); Compare
// ranks the buffers a spilled plan moved to the slow memory as diff does, and
// gives the bytes moved per region plan --json gives, weights read there
// included. On GPT-2 with a past, the side bar's memory map and the live-bytes
// chart split the peak step alike: logits as I/O, the KV cache apart.

import { existsSync, readFileSync } from 'node:fs';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { fileURLToPath } from 'node:url';
import { runCli } from '../cli/main';
import { formatBytes } from '../src/shared/format';
import { haveModel, MODELS_DIR, NO_MODELS, openDropped, readModel, serveModel, snap, summary, test, waitForModel, waitForPlan } from './fixtures';

const ULTRAFACE = 'ultraface_RFB-320.onnx';

/** Planning the sample on mcu twice shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** The plan's figures `plan <file> --json ...args` gives (exit 3, over a limit, still prints the plan). */
interface CliPlan {
  readonly peak: number;
  readonly fits: boolean;
  readonly regions: readonly CliRegion[];
}

interface CliRegion {
  readonly name: string;
  readonly peak: number;
  readonly lowerBound: number;
  readonly sizeLimit?: number;
  readonly overBy: number;
  readonly spilled?: number;
  readonly weights: number;
  readonly io: number;
  readonly used: number;
  readonly moved?: { readonly written: number; readonly read: number };
}

/** A region of `plan --json` as summary().regions gives it. */
function asSummary(r: CliRegion) {
  return { name: r.name, peak: r.peak, lowerBound: r.lowerBound, sizeLimit: r.sizeLimit ?? null, overBy: r.overBy, spilled: r.spilled ?? null, weights: r.weights, io: r.io, used: r.used };
}

/** Clicks an export button and returns the downloaded file's bytes. */
async function download(page: Page, testId: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).first().click()]);
  return readFileSync(await file.path());
}

/** The opening tag of the element of `svg` that carries `marker`. */
function tagWith(svg: string, marker: string): string {
  const at = svg.indexOf(marker);
  expect(at).toBeGreaterThanOrEqual(0);
  return svg.slice(svg.lastIndexOf('<', at), svg.indexOf('>', at) + 1);
}

/** Runs the CLI in this process: `plan <file> --json ...args`. */
function cliPlan(file: string, args: readonly string[]): CliPlan {
  let out = '';
  let err = '';
  const code = runCli(['plan', file, '--json', ...args], { out: (t) => (out += t), err: (t) => (err += t) });
  if (code !== 0 && code !== 3) throw new Error(`heapscope plan ${file} ${args.join(' ')} exited ${code}: ${err}`);
  return JSON.parse(out) as CliPlan;
}

test('the spill switch re-plans the sample on mcu as --spill off does, and the link keeps it off', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?target=mcu');
  await waitForPlan(page);
  const spilled = cliPlan('public/sample.onnx', ['--target', 'mcu']);
  const kept = cliPlan('public/sample.onnx', ['--target', 'mcu', '--spill', 'off']);
  const on = await summary(page);
  expect(on).toMatchObject({ peak: spilled.peak, fits: true });
  expect(on.settings?.spill).toBe(true);

  const toggle = page.getByRole('switch', { name: 'Spill to the next region' });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await page.waitForFunction((peak) => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak !== peak, on.peak);
  const off = await summary(page);
  expect(off).toMatchObject({ peak: kept.peak, fits: false });
  expect(off.settings?.spill).toBe(false);
  await expect(page.getByTestId('heap-over')).toContainText('sram needs');
  await expect.poll(() => new URL(page.url()).searchParams.get('spill')).toBe('off');
  await snap(page, 'memory-map-spill-off');

  // The copied link opens with the switch off and the same plan.
  await page.goto(`/${new URL(page.url()).search}`);
  await waitForPlan(page);
  expect(await summary(page)).toMatchObject({ peak: kept.peak, fits: false, settings: { spill: false } });
  await expect(page.getByRole('switch', { name: 'Spill to the next region' })).not.toBeChecked();

  // Switched back on, the parameter goes: on is the preset's own.
  await page.getByRole('switch', { name: 'Spill to the next region' }).check();
  await page.waitForFunction((peak) => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak === peak, spilled.peak);
  await expect.poll(() => new URL(page.url()).searchParams.has('spill')).toBe(false);
});

test('the memory map of ultraface on mcu: summary() and the side bar give each region as plan --json does', async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDropped(page, ULTRAFACE, readModel(ULTRAFACE), '/?target=mcu');
  await waitForPlan(page);
  const cli = cliPlan(fileURLToPath(new URL(ULTRAFACE, MODELS_DIR)), ['--target', 'mcu']);
  const s = await summary(page);
  expect(s).toMatchObject({ peak: cli.peak, fits: cli.fits });
  const expected = cli.regions.map(asSummary);
  expect(s.regions).toEqual(expected);
  // The activations spilled to the external RAM: the SRAM is within its limit and the plan fits the device.
  expect(cli.fits).toBe(true);
  expect(expected.find((r) => r.name === 'ext-ram')!.spilled).toBeGreaterThan(0);

  const bars = page.getByTestId('memory-map-region');
  await expect(bars).toHaveCount(expected.length);
  for (const r of expected) {
    const bar = page.locator(`[data-testid="memory-map-region"][data-region="${r.name}"]`);
    await expect(bar).toHaveAttribute('data-peak', String(r.peak));
    await expect(bar).toHaveAttribute('data-limit', String(r.sizeLimit ?? ''));
    await expect(bar).toHaveAttribute('data-over-by', String(r.overBy));
    await expect(bar).toHaveAttribute('data-spilled', String(r.spilled ?? ''));
  }
  // Two memories: each is fast or slow beside the other, and the limit fields read as their sizes do.
  await expect(page.locator('[data-testid="memory-map-region"][data-region="sram"] .memory-map-name')).toHaveText('sram fast');
  await expect(page.locator('[data-testid="memory-map-region"][data-region="ext-ram"] .memory-map-name')).toHaveText('ext-ram slow');
  await expect(page.getByLabel('sram size limit')).toHaveValue('512 KiB');
  await expect(page.getByLabel('ext-ram size limit')).toHaveValue('8 MiB');
  await expect(page.locator('[data-testid="memory-map-region"][data-region="ext-ram"]').getByTestId('memory-map-spilled')).toContainText(/\d+ buffers spilled here, \S+ \S+ of them in all over the run/);
  await expect(page.getByTestId('memory-map-weights')).toContainText('weights');
  await page.getByTestId('memory-map').scrollIntoViewIfNeeded();
  await snap(page, 'memory-map-ultraface-mcu');
});

test("ultraface's weights copied to sram, larger than its limit, no spilling: the heap lane's sum comes out negative, as far over as the banner says", async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  // no spilling keeps the activations in the sram with the weights, so it has a lane
  await openDropped(page, ULTRAFACE, readModel(ULTRAFACE), '/?target=mcu&weights=copy-to:sram&spill=off');
  await waitForPlan(page);
  const cli = cliPlan(fileURLToPath(new URL(ULTRAFACE, MODELS_DIR)), ['--target', 'mcu', '--weights', 'copy-to:sram', '--spill', 'off']);
  const sram = cli.regions.find((r) => r.name === 'sram')!;
  expect(sram.weights).toBeGreaterThan(sram.sizeLimit!);
  const room = sram.sizeLimit! - sram.weights;
  // it read "limit 512 KiB − 1.15 MiB weights = 0 B" while the banner said the sram is 662 KiB over
  expect(-room).toBe(sram.overBy - sram.peak);
  expect((await summary(page)).warnings[0]).toContain(`sram needs ${formatBytes(sram.weights + sram.peak)}`);
  expect((await summary(page)).warnings[0]).toContain(`${formatBytes(sram.overBy)} over its ${formatBytes(sram.sizeLimit!)} limit`);
  const sum = `limit ${formatBytes(sram.sizeLimit!)} − ${formatBytes(sram.weights)} weights = −${formatBytes(-room)}`;
  await expect(page.getByTestId('heap-lane-limit').first()).toContainText(sum);
  const svg = (await download(page, 'export-heap-svg')).toString('utf8');
  // the export states the verdict above the lanes
  expect(svg).toContain(`${formatBytes(sram.overBy)} over its ${formatBytes(sram.sizeLimit!)} limit`);
  expect(svg).not.toContain('weights = 0 B');
  await snap(page, 'memory-map-weights-over-sram');
  // a lane too narrow for the sum says how far over, never the sum come out at 0 B
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(page.getByTestId('heap-lane-limit').first()).toHaveText(new RegExp(`^(${sum} .*|over by ${formatBytes(sram.overBy)})$`));
});

test("ultraface's weights copied to sram, larger than its limit, activations spilled: no sram lane of 'peak 0 B', a line of what it holds", async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openDropped(page, ULTRAFACE, readModel(ULTRAFACE), '/?target=mcu&weights=copy-to:sram');
  await waitForPlan(page);
  const cli = cliPlan(fileURLToPath(new URL(ULTRAFACE, MODELS_DIR)), ['--target', 'mcu', '--weights', 'copy-to:sram']);
  const sram = cli.regions.find((r) => r.name === 'sram')!;
  // every activation spilled to ext-ram: the sram holds the weights alone, over its limit
  expect([sram.peak, sram.overBy]).toEqual([0, sram.weights - sram.sizeLimit!]);
  const line = `sram holds no planned buffer (its ${formatBytes(sram.weights)} are weights, ${formatBytes(sram.overBy)} over its ${formatBytes(sram.sizeLimit!)} limit), so it has no lane`;
  await expect(page.getByTestId('heap-empty-regions')).toHaveText(line);
  await expect(page.getByTestId('heap-lane-limit')).toHaveCount(1); // ext-ram's
  await expect(page.getByTestId('heap-lane-limit')).not.toContainText('weights');
  const svg = (await download(page, 'export-heap-svg')).toString('utf8');
  expect(svg).toContain(`data-empty-regions="true">${line}</text>`);
  expect(svg).not.toContain('<g data-region="sram">');
  expect(svg).not.toMatch(/peak 0 B/);
});

test("more sram for ultraface on mcu: the headline peak grows as a sum of the two memories' peaks, and says so, with each memory's own", async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  await openDropped(page, ULTRAFACE, readModel(ULTRAFACE), '/?target=mcu');
  await waitForPlan(page);
  const before = await summary(page);
  const regionsText = (s: typeof before) => `the sum of each memory's own peak, ${(s.regions ?? []).map((r) => `${r.name} ${formatBytes(r.peak)}`).join(' + ')}`;
  await expect(page.getByTestId('headline-peak')).toContainText(`Peak ${formatBytes(before.peak!)} with best, ${regionsText(before)}.`);
  await page.getByLabel('sram size limit').fill('1 MiB');
  await page.getByLabel('sram size limit').press('Enter');
  await page.waitForFunction((peak) => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak !== peak, before.peak);
  const after = await summary(page);
  const peakOf = (s: typeof before, name: string) => s.regions!.find((r) => r.name === name)!.peak;
  // Bytes moved into the fast memory: its peak grows, the slow one's does not, and so does their sum.
  expect(peakOf(after, 'sram')).toBeGreaterThan(peakOf(before, 'sram'));
  expect(peakOf(after, 'ext-ram')).toBeLessThanOrEqual(peakOf(before, 'ext-ram'));
  expect(after.peak).toBeGreaterThan(before.peak!);
  expect(after.peak).toBe(peakOf(after, 'sram') + peakOf(after, 'ext-ram'));
  await expect(page.getByTestId('headline-peak')).toContainText(`Peak ${formatBytes(after.peak!)} with best, ${regionsText(after)}.`);
});

test("GPT-2 on mcu: the heap header and the settings' summary say the peak is the sum of the two memories' peaks, each memory's own in the title", async ({ page }) => {
  const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(GPT2), NO_MODELS);
  await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
  await page.goto(`/?model=/e2e/${GPT2}&target=mcu`);
  await waitForModel(page, GPT2);
  await waitForPlan(page);
  const shown = await summary(page);
  const held = (shown.regions ?? []).filter((r) => r.peak > 0);
  expect(held.map((r) => r.name)).toEqual(['sram', 'ext-ram']);
  expect(shown.peak).toBe(held[0]!.peak + held[1]!.peak);
  const each = `the sum of each memory's own peak, ${held.map((r) => `${r.name} ${formatBytes(r.peak)}`).join(' + ')}`;
  // "peak 680 KiB" alone reads as one memory's figure: the header names the sum, as the headline does
  const header = page.getByTestId('heap-peak');
  const [note, mark] = [header.getByTestId('peak-regions'), header.getByTestId('peak-sum-mark')];
  await expect(header).toContainText(`peak ${formatBytes(shown.peak!)} (sum of 2 memories) · bound`);
  await expect(note).toHaveAttribute('title', each);
  await expect(page.getByTestId('headline-peak')).toContainText(each);
  await expect(page.getByTestId('plan-note')).toContainText(`${formatBytes(shown.peak!)} peak (sum of 2 memories),`);
  // a heap pane short of room marks the sum with Σ before "peak", titled alike, so the figures keep one line
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(mark).toBeVisible();
  await expect(mark).toHaveAttribute('title', each);
  await expect(note).toBeHidden();
  await snap(page, 'memory-map-gpt2-mcu-header-1280');
  await page.setViewportSize({ width: 1600, height: 1000 });
  await expect(note).toBeVisible();
  await expect(mark).toBeHidden();
  await snap(page, 'memory-map-gpt2-mcu-header-1600');
});

test('weights copied to the external RAM and application-owned I/O, chosen in the settings, give the figures plan --json gives', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/?target=mcu');
  await waitForPlan(page);
  const cli = cliPlan('public/sample.onnx', ['--target', 'mcu', '--weights', 'copy-to:ext-ram', '--io', 'application']);

  await page.getByLabel('weights', { exact: true }).selectOption('copy-to:ext-ram');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.weights === 'copy-to:ext-ram');
  await page.getByLabel('graph I/O', { exact: true }).selectOption('application');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.io === 'application');
  const s = await summary(page);
  expect(s).toMatchObject({ peak: cli.peak, fits: cli.fits, settings: { weights: 'copy-to:ext-ram', io: 'application' } });
  expect(s.regions).toEqual(cli.regions.map(asSummary));
  const ext = cli.regions.find((r) => r.name === 'ext-ram')!;
  expect(ext.weights).toBeGreaterThan(0);
  expect(ext.used).toBe(ext.peak + ext.weights);
  expect(cli.regions.every((r) => r.io === 0)).toBe(true);

  // The side bar draws each region's weights below its arena, and says where weights and I/O are.
  for (const r of cli.regions) {
    const bar = page.locator(`[data-testid="memory-map-region"][data-region="${r.name}"]`);
    await expect(bar).toHaveAttribute('data-weights', String(r.weights));
    await expect(bar).toHaveAttribute('data-used', String(r.used));
    await expect(bar).toHaveAttribute('data-over-by', String(r.overBy));
    // The bytes moved there over one inference, the weights read in ext-ram and copied there included.
    await expect(bar).toHaveAttribute('data-moved', String(r.moved!.written + r.moved!.read));
  }
  await expect(page.getByTestId('memory-map-weights')).toContainText('in ext-ram below its arena, copied from flash at start');
  await expect(page.getByTestId('memory-map-io')).toContainText("the application's own buffers, outside the arena");
  await expect.poll(() => new URL(page.url()).searchParams.get('weights')).toBe('copy-to:ext-ram');
  await expect.poll(() => new URL(page.url()).searchParams.get('io')).toBe('application');
  await page.getByTestId('memory-map').scrollIntoViewIfNeeded();
  await snap(page, 'memory-map-weights-ext-ram');

  // The link reopens the same plan.
  await page.goto(`/${new URL(page.url()).search}`);
  await waitForPlan(page);
  expect((await summary(page)).regions).toEqual(cli.regions.map(asSummary));

  // The heap's SVG export draws the same bars with the same figures, and each limit line at the arena bytes the weights leave.
  const svg = (await download(page, 'export-heap-svg')).toString('utf8');
  for (const r of cli.regions) {
    const bar = tagWith(svg, `class="memory-map-region" data-region="${r.name}"`);
    expect(bar).toContain(` data-used="${r.used}" data-size-limit="${r.sizeLimit ?? ''}" data-over-by="${r.overBy}" data-weights="${r.weights}"`);
    expect(bar).toContain(` data-moved="${r.moved!.written + r.moved!.read}"`);
    if (r.sizeLimit !== undefined && svg.includes(`<g data-limit="${r.sizeLimit}"`)) expect(tagWith(svg, `<g data-limit="${r.sizeLimit}"`)).toContain(`data-arena-limit="${r.sizeLimit - r.weights}"`);
  }
  expect(svg).toContain('in ext-ram below its arena, copied from flash at start</text>');
  const png = await download(page, 'export-heap-png');
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  await page.goto('about:blank');
  await page.setContent(`<img src="data:image/png;base64,${png.toString('base64')}" style="width:960px">`);
  await snap(page, 'memory-map-export-heap-png');
});

test('Compare of --spill off with the spilled plan lists the buffers that went to the slow memory as diff does', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/?target=mcu&spill=off&compare=1&b.target=mcu');
  await waitForPlan(page);
  await page.waitForFunction(() => window.heapscope?.summary().compare != null, undefined, { timeout: 60_000 });
  let out = '';
  const code = runCli(['diff', 'public/sample.onnx', 'public/sample.onnx', '--target', 'mcu', '--spill', 'off', '--b-spill', 'on', '--json'], { out: (t) => (out += t), err: () => undefined });
  expect(code).toBe(0);
  const moved = (JSON.parse(out) as { moved: { regions: { name: string; movedA: number; movedB: number }[]; buffers: { direction: string; movedA: number; movedB: number }[] } }).moved;
  const dialog = page.getByTestId('compare-dialog');
  const section = dialog.getByTestId('diff-moved');
  await expect(section).toBeVisible();
  for (const r of moved.regions) {
    const row = section.locator(`[data-testid="diff-moved-region"][data-region="${r.name}"]`);
    await expect(row).toHaveAttribute('data-moved-a', String(r.movedA));
    await expect(row).toHaveAttribute('data-moved-b', String(r.movedB));
  }
  const rows = section.getByTestId('diff-moved-buffer');
  await expect(rows).toHaveCount(Math.min(200, moved.buffers.length));
  const shown = await rows.evaluateAll((els) => els.map((e) => [e.getAttribute('data-direction'), Number(e.getAttribute('data-moved'))]));
  expect(shown).toEqual(moved.buffers.slice(0, 200).map((m) => [m.direction, Math.max(m.movedA, m.movedB)]));
  expect(shown.some(([direction]) => direction === 'to-slow')).toBe(true);
  await section.scrollIntoViewIfNeeded();
  await snap(page, 'memory-map-compare-moved');

  // Weights copied to the SRAM on both sides: each side's bytes moved per region are its plan --json figures, the weights read there and copied in included.
  await page.goto('/?target=mcu&spill=off&weights=copy-to:sram&compare=1&b.target=mcu&b.weights=copy-to:sram');
  await waitForPlan(page);
  await page.waitForFunction(() => window.heapscope?.summary().compare != null, undefined, { timeout: 60_000 });
  const [a, b] = [['--spill', 'off'], []].map((args) => cliPlan('public/sample.onnx', ['--target', 'mcu', '--weights', 'copy-to:sram', ...args]));
  const total = (plan: CliPlan, name: string) => (({ written, read }) => written + read)(plan.regions.find((r) => r.name === name)!.moved!);
  const plain = cliPlan('public/sample.onnx', ['--target', 'mcu', '--spill', 'off']);
  expect(total(a!, 'sram')).toBeGreaterThan(total(plain, 'sram'));
  for (const name of ['sram', 'ext-ram']) {
    const row = page.getByTestId('compare-dialog').locator(`[data-testid="diff-moved-region"][data-region="${name}"]`);
    await expect(row).toHaveAttribute('data-moved-a', String(total(a!, name)));
    await expect(row).toHaveAttribute('data-moved-b', String(total(b!, name)));
  }
});

test('GPT-2 with a past of 64: the memory map and the live-bytes chart split the peak alike, logits as I/O and the KV cache apart', async ({ page }) => {
  const GPT2 = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(GPT2), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, `/e2e/${GPT2}`, readModel(GPT2));
  await page.goto(`/?model=/e2e/${GPT2}&target=cpu&dim.past_seq_len=64`);
  await waitForModel(page, GPT2);
  await waitForPlan(page);
  const bar = page.getByTestId('memory-map-region').first();
  // The cpu's one memory is neither fast nor slow: there is nothing to compare it with.
  await expect(page.getByTestId('memory-map-region')).toHaveCount(1);
  await expect(bar.locator('.memory-map-name')).toHaveText('ram');
  // one memory: its peak is the plan's, the heap header adds nothing to it
  await expect(page.getByTestId('heap-peak').getByTestId('peak-regions')).toHaveCount(0);
  const words = (await bar.locator('.memory-map-legend').textContent())!;
  const part = (name: string) => words.match(new RegExp(`${name} ([\\d.]+ \\S+)`))?.[1];
  // logits (500 KiB) is I/O, as the heap colours it; the cache is a part of its own.
  expect(words).toMatch(/^at its fullest step \d+: I\/O \S+ \S+ · KV cache \S+ \S+ · activations \S+ \S+/);
  expect(Number(await bar.getAttribute('data-kv'))).toBeGreaterThan(0);
  const chart = page.getByTestId('peak-chart');
  await expect(chart).toHaveAttribute('data-kinds', /^activation,io,kv(,|$)/);
  // Each row's label names its kind and, as wide as the column lets it, the bytes it holds at the peak step.
  await expect(chart.locator('text', { hasText: /^activation\b/ })).toContainText(new RegExp(`^activation( ·)? ${part('activations')}`));
  await expect(chart.locator('text', { hasText: /^I\/O\b/ })).toContainText(new RegExp(`^I/O( ·)? ${part('I/O')}`));
  await expect(chart.locator('text', { hasText: /^KV cache\b/ })).toContainText(new RegExp(`^KV cache( ·)? ${part('KV cache')}`));
  await page.getByTestId('memory-map').scrollIntoViewIfNeeded();
  await snap(page, 'memory-map-gpt2-past');
});

test("an incomplete plan (ONNX's test_loop11 on mcu) reads as a lower estimate in the memory map and the model card, which names the Loop's body as where the size is unknown", async ({ page }) => {
  const file = '/usr/share/libonnx-testdata/data/node/test_loop11/model.onnx';
  test.skip(!existsSync(file), 'needs the ONNX conformance data (libonnx-testdata)');
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openDropped(page, 'model.onnx', readFileSync(file), '/?target=mcu');
  const shown = await summary(page);
  expect(shown.complete).toBe(false);
  expect(shown.warnings.some((w) => /1 tensor of unknown size/.test(w))).toBe(true);
  const peak = formatBytes(shown.peak!);
  const sram = page.locator('[data-testid="memory-map-region"][data-region="sram"]');
  await expect(sram.locator('.memory-map-used')).toHaveText(`≥ ${peak} / 512 KiB`);
  await expect(sram.locator('.memory-map-bar')).toHaveAttribute('aria-label', new RegExp(`^sram: at least ${peak} used`));
  await expect(page.getByTestId('stat-activation-note')).toContainText(`The plan's peak, at least ${peak}, is more than this`);
  await expect(page.getByTestId('fact-unknown')).toHaveText(/^1 in the body of Loop/);
  await snap(page, 'memory-map-incomplete-loop');
});
