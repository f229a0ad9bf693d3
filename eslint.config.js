// Lint rules, including the layer rules of CONVENTIONS.md:
// shared <- model <- planner <- worker <- store <- views <- embed <- app.
// (embed, the chrome-less view and <heapscope-view>, sits under app, which
// shows it for embed=1.) `npm run lint` also runs scripts/check-imports.mjs,
// which fails on an import circle.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const layers = ['shared', 'model', 'planner', 'settings', 'worker', 'store', 'views', 'embed', 'app'];

/** Import patterns a layer may not use: every layer above it. */
function forbiddenAbove(layer) {
  const above = layers.slice(layers.indexOf(layer) + 1);
  return above.map((name) => ({
    group: [`**/${name}/*`, `**/${name}/**`, `**/${name}`],
    message: `src/${layer} may not import from src/${name} (layers point one way: ${layers.join(' <- ')}).`,
  }));
}

const protobuf = {
  group: ['onnx-proto', 'protobufjs', 'protobufjs/*'],
  message: 'Only src/model sees ONNX protobuf types.',
};
const ui = {
  group: ['react', 'react-dom', 'react-dom/*', 'd3', 'd3-*', 'zustand', 'zustand/*'],
  message: 'UI libraries belong in src/store, src/views, src/embed and src/app.',
};

function layerRule(layer, extra = []) {
  return {
    files: [`src/${layer}/**/*.{ts,tsx}`],
    ignores: ['src/**/*.test.ts', 'src/**/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...forbiddenAbove(layer), ...extra] }],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'e2e-artifacts', 'bench/out'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The plugin's whole recommended set (the Rules of React the compiler checks:
  // no ref reads or writes in render, pure render, no setState in an effect
  // body), not only the two classic hook rules.
  { files: ['src/**/*.tsx', 'src/**/*.ts'], ...reactHooks.configs.flat.recommended },
  layerRule('shared', [protobuf, ui]),
  layerRule('model', [ui]),
  {
    // The planner sees the model layer's IR types only, never its code.
    files: ['src/planner/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/**/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbiddenAbove('planner'),
            protobuf,
            ui,
            { group: ['**/model/*', '**/model/**'], allowTypeImports: true, message: 'src/planner may import only types from src/model.' },
          ],
        },
      ],
    },
  },
  layerRule('settings', [protobuf, ui]),
  layerRule('worker', [protobuf, ui]),
  layerRule('store', [protobuf]),
  layerRule('views', [protobuf]),
  layerRule('embed', [protobuf]),
  layerRule('app', [protobuf]),
);
