// With --json, an output that is the command's own stdout (/dev/stdout,
// /proc/self/fd/1, or the file stdout is sent to) is refused before planning:
// the CSV or C text would land inside the JSON. /dev/stderr stays allowed. The
// refusal is a usage error: stdout gets its JSON error object, as any under --json.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const ROOT = join(__dirname, '..');
const SAMPLE = join(ROOT, 'public/sample.onnx');
const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
const cli = (argv: readonly string[]) => [process.execPath, '--import', 'tsx', join(ROOT, 'cli/main.ts'), ...argv].map(quote).join(' ');
const dir = mkdtempSync(join(tmpdir(), 'heapscope-json-stdout-'));
const PROBLEM = join(dir, 'p.csv');
writeFileSync(PROBLEM, 'id,lower,upper,size\na,0,2,64\nb,1,3,32\n');

describe('--json with an output on its own stdout', () => {
  for (const path of ['/dev/stdout', '/proc/self/fd/1']) {
    for (const [option, argv] of [
      ['--csv', ['plan', SAMPLE, '--target', 'mcu']],
      ['--header', ['plan', SAMPLE]],
      ['--out', ['solve', PROBLEM]],
    ] as const) {
      it(`${argv[0]} ${option} ${path} --json: exit 2, one line naming the option, the JSON error alone on stdout`, () => {
        const { code, out, err } = run([...argv, option, path, '--json']);
        expect(code).toBe(2);
        const message = `${option} ${path} is this command's stdout, where --json prints the JSON; give ${option} a file, or drop --json`;
        expect(out).toBe(JSON.stringify({ error: { code: 'bad-argument', message } }) + '\n');
        expect(err).toBe(`heapscope: ${message}\n`);
      });
    }
  }

  it('refuses the file stdout is sent to, by device and inode, and leaves /dev/stderr and the text report alone', () => {
    const all = join(dir, 'all.txt');
    const same = spawnSync('bash', ['-c', `${cli(['plan', SAMPLE, '--csv', all, '--json'])} > ${quote(all)}`], { encoding: 'utf8' });
    expect(same.status).toBe(2);
    expect(same.stderr).toMatch(/^heapscope: --csv .*all\.txt is this command's stdout, where --json prints the JSON/);
    expect(Object.keys(JSON.parse(readFileSync(all, 'utf8')))).toEqual(['error']);
    const stderr = spawnSync('bash', ['-c', `${cli(['plan', SAMPLE, '--csv', '/dev/stderr', '--json'])} 2>/dev/null`], { encoding: 'utf8' });
    expect(stderr.status).toBe(0);
    expect(JSON.parse(stderr.stdout).peak).toBeGreaterThan(0);
    const text = spawnSync('bash', ['-c', `${cli(['solve', PROBLEM, '--out', '/dev/stdout'])} | cat`], { encoding: 'utf8' });
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('id,lower,upper,size');
  }, 60_000);
});
