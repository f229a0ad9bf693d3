// The second build: the <heapscope-view> web component as its own bundle for
// documentation pages (dist/embed/heapscope-view.js, its stylesheet and its
// worker), and the docs/ pages copied to dist/docs/ so the demo is served with
// the app. Runs after the app's build (`npm run build`), which empties dist/.

import { readFileSync, readdirSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const DOCS_DIR = new URL('./docs/', import.meta.url);

/**
 * The app's stylesheets set their tokens on :root and the base text on body;
 * inside a shadow root those selectors match nothing, so the element's
 * stylesheet applies them to :host instead.
 */
function shadowRootStyles(): Plugin {
  return {
    name: 'heapscope-shadow-root-styles',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('.css')) return undefined;
      return code.replace(/:root\b/g, ':host').replace(/(^|[\s,}])(?:html|body|#root)(?=\s*[,{])/g, '$1:host');
    },
  };
}

/** Copies the docs pages (docs/*.html and their stylesheets) into the output's docs/, the demo also as its index.html. */
function docsPages(): Plugin {
  return {
    name: 'heapscope-docs-pages',
    generateBundle() {
      for (const file of readdirSync(DOCS_DIR)) {
        if (!file.endsWith('.html') && !file.endsWith('.css')) continue;
        const source = readFileSync(new URL(file, DOCS_DIR));
        this.emitFile({ type: 'asset', fileName: `docs/${file}`, source });
        // the demo is also the folder's index, so your.site/docs/ opens it (a static server, or vite preview, would serve the app there)
        if (file === 'demo.html') this.emitFile({ type: 'asset', fileName: 'docs/index.html', source });
      }
    },
  };
}

export default defineConfig({
  plugins: [shadowRootStyles(), react(), docsPages()],
  // Asset URLs relative to the script, so the bundle works wherever a page puts it.
  base: './',
  publicDir: false,
  worker: { format: 'es', rollupOptions: { output: { entryFileNames: 'embed/assets/[name]-[hash].js', chunkFileNames: 'embed/assets/[name]-[hash].js' } } },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: true,
    cssCodeSplit: false,
    rollupOptions: {
      input: { 'heapscope-view': 'src/embed/heapscope-view.tsx' },
      preserveEntrySignatures: 'exports-only',
      output: {
        format: 'es',
        entryFileNames: 'embed/[name].js',
        chunkFileNames: 'embed/assets/[name]-[hash].js',
        assetFileNames: (asset) => (asset.names.some((n) => n.endsWith('.css')) ? 'embed/heapscope-view.css' : 'embed/assets/[name]-[hash][extname]'),
      },
    },
  },
});
