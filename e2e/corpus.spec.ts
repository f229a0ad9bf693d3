// Every real model of ../shared/models opens in the page with every run-time
// tensor's shape known, one after another in the same page.

import { readdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import type {} from '../src/app/page-api';
import { MODELS_DIR, NO_MODELS, dropFile, haveModel, readModel, snap, startOnSmallModel, summary, waitForModel, test } from './fixtures';

const corpus = haveModel('README.md')
  ? [...readdirSync(MODELS_DIR).filter((f) => f.endsWith('.onnx')).sort(), 'tiny-llama-fp16/model.onnx']
  : [];

test('every model of the corpus opens with no unknown activation shape', async ({ page }) => {
  test.skip(corpus.length === 0, NO_MODELS);
  test.setTimeout(180_000);
  await startOnSmallModel(page);
  for (const file of corpus) {
    const shown = file.split('/').pop() as string;
    await dropFile(page, shown, readModel(file));
    await waitForModel(page, shown);
    await expect(page.getByTestId('fact-unknown'), file).toHaveText('none');
    const s = await summary(page);
    expect(s.error, file).toBeNull();
    expect(s.nodes, file).toBeGreaterThan(0);
    if (shown === 'FastestDet.onnx') await snap(page, 'corpus-fastestdet');
  }
});
