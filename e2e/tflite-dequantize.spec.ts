// MediaPipe's selfie segmenter on TensorFlow Lite Micro, which runs each
// DEQUANTIZE of a float16 weight at each inference and plans its output in the
// arena: the model card counts those outputs once, as activations, the heap's
// buffer leads to the DEQUANTIZE's own box, the Tensors table lists it among the
// run-time tensors, Details leads to the box; on cpu it folds back into a
// constant and a weight.

import { fileURLToPath } from 'node:url';
import { expect as baseExpect } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { formatBytes, formatCount } from '../src/shared/format';
import { HEAP_ROW_HEIGHT, MODELS_DIR, NO_MODELS, haveModel, readModel, serveModel, showTensorTable, snap, test, waitForModel, waitForTarget } from './fixtures';

/** Planning and graph layout share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const MEDIAPIPE = 'tflite/mediapipe_selfie_segmentation.tflite';

/** The fields of `plan --json` this spec reads. */
interface CliPlan {
  readonly buffers: readonly { readonly name: string; readonly node?: string; readonly size: number }[];
  readonly weights: { readonly tensors: number; readonly bytes: number };
}

/** The JSON the command-line tool prints for `command` on the selfie segmenter, run in this process. */
function cli<T>(command: string, ...options: string[]): T {
  let out = '';
  expect(runCli([command, fileURLToPath(new URL(MEDIAPIPE, MODELS_DIR)), ...options, '--json'], { out: (t) => (out += t), err: () => undefined })).toBe(0);
  return JSON.parse(out) as T;
}

test("on tflm a DEQUANTIZE of a weight, which TFLite Micro runs at each inference and plans in the arena, is an activation in every view", async ({ page }) => {
  test.skip(!haveModel(MEDIAPIPE), NO_MODELS);
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  // The selfie segmenter widens 110 float16 weights with DEQUANTIZE. The heap held their outputs, while the graph
  // folded the DEQUANTIZE into its reader, the Tensors tabs listed the output among the constants, and the details'
  // producer led to no box.
  const tflm = cli<CliPlan>('plan', '--target', 'tflm');
  const cpu = cli<CliPlan>('plan', '--target', 'cpu');
  const inspect = cli<{ activations: number; constants: number }>('inspect');
  const buffers = tflm.buffers;
  const dequantized = buffers.filter((b) => b.node?.startsWith('DEQUANTIZE'));
  expect(dequantized).toHaveLength(110);
  const index = buffers.indexOf(dequantized.reduce((a, b) => (b.size > a.size ? b : a)));
  const { name, node } = buffers[index]!;
  await serveModel(page, '/e2e/selfie.tflite', readModel(MEDIAPIPE));
  await page.goto('/?model=/e2e/selfie.tflite&target=tflm');
  await waitForModel(page, 'selfie.tflite');
  await waitForTarget(page, 'tflm');
  await page.waitForFunction(() => ['drawn', 'simple'].includes(window.heapscope?.summary().graph.status ?? ''), undefined, { timeout: 150_000 });

  // The model card counts each of them once, with the activations: no constant is left, and the weights are the
  // plan's (the file's), not those plus the 110 DEQUANTIZE outputs.
  const card = page.getByTestId('model-summary');
  await expect(card.getByTestId('stat-activations')).toHaveText(formatCount(inspect.activations + dequantized.length));
  await expect(card.getByTestId('fact-constants')).toHaveText(`0 computed from constants · ${dequantized.length} run at each inference on tflm, counted with the activations`);
  await expect(card.getByTestId('fact-weights')).toHaveText(new RegExp(`^${formatCount(tflm.weights.tensors)} · ${formatBytes(tflm.weights.bytes)} the file's; `));
  expect(tflm.weights.tensors).toBe(cpu.weights.tensors - dequantized.length);

  // Picked in the heap's table: its producer has a box of its own in the graph, emphasized.
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  await page.locator('.heap-table-body').evaluate((el, top) => (el.scrollTop = top), index * HEAP_ROW_HEIGHT);
  const row = page.locator(`[data-testid="heap-row"][aria-rowindex="${index + 2}"]`);
  await expect(row).toHaveAttribute('data-name', name);
  await row.click();
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  const box = page.locator(`.gnode[data-node="${node}"]`);
  await expect(box).toHaveAttribute('data-emphasized', 'true');
  await expect(box).toHaveAttribute('data-outputs', name);

  // Its row in the Tensors table is an activation, among the run-time tensors; no constant is left.
  await showTensorTable(page);
  const tensor = page.locator(`[data-testid="tensor-row"][data-name="${name}"]`);
  await expect(tensor).toHaveAttribute('aria-selected', 'true');
  await expect(tensor.getByTestId('cell-kind')).toHaveText('activation');
  const filter = page.getByTestId('kind-filter');
  await expect(filter.locator('label').filter({ hasText: 'Constants' }).locator('.segment-count')).toHaveText('0');
  await filter.getByText('Run-time').click();
  await expect(tensor).toBeVisible();
  await snap(page, 'tflite-dequantize-activation');

  // The details' producer leads to that box; its reader no longer lists it among the weights and constants it reads.
  await details.getByRole('button', { name: node }).click();
  await expect(details).toHaveAttribute('data-kind', 'node');
  await expect(box).toHaveAttribute('data-emphasized', 'true');
  await page.getByTestId('graph-search').fill(name);
  await page.getByTestId('graph-search').press('Enter');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  await details.getByText('read by').getByRole('button').first().click();
  await expect(details).toHaveAttribute('data-kind', 'node');
  await expect(details.getByTestId('node-io').locator(`tr[data-role="in"][data-tensor="${name}"]`)).toBeAttached();
  await expect(details.locator(`[data-constant="${name}"]`)).toHaveCount(0);

  // On a target that folds constants the DEQUANTIZE stays folded and its output a constant.
  await page.getByTestId('target-select').selectOption('cpu');
  await waitForTarget(page, 'cpu');
  await page.waitForFunction(() => ['drawn', 'simple'].includes(window.heapscope?.summary().graph.status ?? ''), undefined, { timeout: 150_000 });
  await expect(box).toHaveCount(0);
  await filter.getByText('Constants').click();
  await page.locator('#tensor-search').fill(name);
  await expect(tensor.getByTestId('cell-kind')).toHaveText('constant');
  // and the card counts them as constants and weights, not as activations
  await expect(card.getByTestId('stat-activations')).toHaveText(formatCount(inspect.activations));
  await expect(card.getByTestId('fact-constants')).toHaveText(`${formatCount(inspect.constants)} computed from constants`);
  await expect(card.getByTestId('fact-weights')).toHaveText(new RegExp(`^${formatCount(cpu.weights.tensors)} · ${formatBytes(cpu.weights.bytes)} incl\\. ${dequantized.length} from constants$`));
});
