// `plan --csv` into a stream (a pipe, a FIFO, /dev/stdout): a plan of several
// regions goes there as one table with a region column, and no file is made
// beside the stream's path.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import { planJson } from './testing/run-cli';

const ROOT = join(__dirname, '..');
const SAMPLE = join(ROOT, 'public/sample.onnx');
const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
const cli = (argv: readonly string[]) => [process.execPath, '--import', 'tsx', join(ROOT, 'cli/main.ts'), ...argv].map(quote).join(' ');

describe('plan --csv into a stream, several regions', () => {
  const plan = planJson([SAMPLE, '--target', 'mcu']);
  const used: string[] = plan.regions.filter((r: { name: string }) => plan.buffers.some((b: { region: string }) => b.region === r.name)).map((r: { name: string }) => r.name);

  it('writes one table with a region column first to /dev/stdout in a pipe, and makes no /dev/stdout.<region> file', () => {
    expect(used.length).toBeGreaterThan(1);
    // /dev is shared: a stray /dev/stdout.<region> left by an older build may exist; this run must neither make nor touch one.
    const beside = () => used.map((region) => statSync(`/dev/stdout.${region}`, { throwIfNoEntry: false })?.mtimeMs);
    const before = beside();
    // A shell pipe, as `| head` makes (Node's own stdio pipes are sockets, which /dev/stdout cannot reopen).
    const r = spawnSync('bash', ['-o', 'pipefail', '-c', `${cli(['plan', SAMPLE, '--target', 'mcu', '--csv', '/dev/stdout'])} | cat`], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('region,id,lower,upper,size,alignment,offset');
    const rows = lines.filter((l) => used.some((region) => l.startsWith(`${region},`)));
    expect(new Set(rows.map((l) => l.split(',')[0]))).toEqual(new Set(used));
    expect(r.stdout).toContain('  written       /dev/stdout\n');
    expect(beside()).toEqual(before);
  });

  it('writes the table to a FIFO, and nothing beside it; each region`s rows are its own solvable CSV', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-csv-fifo-'));
    const fifo = join(dir, 'plan.csv');
    execFileSync('mkfifo', [fifo]);
    const out = join(dir, 'read');
    const r = spawnSync('bash', ['-c', `cat ${quote(fifo)} > ${quote(out)} & ${cli(['plan', SAMPLE, '--target', 'mcu', '--csv', fifo])} >/dev/null; rc=$?; exec 3<>${quote(fifo)}; exec 3>&-; wait; exit $rc`], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['plan.csv', 'read']);
    const [header, ...rows] = execFileSync('cat', [out], { encoding: 'utf8' }).trimEnd().split('\n');
    expect(header).toBe('region,id,lower,upper,size,alignment,offset');
    for (const region of used) {
      const own = rows.filter((row) => row.startsWith(`${region},`)).map((row) => row.slice(region.length + 1));
      const problem = parseMinimallocCsv(['id,lower,upper,size,alignment,offset', ...own].join('\n'));
      expect(problem.buffers.length).toBe(own.length);
      expect(own.length).toBeGreaterThan(0);
    }
  });

  it('adds the table to the report when stdout is a regular file, instead of emptying it and being written over', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-csv-redirect-'));
    const all = join(dir, 'all.txt');
    const r = spawnSync('bash', ['-c', `${cli(['plan', SAMPLE, '--target', 'mcu', '--csv', '/dev/stdout'])} > ${quote(all)}`], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const text = execFileSync('cat', [all], { encoding: 'utf8' });
    const lines = text.split('\n');
    expect(lines).toContain('region,id,lower,upper,size,alignment,offset');
    expect(new Set(lines.filter((l) => used.some((region) => l.startsWith(`${region},`))).map((l) => l.split(',')[0]))).toEqual(new Set(used));
    expect(text).toContain('  written       /dev/stdout\n');
    expect(text).toMatch(/^ {2}peak +3\.42 MiB/m);
    expect(readdirSync(dir)).toEqual(['all.txt']);
  });

  it('keeps one plain CSV per region for a regular file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-csv-file-'));
    const r = spawnSync('bash', ['-c', cli(['plan', SAMPLE, '--target', 'mcu', '--csv', join(dir, 'p.csv')])], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(used.map((region) => `p.${region}.csv`).sort());
  });
});
