import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** The dev server's hot-reload preamble and styles are inline, which index.html's Content Security Policy forbids. */
const devWithoutCsp = {
  name: 'heapscope-dev-without-csp',
  apply: 'serve' as const,
  transformIndexHtml: (html: string) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/, ''),
};

export default defineConfig({
  plugins: [react(), devWithoutCsp],
  // Asset URLs relative to the page, so the built app and its iframe embed work under any sub-path (your.site/heapscope/).
  base: './',
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  test: {
    include: ['src/**/*.test.ts', 'cli/**/*.test.ts', 'bench/**/*.test.ts', 'fuzz/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    pool: 'forks',
  },
});
