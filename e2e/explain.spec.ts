// The explanation of the peak as a person reads it: peak against bound per
// region, the waste, the peak step and its buffers; the strategy comparison
// computed in the worker; the target's fields edited in the settings panel (a
// bad value is refused naming the field); the accelerator's on-chip lane; and
// the page's numbers against the CLI's JSON for the same model and settings.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { BODY_WEIGHTS, bodyWeightsModel } from '../src/model/testing/body-weights-model';
import { densenetModel } from '../src/model/testing/densenet-model';
import { formatBytes } from '../src/shared/format';
import { STRATEGY_NAMES } from '../src/planner/strategies/registry';
import { targetForSettings } from '../src/settings/target';
import type { PlanSettings } from '../src/worker/protocol';
import { NO_MODELS, SAMPLE_PATH, dropFile, haveModel, heapDrawn, MODELS_DIR, readModel, serveModel, snap, startOnSmallModel, summary, waitForModel, waitForPlan, test } from './fixtures';

const RESNET = 'light_resnet50.onnx';

test.use({ viewport: { width: 1600, height: 1000 } });

/** The fields of `plan --json` this test compares. */
interface CliPlan {
  readonly peak: number;
  readonly lowerBound: number;
  readonly strategy: string;
  readonly target: string;
  readonly peakStep?: number;
  readonly regions: readonly { readonly name: string; readonly peak: number; readonly lowerBound: number }[];
  readonly buffers: readonly { readonly region: string }[];
  readonly fusionUnits: readonly unknown[];
  readonly traffic: { readonly before: number; readonly after: number };
}

/** Writes the target profile of `settings` (a preset with edits) as a JSON file the CLI reads; returns its path. */
function targetFile(settings: PlanSettings): string {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-target-'));
  const path = join(dir, 'target.json');
  writeFileSync(path, JSON.stringify(targetForSettings(settings)));
  return path;
}

/**
 * Runs the CLI in this process: `plan <file> --json --target T [--strategy S]` (T a preset or a
 * target file). Exit 3 (a region over its size limit) still prints the plan.
 */
function cliPlan(file: string, target: string, strategy?: string): CliPlan {
  let out = '';
  let err = '';
  const args = ['plan', file, '--json', '--target', target, ...(strategy === undefined ? [] : ['--strategy', strategy])];
  const code = runCli(args, { out: (t) => (out += t), err: (t) => (err += t) });
  if (code !== 0 && code !== 3) throw new Error(`heapscope ${args.join(' ')} exited ${code}: ${err}`);
  return JSON.parse(out) as CliPlan;
}

/** Waits until the strategy comparison of the plan on screen is done. */
async function waitForComparison(page: Page): Promise<void> {
  await expect(page.getByTestId('strategy-comparison')).toHaveAttribute('data-status', 'done');
}

/** What the explanation panel shows, read from the page. */
async function shownNumbers(page: Page) {
  const explanation = page.getByTestId('explanation');
  const rows = await page.getByTestId('region-row').evaluateAll((els) =>
    els.map((el) => ({ name: el.getAttribute('data-region'), peak: Number(el.getAttribute('data-peak')), lowerBound: Number(el.getAttribute('data-lower-bound')) })),
  );
  const stepText = await page.getByTestId('peak-step').innerText();
  return {
    peak: Number(await explanation.getAttribute('data-peak')),
    lowerBound: Number(await explanation.getAttribute('data-lower-bound')),
    regions: rows,
    peakStep: Number(await page.getByTestId('peak-live').getAttribute('data-step')),
    stepText,
  };
}

/** Asserts that the page's explanation equals the CLI's JSON for the same model and settings. */
async function expectSameAsCli(page: Page, file: string, target: string, strategy: string): Promise<void> {
  const cli = cliPlan(file, target, strategy);
  const shown = await shownNumbers(page);
  expect(cli.strategy).toBe(strategy);
  expect(shown.peak).toBe(cli.peak);
  expect(shown.lowerBound).toBe(cli.lowerBound);
  expect(shown.regions).toEqual(cli.regions.map((r) => ({ name: r.name, peak: r.peak, lowerBound: r.lowerBound })));
  expect(shown.peakStep).toBe(cli.peakStep);
  expect(shown.stepText).toBe(`step ${cli.peakStep}`);
  await expect(page.getByTestId('heap-peak')).toHaveAttribute('data-peak', String(cli.peak));
  await waitForComparison(page);
  const row = page.locator(`[data-testid="compare-row"][data-strategy="${strategy}"]`);
  await expect(row).toHaveAttribute('data-peak', String(cli.peak));
}

test('the explanation shows peak and bound per region, the waste, and the peak step with its buffers ranked by size', async ({ page }) => {
  await page.goto('/?target=mcu&strategy=naive');
  await waitForPlan(page, 'naive');
  const s = await summary(page);
  const explanation = page.getByTestId('explanation');
  await expect(explanation).toHaveAttribute('data-peak', String(s.peak));
  await expect(page.getByTestId('region-row')).toHaveCount(2);
  const waste = page.getByTestId('waste');
  const parts = await waste.evaluate((el) => ['holes', 'padding', 'scratch'].map((k) => Number(el.getAttribute(`data-${k}`))));
  expect(parts.every((n) => Number.isInteger(n) && n >= 0)).toBe(true);
  expect(parts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  const sizes = await page.getByTestId('peak-buffer').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-bytes'))));
  expect(sizes.length).toBeGreaterThan(1);
  expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
  // The op of a live buffer selects its node.
  await page.getByTestId('peak-buffer').first().locator('.live-origin button').click();
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'node');
  await waitForComparison(page);
  await page.getByTestId('peak-live').scrollIntoViewIfNeeded();
  await snap(page, 'explain-mcu-naive');
});

test('at 1280×720 the tables of regions and of strategies keep every column inside the details panel (mcu: two regions, one marked fast)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?target=mcu&strategy=naive');
  await waitForPlan(page, 'naive');
  await expect(page.getByTestId('region-row')).toHaveCount(2);
  await waitForComparison(page);
  const fit = await page.getByTestId('explanation').evaluate((el) => {
    const right = el.getBoundingClientRect().right;
    const cells = (table: string) => Math.max(...[...el.querySelectorAll(`${table} th, ${table} td`)].map((c) => c.getBoundingClientRect().right));
    return { right, regions: cells('.regions-table'), strategies: cells('.compare-table') };
  });
  expect(fit.regions).toBeLessThanOrEqual(fit.right + 0.5);
  expect(fit.strategies).toBeLessThanOrEqual(fit.right + 0.5);
});

test('the strategy comparison lists every strategy with a peak at or above the bound, and plans with the one chosen', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page, 'best');
  await waitForComparison(page);
  const s = await summary(page);
  const rows = await page.getByTestId('compare-row').evaluateAll((els) =>
    els.map((el) => ({ strategy: el.getAttribute('data-strategy')!, peak: Number(el.getAttribute('data-peak')), lowerBound: Number(el.getAttribute('data-lower-bound')) })),
  );
  expect(rows.map((r) => r.strategy).sort()).toEqual([...STRATEGY_NAMES].sort());
  for (const row of rows) {
    expect(row.lowerBound).toBe(s.lowerBound);
    expect(row.peak).toBeGreaterThanOrEqual(s.lowerBound!);
  }
  expect(rows.find((r) => r.strategy === 'best')?.peak).toBe(s.peak);
  // best is the portfolio, M1 included: never worse than M1.
  expect(rows.find((r) => r.strategy === 'm1')!.peak).toBeGreaterThanOrEqual(s.peak!);
  const naive = rows.find((r) => r.strategy === 'naive')!;
  expect(naive.peak).toBeGreaterThan(s.peak!);
  await page.getByTestId('strategy-comparison').scrollIntoViewIfNeeded();
  await snap(page, 'explain-comparison');
  await page.getByRole('button', { name: 'Plan with naive' }).click();
  await waitForPlan(page, 'naive');
  expect((await summary(page)).peak).toBe(naive.peak);
  await expect(page.getByTestId('strategy-select')).toHaveValue('naive');
  await expect(page.locator('[data-testid="compare-row"][aria-current="true"]')).toHaveAttribute('data-strategy', 'naive');
});

test('planning with another strategy from the keyboard leaves focus on the strategy table\'s heading, not on the page\'s body', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page, 'best');
  await waitForComparison(page);
  await page.getByRole('button', { name: 'Plan with naive' }).focus();
  await page.keyboard.press('Enter');
  await waitForPlan(page, 'naive');
  await waitForComparison(page);
  await expect(page.getByRole('heading', { name: 'Strategies for this model' })).toBeFocused();
});

test("the explanation's numbers equal the CLI's JSON for the same model and settings", async ({ page }) => {
  const sample = fileURLToPath(SAMPLE_PATH);
  await page.goto('/');
  await waitForPlan(page, 'best');
  await expectSameAsCli(page, sample, 'cpu', 'best');
  await page.getByTestId('target-select').selectOption('mcu');
  await page.getByTestId('strategy-select').selectOption('tvm-conflicts');
  await waitForPlan(page, 'tvm-conflicts');
  await page.waitForFunction(() => window.heapscope?.summary().target === 'mcu');
  await expectSameAsCli(page, sample, 'mcu', 'tvm-conflicts');
  // Every strategy of the comparison against its own CLI run.
  for (const strategy of STRATEGY_NAMES) {
    const row = page.locator(`[data-testid="compare-row"][data-strategy="${strategy}"]`);
    await expect(row).toHaveAttribute('data-peak', String(cliPlan(sample, 'mcu', strategy).peak));
  }
  if (haveModel(RESNET)) {
    await dropFile(page, RESNET, readModel(RESNET));
    await waitForModel(page, RESNET);
    await waitForPlan(page, 'tvm-conflicts');
    await expectSameAsCli(page, fileURLToPath(new URL(RESNET, MODELS_DIR)), 'mcu', 'tvm-conflicts');
  }
});

test("a refused size shows its message right under the field, named by the field's aria-describedby, without scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('/?target=mcu');
  await waitForPlan(page);
  const error = page.getByTestId('settings-error');
  /** Pixels between the bottom of `field` and the top of the message. */
  const gap = async (field: ReturnType<Page['getByLabel']>) => (await error.boundingBox())!.y - ((await field.boundingBox())!.y + (await field.boundingBox())!.height);
  for (const [label, text] of [['sram size limit', 'abc'], ['sram alignment', '48'], ['ext-ram size limit', '0']] as const) {
    const field = page.getByLabel(label, { exact: true });
    await field.fill(text);
    await field.press('Enter');
    await expect(error).toContainText(`${label} must be`);
    await expect(error).toBeInViewport({ ratio: 0.95 });
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAttribute('aria-describedby', (await error.getAttribute('id'))!);
    expect(await gap(field)).toBeGreaterThanOrEqual(0);
    expect(await gap(field)).toBeLessThan(40);
    await snap(page, `settings-error-${label.replace(/ /g, '-')}`);
    await field.press('Escape');
    await field.fill(label.endsWith('alignment') ? '16' : '8M');
    await field.press('Enter');
    await expect(error).toHaveCount(0);
  }
  // The other fields do not point at a message that is not theirs.
  await page.getByLabel('sram size limit', { exact: true }).fill('abc');
  await page.getByLabel('sram size limit', { exact: true }).press('Enter');
  await expect(page.getByLabel('ext-ram size limit', { exact: true })).not.toHaveAttribute('aria-describedby');
  // A single field (the fusion SRAM) has its message under it too.
  await page.goto('/?target=accelerator');
  await waitForPlan(page);
  const sram = page.getByLabel('fusion SRAM bytes', { exact: true });
  await sram.fill('big');
  await sram.press('Enter');
  await expect(error).toContainText('fusion SRAM bytes must be a number of bytes');
  await expect(error).toBeInViewport({ ratio: 0.95 });
  expect(await gap(sram)).toBeLessThan(40);
});

test('editing the target fields re-plans; a bad value is refused naming the field and the plan stays', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page, 'best');
  const before = await summary(page);
  const alignment = page.getByLabel('ram alignment');
  await alignment.fill('48');
  await alignment.press('Enter');
  await expect(page.getByTestId('settings-error')).toHaveText('ram alignment must be a power of two, got 48');
  await expect(alignment).toHaveAttribute('aria-invalid', 'true');
  expect(await summary(page)).toMatchObject({ peak: before.peak, buffers: before.buffers });
  await snap(page, 'explain-settings-error');
  const limit = page.getByLabel('ram size limit');
  await limit.fill('lots');
  await limit.press('Enter');
  await expect(page.getByTestId('settings-error')).toContainText('ram size limit must be a number of bytes');
  await limit.fill('1 MiB');
  await limit.press('Enter');
  await expect(page.getByTestId('plan-diagnostics')).toContainText('over its size limit of 1.00 MiB');
  await expect(page.getByTestId('heap-over')).toContainText(/ram needs [\d.]+ MiB, [\d.]+ MiB over its 1.00 MiB limit/);
  await expect(page.getByTestId('headline-fit')).toContainText('Does not fit');
  // The field shows the limit as it was typed, not as 1048576; the short forms a person types are read as the CLI reads them.
  await expect(limit).toHaveValue('1 MiB');
  await limit.fill('300K');
  await limit.press('Enter');
  await expect(page.getByTestId('heap-over')).toContainText(/over its 300 KiB limit/);
  await expect(limit).toHaveValue('300 KiB');
  await expect(limit).not.toHaveAttribute('aria-invalid', 'true');
  // A size typed in a decimal unit shows back in it, not as a long count of bytes.
  await limit.fill('2MB');
  await limit.press('Enter');
  await expect(limit).toHaveValue('2 MB');
  // Only a size limit may be left empty, for none; an alignment always has a value.
  await expect(limit).toHaveAttribute('placeholder', 'no limit');
  expect(await alignment.getAttribute('placeholder')).toBeNull();
  await alignment.fill('65536');
  await alignment.press('Enter');
  await page.waitForFunction((peak) => (window.heapscope?.summary().peak ?? 0) > peak, before.peak!);
  await expect(page.getByTestId('settings-error')).toHaveCount(0);
  const after = await summary(page);
  expect(after.buffers).toBe(before.buffers);
  expect(after.peak! % 65536).toBe(0);
  await expect(page.getByTestId('heap-peak')).toHaveAttribute('data-peak', String(after.peak));
  await snap(page, 'explain-aligned');
  await page.getByRole('button', { name: 'Reset to the cpu preset' }).click();
  await page.waitForFunction((peak) => window.heapscope?.summary().peak === peak, before.peak!);
});

test('the phone preset: fusion traffic saved, a smaller dw-pw cache and fusion off agree with the CLI; compute units off', async ({ page }) => {
  const sample = fileURLToPath(SAMPLE_PATH);
  await page.goto('/?target=phone');
  await waitForPlan(page);
  await page.waitForFunction(() => window.heapscope?.summary().target === 'phone');
  const fused = await summary(page);
  const cli = cliPlan(sample, 'phone');
  expect(fused.fusionUnits).toBe(cli.fusionUnits.length);
  expect(fused.fusionUnits).toBeGreaterThan(0);
  const traffic = page.getByTestId('fusion-traffic');
  await expect(traffic).toHaveAttribute('data-before', String(cli.traffic.before));
  await expect(traffic).toHaveAttribute('data-after', String(cli.traffic.after));
  await expect(traffic.getByTestId('traffic-estimate')).toHaveCount(0); // every size is known
  await traffic.scrollIntoViewIfNeeded();
  await snap(page, 'explain-phone-fusion');
  // A 1 KiB cache: the same edit written as a target file for the CLI gives the same plan.
  const cache = page.getByLabel('dw-pw cache bytes');
  await cache.fill('1 KiB');
  await cache.press('Enter');
  await page.waitForFunction((n) => document.body.dataset.status === 'ready' && window.heapscope?.summary().fusionUnits !== n, fused.fusionUnits);
  const small = cliPlan(sample, targetFile({ target: 'phone', strategy: undefined, edits: { dwPwCacheBytes: 1024 } }));
  expect(await summary(page)).toMatchObject({ peak: small.peak, fusionUnits: small.fusionUnits.length });
  await expect(traffic).toHaveAttribute('data-after', String(small.traffic.after));
  await page.getByRole('switch', { name: 'Fusion units' }).uncheck();
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().fusionUnits === 0);
  await expect(traffic).toHaveCount(0);
  const unfused = cliPlan(sample, targetFile({ target: 'phone', strategy: undefined, edits: { dwPwCacheBytes: 1024, fusion: false } }));
  expect((await summary(page)).peak).toBe(unfused.peak);
  // Compute units off: every op on one generic float32 unit, larger than int8 on the NPU.
  const units = page.getByRole('switch', { name: /Compute units/ });
  await expect(units).toBeChecked();
  await units.uncheck();
  await page.waitForFunction((peak) => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak !== peak, unfused.peak);
  const generic = await summary(page);
  expect(generic.peak).toBeGreaterThan(unfused.peak);
  expect(await heapDrawn(page)).toBe(generic.buffers);
  await snap(page, 'explain-phone-units-off');
});

test('the accelerator preset draws a lane for its on-chip SRAM', async ({ page }) => {
  test.skip(!haveModel(RESNET), NO_MODELS);
  await page.goto('/?target=accelerator');
  await waitForPlan(page);
  await dropFile(page, RESNET, readModel(RESNET));
  await waitForModel(page, RESNET);
  await waitForPlan(page);
  const cli = cliPlan(fileURLToPath(new URL(RESNET, MODELS_DIR)), 'accelerator');
  test.fixme(!cli.buffers.some((b) => b.region === 'sram'), 'the accelerator plan places no buffer in SRAM yet: fusion units (M2) do not produce on-chip buffers');
  const lane = page.locator('[data-testid="heap-lane"][data-region="sram"]');
  await expect(lane).toHaveCount(1);
  expect(Number(await lane.getAttribute('data-buffers'))).toBeGreaterThan(0);
  await expect(page.getByTestId('fusion-traffic')).toBeVisible();
  await expect(page.getByTestId('fusion-unit').first()).toBeVisible();
  // A buffer live at the peak names its fusion unit; the name selects the unit's first op.
  const unit = page.getByTestId('peak-unit').first();
  await expect(unit).toBeVisible();
  await unit.click();
  await expect(page.getByTestId('selection-details')).toHaveAttribute('data-kind', 'node');
  await page.getByTestId('fusion-traffic').scrollIntoViewIfNeeded();
  await snap(page, 'explain-accelerator');
});

test('every control works from the keyboard: panes resize, settings change, and the dark scheme follows the system', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await waitForPlan(page, 'best');
  const separator = page.getByRole('separator', { name: 'Resize the heap and the details' });
  const before = Number(await separator.getAttribute('aria-valuenow'));
  await separator.focus();
  await separator.press('ArrowLeft');
  await separator.press('ArrowLeft');
  await expect(separator).toHaveAttribute('aria-valuenow', String(before - 4));
  await page.getByTestId('strategy-select').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('budget-select')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('ram size limit')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('ram alignment')).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('128');
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && (window.heapscope?.summary().peak ?? 0) % 128 === 0);
  await expect(page.getByLabel('ram alignment')).toHaveValue('128');
  await waitForComparison(page);
  const use = page.getByRole('button', { name: 'Plan with best-fit' });
  await use.focus();
  await page.keyboard.press('Enter');
  await waitForPlan(page, 'best-fit');
  await page.getByTestId('strategy-comparison').scrollIntoViewIfNeeded();
  await snap(page, 'explain-dark-keyboard');
});

test('on mcu without spilling, what lies above the live buffers at the peak is named as the waste table splits it: scratch growth, not holes', async ({ page }) => {
  test.skip(!haveModel(RESNET), NO_MODELS);
  await page.goto('/?target=mcu&spill=off');
  await waitForPlan(page);
  await dropFile(page, RESNET, readModel(RESNET));
  await waitForModel(page, RESNET);
  await waitForPlan(page);
  const waste = page.getByTestId('waste');
  const scratch = Number(await waste.getAttribute('data-scratch'));
  const holes = Number(await waste.getAttribute('data-holes'));
  expect(scratch).toBeGreaterThan(0);
  const above = page.getByTestId('peak-above-live');
  await expect(above).toContainText('of scratch growth (scratch buffers placed above the activations)');
  if (holes === 0) await expect(above).not.toContainText('holes');
});

test("the model card counts weights held in Constant nodes, as the plan's weights do", async ({ page }) => {
  const bytes = densenetModel({ blocks: [2, 2], growth: 8, image: 32, constantWeights: true });
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-weights-'));
  const file = join(dir, 'densenet-consts.onnx');
  writeFileSync(file, bytes);
  let out = '';
  runCli(['plan', file, '--json'], { out: (t) => (out += t), err: () => undefined });
  const weights = (JSON.parse(out) as { weights: { tensors: number; bytes: number } }).weights;
  expect(weights.tensors).toBeGreaterThan(0);
  await page.goto('/');
  await waitForPlan(page);
  await dropFile(page, 'densenet-consts.onnx', bytes);
  await waitForModel(page, 'densenet-consts.onnx');
  const fact = page.getByTestId('fact-weights');
  await expect(fact).toContainText(`${weights.tensors.toLocaleString('en-US')} · ${formatBytes(weights.bytes)}`);
  await expect(fact).toContainText('from constants');
});

test("the model card counts the weights of a Loop body and of an If nested in it, as the plan's weights do", async ({ page }) => {
  // a decoder whose lm_head sits in its Loop body read "Weights 0 · 0 B" for a 267 KiB file, or the outer few bytes
  await page.goto('/');
  await waitForPlan(page);
  await dropFile(page, 'loop-decoder.onnx', bodyWeightsModel());
  await waitForModel(page, 'loop-decoder.onnx');
  await expect(page.getByTestId('fact-weights')).toContainText(`${BODY_WEIGHTS.total.tensors} · ${formatBytes(BODY_WEIGHTS.total.bytes)}`);
});

test('a plan split between sram and ext-ram with every region at its bound says so, and compares with M1 as the CLI plans it', async ({ page }) => {
  const SQUEEZENET = 'light_squeezenet.onnx';
  test.skip(!haveModel(SQUEEZENET), NO_MODELS);
  const file = fileURLToPath(new URL(SQUEEZENET, MODELS_DIR));
  const cli = cliPlan(file, 'mcu') as unknown as { portfolio: { m1Peak: number }; search: { proven: boolean } };
  expect(cli.portfolio.m1Peak).toBe(cliPlan(file, 'mcu', 'm1').peak);
  expect(cli.search.proven).toBe(true);
  await serveModel(page, `/e2e/${SQUEEZENET}`, readModel(SQUEEZENET));
  await page.goto(`/?model=/e2e/${SQUEEZENET}&target=mcu`);
  await waitForModel(page, SQUEEZENET);
  await expect(page.getByTestId('plan-proof')).toHaveText(/^every region at its own bound \(proven\); the total is \d+\.\d % above the lower bound of any split between regions$/);
  await expect(page.getByTestId('regions-at-bound')).toContainText('no plan that splits the buffers between the regions this way can be smaller');
  await expect(page.getByTestId('optimal')).toHaveCount(0);
  await expect(page.getByTestId('headline-strategy-bound')).toContainText('its split between the regions and its sharing choices keep it above the lower bound of any split');
});

test('the bytes above the bound name the bound they are measured from, and "own" in the header says what it bounds: the sample on mcu with the sram aligned to 4096 B', async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 950 });
  await page.goto('/?target=mcu&region.sram.align=4096');
  await waitForPlan(page);
  await expect(page.getByTestId('heap-peak')).toContainText('peak 3.43 MiB (sum of 2 memories) · bound 3.13 MiB · own 3.33 MiB');
  await expect(page.getByTestId('strategy-bound')).toHaveAttribute('title', /^best's own bound, 3\.33 MiB: no plan that makes best's choices \(its split between the regions, the tensors it lets share bytes\) can be smaller\. The bound, 3\.13 MiB, holds for every plan\.$/);
  const waste = page.getByTestId('waste');
  await expect(waste).toContainText('108 KiB above the bound of this split between the regions, 3.33 MiB, "own" in the header');
  await expect(waste).toContainText('the split itself keeps the plan 208 KiB above the bound of any split, 3.13 MiB');
  await waste.scrollIntoViewIfNeeded();
  await snap(page, 'explain-waste-own-bound');
});

test('a variable-size scratch buffer live at the peak says what it asks and how much free space it was given, and the total says how much of it is free space', async ({ page }) => {
  await page.goto('/?target=mcu&strategy=naive');
  await waitForPlan(page, 'naive');
  const live = page.getByTestId('peak-live');
  // naive leaves ext-ram's free space to block2/depthwise's workspace, which asks 2.00 KiB
  const row = live.getByTestId('peak-buffer').filter({ hasText: 'block2/depthwise:workspace' });
  await expect(row.getByTestId('live-variable')).toHaveText(/^variable size: asks 2\.00 KiB, given [\d.]+ MiB more of the free space$/);
  const given = Number(await row.getAttribute('data-bytes')) - 2048;
  await expect(live.getByTestId('live-total')).toContainText(`, ${formatBytes(given)} of it free space variable-size scratch took`);
  // the waste split counts that free space with the holes
  expect(Number(await page.getByTestId('waste').getAttribute('data-holes'))).toBeGreaterThanOrEqual(given);
});

test('above its bound, the explanation says where the most is live and, apart, where the peak is reached and by which buffer; the heap marks that step', async ({ page }) => {
  await page.goto('/?target=mcu&strategy=naive');
  await waitForPlan(page, 'naive');
  const live = page.getByTestId('peak-live');
  await expect(live).toContainText('The most is live in ext-ram at step 9');
  const top = live.getByTestId('peak-top');
  await expect(top).toHaveText(/^ It is reached at step (\d+), where \S+ ends at it\.$/);
  const step = Number((await top.textContent())!.match(/step (\d+)/)![1]);
  const named = await top.locator('button.mono').getAttribute('title') ?? (await top.locator('button.mono').textContent())!;
  // the CLI's plan of the same settings: that buffer ends at ext-ram's peak, and is live first there
  const out: string[] = [];
  runCli(['plan', fileURLToPath(new URL('../public/sample.onnx', import.meta.url)), '--target', 'mcu', '--strategy', 'naive', '--json'], { out: (t) => out.push(t), err: () => undefined });
  const plan = JSON.parse(out.join('')) as { regions: { name: string; peak: number }[]; buffers: { name: string; region: string; offset: number; size: number; start: number }[] };
  const peak = plan.regions.find((r) => r.name === 'ext-ram')!.peak;
  const reaching = plan.buffers.filter((b) => b.region === 'ext-ram' && b.size > 0 && b.offset + b.size === peak).sort((a, b) => a.start - b.start);
  expect(reaching[0]).toMatchObject({ name: named, start: step });
});

test('a screen reader hears the page as it is drawn: each strategy row has a cell under every header, headings carry no count, each Compare button says what it compares, the regions drawn read as the page writes bytes', async ({ page }) => {
  await page.goto('/?target=mcu');
  await waitForPlan(page);
  await waitForComparison(page);
  // Each a check of its own, so one failing does not hide the others.
  // Under the four headers, four cells in every row (the bar's in words), so the peak is read under "Peak".
  const table = page.getByTestId('strategy-comparison').getByRole('table');
  await expect.soft(table.getByRole('columnheader')).toHaveCount(4);
  const naive = table.getByRole('row').filter({ has: page.getByRole('button', { name: 'Plan with naive' }) });
  await expect.soft(naive.getByRole('cell')).toHaveCount(3);
  await expect.soft(naive.getByRole('cell').first()).toContainText('bound');
  // No two buttons named just "Compare".
  await expect.soft(page.getByRole('button', { name: 'Compare', exact: true })).toHaveCount(0);
  await expect.soft(page.getByRole('button', { name: 'Compare A with plan B' })).toHaveCount(1);
  // The regions drawn, read in the bytes the page shows.
  const lane = page.getByTestId('heap-lane').first();
  const peak = Number(await lane.getAttribute('data-peak'));
  await expect.soft(lane).toContainText(`peak ${formatBytes(peak)}`);
  await expect.soft(lane).not.toContainText(/\d{5} bytes/);
  // The side bar's headings are their titles; the count beside one is not part of its name.
  await startOnSmallModel(page);
  await expect(page.getByTestId('dims-panel')).toBeVisible();
  await expect.soft(page.getByRole('heading', { name: 'Symbolic dims', exact: true })).toHaveCount(1);
  await expect.soft(page.getByRole('heading', { name: /\d$/ })).toHaveCount(0);
});
