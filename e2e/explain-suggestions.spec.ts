// The explanation's reasons and suggestions in the page: every buffer live at
// the peak has a reason; the plan is on screen before its suggestions, which
// the worker evaluates after it; applying each kind of suggestion (fusion,
// strategy, SRAM, execution order) opens the comparison with side B at exactly
// the saving the plan states, as plan --json states it; a saving that trades
// fast memory for slow says so region by region, in the words plan states.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect as baseExpect, type Page } from '@playwright/test';
import { runCli } from '../cli/main';
import { fileURLToPath } from 'node:url';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { buildModel, haveModel, MODELS_DIR, readModel, serveModel, snap, summary, waitForModel, waitForPlan, test } from './fixtures';

/** Planning shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** One suggestion as plan --json lists it. */
interface CliSuggestion {
  readonly kind: string;
  readonly saves: number;
  readonly args?: readonly string[];
}

/** The suggestions plan --json gives for `file` with `args`. */
function cliSuggestions(file: string, args: readonly string[]): CliSuggestion[] {
  let out = '';
  const code = runCli(['plan', file, '--json', ...args], { out: (t) => (out += t), err: () => undefined });
  expect([0, 3]).toContain(code); // 3: a region over its size limit; the plan is printed all the same
  return (JSON.parse(out) as { suggestions: CliSuggestion[] }).suggestions;
}

/**
 * Two branches read x; each is reduced to a scalar and the two are added. In
 * file order both branch outputs are live at once; depth-first holds one.
 */
function branchesModel(): Uint8Array {
  return buildModel({
    inputs: [['x', [1, 1024]]],
    outputs: [['c', [1, 1]]],
    nodes: [
      { op: 'Relu', inputs: ['x'], outputs: ['a'], name: 'A' },
      { op: 'Relu', inputs: ['x'], outputs: ['b'], name: 'B' },
      { op: 'ReduceMax', inputs: ['a'], outputs: ['a2'], name: 'A2' },
      { op: 'ReduceMax', inputs: ['b'], outputs: ['b2'], name: 'B2' },
      { op: 'Add', inputs: ['a2', 'b2'], outputs: ['c'], name: 'C' },
    ],
  });
}

/** Waits for the suggestions of the plan on screen, which the worker evaluates after it. */
async function waitForSuggestions(page: Page): Promise<void> {
  await expect(page.getByTestId('suggestions')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
}

/**
 * Applies every suggestion that has an apply button, one after the other: each
 * opens the comparison with A the plan on screen and B lower by its saving.
 * Returns what was applied, as kind, saving and the CLI arguments shown.
 */
async function applyEach(page: Page): Promise<{ kind: string; saves: number; how: string }[]> {
  const peak = (await summary(page)).peak!;
  const rows = page.getByTestId('suggestion').filter({ has: page.getByTestId('suggestion-apply') });
  const applied: { kind: string; saves: number; how: string }[] = [];
  for (let k = 0; k < (await rows.count()); k++) {
    const row = rows.nth(k);
    const kind = (await row.getAttribute('data-kind')) ?? '';
    const saves = Number(await row.getAttribute('data-saves'));
    const how = (await row.locator('code').textContent()) ?? '';
    await row.getByTestId('suggestion-apply').click();
    const dialog = page.getByTestId('compare-dialog');
    await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(peak));
    await expect(dialog.getByTestId('compare-summary-b')).toHaveAttribute('data-peak', String(peak - saves));
    await expect(dialog.getByTestId('compare-delta')).toHaveAttribute('data-delta', String(-saves));
    await snap(page, `explain-suggestion-${kind}`);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    applied.push({ kind, saves, how });
  }
  return applied;
}

test('the plan shows first and its suggestions follow; every peak buffer has a reason', async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 950 });
  await page.goto('/?target=phone');
  await waitForPlan(page);
  // The plan is on screen whether or not the suggestions are in yet: no plan waits for them.
  await expect(page.getByTestId('suggestions')).toHaveAttribute('data-status', /^(pending|running|done)$/);
  const reasons = page.getByTestId('peak-reason');
  await expect(reasons.first()).toBeVisible();
  for (const text of await reasons.allTextContents()) expect(text).toMatch(/: \S/);
  await waitForSuggestions(page);
  await expect(page.getByTestId('suggestions-progress')).toHaveCount(0);
  const row = page.getByTestId('suggestion').first();
  await expect(row).toHaveAttribute('data-kind', 'fusion');
  await expect(row).toHaveAttribute('data-saves', String(cliSuggestions('public/sample.onnx', ['--target', 'phone'])[0]!.saves));
  await expect(page.getByText('apply with the CLI')).toHaveCount(0);
  await page.getByTestId('suggestions').scrollIntoViewIfNeeded();
  await snap(page, 'explain-suggestions');
});

/**
 * x feeds two branches, each cast to float16 right after its first op; both
 * branches and x are live at the Cast of the first, 40 KiB, and again at the
 * second op with the first branch already narrowed. Storing the first
 * branch's output as float16 (the edit the planner tries) leaves the second
 * step at 40 KiB: the suggestion list is empty though the peak's reasons say
 * what float16 would take.
 */
function narrowingModel(): Uint8Array {
  const g = new GraphBuilder('narrowing');
  const x = g.input('x', 'float32', [1, 4096]);
  const a = g.node('Cast', [g.node('Relu', [x], {}, { name: 'A' })], { to: 10 }, { name: 'C' });
  const b = g.node('Cast', [g.node('Sigmoid', [x], {}, { name: 'B' })], { to: 10 }, { name: 'D' });
  g.output(g.node('Add', [a, b], {}, { name: 'E' }), 'float16');
  return g.toBytes();
}

test('an empty suggestion list says the float16 narrowing the reasons offer was tried and leaves the peak where it is', async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, '/e2e/narrowing.onnx', narrowingModel());
  await page.goto('/?model=/e2e/narrowing.onnx');
  await waitForModel(page, 'narrowing.onnx');
  await waitForPlan(page);
  await waitForSuggestions(page);
  await expect(page.getByTestId('suggestion')).toHaveCount(0);
  // The reason offers the narrowing; the empty list answers it instead of standing beside it.
  await expect(page.getByTestId('peak-reason').filter({ hasText: 'stored as float16 it would take 8.00 KiB' })).toHaveCount(1);
  const none = page.getByTestId('no-suggestions');
  await expect(none).toHaveText('No change the planner tried lowers this peak. Keeping A_out in float16 (8.00 KiB instead of 16.0 KiB) was tried too and leaves the peak where it is.');
  await page.getByTestId('suggestions').scrollIntoViewIfNeeded();
  await snap(page, 'explain-no-suggestions-narrowing');
});

test('applying each kind of suggestion opens the comparison with the saving plan --json states', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1500, height: 950 });
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-suggest-'));
  writeFileSync(join(dir, 'branches.onnx'), branchesModel());
  await serveModel(page, '/e2e/branches.onnx', branchesModel());
  const setups = [
    { url: '/?target=phone', file: 'public/sample.onnx', args: ['--target', 'phone'], kind: 'fusion' },
    { url: '/?target=phone&strategy=naive', file: 'public/sample.onnx', args: ['--target', 'phone', '--strategy', 'naive'], kind: 'strategy' },
    { url: '/?target=accelerator&sram=262144', file: 'public/sample.onnx', args: ['--target', 'accelerator', '--sram', '262144'], kind: 'sram' },
    { url: '/?model=/e2e/branches.onnx&target=cpu', file: join(dir, 'branches.onnx'), args: ['--target', 'cpu'], kind: 'order' },
  ];
  const kinds = new Set<string>();
  for (const setup of setups) {
    await page.goto(setup.url);
    await waitForPlan(page);
    await waitForSuggestions(page);
    const stated = cliSuggestions(setup.file, setup.args).filter((s) => s.args !== undefined);
    const applied = await applyEach(page);
    // The page lists and applies exactly what plan --json states, saving for saving.
    expect(applied.map((a) => [a.kind, a.saves, a.how])).toEqual(stated.map((s) => [s.kind, s.saves, `plan ${s.args!.join(' ')}`]));
    expect(applied.map((a) => a.kind)).toContain(setup.kind);
    for (const a of applied) kinds.add(a.kind);
  }
  expect([...kinds].sort()).toEqual(['fusion', 'order', 'sram', 'strategy']);
});

test('a link carries the execution order and the fusion SRAM: the fields show them and the plan is the CLI\'s', async ({ page }) => {
  await page.goto('/?target=accelerator&sram=262144&order=depth-first');
  await waitForPlan(page);
  const shown = await summary(page);
  expect(shown.settings).toMatchObject({ target: 'accelerator', sramBytes: 262144, order: 'depth-first' });
  let out = '';
  expect(runCli(['plan', 'public/sample.onnx', '--json', '--target', 'accelerator', '--sram', '262144', '--order', 'depth-first'], { out: (t) => (out += t), err: () => undefined })).toBe(0);
  expect(shown.peak).toBe((JSON.parse(out) as { peak: number }).peak);
  await expect(page.getByLabel('fusion SRAM bytes')).toHaveValue('256 KiB');
  await expect(page.getByLabel('execution order')).toHaveValue('depth-first');
  // Back to the preset's order drops the edit; a bad SRAM size is refused naming the field.
  await page.getByLabel('execution order').selectOption('file');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.order === null);
  expect(new URL(page.url()).searchParams.get('order')).toBeNull();
  const sram = page.getByLabel('fusion SRAM bytes');
  await sram.fill('0');
  await sram.press('Enter');
  await expect(page.getByTestId('settings-error')).toContainText('fusion SRAM bytes');
  expect((await summary(page)).settings).toMatchObject({ sramBytes: 262144, order: null });
});

test('on the mcu target, where scratch in the free areas grows the heap, the suggestion to plan it with the activations saves what plan --json states; the field and the link carry the placement', async ({ page }) => {
  test.skip(!haveModel('light_resnet50.onnx'), 'needs ../shared/models/light_resnet50.onnx');
  test.setTimeout(180_000);
  const file = fileURLToPath(new URL('light_resnet50.onnx', MODELS_DIR));
  await serveModel(page, '/e2e/resnet.onnx', readModel('light_resnet50.onnx'));
  await page.goto('/?model=/e2e/resnet.onnx&target=mcu');
  await waitForPlan(page);
  await waitForSuggestions(page);
  const stated = cliSuggestions(file, ['--target', 'mcu']).filter((s) => s.args !== undefined);
  expect(stated.map((s) => s.kind)).toContain('scratch');
  const applied = await applyEach(page);
  expect(applied.map((a) => [a.kind, a.saves, a.how])).toEqual(stated.map((s) => [s.kind, s.saves, `plan ${s.args!.join(' ')}`]));
  // The same change by hand, in the target fields: the plan is the CLI's with --scratch-placement, and a link keeps it.
  const before = (await summary(page)).peak!;
  const scratch = stated.find((s) => s.kind === 'scratch')!;
  await page.getByLabel('scratch placement').selectOption('with-activations');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.scratchPlacement === 'with-activations');
  let out = '';
  expect(runCli(['plan', file, '--json', '--target', 'mcu', '--scratch-placement', 'with-activations'], { out: (t) => (out += t), err: () => undefined })).toBe(3); // still over the 512 KiB SRAM
  const cliPeak = (JSON.parse(out) as { peak: number }).peak;
  expect(cliPeak).toBe(before - scratch.saves);
  await expect.poll(async () => (await summary(page)).peak).toBe(cliPeak);
  expect(new URL(page.url()).searchParams.get('scratch')).toBe('with-activations');
  await page.reload();
  await waitForPlan(page);
  await expect(page.getByLabel('scratch placement')).toHaveValue('with-activations');
  expect((await summary(page)).peak).toBe(cliPeak);
  // back to the preset's placement drops the edit, from the settings and from the link
  await page.getByLabel('scratch placement').selectOption('free-areas');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.scratchPlacement === null);
  expect(new URL(page.url()).searchParams.get('scratch')).toBeNull();
  await expect.poll(async () => (await summary(page)).peak).toBe(before);
});

test('SqueezeNet fp16 on the accelerator: switching fusion off is worded as a trade of fast memory for slow, region by region, as plan states it', async ({ page }) => {
  const squeezenet = 'winml_SqueezeNet_fp16.onnx';
  test.skip(!haveModel(squeezenet), `needs ../shared/models/${squeezenet}`);
  test.setTimeout(180_000);
  const file = fileURLToPath(new URL(squeezenet, MODELS_DIR));
  await serveModel(page, '/e2e/squeezenet.onnx', readModel(squeezenet));
  await page.goto('/?model=/e2e/squeezenet.onnx&target=accelerator');
  await waitForPlan(page);
  await waitForSuggestions(page);
  let out = '';
  expect(runCli(['plan', file, '--json', '--target', 'accelerator'], { out: (t) => (out += t), err: () => undefined })).toBe(0);
  const fusion = (JSON.parse(out) as { suggestions: { kind: string; action: string }[] }).suggestions.find((s) => s.kind === 'fusion')!;
  expect(fusion.action).toContain('by trading fast memory for slow: dram 499 KiB → 1.87 MiB (+1.39 MiB), sram 1.92 MiB → 0 B (−1.92 MiB)');
  await expect(page.getByTestId('suggestion').and(page.locator('[data-kind="fusion"]'))).toContainText(fusion.action);
});

test('ultraface on mcu with spilling off does not fit; the page says how much more sram it needs and offers spilling, which makes it fit', async ({ page }) => {
  const ultraface = 'ultraface_RFB-320.onnx';
  test.skip(!haveModel(ultraface), 'needs ../shared/models/ultraface_RFB-320.onnx');
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, '/e2e/ultraface.onnx', readModel(ultraface));
  await page.goto('/?model=/e2e/ultraface.onnx&target=mcu&spill=off');
  await waitForPlan(page);
  expect((await summary(page)).fits).toBe(false);
  await expect(page.getByTestId('headline-fit')).toContainText('sram needs 4.69 MiB, 4.19 MiB over its 512 KiB limit');
  await expect(page.getByTestId('headline-fit-needs')).toHaveText('To fit needs 4.19 MiB more sram.');
  // At its lower bound with these settings, which is not the same as nothing making it fit.
  await expect(page.getByTestId('optimal')).not.toContainText('no plan can be smaller');
  await waitForSuggestions(page);
  // What to change lists a change that makes it fit, so the sentence points there
  await expect(page.getByTestId('optimal')).toContainText('Other settings make it fit (see What to change), as more memory would.');
  await expect(page.getByTestId('no-suggestions')).toHaveCount(0);
  const spill = page.getByTestId('suggestion').first();
  await expect(spill).toHaveAttribute('data-kind', 'spill');
  await expect(spill).toHaveAttribute('data-fits', 'true');
  await expect(spill).toContainText('fits turn spilling to the next region on: the plan fits; 45 buffers spill (11.1 MiB over the run to ext-ram, which peaks at 4.69 MiB of its 8.00 MiB)');
  await expect(spill.locator('code')).toHaveText('plan --spill on');
  const stated = cliSuggestions(fileURLToPath(new URL(ultraface, MODELS_DIR)), ['--target', 'mcu', '--spill', 'off']);
  expect(stated[0]).toMatchObject({ kind: 'spill', saves: Number(await spill.getAttribute('data-saves')) });
  await page.getByTestId('suggestions').scrollIntoViewIfNeeded();
  await snap(page, 'explain-suggestion-spill');
  // Compared, side B is the plan with spilling on, which fits.
  await spill.getByTestId('suggestion-apply').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.getByTestId('compare-summary-b')).toHaveAttribute('data-peak', String((await summary(page)).peak! - Number(await spill.getAttribute('data-saves'))));
});
