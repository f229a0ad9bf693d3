// A plan never looks more certain than it is: the assumptions banner names
// default dims by input axis, tensors of unknown size and guessed branches,
// each fixed from the banner; the peak is a lower estimate while sizes are
// unknown; a region over its limit is said where the eye is; the live list at
// the peak adds up. Each figure is checked against the CLI for the same input.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { branchModel, customOpModel, detectorModel, fusedUnknownModel, largeImageModel, vadModel, viewsModel } from './assumption-models';
import { generateLoopModel } from '../src/model/testing/assumption-models';
import { haveModel, heapDrawn, NO_MODELS, openDropped, readModel, serveModel, snap, summary, test, waitForModel, waitForPlan } from './fixtures';

test.use({ viewport: { width: 1280, height: 720 } });

/** Writes `bytes` to a temporary file for the CLI; returns its path. */
function tempModel(name: string, bytes: Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-assume-')), name);
  writeFileSync(path, bytes);
  return path;
}

/** `plan <file> --json ...args` run in this process (exit 3, over a limit, still prints the plan). */
function cliPlan(file: string, args: readonly string[] = []): { peak: number; complete: boolean; fits: boolean } {
  let out = '';
  let err = '';
  const code = runCli(['plan', file, '--json', ...args], { out: (t) => (out += t), err: (t) => (err += t) });
  if (code !== 0 && code !== 3) throw new Error(`heapscope plan ${file} ${args.join(' ')} exited ${code}: ${err}`);
  return JSON.parse(out) as { peak: number; complete: boolean; fits: boolean };
}

/** Waits until the page is ready with a plan whose peak differs from `peak`. */
async function waitForPeakChange(page: Page, peak: number | null): Promise<void> {
  await page.waitForFunction((old) => {
    const s = window.heapscope?.summary();
    return document.body.dataset.status === 'ready' && s?.peak != null && s.peak !== old;
  }, peak);
}

test('a detector with unnamed dims: the banner shows the default image axes, and setting them from it re-plans', async ({ page }) => {
  const bytes = detectorModel();
  await openDropped(page, 'detector.onnx', bytes);
  const before = await summary(page);
  expect(before.warnings.length).toBeGreaterThan(0);
  expect(before.warnings[0]).toMatch(/^Plan assumes defaults .*x:2=224, x:3=224 \(.*typical image size\) — set them$/);
  const line = page.locator('[data-testid="assumption"][data-kind="dims"]');
  await expect(line).toContainText('x:2=224');
  // The dims panel names each dim by the input axis it sizes, whole.
  await expect(page.locator('[data-testid="dim"][data-dim="x:2"] .dim-name')).toHaveText('x:2');
  await heapDrawn(page);
  await snap(page, 'assumptions-detector');

  await line.getByTestId('assumption-fix').click();
  const fields = line.getByTestId('banner-dims');
  await expect(fields.locator('input[data-dim="x:0"]')).toBeFocused();
  await fields.locator('input[data-dim="x:2"]').fill('640');
  await fields.locator('input[data-dim="x:3"]').fill('640');
  await snap(page, 'assumptions-detector-fields');
  await fields.getByRole('button', { name: 'Apply' }).click();
  await waitForPeakChange(page, before.peak);
  // Every field the form showed is bound, the batch axis left at its default too: the plan no longer assumes any dim.
  await expect(page.locator('[data-testid="assumption"][data-kind="dims"]')).toHaveCount(0);
  const after = await summary(page);
  expect(after.settings?.dims).toEqual({ 'x:0': 1, 'x:2': 640, 'x:3': 640 });
  expect(after.warnings.filter((w) => w.startsWith('Plan assumes'))).toEqual([]);
  const file = tempModel('detector.onnx', bytes);
  expect(after.peak).toBe(cliPlan(file, ['--dim', 'x:0=1', '--dim', 'x:2=640', '--dim', 'x:3=640']).peak);
  expect(after.peak).toBeGreaterThan(before.peak!);
});

test('Escape closes the fixer the banner opened and gives focus back to its button', async ({ page }) => {
  await openDropped(page, 'detector.onnx', detectorModel());
  const line = page.locator('[data-testid="assumption"][data-kind="dims"]');
  const button = line.getByTestId('assumption-fix');
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const first = line.getByTestId('banner-dims').locator('input[data-dim="x:0"]');
  await expect(first).toBeFocused();
  await first.press('Escape');
  await expect(line.getByTestId('banner-dims')).toHaveCount(0);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();
  // Enter on the button it came back to opens the fixer again.
  await button.press('Enter');
  await expect(first).toBeFocused();
});

test('GPT-2 with a past: the total length follows the sequence in the form, and Apply binds every dim it shows', async ({ page }) => {
  test.skip(!haveModel('tiny-random-gpt2-fp32-past.onnx'), NO_MODELS);
  const bytes = readModel('tiny-random-gpt2-fp32-past.onnx');
  await openDropped(page, 'gpt2-past.onnx', bytes);
  const before = await summary(page);
  const line = page.locator('[data-testid="assumption"][data-kind="dims"]');
  await line.getByTestId('assumption-fix').click();
  const fields = line.getByTestId('banner-dims');
  await fields.locator('input[data-dim="seq_len"]').fill('16');
  // As the CLI derives it: total = sequence + past (0 on the first step).
  await expect(fields.locator('input[data-dim="total_seq_len"]')).toHaveValue('16');
  await snap(page, 'assumptions-gpt2-derived-total');
  await fields.getByRole('button', { name: 'Apply' }).click();
  await waitForPeakChange(page, before.peak);
  await expect(page.locator('[data-testid="assumption"][data-kind="dims"]')).toHaveCount(0);
  const after = await summary(page);
  expect(after.settings?.dims).toEqual({ batch_size: 1, seq_len: 16, total_seq_len: 16, past_seq_len: 0 });
  const planned = cliPlan(tempModel('gpt2-past.onnx', bytes), ['--dim', 'seq_len=16']) as ReturnType<typeof cliPlan> & { diagnostics: { code: string; message: string }[] };
  expect(after.peak).toBe(planned.peak);
  // The attention kernels' workspace, which cpu has no scratch rule for, is said as the CLI says it, not counted as 0:
  // 16 × 96 × 4 (Q/K/V) + 16 × 16 × 4 (causal mask) + 4 × 16 × 16 × 4 (probabilities) + 16 × 32 × 4 (output temp) B.
  const note = planned.diagnostics.find((d) => d.code === 'kernel-workspace')!.message;
  expect(note).toContain("ONNX Runtime's CPU kernel allocates about 13.0 KiB (13,312 B) for the largest, 'GptAttention_0'");
  const short = "Kernel workspace not counted: about 13.0 KiB for the largest of 5 Attention operators (ONNX Runtime's CPU estimate)";
  const workspace = page.locator('[data-testid="assumption"][data-key="kernel-workspace"]');
  await expect(workspace).toContainText(short);
  // the CLI's whole sentence, the rule that would plan it included, is behind the line's "?"
  expect(await workspace.getByTestId('assumption-why').getAttribute('title')).toBe(note.charAt(0).toUpperCase() + note.slice(1));
  expect(after.warnings).toContain(short);
});

test('GPT-2 decoding one token after 64: the batch the form shows at its default is bound with the rest, and the banner stops asking for it', async ({ page }) => {
  test.skip(!haveModel('tiny-random-gpt2-fp32-past.onnx'), NO_MODELS);
  const bytes = readModel('tiny-random-gpt2-fp32-past.onnx');
  await openDropped(page, 'gpt2-past.onnx', bytes);
  const before = await summary(page);
  expect(before.warnings.find((w) => w.startsWith('Plan assumes'))).toMatch(/batch_size=1/); // the dim's name, as the fields below and --dim take it
  const line = page.locator('[data-testid="assumption"][data-kind="dims"]');
  await line.getByTestId('assumption-fix').click();
  const fields = line.getByTestId('banner-dims');
  await expect(fields.locator('input[data-dim="batch_size"]')).toHaveValue('1');
  await fields.locator('input[data-dim="seq_len"]').fill('1');
  await fields.locator('input[data-dim="total_seq_len"]').fill('65');
  await fields.locator('input[data-dim="past_seq_len"]').fill('64');
  await fields.getByRole('button', { name: 'Apply' }).click();
  await waitForPeakChange(page, before.peak);
  await expect(page.locator('[data-testid="assumption"][data-kind="dims"]')).toHaveCount(0);
  await expect.poll(async () => (await summary(page)).settings?.dims).toEqual({ batch_size: 1, seq_len: 1, total_seq_len: 65, past_seq_len: 64 });
  const after = await summary(page);
  expect(after.warnings.filter((w) => w.startsWith('Plan assumes'))).toEqual([]);
  expect(after.peak).toBe(cliPlan(tempModel('gpt2-past.onnx', bytes), ['--dim', 'batch_size=1', '--dim', 'seq_len=1', '--dim', 'total_seq_len=65', '--dim', 'past_seq_len=64']).peak);
});

test('GPT-2: a total length given otherwise than sequence + past is named in the banner and the warnings, by link or typed in the side bar', async ({ page }) => {
  test.skip(!haveModel('tiny-random-gpt2-fp32-past.onnx'), NO_MODELS);
  const bytes = readModel('tiny-random-gpt2-fp32-past.onnx');
  await serveModel(page, '/e2e/gpt2-past.onnx', bytes);
  const line = page.locator('[data-testid="assumption"][data-key="dim-mismatch:total_seq_len"]');
  const given = "The given total_seq_len=5 (attention_mask:1) disagrees with seq_len + past_seq_len = 1 + 16 = 17, which the graph requires: the plan's sizes take total_seq_len=5 as given, so shapes that combine them may not agree";
  await page.goto('/?model=/e2e/gpt2-past.onnx&dim.seq_len=1&dim.past_seq_len=16&dim.total_seq_len=5');
  await waitForModel(page, 'gpt2-past.onnx');
  await waitForPlan(page);
  await expect(line).toContainText(given);
  expect((await summary(page)).warnings).toContain(`${given} — set them`);
  await snap(page, 'assumptions-gpt2-total-mismatch');
  // The fixer offers the three dims; the total set to their sum agrees, and the line goes.
  await line.getByTestId('assumption-fix').click();
  const fields = line.getByTestId('banner-dims');
  await fields.locator('input[data-dim="total_seq_len"]').fill('17');
  await fields.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('[data-testid="assumption"][data-key="dim-mismatch:total_seq_len"]')).toHaveCount(0);
  await expect.poll(async () => (await summary(page)).warnings.filter((w) => w.includes('disagrees'))).toEqual([]);

  // Given alone, against the default sequence and past lengths, which the line names as defaults.
  await page.goto('/?model=/e2e/gpt2-past.onnx&dim.total_seq_len=1024');
  await waitForModel(page, 'gpt2-past.onnx');
  await waitForPlan(page);
  await expect(line).toContainText('The given total_seq_len=1024 (attention_mask:1) disagrees with seq_len + past_seq_len = 128 + 0 = 128 (seq_len=128, past_seq_len=0 by default), which the graph requires');

  // Typed in the side bar, the same.
  await page.goto('/?model=/e2e/gpt2-past.onnx');
  await waitForModel(page, 'gpt2-past.onnx');
  await waitForPlan(page);
  await expect(line).toHaveCount(0);
  await page.locator('[data-testid="dim"][data-dim="total_seq_len"] input').fill('300');
  await page.keyboard.press('Enter');
  await expect(line).toContainText('The given total_seq_len=300 (attention_mask:1) disagrees with seq_len + past_seq_len = 128 + 0 = 128 (seq_len=128, past_seq_len=0 by default)');
  await expect.poll(async () => (await summary(page)).warnings.some((w) => w.startsWith('The given total_seq_len=300'))).toBe(true);
});

test('an op without a shape rule makes the peak a lower estimate until a shape is given from the banner', async ({ page }) => {
  const bytes = customOpModel();
  await openDropped(page, 'custom.onnx', bytes);
  const before = await summary(page);
  expect(before.complete).toBe(false);
  expect(before.warnings).toContainEqual(expect.stringMatching(/^2 tensors of unknown size \(Mystery, Relu\): the peak is a lower estimate/));
  await expect(page.getByTestId('lower-estimate')).toBeVisible();
  await expect(page.getByTestId('heap-peak')).toContainText('≥');
  await expect(page.getByTestId('headline-peak')).toContainText('a lower estimate');
  // The settings' one-line summary says so too: its peak and its proof cover the sizes known only.
  await expect(page.getByTestId('plan-note')).toContainText('≥');
  await expect(page.getByTestId('plan-proof')).toContainText('for the sizes known');
  await expect(page.getByTestId('peak-chart')).toContainText('peak ≥');
  await expect(page.locator('.heap-lane-label').first()).toContainText('peak ≥');
  // so do the totals of what is live: at the peak, and at a step picked from there
  await expect(page.getByTestId('peak-live').getByTestId('live-total')).toContainText('≥');
  await page.getByTestId('peak-step').click();
  await expect(page.getByTestId('selection-details').getByTestId('live-count')).toContainText('≥');
  await expect(page.getByTestId('selection-details').getByTestId('live-total').first()).toContainText('≥');
  await expect(page.getByTestId('optimal')).toHaveCount(0);
  await expect(page.getByTestId('explanation')).not.toContainText('no plan can be smaller');

  const line = page.locator('[data-testid="assumption"][data-kind="shape"]');
  await line.getByTestId('assumption-fix').click();
  const field = line.locator('[data-testid="shape-field"][data-name="mystery_out"]');
  await expect(field.getByRole('textbox')).toBeFocused();
  // Text that is not a shape is refused, naming the field; the plan stays.
  await field.getByRole('textbox').fill('four by 256');
  await field.getByRole('button', { name: 'Apply' }).click();
  await expect(field.getByTestId('binding-error')).toContainText('Shape of "mystery_out" must be whole numbers');
  expect((await summary(page)).peak).toBe(before.peak);
  await snap(page, 'assumptions-unknown-shape');

  await field.getByRole('textbox').fill('4x256');
  await field.getByRole('button', { name: 'Apply' }).click();
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().complete === true);
  const after = await summary(page);
  expect(after.warnings).toEqual([]);
  expect(after.peak).toBe(cliPlan(tempModel('custom.onnx', bytes), ['--shape', 'mystery_out=4x256']).peak);
  await expect(page.getByTestId('lower-estimate')).toHaveCount(0);
  await expect(page.getByTestId('assumptions-banner')).toHaveCount(0);
  await expect(page.getByTestId('plan-note')).not.toContainText('≥');
  await expect(page.getByTestId('plan-proof')).not.toContainText('sizes known');
  await expect(page.getByTestId('peak-chart')).not.toContainText('≥');
  await expect(page.getByTestId('peak-live').getByTestId('live-total')).not.toContainText('≥');
  await expect(page.locator('.heap-lane-label').first()).not.toContainText('≥');
  await page.getByTestId('peak-step').click();
  await expect(page.getByTestId('selection-details').getByTestId('live-count')).not.toContainText('≥');
});

test('fusion traffic says its figures cover the sizes known when a tensor after the fused units has none', async ({ page }) => {
  await openDropped(page, 'fused-unknown.onnx', fusedUnknownModel(), '/?target=accelerator');
  await page.waitForFunction(() => window.heapscope?.summary().target === 'accelerator' && window.heapscope.summary().fusionUnits > 0);
  expect((await summary(page)).complete).toBe(false);
  await expect(page.getByTestId('fusion-traffic').getByTestId('traffic-estimate')).toContainText('Of the sizes known');
  // within the accelerator's limits, but a size is unknown: it fits only as far as known
  await expect(page.getByTestId('headline-fit')).toHaveText('Fits only as far as known: every region is within its size limit with the sizes known.');
  // the CLI says so too
  let text = '';
  runCli(['plan', tempModel('fused-unknown.onnx', fusedUnknownModel()), '--target', 'accelerator'], { out: (t) => (text += t), err: () => undefined });
  expect(text).toMatch(/DRAM traffic +at least .* with it \(.*, of the sizes known\)/);
});

test('an If on a graph input: the banner names the assumed branch, and a value for the input resolves it', async ({ page }) => {
  const bytes = branchModel();
  await openDropped(page, 'vad.onnx', bytes);
  const before = await summary(page);
  const file = tempModel('vad.onnx', bytes);
  expect(before.peak).toBe(cliPlan(file).peak);
  expect(before.warnings).toContainEqual("If 'vad/If_0': then branch assumed — set sr");
  // The model's activation sum is the main graph's: it says so, since the branch's tensors are not in it.
  const activations = page.getByTestId('stat-activation-bytes');
  await expect(activations.locator('..').locator('.stat-label')).toHaveAttribute('title', 'Activation data without reuse (unpadded, main graph)');
  // The count of unknown shapes counts the branches' tensors too, as the banner does: none anywhere.
  await expect(page.getByTestId('fact-unknown')).toHaveText('none');
  await expect(activations).toHaveAttribute('title', /in the main graph; the tensors inside the bodies of its 1 If\/Loop\/Scan node are not counted here/);
  const line = page.locator('[data-testid="assumption"][data-kind="input"]');
  await expect(line).toContainText("If 'vad/If_0': then branch assumed");
  // Why, in the model layer's words, is one hover away, and shown to the keyboard on focus; Escape hides it.
  const why = line.getByRole('button', { name: 'Why?' });
  await expect(why).toHaveAttribute('title', /larger outputs.*graph input 'sr'/);
  const note = line.getByTestId('assumption-why-note');
  await expect(note).toBeHidden();
  await page.getByTestId('graph-search').focus();
  await page.keyboard.press('Tab');
  for (let i = 0; i < 40 && !(await why.evaluate((b) => b === document.activeElement)); i += 1) await page.keyboard.press('Tab');
  await expect(why).toBeFocused();
  await expect(note).toBeVisible();
  await expect(note).toContainText(/larger outputs.*graph input 'sr'/);
  await expect(why).toHaveAccessibleDescription(/larger outputs.*graph input 'sr'/);
  await snap(page, 'assumptions-why-focused');
  await page.keyboard.press('Escape');
  await expect(note).toBeHidden();
  await expect(why).toBeFocused();
  await why.press('Enter');
  await expect(note).toBeVisible();
  await line.getByTestId('assumption-fix').click();
  const field = line.locator('[data-testid="input-value-field"][data-name="sr"]');
  await field.getByRole('textbox').fill('8000');
  await snap(page, 'assumptions-branch');
  await field.getByRole('button', { name: 'Apply' }).click();
  await waitForPeakChange(page, before.peak);
  const after = await summary(page);
  expect(after.warnings).toEqual([]);
  expect(after.peak).toBe(cliPlan(file, ['--input', 'sr=8000']).peak);
  expect(after.peak).toBeLessThan(before.peak!);
});

test("a scan output of a Loop run max_new_tokens times opens max_new_tokens's value field, not a shape, and that value sizes it", async ({ page }) => {
  const bytes = generateLoopModel();
  const file = tempModel('generate.onnx', bytes);
  await openDropped(page, 'generate.onnx', bytes);
  const before = await summary(page);
  expect(before.complete).toBe(false);
  expect(before.warnings).toContain("1 tensor of unknown size ('all_logits', Loop): the peak is a lower estimate — set max_new_tokens");
  const line = page.locator('[data-testid="assumption"][data-key="unknown"]');
  await expect(line).toHaveAttribute('data-kind', 'input');
  await line.getByTestId('assumption-fix').click();
  const field = line.locator('[data-testid="input-value-field"][data-name="max_new_tokens"]');
  await field.getByRole('textbox').fill('20');
  await snap(page, 'assumptions-loop-trip-count');
  await field.getByRole('button', { name: 'Apply' }).click();
  await waitForPeakChange(page, before.peak);
  const after = await summary(page);
  expect(after.complete).toBe(true);
  expect(after.warnings).toEqual([]);
  expect(after.peak).toBe(cliPlan(file, ['--input', 'max_new_tokens=20']).peak);
});

/** ONNX's own node tests (libonnx-testdata), where the system has them. */
const ONNX_NODE_TESTS = '/usr/share/libonnx-testdata/data/node';

test("an If's bool condition (ONNX's test_if) is set from the banner as true or false, as the field's hint says", async ({ page }) => {
  const file = join(ONNX_NODE_TESTS, 'test_if', 'model.onnx');
  test.skip(!existsSync(file), 'needs libonnx-testdata (ONNX node tests); it is absent here');
  await openDropped(page, 'test_if.onnx', readFileSync(file));
  const line = page.locator('[data-testid="assumption"][data-kind="input"]');
  await expect(line).toContainText("If 'If_0': both branches assumed");
  await line.getByTestId('assumption-fix').click();
  const field = line.locator('[data-testid="input-value-field"][data-name="cond"]');
  const box = field.getByRole('textbox');
  await expect(box).toHaveAttribute('placeholder', 'true or false');
  await box.fill('yes');
  await field.getByRole('button', { name: 'Apply' }).click();
  await expect(field).toContainText('Value of "cond" must be true or false (or 1, 0), separated by commas for several; got "yes"');
  await box.fill('true');
  await snap(page, 'assumptions-if-bool');
  await field.getByRole('button', { name: 'Apply' }).click();
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().settings?.inputValues?.cond?.[0] === 1);
  const after = await summary(page);
  expect(after.warnings).toEqual([]);
  expect(after.peak).toBe(cliPlan(file, ['--input', 'cond=true']).peak);
});

test("a Loop growing a sequence over a trip count not known (ONNX's test_loop13_seq) says so in the banner, beside its tensors of unknown size", async ({ page }) => {
  const file = join(ONNX_NODE_TESTS, 'test_loop13_seq', 'model.onnx');
  test.skip(!existsSync(file), 'needs libonnx-testdata (ONNX node tests); it is absent here');
  await openDropped(page, 'test_loop13_seq.onnx', readFileSync(file));
  const s = await summary(page);
  expect(s.complete).toBe(false);
  expect(s.warnings).toContain("Loop 'Loop_0': trip count unknown, so loop-carried seq_res, which may change with each iteration, has unknown size — set trip_count, cond");
  expect(s.warnings.some((w) => /^5 tensors of unknown size .*: the peak is a lower estimate/.test(w))).toBe(true);
  await expect(page.locator('[data-testid="assumption"][data-kind="input"]')).toContainText("Loop 'Loop_0': trip count unknown");
});

test('a region over its limit is said in the heap header and the explanation, and summary().fits is false', async ({ page }) => {
  const bytes = largeImageModel();
  await openDropped(page, 'large.onnx', bytes, '/?target=mcu');
  const s = await summary(page);
  expect(s).toMatchObject({ target: 'mcu', fits: false, complete: true });
  const cli = cliPlan(tempModel('large.onnx', bytes), ['--target', 'mcu']);
  expect(s.peak).toBe(cli.peak);
  expect(cli.fits).toBe(false);
  // The activations spill from the SRAM to the external RAM, and are too many for that too: the verdict names the memory still over.
  const over = /ext-ram needs \d+(\.\d+)? MiB, \d+(\.\d+)? MiB over its 8\.00 MiB limit/;
  await expect(page.getByTestId('heap-over')).toContainText(over);
  // summary().warnings carries the red banner's line as it reads, first.
  expect(s.warnings[0]).toBe((await page.getByTestId('heap-over').textContent())!.trim());
  expect(s.warnings[0]).toMatch(over);
  const first = page.getByTestId('explanation').locator('p').first();
  await expect(first).toContainText('Does not fit');
  await expect(first).toContainText(over);
  await expect(page.locator('[data-testid="region-row"][data-region="ext-ram"]')).not.toHaveAttribute('data-over-by', '0');
  await expect(page.locator('[data-testid="region-row"][data-region="sram"]')).toHaveAttribute('data-over-by', '0');
  await heapDrawn(page);
  await snap(page, 'assumptions-over-limit');
});

test('the live list at the peak step lists every buffer, shared ones included, and adds up to the peak', async ({ page }) => {
  await openDropped(page, 'views.onnx', viewsModel());
  const s = await summary(page);
  const peakLive = page.getByTestId('peak-live');
  const counted = await page.getByTestId('peak-buffer').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-counted'))));
  expect(counted.reduce((a, b) => a + b, 0)).toBe(Number(await peakLive.getAttribute('data-total')));
  expect(Number(await peakLive.getAttribute('data-total'))).toBe(s.peak);

  // The same step selected on the heap lists the same buffers and the same total.
  await page.getByTestId('peak-step').click();
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'step');
  await expect(details.getByTestId('live-count')).toHaveAttribute('data-bytes', String(s.peak));
  await expect(details.getByTestId('live-total')).toHaveAttribute('data-bytes', String(s.peak));
  const shown = await details.getByTestId('step-buffer').count();
  expect(shown).toBe(counted.length);
  await expect(details.getByTestId('live-shares').first()).toContainText(/^shares .*'s bytes/);
});

test("a recurrent state's unnamed batch axis defaults to one sample, as the audio's batch, not to a sequence of 128", async ({ page }) => {
  const bytes = vadModel();
  await openDropped(page, 'vad.onnx', bytes);
  const banner = (await summary(page)).warnings.find((w) => w.startsWith('Plan assumes'));
  expect(banner).toMatch(/state:1=1 \(batch axis of a recurrent state/);
  expect(banner).not.toMatch(/state:1=128/);
  expect((await summary(page)).peak).toBe(cliPlan(tempModel('vad.onnx', bytes), []).peak);
});

test('the keyboard opens and closes the compact banner and keeps its focus on the button that does it: Details, then Less, then Details', async ({ page }) => {
  const path = '/usr/share/libonnx-testdata/data/node/test_loop11/model.onnx';
  test.skip(!existsSync(path), 'needs the ONNX backend test data (libonnx-testdata)');
  await page.setViewportSize({ width: 1280, height: 800 });
  await openDropped(page, 'model.onnx', readFileSync(path), '/?panes=graph,heap,growth,explain');
  const banner = page.getByTestId('assumptions-banner');
  await expect(banner).toHaveAttribute('data-compact', 'true');
  const more = page.getByTestId('assumptions-more');
  await more.focus();
  await page.keyboard.press('Enter');
  const less = page.getByTestId('assumptions-less');
  await expect(less).toBeFocused();
  await snap(page, 'assumptions-compact-keyboard-open');
  await page.keyboard.press('Enter');
  await expect(more).toBeFocused();
  // Space opens it as well, and focus follows again.
  await page.keyboard.press('Space');
  await expect(less).toBeFocused();
});
