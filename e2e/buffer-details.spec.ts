// A buffer's Details on the page say what the plan knows of it, in words that
// cannot be misread: that it spilled from the region it wanted and why (the
// reason `plan` gives), its offset as an offset, the scratch rule that sized a
// scratch buffer (that placement grew a variable one past it, and why its rule
// put it in a slow memory) with no shape editor, and the bytes alignment adds
// to a buffer's data; the model card says its activation figure is unpadded
// data, smaller than the plan's peak.

import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { haveModel, MODELS_DIR, NO_MODELS, readModel, serveModel, snap, test, waitForModel, waitForPlan } from './fixtures';
import { fileURLToPath } from 'node:url';

const SQUEEZENET = 'light_squeezenet.onnx';
const RELU = 'wonnx_single_relu.onnx';
const ULTRAFACE = 'ultraface_RFB-320.onnx';

/** Planning squeezenet on mcu takes a few seconds on a busy machine. */
const expect = baseExpect.configure({ timeout: 30_000 });

interface CliPlan {
  readonly peak: number;
  readonly buffers: readonly { readonly id: number; readonly name: string; readonly kind: string; readonly wanted?: string }[];
  readonly explanation: { readonly spilled?: readonly { readonly id: number; readonly reason: string }[] };
}

/** `plan <model> --json ...args`, run in this process. */
function cliPlan(name: string, args: readonly string[]): CliPlan {
  let out = '';
  const code = runCli(['plan', fileURLToPath(new URL(name, MODELS_DIR)), '--json', ...args], { out: (t) => (out += t), err: () => undefined });
  if (code !== 0 && code !== 3) throw new Error(`plan ${name} exited ${code}`);
  return JSON.parse(out) as CliPlan;
}

/** Opens corpus model `name` by URL with `query` and waits for its plan. */
async function open(page: Page, name: string, query: string): Promise<void> {
  await serveModel(page, `/e2e/${name}`, readModel(name));
  await page.goto(`/?model=/e2e/${name}&${query}`);
  await waitForModel(page, name);
  await waitForPlan(page);
}

test('a spilled buffer says it spilled and why, with its offset as an offset', async ({ page }) => {
  test.skip(!haveModel(SQUEEZENET), NO_MODELS);
  test.setTimeout(120_000);
  const cli = cliPlan(SQUEEZENET, ['--target', 'mcu']);
  const r0 = cli.buffers.find((b) => b.id === 1)!;
  expect([r0.name, r0.wanted]).toEqual(['r0', 'sram']);
  const reason = cli.explanation.spilled!.find((s) => s.id === 1)!.reason;
  await open(page, SQUEEZENET, 'target=mcu&select=buffer:1');
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  await expect(details.getByTestId('buffer-facts')).toHaveText('activation · 1×64×111×111 float32 · 3.01 MiB at offset 0 in ext-ram · steps [0, 2)');
  await expect(details.getByTestId('buffer-spilled')).toHaveText(`spilled from sram, the region it wanted, to ext-ram: ${reason}`);
  await snap(page, 'buffer-details-spilled');
});

test('a spilled buffer whose bytes another buffer shares in place names it, and its spill reason is of the block they share', async ({ page }) => {
  test.skip(!haveModel(ULTRAFACE), NO_MODELS);
  test.setTimeout(120_000);
  await open(page, ULTRAFACE, 'target=mcu&select=buffer:25');
  const details = page.getByTestId('selection-details');
  await expect(details.locator('strong').first()).toHaveText('282');
  // Its lifetime is steps [24, 26); Relu_25's output 283 holds its bytes to step 43, as the heap's block shows.
  await expect(details.getByTestId('buffer-facts')).toContainText('· steps [24, 26)');
  const shared = details.getByTestId('buffer-shared-by');
  await expect(shared).toHaveText('its bytes are shared by 283 (Relu_25, in place, up to step 43): the block holds steps [24, 43)');
  // It said "moved over 19 steps … at step 37 sram holds 506 KiB" with no word of the block those figures are of.
  await expect(details.getByTestId('buffer-spilled')).toHaveText(/^spilled from sram, the region it wanted, to ext-ram: the block 282 and 283 share, steps \[24, 43\): [\d.]+ MiB moved over 19 steps .*at step (2[4-9]|3\d|4[0-2]) sram holds/);
  await shared.getByRole('button', { name: '283' }).click();
  await expect(details.getByTestId('buffer-shares')).toHaveText('shares the bytes of 282');
  await expect(details.getByTestId('buffer-shared-by')).toHaveCount(0);
  await snap(page, 'buffer-details-shared-block');
});

test('a scratch buffer shows the rule that sized it, how far placement grew it, and no shape editor', async ({ page }) => {
  test.skip(!haveModel(SQUEEZENET), NO_MODELS);
  test.setTimeout(120_000);
  await open(page, SQUEEZENET, 'target=mcu&select=buffer:68');
  const details = page.getByTestId('selection-details');
  await expect(details).toContainText('n0:im2col');
  await expect(details.getByTestId('buffer-facts')).toHaveText('scratch · 1.27 MiB (1,330,668 B of data, 4 B of alignment padding) at offset 3,756,288 B (3.58 MiB) in ext-ram · steps [0, 1)');
  await expect(details.getByTestId('buffer-scratch-rule')).toHaveText("im2col rule: 1.27 MiB by its formula of the op's shapes");
  // latency-critical, in ext-ram as larger than sram: no rule sent it there
  await expect(details.getByTestId('buffer-scratch-region')).toHaveCount(0);
  await expect(details.getByTestId('shape-field')).toHaveCount(0);
  await snap(page, 'buffer-details-scratch');
  // n35's workspace: 2 KiB by its rule, given the free space at its step.
  await open(page, SQUEEZENET, 'target=mcu&select=buffer:100');
  await expect(details).toContainText('n35:workspace');
  await expect(details.getByTestId('buffer-facts')).toHaveText('scratch · 4.36 MiB at offset 519,168 B (507 KiB) in ext-ram · steps [35, 36)');
  await expect(details.getByTestId('buffer-scratch-rule')).toHaveText('workspace rule: variable size, at least 2.00 KiB fixed by the rule; grown to 4.36 MiB, the free space the planner gave it at its step');
  // it said nothing of why it is in ext-ram: mcu's workspace rule is not latency-critical
  await expect(details.getByTestId('buffer-scratch-region')).toHaveText(/^in ext-ram, a slow memory, by its rule, not spilled: workspace is not latency-critical, so M4 places it in the target's slow memory and leaves sram to activations and latency-critical scratch; it moves [\d.]+ \S+ there per inference \(written and read\)$/);
  await expect(details.getByTestId('shape-field')).toHaveCount(0);
});

test('a buffer padded to its alignment says how much of it is data; the model card says its figure is unpadded', async ({ page }) => {
  test.skip(!haveModel(RELU), NO_MODELS);
  const cli = cliPlan(RELU, ['--target', 'cpu']);
  expect(cli.peak).toBe(128);
  await open(page, RELU, 'target=cpu&select=buffer:1');
  const details = page.getByTestId('selection-details');
  await expect(details.getByTestId('buffer-facts')).toContainText('64 B (8 B of data, 56 B of alignment padding) at offset 0 in ram');
  await expect(details.getByTestId('shape-field')).toHaveCount(1);
  const stat = page.getByTestId('stat-activation-bytes');
  await expect(stat).toHaveText('16 B');
  await expect(stat.locator('..').locator('.stat-label')).toHaveAttribute('title', 'Activation data without reuse (unpadded)');
  await expect(page.getByTestId('stat-activation-note')).toHaveText("The plan's peak, 128 B, is 112 B more than this: it reserves each buffer rounded up to its alignment.");
  await snap(page, 'buffer-details-padded');
});

test('a tensor the plan stores at another size says why in Details, on its graph edge and in the Tensors table: int8 on the npu, a tile of a fusion unit', async ({ page }) => {
  const fastestDet = 'FastestDet.onnx';
  test.skip(!haveModel(fastestDet), NO_MODELS);
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await open(page, fastestDet, 'target=phone&select=buffer:0');
  const details = page.getByTestId('selection-details');
  await expect(details.getByTestId('buffer-facts')).toContainText('input · 1×3×352×352 float32 · 363 KiB as int8 on npu (1.42 MiB as float32) at offset');
  // The graph's edge out of the input and the table's Bytes cell give the planned size beside the model's.
  await expect(page.locator('[data-testid="graph-svg"] text', { hasText: '1×3×352×352 · 1.42 MiB → 363 KiB int8 on npu' }).first()).toBeAttached();
  const cell = page.getByTestId('tensor-row').filter({ has: page.getByTestId('cell-name').getByText('input', { exact: true }) }).getByTestId('cell-bytes');
  await expect(cell).toHaveAttribute('data-planned', '363 KiB int8 on npu');
  await expect(cell).toHaveAttribute('title', '1,486,848 bytes as float32; planned as 363 KiB int8 on npu');
  await snap(page, 'buffer-details-int8-on-npu');

  const conv = '/backbone/first_conv/first_conv.0/Conv_output_0';
  const id = cliPlan(fastestDet, ['--target', 'accelerator']).buffers.find((b) => b.name === conv)!.id;
  await open(page, fastestDet, `target=accelerator&select=buffer:${id}`);
  await expect(details.getByTestId('buffer-facts')).toContainText('activation · 1×24×176×176 float32 · 776 KiB: a tile of 2.84 MiB in fusion unit tfu0 at offset');
  await expect(page.getByTestId('tensor-row').filter({ has: page.getByTestId('cell-name').getByText('Conv_output_0', { exact: false }) }).first().getByTestId('cell-bytes')).toHaveAttribute('data-planned', /tile in tfu/);
  await snap(page, 'buffer-details-fusion-tile');
});

test('a buffer selected stays selected across a re-plan, as the same tensor, and one the new plan lacks is named as gone', async ({ page }) => {
  const fastestDet = 'FastestDet.onnx';
  test.skip(!haveModel(fastestDet), NO_MODELS);
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const concat = '/detect_head/Concat_1_output_0';
  expect(cliPlan(fastestDet, []).buffers.find((b) => b.id === 214)!.name).toBe(concat);
  // the phone target numbers the buffers otherwise: its 214 is another tensor
  const onPhone = cliPlan(fastestDet, ['--target', 'phone']).buffers;
  const phoneId = onPhone.find((b) => b.name === concat)!.id;
  expect(onPhone.find((b) => b.id === 214)!.name).not.toBe(concat);
  await open(page, fastestDet, 'select=buffer:214');
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  await expect(details.locator('p.mono')).toHaveText(concat);
  // it went back to "Select a node…" and select= left the link
  await page.getByTestId('strategy-select').selectOption('naive');
  await waitForPlan(page, 'naive');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  await expect(details.locator('p.mono')).toHaveText(concat);
  await expect(page).toHaveURL(/[?&]select=buffer(:|%3A)214(&|$)/);
  await page.getByTestId('target-select').selectOption('phone');
  await page.waitForFunction(() => window.heapscope?.summary().target === 'phone' && document.body.dataset.status === 'ready');
  await expect(details.locator('p.mono')).toHaveText(concat);
  await expect(page).toHaveURL(new RegExp(`[?&]select=buffer(:|%3A)${phoneId}(&|$)`));
  await expect(page.getByTestId('selection-lost')).toHaveCount(0);
  // a scratch buffer of mcu has none on cpu, which has no scratch rules: dropped, and said so
  const scratch = cliPlan(fastestDet, ['--target', 'mcu', '--strategy', 'naive']).buffers.find((b) => b.kind === 'scratch')!;
  await open(page, fastestDet, `target=mcu&strategy=naive&select=buffer:${scratch.id}`);
  await expect(details.locator('p.mono')).toHaveText(scratch.name);
  await page.getByTestId('target-select').selectOption('cpu');
  await page.waitForFunction(() => window.heapscope?.summary().target === 'cpu' && document.body.dataset.status === 'ready');
  await expect(page.getByTestId('selection-lost')).toHaveText(`The buffer selected before, '${scratch.name}', is not in this plan.`);
  await expect(page).not.toHaveURL(/[?&]select=/);
  await snap(page, 'buffer-selection-lost');
});

test('a link in the selection\'s details and Clear leave keyboard focus in the Details pane, never on the page\'s body', async ({ page }) => {
  await page.goto('/?select=node:block1/project');
  await waitForModel(page, 'sample.onnx');
  await waitForPlan(page);
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'node');
  const onBody = () => page.evaluate(() => document.activeElement === document.body || document.activeElement === null);
  const inDetails = () => page.evaluate(() => document.activeElement?.closest('[data-testid="details-pane"]') !== null);
  // A tensor of the node: Enter selects its buffer, whose details replace the link.
  await details.getByRole('button').first().focus();
  await page.keyboard.press('Enter');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  expect(await onBody()).toBe(false);
  expect(await inDetails()).toBe(true);
  await page.getByTestId('details-pane').getByRole('button', { name: 'Clear', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(details).toHaveCount(0);
  expect(await onBody()).toBe(false);
  await expect(page.getByRole('heading', { name: 'Details', exact: true })).toBeFocused();
});
