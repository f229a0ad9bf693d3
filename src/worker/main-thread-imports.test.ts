// The page's main thread lists the strategies without loading them: from the
// page's entry, static imports of values (not `import type`, not `import()`,
// which the build splits off) never reach a placement strategy or the engine,
// so the main bundle does not carry the placement code (the worker and the
// main-thread fallback, loaded by import(), do).

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** `import ... from '<relative>'` and `export ... from '<relative>'`, skipping type-only ones. */
const STATIC_IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+['"](\.{1,2}\/[^'"]+)['"]/g;
const SIDE_EFFECT_IMPORT = /(?:^|\n)\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** True when every name an import brings is a type (`import { type A, type B }`). */
function typesOnly(clause: string): boolean {
  const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1];
  return names !== undefined && names.split(',').every((n) => n.trim() === '' || n.trim().startsWith('type '));
}

/** The modules the page's entry loads with it, as paths relative to the repository. */
function mainThreadModules(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [resolve(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const name = relative(ROOT, file);
    if (seen.has(name)) continue;
    seen.add(name);
    const text = readFileSync(file, 'utf8');
    const specs = [
      ...[...text.matchAll(STATIC_IMPORT)].filter((m) => m[2] === undefined && !typesOnly(m[3]!)).map((m) => m[4]!),
      ...[...text.matchAll(SIDE_EFFECT_IMPORT)].map((m) => m[1]!),
    ];
    for (const spec of specs) {
      const target = resolveImport(file, spec);
      if (target !== undefined && /\.tsx?$/.test(target)) queue.push(target);
    }
  }
  return seen;
}

describe('the page\'s main thread', () => {
  const modules = mainThreadModules('src/main.tsx');

  it('loads the strategy names and the menus that list them', () => {
    expect(modules).toContain('src/planner/strategies/strategy-names.ts');
    expect(modules).toContain('src/settings/names.ts');
  });

  it('loads no placement strategy and no placement engine', () => {
    const placement = [...modules].filter((m) => (m.startsWith('src/planner/strategies/') && !m.endsWith('/strategy-names.ts')) || m.startsWith('src/planner/engine/'));
    expect(placement).toEqual([]);
  });
});
