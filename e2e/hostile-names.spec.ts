// Models with hostile names open like any other: op types and dims named after
// Object.prototype members, names with control characters (the SVG exports stay
// well-formed XML and the PNG export works), and a 1 MB name (cut, with the
// whole text on demand).

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect as baseExpect, type Page } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { titleText } from '../src/shared/short-name';
import { controlNamesModel, longDimModel, longNamesModel, prototypeNamesModel } from '../src/model/testing/hostile-models';
import { dropFile, openDropped, snap, summary, waitForModel, waitForPlan, test, showTensorTable } from './fixtures';

/** Planning and graph layout share two cores with other work: give them time. */
const expect = baseExpect.configure({ timeout: 30_000 });

async function download(page: Page, testId: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).first().click()]);
  return readFileSync(await file.path());
}

/** Parses `svg` as XML in the page; returns the parser's error text, or '' when well-formed. */
async function xmlError(page: Page, svg: string): Promise<string> {
  return page.evaluate((text) => new DOMParser().parseFromString(text, 'image/svg+xml').querySelector('parsererror')?.textContent ?? '', svg);
}

test('op types and dims named constructor, toString, valueOf, hasOwnProperty, __proto__ open and re-plan', async ({ page }) => {
  await page.goto('/');
  await waitForPlan(page);
  await dropFile(page, 'prototype-names.onnx', prototypeNamesModel());
  await waitForModel(page, 'prototype-names.onnx');
  const s = await summary(page);
  expect(s.error ?? null).toBeNull();
  expect(s.nodes).toBe(8);
  await page.goto('/?dim.__proto__=5&dim.constructor=3');
  await waitForPlan(page);
  await dropFile(page, 'prototype-names.onnx', prototypeNamesModel());
  await waitForModel(page, 'prototype-names.onnx');
  expect((await summary(page)).error ?? null).toBeNull();
  await snap(page, 'prototype-names');
});

test('names with control characters give well-formed SVG exports and a PNG', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openDropped(page, 'control-names.onnx', controlNamesModel());
  const heap = (await download(page, 'export-heap-svg')).toString('utf8');
  expect(heap).toContain('\ufffd');
  expect(await xmlError(page, heap)).toBe('');
  const png = await download(page, 'export-heap-png');
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  const graph = (await download(page, 'export-graph-svg')).toString('utf8');
  expect(await xmlError(page, graph)).toBe('');
  expect((await download(page, 'export-graph-png')).subarray(1, 4).toString('latin1')).toBe('PNG');
});

test('a 1 MB tensor name is cut in the details, with the whole text on demand in a bounded box', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openDropped(page, 'long-names.onnx', longNamesModel());
  await page.getByRole('group', { name: 'Heap view' }).getByRole('button', { name: 'Table' }).click();
  const table = page.getByRole('table', { name: 'Buffers of the plan' });
  await table.getByTestId('heap-row').filter({ hasText: 'tensor-abc' }).first().click();
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'buffer');
  expect((await details.boundingBox())!.height).toBeLessThan(600);
  await details.getByTestId('long-name-more').click();
  const full = details.getByTestId('long-name-full');
  await expect(full).toBeVisible();
  expect(await full.evaluate((el) => el.textContent?.length)).toBe(1 << 20);
  expect((await full.boundingBox())!.height).toBeLessThan(400);
  await snap(page, 'long-names');
});

/** Text, title and aria-label of the page longer than `max` characters (data-* attributes and field values are not shown). */
async function unboundedText(page: Page, max: number): Promise<string[]> {
  return page.evaluate((limit) => {
    const out: string[] = [];
    for (const element of document.querySelectorAll('body *')) {
      if (element.closest('[data-testid="long-name-full"]')) continue; // the whole name, asked for
      const own = [...element.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('');
      const where = `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''}[${element.getAttribute('data-testid') ?? ''}]`;
      if (own.length > limit) out.push(`${where} text ${own.length}`);
      for (const attribute of ['title', 'aria-label']) {
        const value = element.getAttribute(attribute) ?? '';
        if (value.length > limit) out.push(`${where} ${attribute} ${value.length}`);
      }
    }
    return out;
  }, max);
}

test('a 1 MB node name and tensor name stay bounded in the tooltip, the tables and the graph, with the whole name on demand', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDropped(page, 'long-names.onnx', longNamesModel());
  await expect(page.getByTestId('graph-svg')).toHaveAttribute('data-boxes', /^[1-9]\d*$/);
  // Nothing on the page carries a name whole: every text, title and label is cut (titles at 1,000 characters).
  expect(await unboundedText(page, 1100)).toEqual([]);

  // The heap tooltip of the long tensor: a few lines, saying the name is cut.
  const tooltip = page.getByTestId('heap-tooltip');
  const canvas = page.getByTestId('heap-canvas');
  const area = (await canvas.boundingBox())!;
  let found = false;
  for (let row = 1; row <= 8 && !found; row += 1) {
    for (let col = 1; col <= 12 && !found; col += 1) {
      await page.mouse.move(area.x + 70 + ((area.width - 90) * col) / 13, area.y + 10 + ((area.height - 130) * row) / 9);
      found = (await tooltip.isVisible()) && (await tooltip.locator('.heap-tooltip-name').innerText()).startsWith('tensor-abc');
    }
  }
  expect(found).toBe(true);
  await expect(tooltip.getByTestId('tooltip-name-cut')).toContainText('1,048,576 characters');
  const tip = (await tooltip.boundingBox())!;
  const diagram = (await page.getByTestId('heap-view').boundingBox())!;
  expect(tip.height).toBeLessThan(300);
  expect(tip.width).toBeLessThanOrEqual(341);
  // The card stays inside the diagram, whose edges would clip it.
  expect(tip.x).toBeGreaterThanOrEqual(diagram.x - 1);
  expect(tip.y).toBeGreaterThanOrEqual(diagram.y - 1);
  expect(tip.x + tip.width).toBeLessThanOrEqual(diagram.x + diagram.width + 1);
  expect(tip.y + tip.height).toBeLessThanOrEqual(diagram.y + diagram.height + 1);
  expect((await tooltip.innerText()).length).toBeLessThan(500);
  await snap(page, 'long-names-tooltip');
  await page.mouse.move(0, 0);

  // The tensor table: one line of the row's height, the name cut, more of it in the title.
  await showTensorTable(page);
  const row = page.getByTestId('tensor-row').filter({ hasText: 'tensor-abc' });
  const cell = row.getByTestId('cell-name');
  const rowBox = (await row.boundingBox())!;
  expect(rowBox.height).toBeLessThanOrEqual(32);
  expect((await cell.boundingBox())!.width).toBeLessThan(rowBox.width);
  expect((await cell.innerText()).length).toBeLessThanOrEqual(121);
  expect((await cell.getAttribute('title'))?.length).toBe(1001);

  // The graph: the node's label and accessible name are cut; clicking it shows the whole name on demand.
  const node = page.locator('.gnode[data-node^="node-abc"]');
  expect((await node.locator('.g-sub').textContent())!.length).toBeLessThanOrEqual(33);
  expect((await node.getAttribute('aria-label'))!.length).toBeLessThan(200);
  expect((await node.boundingBox())!.width).toBeLessThan(400);
  await node.click();
  const details = page.getByTestId('selection-details');
  await expect(details).toHaveAttribute('data-kind', 'node');
  await details.getByTestId('long-name-more').first().click();
  const full = details.getByTestId('long-name-full');
  expect(await full.evaluate((el) => el.textContent)).toBe(`node-${'abcdefghij'.repeat(1 << 17)}`.slice(0, 1 << 20));
  expect((await full.boundingBox())!.height).toBeLessThan(400);
  await snap(page, 'long-names-node');
});

test('a 1 MB symbolic dim name is cut in the dims panel and the banner, and the dim still binds', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDropped(page, 'long-dim.onnx', longDimModel());
  expect(await unboundedText(page, 1100)).toEqual([]);
  const dim = page.getByTestId('dim');
  await expect(dim).toHaveCount(1);
  const label = await dim.locator('label').innerText();
  expect(label.length).toBeLessThanOrEqual(201);
  expect(label).toContain('…');
  const before = (await summary(page)).peak!;
  await dim.locator('input').fill('4');
  await dim.locator('input').press('Enter'); // a typed dim is planned on Enter
  await expect.poll(async () => (await summary(page)).peak).toBe(before * 4);
  expect(await unboundedText(page, 1100)).toEqual([]);
});

/** `value` with every string equal to `from` replaced by `to`, at any depth. */
function renamed(value: unknown, from: string, to: string): unknown {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((v) => renamed(v, from, to));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamed(v, from, to)]));
  return value;
}

test('a saved plan with a long model name and a long region name holding markup shows both cut, whole in a title, as text', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-names-')), 'long.plan.json');
  expect(runCli(['plan', 'public/sample.onnx', '--save', path], { out: () => undefined, err: () => undefined })).toBe(0);
  const model = `<img src=x onerror="document.body.dataset.owned=1">${'model-name-'.repeat(400)}.onnx`;
  const region = `<b>sram</b>${'-region'.repeat(300)}`;
  const doc = renamed(JSON.parse(readFileSync(path, 'utf8')), 'ram', region) as { model: string };
  doc.model = model;
  await page.goto('/');
  await waitForPlan(page);
  await dropFile(page, 'long.plan.json', Buffer.from(JSON.stringify(doc)));
  const facts = page.getByTestId('compare-dialog').getByTestId('saved-plan-facts');
  await expect(facts).toBeVisible();
  // Markup in a name is text: no element made of it, no script run.
  await expect(facts.locator('img, b')).toHaveCount(0);
  expect(await page.evaluate(() => document.body.dataset.owned)).toBeUndefined();
  const shown = await facts.evaluate((el) => ({ width: el.clientWidth, scroll: el.scrollWidth }));
  expect(shown.scroll).toBeLessThanOrEqual(shown.width + 1);
  for (const [name, cell] of [
    [model, facts.getByTestId('saved-plan-model')],
    [region, facts.getByTestId('saved-plan-region')],
    [model, page.getByTestId('compare-label-a')],
  ] as const) {
    await expect(cell).toHaveAttribute('title', titleText(name));
    const text = await cell.evaluate((el) => {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      const host = el.closest('[data-testid="compare-dialog"]')!.getBoundingClientRect();
      return { text: el.textContent ?? '', overflow: style.textOverflow, wrap: style.whiteSpace, lines: box.height / Number.parseFloat(style.lineHeight === 'normal' ? style.fontSize : style.lineHeight), right: box.right, hostRight: host.right };
    });
    expect(text.text.startsWith(name.slice(0, 20))).toBe(true);
    expect(text.text.length).toBeLessThanOrEqual(121);
    expect(text.overflow).toBe('ellipsis');
    expect(text.wrap).toBe('nowrap');
    expect(text.lines).toBeLessThan(1.8);
    expect(text.right).toBeLessThanOrEqual(text.hostRight + 1);
  }
  expect(await unboundedText(page, 1100)).toEqual([]);
  await snap(page, 'saved-plan-long-names');
});
