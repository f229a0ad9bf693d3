// What the target layer depends on, as its README states: `src/shared` and
// four leaf tables the parser validates names against (data types, operator
// kinds, strategy names, the scratch-formula grammar), each of which depends
// on `src/shared` only. Followed transitively, so a table that starts
// importing the planner shows here.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+[^'";]*?\s*from\s+['"](\.{1,2}\/[^'"]+)['"]/g;
const LEAF_TABLES = ['planner/compute-units/dtypes.ts', 'planner/problem/op-kinds.ts', 'planner/scratch/formula.ts', 'planner/strategies/strategy-names.ts'];

/** Every module the target layer's own modules reach, relative to src/. */
function reachedFromTargets(): Set<string> {
  const dir = resolve(SRC, 'planner/targets');
  const queue = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => resolve(dir, f));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    const name = relative(SRC, file);
    if (seen.has(name)) continue;
    seen.add(name);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), m[1]!);
      queue.push(existsSync(`${target}.ts`) ? `${target}.ts` : target);
    }
  }
  return seen;
}

describe('the target layer', () => {
  it('depends only on src/shared and the leaf tables its parser checks names against', () => {
    const outside = [...reachedFromTargets()].filter((m) => !m.startsWith('planner/targets/') && !m.startsWith('shared/'));
    expect(outside.filter((m) => !LEAF_TABLES.includes(m)).sort()).toEqual([]);
  });
});
