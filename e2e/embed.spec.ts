// Embedding in documentation pages: the docs demo (served with the app at
// /docs/demo.html) shows the sample both as an iframe of the app with embed=1
// and as the <heapscope-view> web component; no request leaves the site; the
// Content Security Policy blocks what would; embed=1 alone is chrome-less.

import { readFileSync } from 'node:fs';
import { expect as baseExpect, type Frame, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import type {} from '../src/embed/heapscope-view';
import { runCli } from '../cli/main';
import { formatBytes } from '../src/shared/format';
import { NO_MODELS, haveModel, readModel, serveModel, snap, test } from './fixtures';

/** Planning and graph layout share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

const ORIGIN = `http://127.0.0.1:${process.env.HEAPSCOPE_E2E_PORT ?? 4173}`;
/** What the site serves: the app, its assets, the embed bundle, the docs and the sample. */
const OWN_PATHS = [/^\/$/, /^\/index\.html$/, /^\/assets\//, /^\/embed\//, /^\/docs\//, /^\/sample\.onnx$/, /^\/favicon\.svg$/];

/** The peak the command-line planner gives for the sample (exit 3, a region over its limit, still prints the plan). */
function cliPeak(args: readonly string[]): number {
  let out = '';
  const code = runCli(['plan', 'public/sample.onnx', '--json', ...args], { out: (t) => (out += t), err: () => undefined });
  expect([0, 3]).toContain(code);
  return (JSON.parse(out) as { peak: number }).peak;
}

/**
 * Intercepts every request of the page, its frames and its workers before it
 * reaches the network: requests for the site pass, others are recorded and
 * aborted. Returns the URLs that passed and those that tried to leave.
 */
async function interceptRequests(page: Page): Promise<{ own: string[]; foreign: string[] }> {
  const seen = { own: [] as string[], foreign: [] as string[] };
  await page.context().route('**/*', (route) => {
    const url = new URL(route.request().url());
    const own = url.origin === ORIGIN && OWN_PATHS.some((p) => p.test(url.pathname));
    seen[own ? 'own' : 'foreign'].push(url.href);
    return own ? route.continue() : route.abort('blockedbyclient');
  });
  return seen;
}

/** Collects Content Security Policy violations reported in the page and its frames. */
async function watchViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

async function violations(target: Page | Frame): Promise<string[]> {
  return target.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
}

async function demoFrame(page: Page): Promise<Frame> {
  const handle = await page.getByTestId('demo-iframe').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the demo iframe has no frame');
  return frame;
}

test('the docs page shows the sample both ways with the planner\'s peak, and nothing leaves the site', async ({ page }) => {
  const requests = await interceptRequests(page);
  await watchViolations(page);
  await page.setViewportSize({ width: 1200, height: 1300 });
  await page.goto('/docs/demo.html');

  const frame = await demoFrame(page);
  await frame.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak != null);
  const framed = await frame.evaluate(() => window.heapscope!.summary());
  expect(framed).toMatchObject({ model: 'sample.onnx', peak: cliPeak(['--dim', 'batch=2']) });
  await expect(frame.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', String(framed.buffers));
  await expect(frame.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  await expect(frame.getByRole('banner')).toHaveCount(0);
  await expect(frame.getByTestId('tensor-table')).toHaveCount(0);

  const element = page.getByTestId('demo-element');
  await expect(element).toHaveAttribute('data-status', 'ready');
  const shown = await element.evaluate((el: HTMLElementTagNameMap['heapscope-view']) => el.summary());
  expect(shown).toMatchObject({ model: 'sample.onnx', strategy: 'best', peak: cliPeak(['--dim', 'batch=2', '--strategy', 'best']) });
  // The element's own heap diagram, inside its shadow root, drew every buffer.
  await expect(element.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', String(shown?.buffers));
  await expect(element.getByTestId('embed-peak')).toHaveAttribute('data-peak', String(shown?.peak));
  await expect(element.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);

  expect(requests.foreign).toEqual([]);
  expect(requests.own.filter((url) => new URL(url).pathname === '/sample.onnx').length).toBeGreaterThanOrEqual(2);
  expect(await violations(page)).toEqual([]);
  expect(await violations(frame)).toEqual([]);
  await page.getByTestId('demo-iframe').scrollIntoViewIfNeeded();
  await snap(page, 'embed-docs-page');
  await element.scrollIntoViewIfNeeded();
  await element.screenshot({ path: 'e2e-artifacts/embed-web-component.png' });
});

test('the docs name every target preset the element takes, as the command line lists them', async ({ page }) => {
  let out = '';
  expect(runCli(['targets', '--json'], { out: (t) => (out += t), err: () => undefined })).toBe(0);
  const presets = (JSON.parse(out) as { targets: readonly { name: string }[] }).targets.map((t) => t.name);
  expect(presets).toEqual(expect.arrayContaining(['cpu', 'mcu', 'accelerator', 'phone', 'phone-dsp', 'tflm']));
  await page.goto('/docs/demo.html');
  // The list left out phone-dsp and tflm.
  const listed = (await page.getByTestId('demo-target-presets').innerText()).split(/,\s*/);
  expect(listed).toEqual(presets);
  const guide = readFileSync('docs/embedding.md', 'utf8');
  const row = guide.split('\n').find((line) => line.startsWith('| `target`'))!;
  expect([...row.matchAll(/`([\w-]+)`/g)].map((m) => m[1]).slice(1)).toEqual(presets);
});

test('the docs folder opens on the demo page, not the app', async ({ page }) => {
  await page.goto('/docs/');
  await expect(page.getByTestId('demo-element')).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('demo-iframe')).toBeVisible();
  await expect(page.getByTestId('drop-overlay')).toHaveCount(0);
});

test('<heapscope-view> follows its attributes: new dims re-open the model, a new target re-plans it', async ({ page }) => {
  await page.goto('/docs/demo.html');
  const element = page.getByTestId('demo-element');
  await expect(element).toHaveAttribute('data-status', 'ready');
  const summaryOf = () => element.evaluate((el: HTMLElementTagNameMap['heapscope-view']) => el.summary());
  await element.evaluate((el) => el.setAttribute('dims', 'batch=4'));
  await expect.poll(async () => (await summaryOf())?.peak).toBe(cliPeak(['--dim', 'batch=4', '--strategy', 'best']));
  // one memory: its peak is the plan's, the caption adds nothing to it
  await expect(element.getByTestId('embed-peak').getByTestId('peak-regions')).toHaveCount(0);
  await element.evaluate((el) => el.setAttribute('target', 'mcu'));
  await expect.poll(async () => (await summaryOf())?.target).toBe('mcu');
  await expect(element).toHaveAttribute('data-status', 'ready');
  expect((await summaryOf())?.peak).toBe(cliPeak(['--dim', 'batch=4', '--strategy', 'best', '--target', 'mcu']));
  await expect(element.getByTestId('embed-peak')).toContainText('best on mcu');
  // sram and ext-ram both hold bytes: the caption's peak is their sum, and says so, each memory's own in the title
  const held = ((await summaryOf())?.regions ?? []).filter((r) => r.peak > 0);
  expect(held.map((r) => r.name)).toEqual(['sram', 'ext-ram']);
  const note = element.getByTestId('embed-peak').getByTestId('peak-regions');
  await expect(note).toHaveText('(sum of 2 memories)');
  await expect(note).toHaveAttribute('title', `the sum of each memory's own peak, ${held.map((r) => `${r.name} ${formatBytes(r.peak)}`).join(' + ')}`);
});

test('<heapscope-view> with a target, strategy or dim it cannot use plans with the defaults in their place, and says so under its caption and in the console', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await page.goto('/docs/demo.html');
  await page.evaluate(() => {
    const view = document.createElement('heapscope-view');
    view.setAttribute('src', '../sample.onnx');
    view.setAttribute('dims', 'batch=2 nosuch=3 width=abc');
    view.setAttribute('target', 'gpu');
    view.setAttribute('strategy', 'quantum');
    view.setAttribute('panes', 'heap,bogus');
    view.dataset.testid = 'unknown-names';
    document.querySelector('main')!.append(view);
  });
  const element = page.getByTestId('unknown-names');
  await expect(element).toHaveAttribute('data-status', 'ready');
  const summaryOf = () => element.evaluate((el: HTMLElementTagNameMap['heapscope-view']) => el.summary());
  await expect.poll(async () => (await summaryOf())?.peak).toBe(cliPeak(['--dim', 'batch=2']));
  expect((await summaryOf())?.target).toBe('cpu');
  const notice = element.getByTestId('embed-left-out');
  await expect(notice).toContainText(/^Left out of the attributes: target="gpu": unknown target preset "gpu" \(presets: .*mcu/);
  await expect(notice).toContainText('strategy="quantum": unknown strategy "quantum"');
  await expect(notice).toContainText('dims "width=abc": a dim is a whole number');
  // known only once the model is read: the dim it does not have, in the link notice's words
  await expect(notice).toContainText('dims "nosuch=3": the model has no dim nosuch (its dims: batch');
  await expect(notice).toContainText('panes "bogus": no such pane');
  expect(warnings).toContainEqual(expect.stringMatching(/^<heapscope-view>: ignored target="gpu": unknown target preset "gpu" \(presets: .*mcu/));
  expect(warnings).toContainEqual(expect.stringMatching(/^<heapscope-view>: ignored strategy="quantum": unknown strategy "quantum"/));
  // a known target set later plans it, and the notice drops what no longer applies
  await element.evaluate((el) => el.setAttribute('target', 'mcu'));
  await expect.poll(async () => (await summaryOf())?.target).toBe('mcu');
  await expect(notice).not.toContainText('target=');
  // an unknown one after it, or none, plans the default: the same markup gives the same plan, whatever came before
  await element.evaluate((el) => el.setAttribute('target', 'gpu2'));
  await expect.poll(async () => (await summaryOf())?.target).toBe('cpu');
  await expect(notice).toContainText('target="gpu2": unknown target preset');
  expect(warnings.some((w) => w.includes('ignored target="gpu2"'))).toBe(true);
  await element.evaluate((el) => el.setAttribute('target', 'mcu'));
  await expect.poll(async () => (await summaryOf())?.target).toBe('mcu');
  await element.evaluate((el) => el.removeAttribute('target'));
  await expect.poll(async () => (await summaryOf())?.target).toBe('cpu');
  await expect(element).toHaveAttribute('data-status', 'ready');
  await expect(element.getByTestId('embed-peak')).toContainText('on cpu');
  // the element's summary has the page's keys
  expect(Object.keys((await summaryOf())!)).toEqual(expect.arrayContaining(['compare', 'growth']));
});

test('<heapscope-view> with a model that is not there says so inside the element', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 404 .*\/missing\/net\.onnx/);
  // The preview server answers unknown paths with the app's page; a real host answers 404.
  await page.route((url) => url.pathname === '/missing/net.onnx', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto('/docs/demo.html');
  await page.evaluate(() => {
    const view = document.createElement('heapscope-view');
    view.setAttribute('src', '../missing/net.onnx');
    view.dataset.testid = 'missing-element';
    document.querySelector('main')!.append(view);
  });
  const element = page.getByTestId('missing-element');
  await expect(element).toHaveAttribute('data-status', 'error');
  await expect(element.getByRole('alert')).toContainText('net.onnx');
  await expect(element.getByRole('alert')).toContainText('HTTP 404');
  await element.scrollIntoViewIfNeeded();
  await element.screenshot({ path: 'e2e-artifacts/embed-missing-model.png' });
});

test('<heapscope-view> given a saved plan says, in the page\'s words, that it opens in the full page', async ({ page }) => {
  await page.route((url) => url.pathname === '/plans/net.plan.json', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ format: 'heapscope-plan', version: 1, model: 'net.onnx', settings: {}, nodes: [], plan: {} }) }),
  );
  await page.goto('/docs/demo.html');
  await page.evaluate(() => {
    const view = document.createElement('heapscope-view');
    view.setAttribute('src', '../plans/net.plan.json');
    view.dataset.testid = 'plan-element';
    document.querySelector('main')!.append(view);
  });
  const element = page.getByTestId('plan-element');
  await expect(element).toHaveAttribute('data-status', 'error');
  const alert = element.getByRole('alert');
  await expect(alert).toContainText('net.plan.json');
  await expect(alert).toContainText('a saved plan opens in the full page');
  await expect(alert).not.toContainText('heapscope diff');
});

test('the Content Security Policy blocks scripts, fonts and images from elsewhere', async ({ page, consoleErrors }) => {
  // The browser reports each blocked load as a console error: that is what this test provokes.
  consoleErrors.allow(/violates the following Content Security Policy directive/);
  const requests = await interceptRequests(page);
  for (const path of ['/docs/demo.html', '/?embed=1']) {
    await page.goto(path);
    const blocked = await page.evaluate(async () => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.effectiveDirective));
      const img = document.createElement('img');
      img.src = 'https://images.example/pixel.png';
      const script = document.createElement('script');
      script.src = 'https://cdn.example/analytics.js';
      const font = new FontFace('Remote', 'url(https://fonts.example/remote.woff2)');
      document.body.append(img, script);
      await font.load().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return seen.sort();
    });
    expect(blocked).toEqual(['font-src', 'img-src', 'script-src-elem']);
  }
  // Blocked by the policy in the browser, they never reached the network.
  expect(requests.foreign).toEqual([]);
});

test('embed=1 is chrome-less and sized to its frame: graph and heap only', async ({ page }) => {
  await page.setViewportSize({ width: 760, height: 420 });
  await page.goto('/?embed=1&dim.batch=4');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak != null);
  expect((await page.evaluate(() => window.heapscope!.summary())).peak).toBe(cliPeak(['--dim', 'batch=4']));
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(page.getByTestId('settings-panel')).toHaveCount(0);
  await expect(page.getByTestId('tensor-table')).toHaveCount(0);
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  await expect(page.getByTestId('heap-canvas')).toHaveAttribute('data-buffer-count', /^[1-9]\d*$/);
  // The view fills the frame and nothing scrolls.
  const fit = await page.evaluate(() => ({ scroll: document.documentElement.scrollHeight, inner: window.innerHeight }));
  expect(fit.scroll).toBeLessThanOrEqual(fit.inner);
  const heap = await page.getByTestId('heap-pane').boundingBox();
  expect(heap!.y + heap!.height).toBeGreaterThan(420 * 0.8);
  // The legend keeps one line: each key on it is whole, the rest out of sight below, none cut at the frame's edge.
  const keys = await page.locator('.heap-legend').evaluate((legend) => {
    const line = legend.getBoundingClientRect();
    return [...legend.querySelectorAll('li')].map((li) => {
      const r = li.getBoundingClientRect();
      return { text: li.textContent, shown: r.top < line.bottom - 0.5, whole: r.left >= line.left && r.right <= line.right && r.bottom <= line.bottom };
    });
  });
  expect(keys.filter((k) => k.shown && !k.whole)).toEqual([]);
  expect(keys.filter((k) => k.shown).length).toBeGreaterThanOrEqual(3);
  expect(new URL(page.url()).searchParams.get('embed')).toBe('1');
  // A link opens the same view in the full app.
  const out = new URL((await page.getByRole('link', { name: 'Open in heapscope' }).getAttribute('href'))!);
  expect(Object.fromEntries(out.searchParams)).toEqual({ 'dim.batch': '4' });
  await snap(page, 'embed-app-frame');
});

test('embed=1 on target tflm gives the tensor arena to declare in its caption, as the full page does, at 480x320 and 1280x720, with any panes', async ({ page }) => {
  test.skip(!haveModel('tflite/tflm_person_detect.tflite'), NO_MODELS);
  await serveModel(page, '/e2e/person.tflite', readModel('tflite/tflm_person_detect.tflite'));
  for (const [width, height] of [
    [480, 320],
    [1280, 720],
  ] as const) {
    for (const panes of ['', '&panes=heap,explain']) {
      await page.setViewportSize({ width, height });
      await page.goto(`/?embed=1&model=/e2e/person.tflite&target=tflm${panes}`);
      await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().target === 'tflm');
      // the caption read "peak 54.0 KiB · bound 54.0 KiB · best on tflm": the arena's head, not what to declare
      const arena = page.getByTestId('embed-arena');
      await expect(arena).toHaveText('· arena to declare 80.4 KiB (estimate)');
      await expect(arena).toBeInViewport({ ratio: 1 });
      await expect(page.locator('.embed-caption')).toHaveAttribute('title', /arena to declare 80\.4 KiB \(estimate\)/);
      // once: the heap's toolbar kept a hidden second one
      await expect(page.getByTestId('heap-arena')).toHaveCount(0);
    }
  }
  await snap(page, 'embed-tflm-arena');
  // on another target there is no TFLite Micro arena to give
  await page.goto('/?embed=1&model=/e2e/person.tflite&target=mcu');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().target === 'mcu');
  await expect(page.getByTestId('embed-peak')).toBeVisible();
  await expect(page.getByTestId('embed-arena')).toHaveCount(0);
});

test('<heapscope-view target="tflm"> says the arena to declare once, in its caption, whatever its panes', async ({ page }) => {
  test.skip(!haveModel('tflite/tflm_person_detect.tflite'), NO_MODELS);
  await serveModel(page, '/e2e/person.tflite', readModel('tflite/tflm_person_detect.tflite'));
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/docs/demo.html');
  for (const panes of ['', 'heap', 'heap,chart']) {
    await page.evaluate((panes) => {
      document.querySelector('[data-testid="tflm-element"]')?.remove();
      const view = document.createElement('heapscope-view');
      view.setAttribute('src', '../e2e/person.tflite');
      view.setAttribute('target', 'tflm');
      if (panes !== '') view.setAttribute('panes', panes);
      view.dataset.testid = 'tflm-element';
      document.querySelector('main')!.prepend(view);
    }, panes);
    const element = page.getByTestId('tflm-element');
    await expect(element).toHaveAttribute('data-status', 'ready');
    await expect.poll(() => element.evaluate((el: HTMLElementTagNameMap['heapscope-view']) => el.summary()?.target)).toBe('tflm');
    await expect(element.getByTestId('heap-pane')).toBeVisible();
    // the heap's toolbar held a second "arena to declare 80.4 KiB (estimate)" (and peak, bound, strategy) under the caption's
    await expect(element.getByText(/arena to declare/)).toHaveCount(1);
    await expect(element.getByTestId('heap-arena')).toHaveCount(0);
    await expect(element.getByTestId('heap-peak')).toHaveCount(0);
    await expect(element.getByTestId('embed-arena')).toHaveText('· arena to declare 80.4 KiB (estimate)');
    await expect(element.getByTestId('embed-arena')).toBeInViewport({ ratio: 1 });
  }
  await page.getByTestId('tflm-element').screenshot({ path: 'e2e-artifacts/embed-element-tflm-arena.png' });
});

test('embed=1 with a comparison names compare=1 and each b. parameter it leaves out, on the page and in the console, and the full view keeps them', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (m) => void (m.type() === 'warning' && warnings.push(m.text())));
  await page.setViewportSize({ width: 760, height: 420 });
  await page.goto('/?embed=1&dim.batch=4&compare=1&b.target=mcu&b.dim.batch=02');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak != null);
  const note = page.getByTestId('embed-left-out');
  await expect(note).toBeVisible();
  for (const entry of ['compare=1', 'b.target=mcu', 'b.dim.batch=02']) {
    await expect(note).toHaveAttribute('title', new RegExp(`${entry.replace(/\./g, '\\.')}: an embedded view opens no comparison`));
    expect(warnings).toContain(`heapscope: ignored URL parameter ${entry}: an embedded view opens no comparison; Open in heapscope opens it`);
  }
  // The frame still does not scroll with the line added.
  const fit = await page.evaluate(() => ({ scroll: document.documentElement.scrollHeight, inner: window.innerHeight }));
  expect(fit.scroll).toBeLessThanOrEqual(fit.inner);
  const out = new URL((await page.getByRole('link', { name: 'Open in heapscope' }).getAttribute('href'))!);
  expect(out.searchParams.get('compare')).toBe('1');
  expect(out.searchParams.get('b.target')).toBe('mcu');
  await snap(page, 'embed-compare-left-out');
});
