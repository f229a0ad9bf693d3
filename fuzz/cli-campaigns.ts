// The four command-line campaigns, reproducible from a seed: case i of a
// campaign is always the same command line and input file. `targets` plans the
// tiny model with a generated --target FILE, `plans` diffs generated saved
// plans (and reads them as the page's Open file does), `csv` solves generated
// problems with --out and re-solves the solution, `args` runs generated
// command lines. Each tallies outcomes by class (cli-outcome.ts) and keeps
// every finding with its command line and input. Depends on the CLI, the
// planner's plan-file reader and the fuzz generators.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPlanFile } from '../src/planner/assembly/plan-file';
import { STRATEGY_NAMES } from '../src/planner/strategies/registry';
import { InputError } from '../src/shared/errors';
import { randomArgs } from './cli-args';
import type { Workspace } from './cli-fixtures';
import { checkSuccess, commandFiles, OUTCOMES, runCase, type CliFinding, type CliOutcome, type OutcomeClass } from './cli-outcome';
import { randomCsv } from './csv-variants';
import { mutatePlan, randomBudget } from './mutate-plans';
import { randomTarget } from './mutate-targets';
import { planProblems } from './plan-validity';
import { hashSeed, Rng } from './random';
import { checkSolution } from './solve-check';

/** The command-line campaigns. */
export const CLI_CAMPAIGNS = ['targets', 'plans', 'csv', 'args'] as const;
export type CliCampaign = (typeof CLI_CAMPAIGNS)[number];

/** Every this many CSV cases, one is wide: more than 20,000 buffers live at once. */
export const WIDE_EVERY = 1000;

/** One case: the command line, the files it reads that the case wrote, and how it was made. */
export interface CliCase {
  readonly kind: string;
  readonly label: string;
  readonly argv: readonly string[];
  readonly files: Readonly<Record<string, string>>; // path -> text, written before the run
}

/** A finding with what reproduces it. */
export interface CliCampaignFinding extends CliFinding {
  readonly campaign: CliCampaign;
  readonly index: number;
  readonly label: string;
  readonly argv: readonly string[];
  readonly files: Readonly<Record<string, string>>;
}

/** What a campaign did. */
export interface CliTally {
  readonly runs: number;
  readonly outcomes: Record<OutcomeClass, number>;
  readonly plans: number; // plans checked by the validator
  readonly kinds: Record<string, number>;
  readonly refusals: Record<string, number>; // exit-2 messages, paths and numbers blurred
  readonly findings: CliCampaignFinding[];
  readonly ms: number;
  readonly slowest: { readonly ms: number; readonly index: number; readonly label: string };
}

/** Case `index` of `campaign` under `seed`, with inputs inside the workspace. */
export function cliCase(campaign: CliCampaign, seed: number, index: number, w: Workspace): CliCase {
  const rng = new Rng(hashSeed(campaign, seed, index));
  const json = rng.chance(0.7) ? ['--json'] : [];
  if (campaign === 'targets') {
    const t = randomTarget(rng);
    const path = join(w.dir, 'case.target.json');
    const strategy = rng.chance(0.2) ? ['--strategy', rng.pick(STRATEGY_NAMES)] : [];
    return { kind: t.kind, label: t.label, argv: ['plan', rng.chance(0.85) ? w.model : w.modelB, '--target', path, ...strategy, ...json], files: { [path]: t.text } };
  }
  if (campaign === 'plans') {
    const [a, b] = [join(w.dir, 'case-a.plan.json'), join(w.dir, 'case-b.plan.json')];
    const base = readFileSync(rng.pick(w.plans), 'utf8');
    const other = readFileSync(rng.pick(w.plans), 'utf8');
    const p = mutatePlan(rng, base);
    const aText = rng.chance(0.7) ? other : mutatePlan(rng, other).text;
    const sides = rng.chance(0.85) ? [a, b] : [b, rng.pick([a, w.model])];
    return { kind: p.kind, label: p.label, argv: ['diff', ...sides, '--budget', randomBudget(rng), ...json], files: { [a]: aText, [b]: p.text } };
  }
  if (campaign === 'csv') {
    const c = randomCsv(rng, index % WIDE_EVERY === WIDE_EVERY - 1);
    const [path, out] = [join(w.dir, 'case.csv'), join(w.dir, 'case.solution.csv')];
    const strategy = c.kind !== 'wide' && rng.chance(0.5) ? ['--strategy', rng.pick(STRATEGY_NAMES)] : [];
    return { kind: c.kind, label: c.label, argv: ['solve', path, ...strategy, '--out', out, ...json], files: { [path]: c.text } };
  }
  const a = randomArgs(rng, w);
  return { kind: a.kind, label: a.argv.join(' ').slice(0, 200), argv: a.argv, files: {} };
}

/** Runs one case: writes its files, runs its command line, and the campaign's own checks. */
export function runCliCase(campaign: CliCampaign, c: CliCase, w: Workspace, fixtures: ReadonlyMap<string, Buffer>): CliOutcome {
  for (const [path, text] of Object.entries(c.files)) writeFileSync(path, text);
  const outcome = runCase(c.argv, campaign === 'csv' ? checkSolution : checkSuccess);
  const extra: CliFinding[] = [];
  if (campaign === 'plans') extra.push(...openFileProblems(c.files[join(w.dir, 'case-b.plan.json')]!));
  // An output over an input is data loss; over another fixture it is what was asked, and the fixture is put back.
  const inputs = new Set(commandFiles(c.argv));
  for (const [path, bytes] of fixtures) {
    if (Buffer.from(readFileSync(path)).equals(bytes)) continue;
    if (inputs.has(path)) extra.push({ stage: 'output', message: `the command overwrote ${path}, which it read` });
    writeFileSync(path, bytes);
  }
  return extra.length === 0 ? outcome : { ...outcome, findings: [...outcome.findings, ...extra] };
}

/** readPlanFile (the page's Open file): a typed error, or a plan valid by the validator; never a throw of another kind. */
export function openFileProblems(text: string): CliFinding[] {
  try {
    const file = readPlanFile(text, 'case.plan.json');
    return planProblems(file.plan).map((m) => ({ stage: 'validate', message: `readPlanFile accepted an invalid plan: ${m}`.slice(0, 500) }));
  } catch (error) {
    if (error instanceof InputError) return [];
    return [{ stage: 'crash', message: `readPlanFile threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`.slice(0, 500) }];
  }
}

/** Runs cases [from, from + count) of `campaign`; `onFinding` sees each finding as it comes. */
export function runCliCampaign(campaign: CliCampaign, seed: number, count: number, w: Workspace, from = 0, onFinding?: (f: CliCampaignFinding) => void): CliTally {
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<OutcomeClass, number>;
  const kinds: Record<string, number> = Object.create(null);
  const refusals: Record<string, number> = Object.create(null);
  const findings: CliCampaignFinding[] = [];
  const fixtures = new Map([w.model, w.modelB, w.csv, w.target, ...w.plans].map((p) => [p, readFileSync(p)]));
  let plans = 0;
  let slowest = { ms: 0, index: -1, label: '' };
  const started = performance.now();
  for (let index = from; index < from + count; index++) {
    const c = cliCase(campaign, seed, index, w);
    const outcome = runCliCase(campaign, c, w, fixtures);
    outcomes[outcome.outcome]++;
    kinds[c.kind] = (kinds[c.kind] ?? 0) + 1;
    plans += outcome.plans;
    if (outcome.refusal !== undefined) {
      const key = blurred(outcome.refusal, w.dir);
      refusals[key] = (refusals[key] ?? 0) + 1;
    }
    if (outcome.ms > slowest.ms) slowest = { ms: outcome.ms, index, label: c.label };
    for (const f of outcome.findings) {
      const finding = { ...f, campaign, index, label: c.label, argv: c.argv, files: c.files };
      findings.push(finding);
      onFinding?.(finding);
    }
  }
  return { runs: count, outcomes, plans, kinds, refusals, findings, ms: performance.now() - started, slowest };
}

/** A refusal's kind: the message with the workspace, quoted text and numbers blurred. */
function blurred(message: string, dir: string): string {
  return message.split(dir).join('…').replace(/"[^"]*"/g, '"…"').replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N').slice(0, 90);
}
