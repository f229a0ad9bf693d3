// The memory map on the page: the settings' spill switch (the CLI's --spill)
// re-plans and travels in the link as spill=off, giving the plan the command
// line gives with the same switch.

import { expect as baseExpect } from '@playwright/test';
import type {} from '../src/app/page-api';
import { runCli } from '../cli/main';
import { snap, summary, test, waitForPlan } from './fixtures';

/** Planning the sample on mcu twice shares two cores with other work: give it time. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** The plan's figures `plan <file> --json ...args` gives (exit 3, over a limit, still prints the plan). */
interface CliPlan {
  readonly peak: number;
  readonly fits: boolean;
  readonly regions: readonly { readonly name: string; readonly peak: number; readonly lowerBound: number; readonly sizeLimit?: number; readonly overBy: number; readonly spilled?: number }[];
}

/** Runs the CLI in this process: `plan <file> --json ...args`. */
function cliPlan(file: string, args: readonly string[]): CliPlan {
  let out = '';
  let err = '';
  const code = runCli(['plan', file, '--json', ...args], { out: (t) => (out += t), err: (t) => (err += t) });
  if (code !== 0 && code !== 3) throw new Error(`heapscope plan ${file} ${args.join(' ')} exited ${code}: ${err}`);
  return JSON.parse(out) as CliPlan;
}

test('the spill switch re-plans the sample on mcu as --spill off does, and the link keeps it off', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?target=mcu');
  await waitForPlan(page);
  const spilled = cliPlan('public/sample.onnx', ['--target', 'mcu']);
  const kept = cliPlan('public/sample.onnx', ['--target', 'mcu', '--spill', 'off']);
  const on = await summary(page);
  expect(on).toMatchObject({ peak: spilled.peak, fits: true });
  expect(on.settings?.spill).toBe(true);

  const toggle = page.getByRole('switch', { name: 'Spill to the next region' });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await page.waitForFunction((peak) => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak !== peak, on.peak);
  const off = await summary(page);
  expect(off).toMatchObject({ peak: kept.peak, fits: false });
  expect(off.settings?.spill).toBe(false);
  await expect(page.getByTestId('heap-over')).toContainText('sram needs');
  await expect.poll(() => new URL(page.url()).searchParams.get('spill')).toBe('off');
  await snap(page, 'memory-map-spill-off');

  // The copied link opens with the switch off and the same plan.
  await page.goto(`/${new URL(page.url()).search}`);
  await waitForPlan(page);
  expect(await summary(page)).toMatchObject({ peak: kept.peak, fits: false, settings: { spill: false } });
  await expect(page.getByRole('switch', { name: 'Spill to the next region' })).not.toBeChecked();

  // Switched back on, the parameter goes: on is the preset's own.
  await page.getByRole('switch', { name: 'Spill to the next region' }).check();
  await page.waitForFunction((peak) => document.body.dataset.status === 'ready' && window.heapscope?.summary().peak === peak, spilled.peak);
  await expect.poll(() => new URL(page.url()).searchParams.has('spill')).toBe(false);
});
