// Comparing two plans in the page: the sample at batch 1 (A, on screen) and
// batch 4 (B, planned in a second worker), the sample on the accelerator with
// fusion on and off, a model against another model file, and a cache with an
// empty past against a full one. The dialog shows
// both heaps on one scale, the peak change split into causes ranked by bytes,
// and the changed buffers.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { formatBytes } from '../src/shared/format';
import { chainModel, dropFile, haveModel, NO_MODELS, readModel, serveModel, snap, startOnSmallModel, summary, waitForModel, waitForPlan, test } from './fixtures';

/** Planning and graph layout share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** Runs the command-line tool in this process. */
function cli(args: readonly string[]): { code: number; out: string } {
  let out = '';
  const code = runCli(args, { out: (t) => (out += t), err: () => undefined });
  return { code, out };
}

/** The peak the command-line planner gives for the sample. */
function cliPeak(args: readonly string[]): number {
  const { code, out } = cli(['plan', 'public/sample.onnx', '--json', ...args]);
  expect(code).toBe(0);
  return (JSON.parse(out) as { peak: number }).peak;
}

/** The causes as the dialog lists them: kind, signed bytes and sentence. */
async function causes(page: Page): Promise<{ kind: string; bytes: number; text: string }[]> {
  return page.getByTestId('diff-cause').evaluateAll((items) =>
    items.map((li) => ({ kind: li.getAttribute('data-kind') ?? '', bytes: Number(li.getAttribute('data-bytes')), text: li.textContent ?? '' })),
  );
}

/** Records Content Security Policy violations of the page from its first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test('batch 1 against batch 4: B is planned, both heaps share a scale, the top cause names the dim', async ({ page }) => {
  const violations = await watchViolations(page);
  await page.setViewportSize({ width: 1500, height: 950 });
  await page.goto('/?dim.batch=1');
  await waitForModel(page, 'sample.onnx');
  await waitForPlan(page);
  const panel = page.getByTestId('compare-panel');
  await panel.locator('[data-dim="batch"]').fill('4');
  await panel.getByTestId('compare-run').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog).toBeVisible();

  const peakA = cliPeak(['--dim', 'batch=1']);
  const peakB = cliPeak(['--dim', 'batch=4']);
  await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(peakA));
  await expect(dialog.getByTestId('compare-summary-b')).toHaveAttribute('data-peak', String(peakB));
  await expect(dialog.getByTestId('compare-delta')).toHaveAttribute('data-delta', String(peakB - peakA));
  // The page's own plan is still batch 1.
  expect((await summary(page)).peak).toBe(peakA);

  const listed = await causes(page);
  expect(listed[0]).toMatchObject({ kind: 'dim-changed' });
  expect(listed[0]!.text).toContain('batch');
  // The kind reads as words, not diff --json's identifier.
  await expect(dialog.getByTestId('diff-cause').first().locator('.diff-kind')).toHaveText('dim changed');
  expect(listed.reduce((s, c) => s + c.bytes, 0)).toBe(peakB - peakA);
  const ranked = listed.map((c) => Math.abs(c.bytes));
  expect(ranked).toEqual([...ranked].sort((x, y) => y - x));

  // Both diagrams drew every buffer, on one address scale: B's taller peak line, same axis.
  const heapA = dialog.getByTestId('compare-heap-a');
  const heapB = dialog.getByTestId('compare-heap-b');
  await expect(heapA.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);
  await expect(heapB.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);
  const byteTicks = (side: typeof heapA) => side.locator('.heap-lane-axis .tick text').allTextContents();
  expect((await byteTicks(heapA)).length).toBeGreaterThan(2);
  expect(await byteTicks(heapA)).toEqual(await byteTicks(heapB));

  // Every changed buffer of this comparison grew, and picking the top cause emphasizes its buffers.
  await expect(dialog.getByTestId('diff-buffers').locator('tbody tr[data-status="grown"]').first()).toBeVisible();
  await expect(dialog.getByTestId('diff-filter-new')).toBeDisabled();
  await page.getByTestId('diff-cause').first().getByRole('button').first().click();
  await expect(page.getByTestId('diff-cause').first()).toHaveAttribute('aria-current', 'true');
  await snap(page, 'compare-batch');

  // The command-line diff of the two plans, saved from the dialog, gives the same causes.
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-diff-'));
  const saved: string[] = [];
  for (const side of ['a', 'b']) {
    const [file] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId(`compare-save-${side}`).click()]);
    saved.push(join(dir, file.suggestedFilename()));
    await file.saveAs(saved.at(-1)!);
  }
  // A, the plan on screen, carries the suggestions the page evaluated, as the Export panel's plan file does; B has none evaluated and says so
  expect(Array.isArray((JSON.parse(readFileSync(saved[0]!, 'utf8')) as { plan: { suggestions?: unknown } }).plan.suggestions)).toBe(true);
  expect('suggestions' in (JSON.parse(readFileSync(saved[1]!, 'utf8')) as { plan: object }).plan).toBe(false);
  await expect(dialog.getByTestId('compare-save-note')).toHaveText("B's plan file saved without suggestions: they are evaluated for the plan on screen only, not for a plan made for the comparison");
  const report = cli(['diff', saved[0]!, saved[1]!, '--json']);
  expect(report.code).toBe(0);
  const fromCli = (JSON.parse(report.out) as { causes: { kind: string; bytes: number }[] }).causes.map((c) => ({ kind: c.kind, bytes: c.bytes }));
  expect(fromCli).toEqual(listed.map((c) => ({ kind: c.kind, bytes: c.bytes })));
  expect((JSON.parse(report.out) as { delta: number }).delta).toBe(peakB - peakA);

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  // The whole page, its dialog and its second worker ran under the Content Security Policy.
  expect(await violations()).toEqual([]);
});

test('the accelerator with fusion on against off: the causes name the fusion unit', async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 950 });
  await page.goto('/?target=accelerator');
  await waitForPlan(page);
  expect((await summary(page)).fusionUnits).toBeGreaterThan(0);
  const panel = page.getByTestId('compare-panel');
  await expect(panel.getByTestId('compare-target')).toHaveValue('accelerator');
  await expect(panel.getByTestId('compare-fusion')).toBeChecked();
  await panel.getByTestId('compare-fusion').uncheck();
  await panel.getByTestId('compare-run').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(cliPeak(['--target', 'accelerator'])));

  const listed = await causes(page);
  const fusion = listed.filter((c) => c.kind === 'fusion-undone');
  expect(fusion.length).toBeGreaterThan(0);
  expect(fusion[0]!.text).toMatch(/fusion unit '[^']+' of A is not in B: \d+ tensors? it tiled on chip moves? off chip/);
  expect(fusion[0]!.text).not.toMatch(/grown/);
  await expect(dialog.locator('[data-status="off-chip"]').first()).toBeAttached();
  const peakB = Number(await dialog.getByTestId('compare-summary-b').getAttribute('data-peak'));
  expect(listed.reduce((s, c) => s + c.bytes, 0)).toBe(peakB - Number(await dialog.getByTestId('compare-summary-a').getAttribute('data-peak')));
  await page.getByTestId('diff-cause').filter({ hasText: 'fusion unit' }).first().getByRole('button').first().click();
  await expect(dialog.locator('.diff-nodes .chip').first()).toBeVisible();
  await snap(page, 'compare-fusion');
});

test("SqueezeNet on the accelerator with fusion off as B: each region's change is listed as the CLI lists it, and the cause says dram grew", async ({ page }) => {
  const model = 'winml_SqueezeNet_fp16.onnx';
  test.skip(!haveModel(model), NO_MODELS);
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, `/e2e/${model}`, readModel(model));
  await page.goto(`/?model=/e2e/${model}&target=accelerator`);
  await waitForModel(page, model);
  await waitForPlan(page);
  const panel = page.getByTestId('compare-panel');
  await panel.getByTestId('compare-fusion').uncheck();
  await panel.getByTestId('compare-run').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-regions')).toBeVisible();

  const dir = mkdtempSync(join(tmpdir(), 'heapscope-regions-'));
  const path = new URL(model, new URL('../../shared/models/', import.meta.url)).pathname;
  expect(cli(['plan', path, '--target', 'accelerator', '--save', join(dir, 'a.json')]).code).toBe(0);
  expect(cli(['plan', path, '--target', 'accelerator', '--fusion', 'off', '--save', join(dir, 'b.json')]).code).toBe(0);
  const lines = cli(['diff', join(dir, 'a.json'), join(dir, 'b.json')]).out.split('\n');
  const first = lines.findIndex((l) => l.startsWith('peak ')) + 1;
  const cliLines = lines.slice(first, first + lines.slice(first).findIndex((l) => !l.startsWith('  region ')));
  expect(cliLines).toContain('  region dram: 499 KiB -> 1.87 MiB (+1.39 MiB)');
  const shown = await dialog.getByTestId('compare-regions').locator('li').allTextContents();
  expect(shown).toEqual(cliLines.map((l) => l.trim().replace(' -> ', ' → ')));

  // dram grew by 1.39 MiB and sram fell by 1.92 MiB: no cause says dram fell
  const listed = await causes(page);
  expect(listed.map((c) => c.kind)).toEqual(['fusion-undone']);
  expect(listed[0]!.text).toContain('dram +1.39 MiB, sram −1.92 MiB at their peaks');
  await snap(page, 'compare-regions');
});

test('FastestDet on mcu, the suggestion to plan scratch with the activations compared: the cause and B name the scratch placement, not the target as edited', async ({ page }) => {
  const model = 'FastestDet.onnx';
  test.skip(!haveModel(model), NO_MODELS);
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, `/e2e/${model}`, readModel(model));
  await page.goto(`/?model=/e2e/${model}&target=mcu`);
  await waitForModel(page, model);
  await waitForPlan(page);
  await expect(page.getByTestId('suggestions')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await page.getByTestId('suggestion').filter({ has: page.locator('[data-testid="suggestion-apply"]') }).and(page.locator('[data-kind="scratch"]')).getByTestId('suggestion-apply').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('diff-cause')).toHaveCount(1);
  const cause = dialog.getByTestId('diff-cause').first();
  await expect(cause).toHaveAttribute('data-kind', 'target-changed');
  await expect(cause.locator('.diff-kind')).toHaveText('scratch placement changed (free areas → with activations)');
  await expect(cause.locator('.diff-summary')).toContainText('scratch placement changed (free areas → with activations) and with it the holes and padding at the peak');
  await expect(dialog.getByTestId('compare-label-a')).toHaveText('scratch in free areas');
  await expect(dialog.getByTestId('compare-label-b')).toHaveText('scratch with activations');
  await snap(page, 'compare-scratch-placement');
});

test('a B that peaks lower by not spilling is marked over its limit, and its drop is not shown as better', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/?target=mcu&compare=1&b.target=mcu&b.spill=off');
  await waitForPlan(page);
  await page.waitForFunction(() => window.heapscope?.summary().compare != null, undefined, { timeout: 60_000 });
  const planB = JSON.parse(cli(['plan', 'public/sample.onnx', '--json', '--target', 'mcu', '--spill', 'off']).out) as { peak: number; fits: boolean; regions: { name: string; overBy?: number }[] };
  expect(planB.fits).toBe(false);
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toHaveAttribute('data-peak', String(planB.peak));
  await expect(dialog.getByTestId('compare-over-a')).toHaveCount(0);
  const sram = planB.regions.find((r) => r.name === 'sram')!;
  await expect(dialog.getByTestId('compare-over-b')).toHaveText(`sram ${formatBytes(sram.overBy!)} over`);
  await expect(dialog.getByTestId('compare-fit-note')).toHaveText(/only A fits its limits/);
  const delta = dialog.getByTestId('compare-delta').locator('strong');
  await expect(delta).not.toHaveClass(/diff-down|diff-up/);
  // buffers moved are counted as the spill's cause counts them: those that changed region apart from those that changed offset in one
  const spilled = await dialog.locator('[data-testid="diff-cause"][data-kind="region-moved"] .diff-summary').textContent();
  const count = Number(/(\d+) buffers moved from region ext-ram to sram/.exec(spilled ?? '')?.[1]);
  expect(count).toBeGreaterThan(0);
  const between = dialog.getByTestId('diff-filter-between-regions');
  await expect(between).toHaveText(`moved between regions ${count}`);
  await expect(dialog.getByTestId('diff-filter-within-region')).toHaveText(/^moved within a region [1-9]\d*$/);
  await between.click();
  const rows = dialog.locator('[data-testid="diff-buffers"] tr[data-status]');
  await expect(rows).toHaveCount(count);
  for (const row of await rows.all()) {
    await expect(row).toHaveAttribute('data-move', 'between-regions');
    await expect(row.locator('td').first().locator('span')).toHaveAttribute('title', 'moved between regions');
    await expect(row).toContainText(/ext-ram .* → sram /);
  }
  await snap(page, 'compare-spill-over-limit');
});

test("tiny llama with past 64 as B: a size unknown in B is named as such, not as the peak moving, and B − A is 'at least'", async ({ page }) => {
  const file = 'tiny-llama-fp16/model.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, '/e2e/tiny-llama.onnx', readModel(file));
  await page.goto('/?model=/e2e/tiny-llama.onnx&target=mcu&compare=1&b.target=mcu&b.dim.past_sequence_length=64');
  await waitForModel(page, 'tiny-llama.onnx');
  await page.waitForFunction(() => window.heapscope?.summary().compare != null, undefined, { timeout: 60_000 });
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toContainText('≥ 8.06 MiB');
  await expect(dialog.getByTestId('compare-delta').locator('strong')).toHaveText('at least +38.9 KiB');
  await expect(dialog.getByTestId('compare-delta-note')).toContainText("B's peak is a lower estimate");
  await expect(dialog.locator('#diff-causes-title')).toHaveText('Why the peak changed by at least +38.9 KiB');
  const listed = await causes(page);
  const unknown = listed.filter((c) => c.kind === 'size-unknown');
  expect(unknown).toHaveLength(1);
  expect(unknown[0]!.bytes).toBe(-32 * 1024);
  expect(unknown[0]!.text).toMatch(/^−32\.0 KiBsize unknownsize unknown in B for 1 tensor \('.*input_ids_subgraph\/Expand\/output_0' 32\.0 KiB → unknown\), planned there as 0 B: B's peak is a lower estimate/);
  expect(listed.map((c) => c.kind)).not.toContain('peak-moved');
  // the three mask tensors unknown in B are listed as such, not as shrunk to 0 B
  await expect(dialog.getByTestId('diff-filter-unknown')).toHaveText('unknown 3');
  await expect(dialog.locator('[data-testid="diff-buffers"] tr[data-status="shrunk"]', { hasText: 'Expand' })).toHaveCount(0);
  await snap(page, 'compare-size-unknown');
});

test('another model file as B: it is planned with the shown settings, and its extra buffer is new', async ({ page }) => {
  await startOnSmallModel(page, 'small.onnx');
  await waitForPlan(page);
  const other = chainModel(3);
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-b-'));
  writeFileSync(join(dir, 'chain.onnx'), other);
  const planned = cli(['plan', join(dir, 'chain.onnx'), '--json']);
  expect(planned.code).toBe(0);
  await page.getByTestId('compare-file').setInputFiles({ name: 'chain.onnx', mimeType: 'application/octet-stream', buffer: Buffer.from(other) });
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toHaveAttribute('data-peak', String((JSON.parse(planned.out) as { peak: number }).peak));
  await expect(dialog.getByTestId('compare-summary-b')).toContainText('chain.onnx');
  const statuses = await dialog.getByTestId('diff-buffers').locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
  // Buffers are matched by name, then by producer op and position: B's one extra Relu output is new.
  const buffersB = (JSON.parse(planned.out) as { buffers: unknown[] }).buffers.length;
  const shown = await summary(page);
  expect(shown.model).toBe('small.onnx');
  expect(statuses.filter((s) => s === 'new')).toHaveLength(buffersB - shown.buffers);
  expect(statuses).not.toContain('gone');
});

test("the sample against a GPT-2 plan saved by the CLI: each side's label names its own dims, not the other model's as defaults", async ({ page }) => {
  const gpt2 = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(gpt2), NO_MODELS);
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-b-'));
  const saved = join(dir, 'gpt2.plan.json');
  expect(cli(['plan', new URL(gpt2, new URL('../../shared/models/', import.meta.url)).pathname, '--save', saved]).code).toBe(0);
  await page.setViewportSize({ width: 1500, height: 950 });
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await waitForPlan(page);
  await page.getByTestId('compare-file').setInputFiles(saved);
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-label-b')).toContainText('seq_len=');
  const [a, b] = [await dialog.getByTestId('compare-label-a').getAttribute('title'), await dialog.getByTestId('compare-label-b').getAttribute('title')];
  expect(a).toContain('batch=1');
  expect(a).not.toMatch(/seq_len|batch_size/);
  expect(b).not.toMatch(/\bbatch default|\bbatch=/);
  expect(b).toContain('batch_size=1');
  await snap(page, 'compare-two-models-labels');
});

test('GPT-2 at seq_len 16 against 512: the top causes name the logits with their sizes before and after', async ({ page }) => {
  const file = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, `/e2e/${file}`, readModel(file));
  await page.goto(`/?model=/e2e/${file}&dim.seq_len=16`);
  await waitForModel(page, file);
  await waitForPlan(page);
  const panel = page.getByTestId('compare-panel');
  await panel.locator('[data-dim="seq_len"]').fill('512');
  await panel.getByTestId('compare-run').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toContainText('seq_len=512');
  await expect(dialog.getByTestId('compare-summary-a')).toContainText('seq_len=16');
  const listed = await causes(page);
  expect(listed.length).toBeGreaterThan(0);
  // The biggest grower is named, not folded into "and N more".
  const top = listed.slice(0, 3).map((c) => c.text);
  expect(top.some((t) => /'logits' [\d.]+ KiB → [\d.]+ MiB/.test(t))).toBe(true);
  expect(listed[0]!.bytes).toBeGreaterThan(0);
  await snap(page, 'compare-gpt2-seq-len');
});

test('GPT-2 (past 64, seq 1) on cpu against mcu: the attention mask is put down to the alignment, and the move and its filter count the same buffers', async ({ page }) => {
  const file = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, `/e2e/${file}`, readModel(file));
  await page.goto(`/?model=/e2e/${file}&dim.past_seq_len=64&dim.seq_len=1&compare=1&b.target=mcu&b.dim.past_seq_len=64&b.dim.seq_len=1`);
  await waitForModel(page, file);
  await waitForPlan(page);
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toContainText('mcu');
  await expect(dialog.getByTestId('diff-cause').first()).toBeVisible();
  const listed = await causes(page);
  // it read "tensor 'attention_mask' 320 B → 272 B shrank with the target cpu → mcu", the tensor 260 B on both sides
  expect(listed.map((c) => c.kind)).not.toContain('tensor-shrunk');
  expect(listed[0]).toMatchObject({ kind: 'alignment-changed', bytes: -48 });
  await expect(dialog.locator('[data-testid="diff-cause"][data-kind="alignment-changed"] .diff-kind')).toHaveText('alignment padding');
  expect(listed[0]!.text).toContain("'attention_mask' 320 B → 272 B at the peak: alignment 64 → 16 bytes with the target cpu → mcu, the tensor itself 260 B on both sides");
  // it read "63 buffers moved from region ram to sram" beside the filter "moved between regions 56"
  const moved = listed.find((c) => c.kind === 'region-moved')!.text;
  const count = Number(/(\d+) buffers moved from region ram to sram/.exec(moved)?.[1]);
  await expect(dialog.getByTestId('diff-filter-between-regions')).toHaveText(`moved between regions ${count}`);
  await expect(dialog.getByTestId('diff-filter-shrunk')).toHaveText('shrunk 0');
  await snap(page, 'compare-gpt2-cpu-mcu-alignment');
});

test('GPT-2 with past_seq_len 256 as B: the cause names the dim that was set, the total length as its consequence', async ({ page }) => {
  const file = 'tiny-random-gpt2-fp32-past.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, `/e2e/${file}`, readModel(file));
  await page.goto(`/?model=/e2e/${file}`);
  await waitForModel(page, file);
  await waitForPlan(page);
  const panel = page.getByTestId('compare-panel');
  await panel.locator('[data-dim="past_seq_len"]').fill('256');
  await panel.getByTestId('compare-run').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toContainText('past_seq_len=256');
  const listed = await causes(page);
  expect(listed[0]).toMatchObject({ kind: 'dim-changed' });
  expect(listed[0]!.text).toContain('dim past_seq_len changed (past_seq_len 0 → 256, and with it total_seq_len 128 → 384)');
  expect(listed[0]!.text).not.toContain('dim total_seq_len changed');
  await snap(page, 'compare-gpt2-past');
});

test('another model as B (FastestDet against ultraface): one cause says the models differ, no tensor is said to have grown into another', async ({ page }) => {
  const [det, face] = ['FastestDet.onnx', 'ultraface_RFB-320.onnx'];
  test.skip(!haveModel(det) || !haveModel(face), NO_MODELS);
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, `/e2e/${det}`, readModel(det));
  await page.goto(`/?model=/e2e/${det}`);
  await waitForModel(page, det);
  await waitForPlan(page);
  await page.getByTestId('compare-file').setInputFiles({ name: face, mimeType: 'application/octet-stream', buffer: Buffer.from(readModel(face)) });
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toContainText(face);
  const listed = await causes(page);
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({ kind: 'models-differ' });
  expect(listed[0]!.text).toContain(`A and B are different models (${det}, ${face}:`);
  await expect(dialog.getByTestId('diff-cause').first().locator('.diff-kind')).toHaveText('different models');
  // Unmatched buffers are each only in one model; none is a tensor of A grown into another of B.
  await expect(dialog.getByTestId('diff-filter-new')).toContainText('B only');
  await expect(dialog.getByTestId('diff-filter-gone')).toContainText('A only');
  const names = await dialog.getByTestId('diff-buffers').locator('tbody tr td:nth-child(2)').evaluateAll((cells) => cells.map((c) => c.textContent ?? ''));
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) expect(name).not.toContain(' → ');
  await snap(page, 'compare-different-models');
});

test('the sample on cpu against mcu: a workspace given the free space is listed with what it asks, the free space marked as given', async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 950 });
  await page.goto('/?target=cpu&compare=1&b.target=mcu');
  await waitForPlan(page);
  await page.waitForFunction(() => window.heapscope?.summary().compare != null, undefined, { timeout: 60_000 });
  const planB = JSON.parse(cli(['plan', 'public/sample.onnx', '--json', '--target', 'mcu']).out) as { buffers: { name: string; size: number; scratch?: { size: number; variable: boolean } }[] };
  const workspace = planB.buffers.find((x) => x.name === 'stem/conv:workspace')!;
  expect(workspace.size).toBeGreaterThan(workspace.scratch!.size);
  const dialog = page.getByTestId('compare-dialog');
  const row = dialog.getByTestId('diff-buffers').locator('tbody tr', { has: page.getByRole('button', { name: 'stem/conv:workspace', exact: true }) });
  await expect(row.locator('td').nth(3)).toHaveText(`${formatBytes(workspace.scratch!.size)}, given ${formatBytes(workspace.size)}`);
  // The largest rows are buffers that hold bytes, not workspaces ranked by the free space they were given.
  await expect(dialog.getByTestId('diff-buffers').locator('tbody tr').first().locator('td').nth(1)).not.toContainText('workspace');
  await snap(page, 'compare-granted-scratch');
});

/** past [n, 64] concatenated with x [1, 64] into present, and a Relu of it: with n = 0 the past holds no bytes but is still a tensor of the graph. */
function cacheModel(): Uint8Array {
  const g = new GraphBuilder('cache');
  const present = g.node('Concat', [g.input('x', 'float32', [1, 64]), g.input('past', 'float32', ['past', 64])].reverse(), { axis: 0 }, { name: 'concat' });
  g.output(present, 'float32');
  g.output(g.node('Relu', [present], {}, { name: 'relu' }), 'float32');
  return g.toBytes();
}

test('an empty past against a full one: the past grew from 0 B, not from none, and no tensor is counted new', async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, '/e2e/cache.onnx', cacheModel());
  await page.goto('/?model=/e2e/cache.onnx&dim.past=0');
  await waitForModel(page, 'cache.onnx');
  await waitForPlan(page);
  const panel = page.getByTestId('compare-panel');
  await panel.locator('[data-dim="past"]').fill('500');
  await panel.getByTestId('compare-run').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toContainText('past=500');
  await expect(dialog.getByTestId('compare-summary-a')).toContainText('past=0');
  const listed = await causes(page);
  const past = listed.find((c) => c.text.includes("'past'"));
  expect(past?.text).toContain("'past' 0 B → 125 KiB");
  for (const c of listed) expect(c.text).not.toMatch(/\bnone →/);
  // The table agrees: the past is a grown tensor, and none is new.
  await expect(dialog.getByTestId('diff-buffers').locator('tbody tr[data-status="grown"]', { has: page.getByRole('button', { name: 'past', exact: true }) })).toHaveCount(1);
  await expect(dialog.getByTestId('diff-filter-new')).toHaveText('new 0');
  await expect(dialog.getByTestId('diff-filter-new')).toBeDisabled();
  await snap(page, 'compare-empty-past');
});

test('the dialog keeps the keyboard inside while open and gives focus back to the Compare button on Escape and on Close', async ({ page }) => {
  await startOnSmallModel(page, 'small.onnx');
  await waitForPlan(page);
  const run = page.getByTestId('compare-run');
  const dialog = page.getByTestId('compare-dialog');
  const focusInDialog = () => page.evaluate(() => document.querySelector('[data-testid="compare-dialog"]')?.contains(document.activeElement) ?? false);
  const stops = async () => dialog.locator('button:not(:disabled), input, select, a[href], [tabindex]:not([tabindex="-1"])').count();
  for (const how of ['Escape', 'Close'] as const) {
    await run.focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('compare-summary-b')).toBeVisible();
    expect(await focusInDialog()).toBe(true);
    // Round the dialog's controls and past the end, both ways: focus never reaches the page behind.
    const presses = (await stops()) + 3;
    for (let i = 0; i < presses; i += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog()).toBe(true);
    }
    for (let i = 0; i < presses; i += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInDialog()).toBe(true);
    }
    if (how === 'Escape') await page.keyboard.press('Escape');
    else await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(run).toBeFocused();
  }
});

test("every file-open control shows a focus ring when reached with Tab, as the header's Open file does", async ({ page }) => {
  await startOnSmallModel(page, 'small.onnx');
  await waitForPlan(page);
  /** The box shadow of the button a file input shows as, while the input has focus. */
  const ring = (testId: string) =>
    page.evaluate((id) => {
      const input = document.activeElement as HTMLInputElement;
      if (input.type !== 'file' || (id !== null && input.dataset.testid !== id)) return `focus is on ${input.tagName} ${input.dataset.testid ?? input.id}`;
      const label = input.closest('label') ?? document.querySelector(`label[for="${CSS.escape(input.id)}"]`);
      return label === null ? 'no label' : getComputedStyle(label).boxShadow;
    }, testId);
  await page.getByRole('button', { name: 'Open sample' }).focus();
  await page.keyboard.press('Tab');
  const header = await page.evaluate(() => document.activeElement?.id);
  expect(header).toBe('open-file');
  const shown = await page.evaluate(() => getComputedStyle(document.querySelector('label[for="open-file"]')!).boxShadow);
  expect(shown).not.toBe('none');
  await page.getByTestId('compare-run').focus();
  await page.keyboard.press('Tab');
  expect(await ring('compare-file')).toBe(shown);
  await page.keyboard.press('Tab');
  expect(await ring('open-saved-plan')).toBe(shown);
  await page.getByTestId('compare-panel').scrollIntoViewIfNeeded();
  await snap(page, 'compare-open-saved-plan-focus');
});

test("another model dropped while the comparison is open: B is planned again for it, the dialog never shows the old model's numbers", async ({ page }) => {
  const file = 'ultraface_RFB-320.onnx';
  test.skip(!haveModel(file), NO_MODELS);
  await page.goto('/?compare=1&b.target=mcu');
  await waitForPlan(page);
  await page.waitForFunction(() => window.heapscope?.summary().compare != null, undefined, { timeout: 60_000 });
  const dialog = page.getByTestId('compare-dialog');
  const before = (await summary(page)).peak;
  await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(before));
  const planB = JSON.parse(cli(['plan', new URL(file, new URL('../../shared/models/', import.meta.url)).pathname, '--json', '--target', 'mcu']).out) as { peak: number };
  await dropFile(page, file, readModel(file));
  await waitForModel(page, file);
  await waitForPlan(page);
  const shown = await summary(page);
  await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(shown.peak), { timeout: 60_000 });
  await expect(dialog.getByTestId('compare-summary-b')).toHaveAttribute('data-peak', String(planB.peak));
  const compared = (await summary(page)).compare;
  expect(compared).toMatchObject({ peakA: shown.peak, peakB: planB.peak, target: 'mcu' });
  await snap(page, 'compare-after-another-model');
});

test('a file that does not open, dropped while the comparison is open: the dialog shows why, above its heaps, and Dismiss keeps the focus in it', async ({ page }) => {
  await page.goto('/?compare=1&b.target=mcu');
  await waitForPlan(page);
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-delta')).toBeVisible({ timeout: 60_000 });
  await dropFile(page, 'broken.onnx', new TextEncoder().encode('not a model at all'));
  await page.waitForFunction(() => document.body.dataset.status === 'error');
  const banner = page.getByTestId('error-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Could not open broken.onnx');
  // Drawn on top: what is under the banner's middle is the banner, not the dialog over it.
  const box = (await banner.boundingBox())!;
  const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-testid="error-banner"]') !== null, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
  expect(onTop).toBe(true);
  await snap(page, 'compare-drop-error');
  await banner.getByRole('button', { name: 'Dismiss error' }).click();
  await expect(banner).toHaveCount(0);
  await expect(dialog).toBeFocused();
});
