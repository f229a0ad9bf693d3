import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';

/**
 * End-to-end tests run the built app (vite preview) in Chromium.
 * HEAPSCOPE_CHROMIUM overrides the browser; without it Debian's /usr/bin/chromium
 * is used when present, else Playwright's own browser.
 */
const chromium = process.env.HEAPSCOPE_CHROMIUM ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
/** HEAPSCOPE_E2E_PORT serves the built app on another port, so two checkouts can test side by side. */
const port = Number(process.env.HEAPSCOPE_E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  // *-bench.spec.ts print figures in Chromium; they run only when asked for.
  testIgnore: process.env.HEAPSCOPE_BENCH === '1' ? [] : ['**/*-bench.spec.ts'],
  outputDir: 'test-results',
  timeout: 90_000,
  fullyParallel: false,
  workers: 1,
  // On CI a test that fails once runs once more; the summary names it as flaky (scripts/test-all.mjs), it is not hidden.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
