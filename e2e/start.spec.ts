// A newcomer's first run: README's first command is `npm ci && npm start`, and
// `npm start` must serve the built app (not the development server) at the
// address the README gives, on the bundled sample. The test runs `npm start`
// itself, exactly as written, and stops the process group it started.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { expect } from '@playwright/test';
import { summary, test, waitForModel, waitForPlan } from './fixtures';

const ROOT = new URL('../', import.meta.url);

/** The address the README says `npm start` opens the app at. */
function readmeAddress(): URL {
  const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
  const start = readme.indexOf('npm ci && npm start');
  expect(start, 'README shows npm ci && npm start').toBeGreaterThanOrEqual(0);
  const url = /opens the app at (http:\/\/localhost:\d+)/.exec(readme.slice(start))?.[1];
  expect(url, 'README says where npm start opens the app').toBeDefined();
  return new URL(url!);
}

/** True when something already listens on `port` of this machine. */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: 'localhost' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Polls `url` until it answers, or the process exits, or `ms` pass. */
async function waitForServer(url: URL, child: ChildProcess, ms: number): Promise<string> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return await response.text();
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`nothing answered at ${url} within ${ms} ms`);
}

test('npm start builds the app and serves the build at the address the README gives', async ({ page }) => {
  test.setTimeout(240_000);
  const address = readmeAddress();
  const script = (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(script.dev, 'npm run dev keeps the development server').toBe('vite');
  test.skip(await portTaken(Number(address.port)), `port ${address.port} is in use on this machine; npm start needs it`);
  const child = spawn('npm', ['start'], { cwd: ROOT.pathname, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  try {
    const html = await waitForServer(address, child, 200_000);
    // The build: hashed bundles under assets/, none of the dev server's client or source modules.
    expect(html).toMatch(/src="[^"]*assets\/index-[\w-]+\.js"/);
    expect(html).not.toContain('/@vite/client');
    expect(html).not.toContain('/src/main.tsx');
    expect(output).toMatch(/built in/);
    await page.goto(address.href);
    await waitForModel(page, 'sample.onnx');
    await waitForPlan(page);
    expect((await summary(page)).peak).toBeGreaterThan(0);
  } finally {
    // The whole group npm started (npm, sh, vite), by its id.
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  }
});
