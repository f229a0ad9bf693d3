// The built app served under a sub-path, as a site would host it
// (your.site/heapscope/): every file of dist/ answers under /sub/path/ and
// nothing at the root, so an absolute asset path (/assets/…) fails. The app
// opens the sample, plans it and draws its graph; its iframe embed (embed=1)
// and the docs page's web component do the same.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import type {} from '../src/embed/heapscope-view';
import { test } from './fixtures';

/** Planning and graph layout share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const ORIGIN = `http://127.0.0.1:${process.env.HEAPSCOPE_E2E_PORT ?? 4173}`;
const PREFIX = '/sub/path/';
const DIST = new URL('../dist/', import.meta.url);
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};

/** Serves dist/ under PREFIX for the page, its frames and its workers; returns the site's paths asked for outside it. */
async function serveUnderSubPath(page: Page): Promise<string[]> {
  const outside: string[] = [];
  await page.context().route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort('blockedbyclient');
    if (!url.pathname.startsWith(PREFIX)) {
      outside.push(url.pathname);
      return route.fulfill({ status: 404, body: 'not here' });
    }
    const rest = decodeURIComponent(url.pathname.slice(PREFIX.length)) || 'index.html';
    const file = new URL(rest, DIST);
    if (!file.href.startsWith(DIST.href) || !existsSync(file) || !statSync(file).isFile()) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ status: 200, body: readFileSync(file), headers: { 'content-type': TYPES[extname(rest)] ?? 'application/octet-stream' } });
  });
  return outside;
}

test('the built app works under a sub-path: the sample is planned and drawn, and embed=1 too', async ({ page }) => {
  const outside = await serveUnderSubPath(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${ORIGIN}${PREFIX}`);
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak != null);
  expect((await page.evaluate(() => window.heapscope!.summary())).model).toBe('sample.onnx');
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);

  await page.goto(`${ORIGIN}${PREFIX}?embed=1&model=sample.onnx`);
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak != null);
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  expect(outside).toEqual([]);
});

test('the docs page under a sub-path shows the sample in its iframe and its web component', async ({ page }) => {
  const outside = await serveUnderSubPath(page);
  await page.setViewportSize({ width: 1200, height: 1300 });
  await page.goto(`${ORIGIN}${PREFIX}docs/demo.html`);
  const frame = (await (await page.getByTestId('demo-iframe').elementHandle())?.contentFrame())!;
  await frame.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak != null);
  await expect(frame.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  const element = page.getByTestId('demo-element');
  await expect(element).toHaveAttribute('data-status', 'ready');
  await expect(element.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);
  expect(outside).toEqual([]);
});
