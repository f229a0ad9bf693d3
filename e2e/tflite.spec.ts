// TensorFlow Lite models on the page, opened the three ways a person opens
// them (drop, Open file, a model= link): the plan, the graph and the tensors'
// quantization; planned for TensorFlow Lite Micro, the runtime block with
// TFLM's own head as the command-line tool reproduces it; the model downloaded
// with the plan written in, which TFLM then lays out as the page said; and a
// broken .tflite that leaves the model on screen.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect as baseExpect } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { decodeModel } from '../src/model/decode-model';
import { MODELS_DIR, NO_MODELS, dropFile, haveModel, hoverSomeBuffer, openDropped, readModel, serveModel, showTensorTable, snap, summary, test, waitForError, waitForModel, waitForPlan, waitForTarget } from './fixtures';

/** Planning and graph layout share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const PERSON = 'tflite/tflm_person_detect.tflite';
const KEYWORD = 'tflite/tflm_keyword_scrambled.tflite';
const HELLO = 'tflite/tflm_hello_world_int8.tflite';
const MEDIAPIPE = 'tflite/mediapipe_selfie_segmentation.tflite';

/** The fields of `plan --json`'s runtimePlan this spec compares with the page. */
interface CliRuntime {
  readonly head: number;
  readonly greedyHead: number;
  readonly tail: number;
  readonly arena: number;
  readonly filePlan?: { readonly valid: boolean };
}

/** `plan FILE --target tflm --json` of the command-line tool, run in this process: its runtime plan. */
function cliRuntime(path: string): CliRuntime {
  let out = '';
  const code = runCli(['plan', path, '--target', 'tflm', '--json'], { out: (t) => (out += t), err: () => undefined });
  expect(code).toBe(0);
  return (JSON.parse(out) as { runtimePlan: CliRuntime }).runtimePlan;
}

/** The runtime record of `diff A B --target tflm --json` of the command-line tool, run in this process. */
function cliDiffRuntime(pathA: string, pathB: string): Record<string, unknown> {
  let out = '';
  const code = runCli(['diff', pathA, pathB, '--target', 'tflm', '--json'], { out: (t) => (out += t), err: () => undefined });
  expect(code).toBe(0);
  return (JSON.parse(out) as { runtime: Record<string, unknown> }).runtime;
}

/** Writes `bytes` to a fresh temporary file named `name`; returns its path. */
function tempFile(name: string, bytes: Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-tflite-')), name);
  writeFileSync(path, bytes);
  return path;
}

test('a dropped .tflite opens with its graph, plans for TFLite Micro, downloads with its plan written in, and a broken one keeps it shown', async ({ page }) => {
  test.skip(!haveModel(PERSON), NO_MODELS);
  await page.setViewportSize({ width: 1500, height: 950 });
  const name = 'tflm_person_detect.tflite';
  const bytes = readModel(PERSON);
  await openDropped(page, name, bytes);
  const opened = await summary(page);
  expect(opened).toMatchObject({ model: name, format: 'tflite', nodes: 31, complete: true });
  expect(opened.peak).toBeGreaterThan(0);
  await page.waitForFunction(() => window.heapscope?.summary().graph.status === 'drawn');
  expect((await summary(page)).graph.boxes).toBeGreaterThanOrEqual(31);
  await expect(page.getByTestId('fact-format')).toHaveText('TensorFlow Lite, schema 3');

  // Quantization: per tensor for the input, per axis for a convolution's weights; on the graph's edges on hover.
  const table = page.getByTestId('tensor-table');
  await expect(table.locator('[data-column="quantization"]')).toHaveText('Quantization');
  await expect(table.locator('[data-testid="tensor-row"][data-name="input"] [data-testid="cell-quantization"]')).toHaveText(/^0\.\d+ · zp -?\d+$/);
  const weights = table.locator('[data-testid="tensor-row"][data-name="MobilenetV1/Conv2d_0/weights/read"] [data-testid="cell-quantization"]');
  await expect(weights).toHaveText('8 scales, axis 3');
  await expect(weights).toHaveAttribute('title', /^per axis 3: 8 scales \(0\.\d+, .*, …\), zero point 0 for all 8$/);
  await expect(page.locator('.graph-pane .g-edge-label-hint title').first()).toHaveText(/: scale 0\.\d+, zero point -?\d+/);

  // TFLite Micro, chosen in the settings: its own head as the command-line tool reproduces it.
  await page.getByTestId('target-select').selectOption('tflm');
  await waitForTarget(page, 'tflm');
  const cli = cliRuntime(tempFile(name, bytes));
  const block = page.getByTestId('runtime-plan');
  await expect(block).toHaveAttribute('data-head', String(cli.head));
  await expect(block).toHaveAttribute('data-tail', String(cli.tail));
  await expect(block).toHaveAttribute('data-arena', String(cli.arena));
  await expect(block.getByTestId('runtime-tflm')).toContainText('TFLite Micro’s own plan');
  await expect(block.getByTestId('runtime-tflm')).toContainText('GreedyMemoryPlanner');
  await expect(block.getByTestId('runtime-arena')).toContainText('Arena to declare');
  await expect(block.getByTestId('runtime-tail')).toContainText('an estimate');
  await block.getByText(/^\d+ parts$/).click();
  await expect(block.getByTestId('tail-part').filter({ hasText: 'estimate' }).first()).toBeVisible();
  const plannedHead = Number(await block.getAttribute('data-planned-head'));
  expect(plannedHead).toBeLessThanOrEqual(cli.head);

  // The heap's tooltip says a buffer's quantization.
  await hoverSomeBuffer(page);
  await expect(page.getByTestId('tooltip-quantization')).toHaveText(/^scale 0\.\d+, zero point -?\d+$/);
  await snap(page, 'tflite-heap-tooltip');
  await page.mouse.move(0, 0);
  await block.scrollIntoViewIfNeeded();
  await snap(page, 'tflite-person-detect-tflm');
  // The details pane scrolls: a picture of the pane (the block scrolled into it) reads whole, where one of the block alone is clipped.
  await page.getByTestId('details-pane').screenshot({ path: 'e2e-artifacts/tflite-runtime-details.png' });

  // The planned .tflite: named like the other exports, a TensorFlow Lite file carrying the plan, which TFLM lays out as the page said.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-planned-tflite').click()]);
  expect(download.suggestedFilename()).toBe('tflm_person_detect.tflm.best.planned.tflite');
  const planned = readFileSync(await download.path());
  expect(planned.subarray(4, 8).toString('latin1')).toBe('TFL3');
  const reread = decodeModel(new Uint8Array(planned));
  expect(reread.tflite?.offlinePlan?.offsets).toHaveLength(reread.tflite!.subgraphs.reduce((n, sg) => n + sg.tensors.length, 0));
  const replanned = cliRuntime(tempFile('planned.tflite', planned));
  expect(replanned.filePlan?.valid).toBe(true);
  expect(replanned.head).toBe(plannedHead);
  await expect(page.getByTestId('export-note')).toHaveText('Planned .tflite saved');

  // A truncated .tflite: the one-line banner, and the model stays on screen.
  await dropFile(page, 'truncated.tflite', bytes.subarray(0, Math.floor(bytes.length / 2)));
  await waitForError(page, 'truncated.tflite');
  await expect(page.getByRole('alert')).toHaveAttribute('data-code', 'truncated');
  await expect(page.getByTestId('error-message')).toContainText(/damaged or cut off: .* \(was the download cut off, or the file changed\?\)/);
  const after = await summary(page);
  expect(after).toMatchObject({ model: name, format: 'tflite', target: 'tflm' });
  expect(after.error).toMatch(/damaged or cut off/);
  await expect(page.getByTestId('current-file')).toContainText(name);
  await expect(page.getByTestId('runtime-plan')).toHaveAttribute('data-head', String(cli.head));
  await snap(page, 'tflite-truncated');
});

test('a model= link to a .tflite with target=tflm shows TFLM’s head as its own test pins it', async ({ page }) => {
  test.skip(!haveModel(KEYWORD), NO_MODELS);
  await page.setViewportSize({ width: 1500, height: 950 });
  await serveModel(page, '/e2e/keyword.tflite', readModel(KEYWORD));
  await page.goto('/?model=/e2e/keyword.tflite&target=tflm');
  await waitForModel(page, 'keyword.tflite');
  await waitForTarget(page, 'tflm');
  expect((await summary(page)).format).toBe('tflite');
  // TFLM's memory_arena_threshold_test.cc pins this model's head at 672 B.
  await expect(page.getByTestId('runtime-plan')).toHaveAttribute('data-head', '672');
  await expect(page.getByTestId('runtime-tflm')).toHaveAttribute('data-bytes', '672');
  // Its seven variable tensors are state kept across runs, not inputs someone feeds: the table says so.
  await showTensorTable(page);
  await page.locator('#tensor-search').fill('tensor_4');
  const state = page.locator('[data-testid="tensor-row"][data-name="tensor_4"]').getByTestId('kind-state');
  await expect(state).toHaveText('state');
  await expect(state).toHaveAttribute('title', /kept across runs/);
  // tensor_4, tensor_41 and tensor_46 of the rows matching 'tensor_4'
  await expect(page.getByTestId('tensor-table').getByTestId('kind-state')).toHaveCount(3);
});

test('a model dropped while the saved plan viewer is open closes the viewer, and the page shows the new model', async ({ page }) => {
  test.skip(!haveModel(PERSON) || !haveModel(KEYWORD), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, '/e2e/person.tflite', readModel(PERSON));
  await page.goto('/?model=/e2e/person.tflite&target=tflm');
  await waitForModel(page, 'person.tflite');
  await waitForTarget(page, 'tflm');
  const saved = join(mkdtempSync(join(tmpdir(), 'heapscope-tflite-')), 'person.tflm.plan.json');
  expect(runCli(['plan', fileURLToPath(new URL(PERSON, MODELS_DIR)), '--target', 'tflm', '--save', saved], { out: () => undefined, err: () => undefined })).toBe(0);
  await dropFile(page, 'person.tflm.plan.json', readFileSync(saved));
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog).toHaveAttribute('aria-label', 'Saved plan');
  await expect(dialog.getByTestId('compare-saved-with-shown')).toBeEnabled();

  await dropFile(page, 'keyword.tflite', readModel(KEYWORD));
  await waitForModel(page, 'keyword.tflite');
  await waitForTarget(page, 'tflm');
  // Left open, the viewer covered the new model and offered to compare person_detect's saved plan with keyword's.
  await expect(dialog).toHaveCount(0);
  const shown = await summary(page);
  expect(shown.compare).toBeNull();
  await expect(page.getByTestId('current-file')).toContainText('keyword.tflite');
  await expect(page.getByTestId('runtime-plan')).toHaveAttribute('data-head', '672');
  await snap(page, 'tflite-saved-plan-closed-by-drop');
});

test("an arena limit on target tflm holds TFLite Micro's tail as well as the head: person_detect does not fit 60,000 B", async ({ page }) => {
  test.skip(!haveModel(PERSON), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, '/e2e/person.tflite', readModel(PERSON));
  await page.goto('/?model=/e2e/person.tflite&target=tflm&region.arena.limit=60000');
  await waitForModel(page, 'person.tflite');
  await waitForTarget(page, 'tflm');
  // its head, 54 KiB, is under the limit; the arena to declare, 80.4 KiB, is not: the page said "Fits"
  const s = await summary(page);
  expect(s.peak).toBeLessThan(60_000);
  expect(s.fits).toBe(false);
  await expect(page.getByTestId('headline-fit')).toContainText(/Does not fit: arena needs 80\.4 KiB \(estimate\) \([\d.]+ KiB of it TFLite Micro's tail and planning\), 21\.8 KiB over its 58\.6 KiB limit/);
  await snap(page, 'tflite-arena-limit');
});

test("the heap's header gives TFLite Micro's tensor arena to declare, where the eye is at 1280x720: keyword 15.3 KiB beside its 672 B head", async ({ page }) => {
  test.skip(!haveModel(KEYWORD) || !haveModel(PERSON), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, '/e2e/keyword.tflite', readModel(KEYWORD));
  await page.goto('/?model=/e2e/keyword.tflite&target=tflm');
  await waitForModel(page, 'keyword.tflite');
  await waitForTarget(page, 'tflm');
  // the header read "peak 672 B · bound 672 B · best (tflm)"; the arena to declare was only in Details, below the fold
  const arena = page.getByTestId('heap-arena');
  await expect(arena).toHaveText('· arena to declare 15.3 KiB (estimate)');
  await expect(arena).toHaveAttribute('data-bytes', String(cliRuntime(fileURLToPath(new URL(KEYWORD, MODELS_DIR))).arena));
  await expect(arena).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('runtime-arena').locator('.runtime-bytes')).toHaveText('15.3 KiB (estimate)');
  await snap(page, 'tflite-heap-arena-keyword');
  // person_detect's 80.4 KiB rests on the tail's estimated kernel data: the memory map's bar says so, as the CLI does
  await serveModel(page, '/e2e/person.tflite', readModel(PERSON));
  await page.goto('/?model=/e2e/person.tflite&target=tflm');
  await waitForModel(page, 'person.tflite');
  await waitForTarget(page, 'tflm');
  await expect(arena).toHaveText('· arena to declare 80.4 KiB (estimate)');
  await expect(arena).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('memory-map-region').first().locator('.memory-map-used')).toHaveText('80.4 KiB (estimate)');
  await snap(page, 'tflite-heap-arena-person');
  // on another target there is no TFLite Micro arena to give
  await page.goto('/?model=/e2e/person.tflite&target=mcu');
  await waitForModel(page, 'person.tflite');
  await waitForTarget(page, 'mcu');
  await expect(page.getByTestId('heap-peak')).toBeVisible();
  await expect(arena).toHaveCount(0);
});

test('a model TFLite Micro refuses fits no arena limit: the selfie segmenter under 8 MB reads "Does not fit", not "Fits"', async ({ page }) => {
  test.skip(!haveModel(MEDIAPIPE), NO_MODELS);
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, '/e2e/selfie.tflite', readModel(MEDIAPIPE));
  await page.goto('/?model=/e2e/selfie.tflite&target=tflm&region.arena.limit=8000000');
  await waitForModel(page, 'selfie.tflite');
  await waitForTarget(page, 'tflm');
  // its float16 DEQUANTIZE is refused by TFLM's reference kernel: were it accepted, 4.05 MiB would be within 8 MB
  const s = await summary(page);
  expect(s.fits).toBe(false);
  await expect(page.getByTestId('headline-fit')).toHaveText('Does not fit: TensorFlow Lite Micro refuses the model, no tensor arena works, within the limit or any other.');
  expect(s.warnings[0]).toBe('Does not fit: TensorFlow Lite Micro refuses the model, no tensor arena works, within the limit or any other');
  // at its lower bound, Details does not say more memory would make it fit
  await expect(page.getByTestId('optimal')).toHaveText(/No memory makes it fit: TensorFlow Lite Micro refuses the model\.$/);
  await snap(page, 'tflite-refused-arena-limit');
});

test('an arena limit holds the plan TFLite Micro runs: Vela keeps its own offline plan, which a 100 KiB arena takes', async ({ page }) => {
  const vela = 'tflite/tflm_person_detect_vela.tflite';
  test.skip(!haveModel(vela), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, '/e2e/vela.tflite', readModel(vela));
  await page.goto('/?model=/e2e/vela.tflite&target=tflm&region.arena.limit=102400');
  await waitForModel(page, 'vela.tflite');
  await waitForTarget(page, 'tflm');
  // heapscope's placement peaks at 154 KiB, but the file written keeps Vela's own plan (72.7 KiB head, 73.1 KiB arena):
  // it read "Does not fit: arena needs 155 KiB" beside "Arena to declare 73.1 KiB"
  const s = await summary(page);
  expect(s.peak).toBeGreaterThan(102_400);
  expect(s.fits).toBe(true);
  // within the limit only as far as known: the Ethos-U kernel's scratch requests are not known
  await expect(page.getByTestId('headline-fit')).toHaveText("Fits only as far as known: every region is within its size limit with the scratch requests known; the arena is a lower estimate, a kernel's scratch requests are not known and none are assumed.");
  // the arena is a lower estimate (the Ethos-U kernel's scratch is not known), "≥" in Details: the memory map and the
  // heap's export read "73.1 KiB / 100 KiB" without it
  await expect(page.getByTestId('runtime-arena').locator('.runtime-bytes')).toHaveText('≥ 73.1 KiB');
  const bar = page.getByTestId('memory-map-region').first();
  await expect(bar.locator('.memory-map-used')).toHaveText('≥ 73.1 KiB / 100 KiB');
  await expect(bar).toContainText('the tensor arena to declare with the plan written in: ≥ 73.1 KiB, as for the file as it is; the plan written peaks at 72.7 KiB, not the plan drawn');
  const [svgFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-heap-svg').first().click()]);
  const svg = readFileSync(await svgFile.path(), 'utf8');
  expect(svg).toContain('data-used-text="true">≥ 73.1 KiB / 100 KiB</text>');
  expect(svg).not.toMatch(/[^≥] 73\.1 KiB \/ 100 KiB/);
  // The heap's lane, too narrow here for the whole limit label, says whose placement it draws in its title; the limit's
  // label shares the title row (in the lane it covered buffers) and keeps to the limit.
  await expect(page.locator('.heap-lane-label')).toHaveText([/^arena · heapscope's placement/]);
  await expect(page.getByTestId('heap-lane-limit')).toHaveText('limit 100 KiB');
  await snap(page, 'tflite-vela-arena-limit');
  // Vela's scratch tensors are read by the ethos-u operator alone: neither written by any operator nor given by the
  // application. The table and graph called them inputs while the heap, At the peak and the chart said activation.
  await page.waitForFunction(() => window.heapscope?.summary().graph.status === 'drawn');
  await expect(page.locator('[aria-label^="Graph input"]')).toHaveCount(1);
  await showTensorTable(page);
  for (const name of ['_split_1_scratch', '_split_1_scratch_fast']) {
    await expect(page.locator(`[data-testid="tensor-row"][data-name="${name}"]`).getByTestId('cell-kind')).toHaveText('activation');
  }
});

test("a model TFLite Micro refuses has no arena shown as working: Details, the memory map and the heap's export say none works", async ({ page }) => {
  test.skip(!haveModel(MEDIAPIPE), NO_MODELS);
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, '/e2e/selfie.tflite', readModel(MEDIAPIPE));
  await page.goto('/?model=/e2e/selfie.tflite&target=tflm');
  await waitForModel(page, 'selfie.tflite');
  await waitForTarget(page, 'tflm');
  // TFLM's DEQUANTIZE takes no float16 input, so AllocateTensors() fails whatever the arena. Details said "≥ 4.05 MiB"
  // and the memory map "arena 3.55 MiB", "the tensor arena to declare with the plan written in: 3.55 MiB".
  await expect(page.getByTestId('runtime-arena').locator('.runtime-bytes')).toHaveText('none works');
  // the banner said only "The arena to declare is a lower estimate", as though one worked
  expect((await summary(page)).warnings).toEqual([
    'TensorFlow Lite Micro refuses this model: no tensor arena works, AllocateTensors() fails whatever its size; the arena figures are what it would need were the model accepted',
    "The arena the model would need were it accepted is a lower estimate: custom operator Convolution2DTransposeBias ('Convolution2DTransposeBias_244') may ask for scratch heapscope does not know, and none is assumed",
  ]);
  await expect(page.locator('[data-testid="assumption"][data-key="tflm-refused"]')).toBeVisible();
  await expect(page.getByTestId('runtime-arena')).toContainText('Were it accepted: ≥ 4.05 MiB for the file as it is; ≥ 3.55 MiB with heapscope’s plan.');
  const bar = page.getByTestId('memory-map-region').first();
  await expect(bar.locator('.memory-map-used')).toHaveText('none works · TFLite Micro refuses the model');
  await expect(bar).toContainText('TFLite Micro refuses the model: no tensor arena works, AllocateTensors() fails whatever its size (Details says why); were it accepted, the tensor arena to declare with the plan written in: ≥ 3.55 MiB (≥ 4.05 MiB for the file as it is)');
  const [svgFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-heap-svg').first().click()]);
  const svg = readFileSync(await svgFile.path(), 'utf8');
  expect(svg).toContain('data-used-text="true">none works · TFLite Micro refuses the model</text>');
  expect(svg).not.toMatch(/>3\.55 MiB</);
  // Export → Planned .tflite wrote a file TFLM cannot load; plan --save-tflite writes nothing, and the page says its reason
  let err = '';
  const out = join(mkdtempSync(join(tmpdir(), 'heapscope-e2e-')), 'selfie.planned.tflite');
  expect(runCli(['plan', fileURLToPath(new URL(MEDIAPIPE, MODELS_DIR)), '--target', 'tflm', '--save-tflite', out], { out: () => undefined, err: (t) => (err += t) })).toBe(2);
  const why = /^heapscope: .*: --save-tflite (writes nothing for a model TensorFlow Lite Micro refuses .*)\n$/.exec(err)?.[1];
  expect(why).toMatch(/DEQUANTIZE/);
  const planned = page.getByTestId('export-planned-tflite');
  await expect(planned).toBeDisabled();
  await expect(planned).toHaveAttribute('title', `Not available: the export ${why}`);
  await page.getByTestId('memory-map').scrollIntoViewIfNeeded();
  await snap(page, 'tflite-refused-arena');
});

test("a dim given for a .tflite on target tflm is not applied, and the page says so beside the heap", async ({ page }) => {
  test.skip(!haveModel(HELLO), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 720 });
  await serveModel(page, '/e2e/hello.tflite', readModel(HELLO));
  await page.goto('/?model=/e2e/hello.tflite&target=tflm&dim.batch=64');
  await waitForModel(page, 'hello.tflite');
  await waitForTarget(page, 'tflm');
  // the plan stays at the file's 32 B: the heap had no word of it
  const s = await summary(page);
  expect(s.peak).toBe(32);
  expect(s.warnings).toEqual(['TFLite Micro plans the shapes the file states: batch=64 is not applied to this plan, and the graph and tensors show the file\'s shapes']);
  await expect(page.getByTestId('assumption').first()).toHaveAttribute('data-kind', 'target');
  // the graph and the figures show the shapes planned: its edges read '64×16 · 1 KiB → 16 B planned' and 'Without reuse' 2.13 KiB
  const labels = page.locator('.graph-pane .g-edge-label');
  await expect(labels.filter({ hasText: '1×16 · 16 B' }).first()).toBeVisible();
  await expect(labels.filter({ hasText: /64×/ })).toHaveCount(0);
  await expect(page.getByTestId('stat-activation-bytes')).toHaveText('34 B');
  await snap(page, 'tflite-dim-not-applied');
  // on a target that applies the dim, the graph is at batch 64 again
  await page.getByTestId('target-select').selectOption('cpu');
  await waitForTarget(page, 'cpu');
  await expect(labels.filter({ hasText: '64×16' }).first()).toBeVisible();
  await expect(page.getByTestId('stat-activation-bytes')).toHaveText('2.13 KiB');
});

test('on tflm the graph I/O choice of a .tflite is disabled and says why, and comes back on another target', async ({ page }) => {
  test.skip(!haveModel(HELLO), NO_MODELS);
  await page.setViewportSize({ width: 1280, height: 900 });
  await serveModel(page, '/e2e/hello.tflite', readModel(HELLO));
  // a link asks io=application, which TFLM does not apply: the banner says so, and the choice offered nothing that worked
  await page.goto('/?model=/e2e/hello.tflite&target=tflm&io=application');
  await waitForModel(page, 'hello.tflite');
  await waitForTarget(page, 'tflm');
  expect((await summary(page)).warnings).toEqual(["TFLite Micro allocates the model's inputs and outputs in its arena: Graph I/O 'application' is not applied to this plan"]);
  const io = page.getByLabel('graph I/O', { exact: true });
  await expect(io).toBeDisabled();
  const reason = page.getByTestId('io-field').getByTestId('choice-fixed');
  await expect(reason).toHaveText("TensorFlow Lite Micro allocates the model's inputs and outputs in its tensor arena whatever this says, so graph I/O stays there on this target (another target lets the application own it)");
  await expect(io).toHaveAccessibleDescription(/^TensorFlow Lite Micro allocates the model's inputs and outputs/);
  // the other choices stay open on tflm
  await expect(page.getByLabel('execution order', { exact: true })).toBeEnabled();
  await page.getByTestId('target-select').selectOption('cpu');
  await waitForTarget(page, 'cpu');
  await expect(page.getByLabel('graph I/O', { exact: true })).toBeEnabled();
  await expect(page.getByTestId('io-field').getByTestId('choice-fixed')).toHaveCount(0);
});

test('Open file takes a .tflite, and the planned export is offered only with a runtime plan', async ({ page }) => {
  test.skip(!haveModel(HELLO), NO_MODELS);
  await page.goto('/');
  await waitForModel(page, 'sample.onnx');
  await expect(page.getByText('Drop an ONNX or TensorFlow Lite model, or a saved plan, to open it')).toBeAttached();
  const picker = page.locator('#open-file');
  await expect(picker).toHaveAttribute('accept', /(^|,)\.tflite(,|$)/);
  // The sample on cpu has no runtime plan: the download says why it is not offered.
  const button = page.getByTestId('export-planned-tflite');
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute('title', /only a \.tflite model planned for TensorFlow Lite Micro/);
  await picker.setInputFiles({ name: 'hello.tflite', mimeType: 'application/octet-stream', buffer: readModel(HELLO) });
  await waitForModel(page, 'hello.tflite');
  await waitForPlan(page);
  expect((await summary(page)).format).toBe('tflite');
  await expect(button).toBeDisabled();
  await page.getByTestId('target-select').selectOption('tflm');
  await waitForTarget(page, 'tflm');
  await expect(button).toBeEnabled();
});

test('on tflm a link’s shape for a .tflite is not applied and says so, and Compare reads the arenas to declare', async ({ page }) => {
  test.skip(!haveModel(PERSON) || !haveModel('tflite/tflm_person_detect_vela.tflite'), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  // the link drew '? · ?' edges and 'Unknown shapes 31' beside a heap of the file's 96×96 sizes
  await serveModel(page, '/e2e/vela.tflite', readModel('tflite/tflm_person_detect_vela.tflite'));
  await page.goto('/?model=/e2e/vela.tflite&target=tflm&shape.input=1x128x128x1');
  await waitForModel(page, 'vela.tflite');
  await waitForTarget(page, 'tflm');
  const shown = await summary(page);
  expect(shown.complete).toBe(true);
  expect(shown.warnings).toEqual([
    expect.stringMatching(/^The shape given input=1x128x128x1 \(the file states 1×96×96×1\) is not applied: a \.tflite model keeps/),
    // Vela's ethos-u kernel may ask for scratch heapscope does not know: the arena is a lower estimate, as --strict says
    "The arena to declare is a lower estimate: custom operator ethos-u ('ethos-u_0') may ask for scratch heapscope does not know, and none is assumed",
  ]);
  await expect(page.getByText('? · ?')).toHaveCount(0);
  // the side bar's shape field for the input is disabled and says why
  const field = page.getByTestId('shape-field').and(page.locator('[data-name="input"]')).first();
  await expect(field.locator('input')).toBeDisabled();
  await expect(field.getByTestId('binding-fixed')).toContainText('A .tflite model keeps the shapes its file states');
  // Compare with the plain model: B − A is the arena to declare (+7.30 KiB), the placements' −100 KiB beside it; Vela's
  // ethos-u asks for scratch heapscope does not know, so A's arena is a lower estimate and the change at most that
  await page.getByTestId('compare-file').setInputFiles({ name: 'person.tflite', mimeType: 'application/octet-stream', buffer: Buffer.from(readModel(PERSON)) });
  const dialog = page.getByTestId('compare-dialog');
  const delta = dialog.getByTestId('compare-delta');
  await expect(delta).toHaveAttribute('data-compared', 'arena');
  await expect(delta).toHaveAttribute('data-delta', '7472');
  await expect(delta).toContainText('B − A, arena to declare: at most +7.30 KiB (+10.0 %)');
  await expect(delta).toHaveAttribute('data-bound', 'at-most');
  await expect(dialog.getByTestId('compare-delta-note')).toHaveText("· A's arena is a lower estimate: a kernel's scratch requests are not known, none assumed");
  await expect(dialog.getByTestId('compare-arena-a')).toHaveAttribute('data-arena', '74880');
  await expect(dialog.getByTestId('compare-arena-b')).toHaveAttribute('data-arena', '82352');
  // the arena beyond the head is TFLM's tail and planning, as the memory map names it: it read "(72.7 KiB + 416 B)" and
  // "tail 416 B → 26.4 KiB" while the details' Tail said 404 B
  await expect(dialog.getByTestId('compare-arena-a')).toHaveText('arena ≥ 73.1 KiB (head 72.7 KiB + tail and planning 416 B)');
  // the plain model's arena rests on the tail's estimated parts: it read "arena 80.4 KiB" as exact, where Details said "(estimate)"
  await expect(dialog.getByTestId('compare-arena-b')).toHaveText('arena 80.4 KiB (estimate) (head 54.0 KiB + tail and planning 26.4 KiB)');
  await expect(dialog.getByTestId('compare-runtime-note')).toContainText('TensorFlow Lite Micro arena ≥ 73.1 KiB → 80.4 KiB (estimate) (head 72.7 KiB → 54.0 KiB');
  await expect(dialog.getByTestId('compare-runtime-note')).toContainText('tail and planning 416 B → 26.4 KiB)');
  expect((await summary(page)).compare).toMatchObject({ arenaA: 74_880, arenaB: 82_352 });
  await snap(page, 'tflite-compare-arenas');
});

test('Compare of a tflm plan with a plan of another target names the arena to declare of the tflm side, with its side, as diff does', async ({ page }) => {
  test.skip(!haveModel(PERSON), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await serveModel(page, '/e2e/person.tflite', readModel(PERSON));
  for (const [shown, other, side, name, otherName] of [
    ['cpu', 'tflm', 'b', 'B', 'A'],
    ['tflm', 'cpu', 'a', 'A', 'B'],
  ] as const) {
    await page.goto(`/?model=/e2e/person.tflite&target=${shown}`);
    await waitForModel(page, 'person.tflite');
    await waitForTarget(page, shown);
    await page.getByTestId('compare-target').selectOption(other);
    await page.getByTestId('compare-run').click();
    const dialog = page.getByTestId('compare-dialog');
    const delta = dialog.getByTestId('compare-delta');
    // B − A stays the placements' peaks; the line read only "B − A: 0 B (+0.0 %)", the arena of the tflm side unsaid
    await expect(delta).toHaveAttribute('data-compared', 'peak');
    const note = dialog.getByTestId('compare-runtime-note');
    await expect(note).toHaveAttribute('data-arena-side', side);
    await expect(note).toHaveAttribute('data-arena', '82352');
    await expect(note).toHaveText(
      `· arena to declare, ${name} only: 80.4 KiB (estimate) (TensorFlow Lite Micro, head 54.0 KiB + tail and planning 26.4 KiB); ${otherName} is no TensorFlow Lite Micro plan (target cpu) and declares no arena, so B − A is of heapscope's placements, not the arena the firmware declares`,
    );
    await expect(note).toBeInViewport();
    await expect(dialog.getByTestId(`compare-arena-${side}`)).toHaveText('arena 80.4 KiB (estimate) (head 54.0 KiB + tail and planning 26.4 KiB)');
    await expect(dialog.getByTestId(`compare-arena-${side === 'a' ? 'b' : 'a'}`)).toHaveCount(0);
    const compared = (await summary(page)).compare as unknown as Record<string, unknown>;
    expect(compared[`arena${name}`]).toBe(82_352);
    expect(compared[`arena${otherName}`]).toBeUndefined();
    await snap(page, `tflite-compare-arena-${side}-only`);
    await dialog.getByRole('button', { name: 'Close' }).click();
  }
});

test("Compare on tflm reads MediaPipe's arenas as diff does: '≥' for a kernel's scratch not known, and the file as it is beside the plan written", async ({ page }) => {
  test.skip(!haveModel(MEDIAPIPE), NO_MODELS);
  await page.setViewportSize({ width: 1600, height: 1000 });
  // the page read "arena 3.55 MiB" and "B − A: 0 B" as exact, and never said the file flashed unchanged needs 4.05 MiB
  const path = fileURLToPath(new URL(MEDIAPIPE, MODELS_DIR));
  const runtime = cliDiffRuntime(path, path) as { a: { arena: number; arenaAsIs: number; lowerEstimate: boolean }; b: { arena: number; arenaAsIs: number; lowerEstimate: boolean }; delta: number; deltaAsIs: number };
  expect(runtime).toMatchObject({ a: { arena: 3_717_712, arenaAsIs: 4_242_000, lowerEstimate: true }, delta: 0, deltaAsIs: 0 });
  await serveModel(page, '/e2e/selfie.tflite', readModel(MEDIAPIPE));
  await page.goto('/?model=/e2e/selfie.tflite&target=tflm');
  await waitForModel(page, 'selfie.tflite');
  await waitForTarget(page, 'tflm');
  await page.getByTestId('compare-file').setInputFiles({ name: 'selfie.tflite', mimeType: 'application/octet-stream', buffer: Buffer.from(readModel(MEDIAPIPE)) });
  const dialog = page.getByTestId('compare-dialog');
  const delta = dialog.getByTestId('compare-delta');
  await expect(delta).toHaveAttribute('data-compared', 'arena');
  await expect(delta).toHaveAttribute('data-delta', String(runtime.delta));
  await expect(delta).toHaveAttribute('data-delta-as-is', String(runtime.deltaAsIs));
  await expect(delta).toHaveAttribute('data-bound', 'unbounded');
  await expect(delta).toContainText('B − A, arena to declare: 0 B (+0.0 %) for the files as they are, 0 B (+0.0 %) with the plan written');
  await expect(dialog.getByTestId('compare-runtime-note')).toContainText("arena ≥ 4.05 MiB → ≥ 4.05 MiB for the files as they are, flashed unchanged; ≥ 3.55 MiB → ≥ 3.55 MiB with heapscope's plan written in (head 3.50 MiB → 3.50 MiB");
  // both placements peak at 3.50 MiB, as diff says: it read "heapscope's placement: peak 0 B"
  await expect(dialog.getByTestId('compare-runtime-note')).toContainText("heapscope's placement: peak 3.50 MiB → 3.50 MiB (±0 B), not what the firmware declares");
  await expect(dialog.getByTestId('compare-delta-note')).toContainText('both arenas are lower estimates');
  await expect(dialog.getByTestId('compare-delta-note')).toContainText('the true change may be larger or smaller');
  for (const [side, figures] of [['a', runtime.a], ['b', runtime.b]] as const) {
    const arena = dialog.getByTestId(`compare-arena-${side}`);
    // TensorFlow Lite Micro refuses the model (float16 DEQUANTIZE): each side says no arena works before the figures it would need
    await expect(arena).toHaveText('no arena works, TensorFlow Lite Micro refuses it; were it accepted: arena ≥ 4.05 MiB as it is · ≥ 3.55 MiB with the plan written (head 3.50 MiB + tail and planning 46.6 KiB)');
    await expect(arena).toHaveAttribute('data-arena', String(figures.arena));
    await expect(arena).toHaveAttribute('data-arena-as-is', String(figures.arenaAsIs));
  }
  expect((await summary(page)).compare).toMatchObject({
    arenaA: runtime.a.arena,
    arenaB: runtime.b.arena,
    arenaAsIsA: runtime.a.arenaAsIs,
    arenaAsIsB: runtime.b.arenaAsIs,
    arenaLowerEstimateA: true,
    arenaLowerEstimateB: true,
  });
  await snap(page, 'tflite-compare-mediapipe-as-is');
});
