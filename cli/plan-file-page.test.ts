// A plan file saved from the page and one written by `plan --save` for the same
// model and target carry the same fields, the evaluated suggestions among them.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../src/model/decode-model';
import { inferShapes } from '../src/model/infer/shapes';
import { readPlanFile, writePlanFile } from '../src/planner/assembly/plan-file';
import { planFileOf } from '../src/settings/plan-file';
import { runSuggestionSteps } from '../src/worker/plan/suggest';
import { planStepsForSettings } from '../src/worker/plan/settings';
import { run } from './testing/run-cli';

const MNIST = join(__dirname, '../../shared/models/winml_mnist.onnx');

/** The plan file the page saves for `target`: the plan first, its suggestions evaluated after it, as the worker does. */
async function pageFile(target: string) {
  const inferred = inferShapes(decodeModel(new Uint8Array(readFileSync(MNIST)), { name: MNIST }), { dims: {} });
  const settings = { target, strategy: undefined };
  const { plan, steps } = planStepsForSettings(inferred, settings);
  const suggestions = await runSuggestionSteps(steps, { yieldToQueue: async () => {}, live: () => true, progress: () => {} });
  const file = planFileOf({ name: MNIST, inferred, plan, settings, dims: {}, ...(suggestions !== undefined && { suggestions }) });
  return readPlanFile(writePlanFile(file), 'page.plan.json');
}

/** The plan file `plan --save` writes for `target`. */
function cliFile(target: string) {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-page-file-')), 'cli.plan.json');
  expect(run(['plan', MNIST, '--target', target, '--save', path]).code).toBe(0);
  return readPlanFile(readFileSync(path, 'utf8'), path);
}

describe('plan file of the page and of plan --save', () => {
  it('have the same fields and the same suggestions (mnist on mcu has one)', async () => {
    const page = await pageFile('mcu');
    const cli = cliFile('mcu');
    expect(Object.keys(page).sort()).toEqual(Object.keys(cli).sort());
    expect(Object.keys(page.plan).sort()).toEqual(Object.keys(cli.plan).sort());
    expect(cli.plan.suggestions?.length).toBeGreaterThan(0);
    expect(page.plan.suggestions).toEqual(cli.plan.suggestions);
  });

  it('record none as an empty list, not a missing field', async () => {
    const page = await pageFile('cpu');
    expect(page.plan.suggestions).toEqual([]);
    expect(cliFile('cpu').plan.suggestions).toEqual([]);
  });
});
