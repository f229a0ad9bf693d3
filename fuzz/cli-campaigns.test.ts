// Bounded runs of the command-line campaigns of `npm run fuzz` (fixed seed):
// target profiles, saved plans, CSV problems and argument vectors, each a few
// hundred command lines ending in exit 0 with a valid plan, a clear exit 2 or
// exit 3, and nothing else; and a solve of more than 20,000 buffers live at
// once whose solution the validator checks.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validatePlan } from '../src/planner/assembly/validate-plan';
import { parseMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
import { CLI_CAMPAIGNS, runCliCampaign, type CliTally } from './cli-campaigns';
import { makeWorkspace, type Workspace } from './cli-fixtures';
import { runCase } from './cli-outcome';
import { wideCsv } from './csv-variants';
import { Rng } from './random';
import { writeFileSync } from 'node:fs';

let w: Workspace;
beforeAll(() => {
  w = makeWorkspace();
});

/** The findings, one line each with what reproduces it. */
const findings = (t: CliTally): string[] => t.findings.map((f) => `#${f.index} ${f.stage}: ${f.message} (${f.argv.join(' ').slice(0, 200)})`);

describe('command-line campaigns, bounded', () => {
  it.each(CLI_CAMPAIGNS)('%s: 300 command lines, exit 0 with valid plans, a clear exit 2 or exit 3', (campaign) => {
    const tally = runCliCampaign(campaign, 17, 300, w);
    expect(findings(tally)).toEqual([]);
    expect(tally.outcomes.exit0 + tally.outcomes.exit2 + tally.outcomes.exit3).toBe(300);
    expect(tally.outcomes.exit0).toBeGreaterThan(20);
    expect(tally.outcomes.exit2).toBeGreaterThan(20);
    if (campaign !== 'args') expect(tally.plans).toBeGreaterThan(20);
  }, 240_000);

  it('solve of more than 20,000 buffers live at once: its solution is valid by the validator, and a moved buffer is not', () => {
    const problemPath = join(w.dir, 'wide.csv');
    const out = join(w.dir, 'wide.solution.csv');
    writeFileSync(problemPath, wideCsv(new Rng(2)).text);
    const outcome = runCase(['solve', problemPath, '--out', out, '--json'], () => ({ problems: [], plans: 0 }));
    expect(outcome.outcome).toBe('exit0');
    const problem = parseMinimallocCsv(readFileSync(problemPath, 'utf8'));
    const offsets = parseMinimallocCsv(readFileSync(out, 'utf8')).buffers.map((b) => b.fixedOffset!);
    expect(problem.buffers.length).toBeGreaterThan(20_000);
    const peak = Math.max(...problem.buffers.map((b, i) => offsets[i]! + b.size));
    expect(validatePlan(problem, { offsets, peak }).valid).toBe(true);
    const moved = offsets.slice();
    moved[20_000] = offsets[10_000]!;
    expect(validatePlan(problem, { offsets: moved, peak }).violations.some((v) => v.kind === 'overlap')).toBe(true);
  }, 120_000);
});
