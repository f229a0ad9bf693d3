// Every real .tflite model of ../shared/models/tflite opens in the page, one
// after another in the same page, planned for TensorFlow Lite Micro: every
// tensor sized, a valid plan at the peak the command-line tool gives, the graph
// drawn, and the runtime block showing TFLM's own head.

import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect as baseExpect } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { MODELS_DIR, NO_MODELS, dropFile, haveModel, readModel, summary, test, waitForModel } from './fixtures';

const expect = baseExpect.configure({ timeout: 60_000 });

const files = haveModel('tflite/README.md') ? readdirSync(new URL('tflite/', MODELS_DIR)).filter((f) => f.endsWith('.tflite')).sort() : [];

/** The command-line plan of a file for the tflm target. */
function cliPlan(file: string): { peak: number; runtimePlan: { head: number } } {
  let out = '';
  const path = fileURLToPath(new URL(`tflite/${file}`, MODELS_DIR));
  expect(runCli(['plan', path, '--target', 'tflm', '--json'], { out: (t) => (out += t), err: () => undefined })).toBe(0);
  return JSON.parse(out);
}

test('every .tflite of the corpus opens planned for TFLite Micro, as the command line plans it', async ({ page }) => {
  test.skip(files.length === 0, NO_MODELS);
  test.setTimeout(300_000);
  await page.goto('/?target=tflm');
  await expect.poll(() => page.evaluate(() => document.body.dataset.status)).toBe('ready');
  for (const file of files) {
    await dropFile(page, file, readModel(`tflite/${file}`));
    await waitForModel(page, file);
    await expect(page.getByTestId('fact-unknown'), file).toHaveText('none');
    await expect.poll(async () => (await summary(page)).graph.status, file).toMatch(/drawn|simple/);
    const s = await summary(page);
    const cli = cliPlan(file);
    expect(s.error, file).toBeNull();
    expect(s.format, file).toBe('tflite');
    expect(s.complete, file).toBe(true);
    expect(s.peak, file).toBe(cli.peak);
    await expect(page.getByTestId('runtime-plan'), file).toContainText('TensorFlow Lite Micro');
    if (file === 'tflm_person_detect_vela.tflite') {
      // The file's own plan (72.7 KiB) shares bytes inside its Ethos-U operator: below the bound, which the page must not call unbeatable.
      const optimal = page.getByTestId('optimal');
      await expect(optimal, file).toContainText('no plan that keeps apart the tensors live at one step can be smaller');
      await expect(optimal, file).toContainText("The file's own plan takes 72.7 KiB");
      await expect(optimal, file).not.toContainText('no plan can be smaller');
    }
  }
});
