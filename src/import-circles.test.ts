// The import-circle check that `npm run lint` runs (scripts/check-imports.mjs):
// it fails on a circle made on purpose and passes on the repository.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const CHECKER = join(import.meta.dirname, '..', 'scripts', 'check-imports.mjs');

/** Runs the checker over `dirs` (the repository's src and cli when none). */
function check(...dirs: string[]): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [CHECKER, ...dirs], { encoding: 'utf8' });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

/** A directory of the given files (path -> text), removed after the test. */
function tree(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-circles-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the import-circle check', () => {
  it('fails on two files that import each other and names both', () => {
    const dir = tree({
      'a.ts': "import { b } from './b';\nexport const a = (): number => b + 1;\n",
      'b.ts': "import type { a } from './a';\nexport const b = 1;\nexport type A = typeof a;\n",
    });
    const { status, out } = check(dir);
    expect(status).toBe(1);
    expect(out).toContain('import circles: 1');
    expect(out).toMatch(/a\.ts <-> .*b\.ts/);
  });

  it('fails on a circle through a third file in another folder', () => {
    const dir = tree({
      'x/a.ts': "export { c } from '../y/c';\n",
      'x/b.ts': "import { a } from './a';\nexport const b = a;\n",
      'y/c.ts': "import {\n  b,\n} from '../x/b';\nexport const c = b;\n",
    });
    const { status, out } = check(dir);
    expect(status).toBe(1);
    expect(out).toMatch(/a\.ts <-> .*b\.ts <-> .*c\.ts/);
  });

  it('passes when the imports point one way', () => {
    const dir = tree({
      'a.ts': "import { b } from './b';\nexport const a = b;\n",
      'b.ts': "import { c } from './c';\nexport const b = c;\n",
      'c.ts': 'export const c = 1;\n',
    });
    expect(check(dir)).toEqual({ status: 0, out: expect.stringContaining('import circles: none in 3 modules') });
  });

  it('passes on the repository, whose only circles are the listed ones', () => {
    const { status, out } = check();
    expect(out).toContain('import circles: none');
    expect(status).toBe(0);
  });
});
