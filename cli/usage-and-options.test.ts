// Per-command --help, byte sizes with units on --sram and --dw-pw-cache, the
// value a bad --points names, and solve and diff --json on bad input printing
// the error object plan and inspect print.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFF_MAP_OPTIONS } from './diff';
import { TARGET_CHANGE_OPTIONS } from './plan';
import { planJson, run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-usage-')), name);
  writeFileSync(path, text);
  return path;
}

describe('COMMAND --help', () => {
  it('plan --help names the per-region CSV files as --csv writes them', () => {
    const help = run(['plan', '--help']).out;
    const named = /--csv plan\.csv writes (plan\.<region>\.csv) for each region/.exec(help);
    expect(named).not.toBeNull();
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-usage-'));
    const plan = JSON.parse(run(['plan', SAMPLE, '--target', 'mcu', '--spill', 'off', '--csv', join(dir, 'plan.csv'), '--json']).out);
    const regions = plan.regions.filter((r: { name: string }) => plan.buffers.some((b: { region: string }) => b.region === r.name)).map((r: { name: string }) => r.name);
    expect(regions.length).toBeGreaterThan(1);
    expect(plan.written).toEqual(regions.map((r: string) => join(dir, named![1]!.replace('<region>', r))));
  });

  it.each(['inspect', 'plan', 'solve', 'diff', 'targets', 'sweep'])('%s --help prints that command’s usage and the exit codes, exit 0', (command) => {
    const { code, out, err } = run([command, '--help']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^usage: heapscope ${command} `));
    expect(out).toContain('exit codes: 0 success');
    expect(out.split('\n').filter((line) => /^ {2}(inspect|plan|solve|diff|targets|sweep) /.test(line))).toEqual([]);
  });

  it.each(['inspect', 'plan', 'solve', 'diff', 'targets', 'sweep', 'version'])('%s --help --json prints one JSON object a script can parse: the text help as usage, and the exit codes', (command) => {
    // it printed the text help, and a script that parses --json output read garbage
    const text = run([command, '--help']).out;
    for (const argv of [[command, '--help', '--json'], [command, '--json', '-h']]) {
      const { code, out, err } = run(argv);
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out.endsWith('}\n')).toBe(true);
      const help = JSON.parse(out);
      expect(help).toEqual({ command, usage: text, exitCodes: expect.objectContaining({ 0: 'success', 1: 'internal error' }) });
      expect(text).toContain(`exit codes: ${Object.entries(help.exitCodes).map(([c, meaning]) => `${c} ${meaning}`).join(', ')}\n`);
    }
    const codes = JSON.parse(run([command, '--help', '--json']).out).exitCodes;
    expect(Object.keys(codes)).toEqual(['plan', 'diff'].includes(command) ? ['0', '1', '2', '3'] : ['0', '1', '2']);
  });

  it('--help --json prints the whole usage as one JSON object, exit 0, where it was refused as no command given', () => {
    for (const argv of [['--help', '--json'], ['-h', '--json'], ['help', '--json']]) {
      const { code, out, err } = run(argv);
      expect([code, err]).toEqual([0, '']);
      const help = JSON.parse(out);
      expect(help.usage).toBe(run(['--help']).out);
      expect(help.commands).toEqual(['inspect', 'plan', 'solve', 'diff', 'targets', 'sweep', 'version']);
      expect(help.exitCodes).toEqual({ 0: 'success', 1: 'internal error', 2: 'bad input (or --strict found an assumption)', 3: "plan: a region over its size limit; diff: b over the --budget (--strict's 2 outranks 3)" });
    }
    // no command at all is still bad input
    expect(run(['--json']).code).toBe(2);
  });

  it('names only the exit codes and options a command has: --strict where it is taken, 3 for plan and diff alone', () => {
    const help = (command: string) => run([command, '--help']).out;
    for (const command of ['solve', 'inspect', 'targets', 'sweep']) expect(help(command)).not.toContain('--strict');
    for (const command of ['solve', 'inspect', 'targets', 'sweep']) expect(help(command)).not.toMatch(/\b3 /);
    expect(help('plan')).toContain('2 bad input (or --strict found an assumption), 3 a region over its size limit');
    expect(help('diff')).toContain('3 b over the --budget');
    expect(help('sweep')).toContain('--spill, --weights, --io');
  });

  it("diff --help says which of plan's target edits diff refuses, and that they reach it through a plan saved with plan --save", () => {
    const help = run(['diff', '--help']).out.replace(/\s+/g, ' ');
    const refused = TARGET_CHANGE_OPTIONS.filter((o) => !(DIFF_MAP_OPTIONS as readonly string[]).includes(o));
    expect(refused.length).toBeGreaterThan(0);
    for (const option of refused) {
      expect(run(['diff', SAMPLE, SAMPLE, option, 'x']).err).toBe(`heapscope: unknown option ${option} for "diff"\n`);
      expect(help).toMatch(new RegExp(`\\s${option}[ ,]`));
    }
    expect(help).toContain(`${refused.join(', ').replace(/, (?=[^,]*$)/, ' and ')} reach it as a side saved with plan --save`);
    expect(help).toContain('diff takes only --spill, --weights and --io');
  });

  it('diff --help and the usage list --shape and --input, which diff takes for every model side', () => {
    const usage = run(['--help']).out;
    const diffBlock = usage.slice(usage.indexOf('\n  diff '), usage.indexOf('\n  targets '));
    for (const help of [run(['diff', '--help']).out, diffBlock]) {
      expect(help).toContain('[--shape NAME=DIMS]... [--input NAME=VALUE]...');
    }
    const r = run(['diff', SAMPLE, SAMPLE, '--shape', 'nothing=1x2', '--input', 'nothing=3', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).diagnosticsB.filter((d: { code: string }) => d.code === 'unused-binding')).toHaveLength(2);
  });

  it('sweep --help and the usage list --shape and --input, which sweep takes for what it does not sweep', () => {
    const usage = run(['--help']).out;
    const sweepBlock = usage.slice(usage.indexOf('\n  sweep '), usage.indexOf('\nexit codes'));
    for (const help of [run(['sweep', '--help']).out, sweepBlock]) expect(help).toContain('[--dim NAME=VALUE]... [--shape NAME=DIMS]... [--input NAME=VALUE]...');
  });

  it('-h after other arguments too', () => {
    expect(run(['solve', 'p.csv', '-h']).out).toMatch(/^usage: heapscope solve <problem.csv>/);
  });
});

describe('byte sizes', () => {
  it('--sram and --dw-pw-cache take the units --budget takes', () => {
    const plain = planJson([SAMPLE, '--target', 'accelerator', '--sram', String(2 ** 20)]);
    const unit = planJson([SAMPLE, '--target', 'accelerator', '--sram', '1MiB']);
    expect(unit.peak).toBe(plain.peak);
    expect(unit.fusionUnits).toEqual(plain.fusionUnits);
    const cache = planJson([SAMPLE, '--target', 'phone', '--dw-pw-cache', '64KiB']);
    expect(cache.fusionUnits).toEqual(planJson([SAMPLE, '--target', 'phone', '--dw-pw-cache', '65536']).fusionUnits);
    const bad = run(['plan', SAMPLE, '--sram', '1XB']);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('heapscope: --sram expects a byte size such as 123, 4MiB, 512KiB, 512K or 1.5MB, got "1XB"\n');
  });

  it('--points abc names the value given', () => {
    const { code, err } = run(['sweep', SAMPLE, '--dim', 'batch=1..8', '--points', 'abc']);
    expect(code).toBe(2);
    expect(err).toBe('heapscope: --points must be a whole number from 2 to 64, got "abc"\n');
  });
});

describe('bad input to solve and diff', () => {
  const overlapping = (): string => tempFile('p.csv', 'id,lower,upper,size,offset\na,0,2,8,0\nb,1,3,8,0\n');

  it('solve names the problem file whose buffers cannot be placed', () => {
    const file = overlapping();
    const { code, err } = run(['solve', file]);
    expect(code).toBe(2);
    expect(err).toBe(`heapscope: ${file}: invalid placement problem: buffers 0 (a) and 1 (b) are live together and their fixed offsets overlap ([0, 8) and [0, 8))\n`);
  });

  it('solve --json prints { file, error } for a problem that fails', () => {
    const file = overlapping();
    const { code, out } = run(['solve', file, '--json']);
    expect(code).toBe(2);
    expect(JSON.parse(out)).toEqual({ file, error: { code: 'bad-csv', message: expect.stringMatching(/^.*p\.csv: invalid placement problem/) } });
    const missing = run(['solve', '/no/such.csv', '--json']);
    expect(JSON.parse(missing.out)).toEqual({ file: '/no/such.csv', error: { code: 'io', message: 'cannot read /no/such.csv: no such file' } });
  });

  it('diff --json prints { a, b, file, error } naming the side that fails', () => {
    const { code, out, err } = run(['diff', SAMPLE, '/no/such.onnx', '--json']);
    expect(code).toBe(2);
    expect(JSON.parse(out)).toEqual({ a: SAMPLE, b: '/no/such.onnx', file: '/no/such.onnx', error: { code: 'io', message: 'cannot read /no/such.onnx: no such file' } });
    expect(err).toBe('heapscope: cannot read /no/such.onnx: no such file\n');
  });
});

describe('a file that cannot be read', () => {
  it('says why in words', () => {
    const { code, err } = run(['plan', `${SAMPLE}/model.onnx`]);
    expect(code).toBe(2);
    expect(err).toBe(`heapscope: cannot read ${SAMPLE}/model.onnx: a part of the path is not a directory\n`);
  });
});

describe('single-dash arguments', () => {
  it.each([
    ['inspect', [SAMPLE]],
    ['plan', [SAMPLE]],
    ['solve', ['p.csv']],
    ['diff', [SAMPLE, SAMPLE]],
    ['targets', []],
    ['sweep', [SAMPLE, '--dim', 'batch=1..2']],
  ])('%s refuses an unknown -x before doing any work, exit 2', (command, rest) => {
    const { code, out, err } = run([command, ...rest, '-j']);
    expect(err).toBe(`heapscope: unknown option -j for "${command}"\n`);
    expect(out).toBe('');
    expect(code).toBe(2);
  });

  it('takes a name after -- as a file, and a lone - as a file name', () => {
    expect(run(['plan', SAMPLE, '--', '-j']).err).toBe('heapscope: cannot read -j: no such file\n');
    // no file named -: the model is read from a file, not from stdin (it said only 'no such file')
    expect(run(['plan', '-']).err).toBe('heapscope: cannot read -: no such file; heapscope reads the model from a file, not from stdin\n');
  });
});
