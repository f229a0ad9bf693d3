// Shared by the page benchmarks (heap-frames.ts, drop-to-drawn.ts): serves the
// built app with `vite preview` on its own port, opens it in Chromium through
// Playwright's library API, and summarises samples. Not part of `npm test`.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Percentile `p` (0..100) of `samples`, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** "p50 x ms, p95 y ms, max z ms (n samples)". */
export function describeSamples(samples: readonly number[]): string {
  const f = (n: number): string => n.toFixed(1);
  return `p50 ${f(percentile(samples, 50))} ms, p95 ${f(percentile(samples, 95))} ms, max ${f(Math.max(...samples))} ms (${samples.length} samples)`;
}

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`vite preview did not answer at ${url} within 60 s`);
}

/** Serves dist/ on `port`, opens a Chromium page at `path` and runs `fn`; always cleans up. */
export async function withPreviewPage<T>(path: string, fn: (page: Page) => Promise<T>, port = 4191): Promise<T> {
  if (!existsSync(resolve(ROOT, 'dist/index.html'))) throw new Error('dist/ is missing: run `npm run build` first');
  const base = `http://127.0.0.1:${port}`;
  const server = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: ROOT, stdio: 'ignore', detached: true });
  let browser: Browser | undefined;
  try {
    await waitForServer(base, server);
    const executablePath = process.env.HEAPSCOPE_CHROMIUM ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
    browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(`${base}${path}`);
    return await fn(page);
  } finally {
    await browser?.close();
    if (server.pid !== undefined) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
}

/** Waits until the page status is 'ready' and the heap canvas drew the plan on screen. */
export async function waitForDrawnPlan(page: Page, model: string, timeout = 600_000): Promise<void> {
  await page.waitForFunction(
    (name) => {
      const s = window.heapscope?.summary();
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="heap-canvas"]');
      return document.body.dataset.status === 'ready' && s?.model === name && s.buffers > 0 && canvas?.dataset.bufferCount === String(s.buffers);
    },
    model,
    { timeout, polling: 'raf' },
  );
}

/** The largest .onnx file under ../shared/models. */
export function largestModel(): string {
  const dir = resolve(ROOT, '../shared/models');
  const files = readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.onnx'))
    .map((e) => join(e.parentPath, e.name));
  if (files.length === 0) throw new Error(`no .onnx file in ${dir}`);
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}
