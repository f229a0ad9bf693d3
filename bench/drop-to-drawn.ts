// Time from dropping a model file on the page to its heap diagram drawn, for the
// largest model in ../shared/models (or the file given), in Chromium: decode,
// shape inference and planning in the worker, then the first heap frame.
// Prints figures; never fails on time. Needs `npm run build` first.
//
//   npx tsx bench/drop-to-drawn.ts [--model FILE] [--repeat N]

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { describeSamples, largestModel, waitForDrawnPlan, withPreviewPage } from './heap-preview';

const { values } = parseArgs({ options: { model: { type: 'string' }, repeat: { type: 'string', default: '3' } } });
const repeat = Number(values.repeat);


/** Drops `bytes` as file `name` on the page; resolves with ms from the drop to the drawn heap. */
async function dropAndTime(page: Page, name: string, base64: string): Promise<number> {
  await page.evaluate(
    ({ fileName, data }) => {
      const binary = atob(data);
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(binary, (c) => c.charCodeAt(0))], fileName, { type: 'application/octet-stream' }));
      (window as unknown as { benchDrop: DataTransfer }).benchDrop = transfer;
      document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true }));
      document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true }));
    },
    { fileName: name, data: base64 },
  );
  const started = await page.evaluate(() => {
    const t = performance.now();
    const transfer = (window as unknown as { benchDrop: DataTransfer }).benchDrop;
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    return t;
  });
  await waitForDrawnPlan(page, name);
  return (await page.evaluate(() => performance.now())) - started;
}

const path = values.model ?? largestModel();
const bytes = readFileSync(path);
const name = basename(path);
await withPreviewPage('/', async (page) => {
  await waitForDrawnPlan(page, 'sample.onnx');
  const times: number[] = [];
  for (let k = 0; k < repeat; k += 1) {
    if (k > 0) {
      await page.getByRole('button', { name: 'Open sample' }).click();
      await waitForDrawnPlan(page, 'sample.onnx');
    }
    times.push(await dropAndTime(page, name, bytes.toString('base64')));
  }
  const s = await page.evaluate(() => window.heapscope!.summary());
  console.log(`drop to drawn: ${name} (${(bytes.length / 2 ** 20).toFixed(2)} MiB, ${s.nodes} nodes, ${s.buffers} buffers, ${s.strategy} on ${s.target})`);
  console.log(`  ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')}; ${describeSamples(times)}`);
});
