// The outcome classes of a command line, on runs made up to show each: a
// finding for exit 1, a throw, an unknown exit code, a second stderr line, a
// stack trace, a raw control character and an invalid exit-0 plan; none for
// a clear exit 2 or a valid plan.

import { describe, expect, it } from 'vitest';
import { runCase, type CliRunner } from './cli-outcome';

const fake = (code: number, out: string, err: string): CliRunner => () => ({ code, out, err });
const plan = (offsets: number[]) =>
  JSON.stringify({ file: 'm', peak: 32, lowerBound: 32, regions: [{ name: 'r', peak: 32 }], buffers: offsets.map((offset, id) => ({ id, name: `b${id}`, size: 16, start: 0, end: 1, offset, region: 'r' })) }) + '\n';

describe('runCase', () => {
  it('counts a clear exit 2 and a valid exit-0 plan without a finding', () => {
    expect(runCase(['plan', 'm', '--json'], undefined, fake(2, '', 'heapscope: m: no such file\n'))).toMatchObject({ outcome: 'exit2', findings: [] });
    expect(runCase(['plan', 'm', '--json'], undefined, fake(0, plan([0, 16]), ''))).toMatchObject({ outcome: 'exit0', findings: [], plans: 1 });
  });

  it('finds an invalid exit-0 plan', () => {
    const outcome = runCase(['plan', 'm', '--json'], undefined, fake(0, plan([0, 8]), ''));
    expect(outcome.outcome).toBe('exit0');
    expect(outcome.findings[0]).toMatchObject({ stage: 'validate' });
  });

  it.each([
    ['exit 1', fake(1, '', 'heapscope: internal error: TypeError\n'), 'exit1', 'exit1'],
    ['a throw', (() => ({ thrown: new RangeError('Maximum call stack size exceeded') })) as CliRunner, 'crash', 'crash'],
    ['exit 7', fake(7, '', ''), 'crash', 'crash'],
    ['two lines for one file', fake(2, '', 'heapscope: a\nheapscope: b\n'), 'exit2', 'message'],
    ['a stack trace', fake(2, '', 'heapscope: x\n    at f (a.ts:1)\n'), 'exit2', 'message'],
    ['a raw escape', fake(2, '', 'heapscope: \u001b[2J\n'), 'exit2', 'message'],
    ['a raw escape on stdout', fake(2, '\u001b]0;t\u0007', 'heapscope: x\n'), 'exit2', 'output'],
    ['nothing on stderr', fake(2, '', ''), 'exit2', 'message'],
  ])('finds %s', (_what, runner, outcome, stage) => {
    const result = runCase(['plan', 'm'], () => ({ problems: [], plans: 0 }), runner);
    expect(result.outcome).toBe(outcome);
    expect(result.findings[0]?.stage).toBe(stage);
  });
});
