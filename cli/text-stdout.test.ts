// Without --json, an output named as the very file stdout is sent to
// (`--save plan.json > plan.json`) is refused before planning, as --json
// refuses it: the text report would follow the output in that file (a plan
// file that no longer reads back). /dev/stdout sent to a file stays allowed.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..');
const SAMPLE = join(ROOT, 'public/sample.onnx');
const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
const cli = (argv: readonly string[]) => [process.execPath, '--import', 'tsx', join(ROOT, 'cli/main.ts'), ...argv].map(quote).join(' ');
const dir = mkdtempSync(join(tmpdir(), 'heapscope-text-stdout-'));
const PROBLEM = join(dir, 'p.csv');
writeFileSync(PROBLEM, 'id,lower,upper,size\na,0,2,64\nb,1,3,32\n');

/** Runs the tool with stdout sent to `file`; its exit code and stderr. */
function runInto(argv: readonly string[], file: string): { status: number | null; stderr: string } {
  const r = spawnSync('bash', ['-c', `${cli(argv)} > ${quote(file)}`], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('an output on the file stdout goes to, without --json', () => {
  it('plan --save, --csv and solve --out onto it exit 2 naming the option, before anything is written', () => {
    const same = join(dir, 'same.txt');
    for (const [option, argv] of [
      ['--save', ['plan', SAMPLE]],
      ['--csv', ['plan', SAMPLE, '--target', 'mcu']],
      ['--out', ['solve', PROBLEM]],
    ] as const) {
      const r = runInto([...argv, option, same], same);
      expect(r.stderr).toBe(`heapscope: ${option} ${same} is the file this command's stdout goes to, where the report is written: it would land after the output in the same file; give ${option} another file, or /dev/stdout to print it before the report\n`);
      expect(r.status).toBe(2);
      expect(readFileSync(same, 'utf8')).toBe('');
    }
  }, 60_000);

  it('still writes /dev/stdout sent to a file before the report, and a plan file beside the report', () => {
    const all = join(dir, 'all.txt');
    const r = runInto(['solve', PROBLEM, '--out', '/dev/stdout'], all);
    expect(r.status).toBe(0);
    expect(readFileSync(all, 'utf8')).toMatch(/^id,lower,upper,size[^]*\n {2}peak /);
    const saved = join(dir, 'saved.json');
    const report = join(dir, 'report.txt');
    expect(runInto(['plan', SAMPLE, '--save', saved], report).status).toBe(0);
    expect(JSON.parse(readFileSync(saved, 'utf8')).format).toBe('heapscope-plan');
    expect(readFileSync(report, 'utf8')).toContain(`written       ${saved}`);
  }, 60_000);
});
