// `npm run fuzz -- --files N --seed S [--problems N] [--targets N] [--plans N]
// [--csv N] [--args N] [--cli N] [--from K] [--out DIR] [--models DIR]`: runs
// the model-file campaign, the planner-problem campaign and the command-line
// campaigns (target profiles, saved plans, CSV problems, argument vectors;
// --cli N runs N of each) in this process, prints the figures (outcomes by
// class for the command-line ones), and writes every finding's input with a
// findings.jsonl line naming how to reproduce it under --out (default fuzz-findings/).

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { findingKinds, runFileCampaign, runProblemCampaign, type CampaignFinding, type CampaignTally } from './campaign';
import { isTflite } from '../src/model/tflite/decode-tflite';
import { loadSeedModels } from './mutate-models';
import { CLI_CAMPAIGNS, runCliCampaign, type CliCampaignFinding, type CliTally } from './cli-campaigns';
import { makeWorkspace } from './cli-fixtures';
import { OUTCOMES } from './cli-outcome';

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
}

function count(args: readonly string[], name: string, fallback: number): number {
  const text = option(args, name);
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${text}"`);
  return value;
}

/** Writes a finding's input beside a JSON line naming how to reproduce it. */
function keep(out: string, seed: number, campaign: 'file' | 'problem', f: CampaignFinding): void {
  const extension = typeof f.input === 'string' ? 'csv' : isTflite(f.input) ? 'tflite' : 'onnx';
  const path = join(out, `${campaign}-${seed}-${f.index}.${extension}`);
  writeFileSync(path, f.input);
  appendFileSync(join(out, 'findings.jsonl'), JSON.stringify({ campaign, seed, index: f.index, stage: f.stage, label: f.label, message: f.message, path }) + '\n');
}

function report(name: string, tally: CampaignTally): void {
  const perSecond = tally.runs / Math.max(tally.ms / 1000, 1e-3);
  console.log(`${name}: ${tally.runs} run in ${(tally.ms / 1000).toFixed(1)} s (${perSecond.toFixed(0)}/s); findings ${tally.findings.length}`);
  console.log(`  made: ${JSON.stringify(tally.kinds)}`);
  console.log(`  refused as bad input: ${JSON.stringify(tally.rejected)}`);
  console.log(`  slowest: ${tally.slowest.ms.toFixed(0)} ms (#${tally.slowest.index}, ${tally.slowest.label})`);
  for (const kind of findingKinds(tally.findings).slice(0, 20)) console.log(`  ${kind.count} × ${kind.key}  (first #${kind.first.index}: ${kind.first.label})`);
}

function main(args: readonly string[]): void {
  const seed = count(args, '--seed', 1);
  const files = count(args, '--files', 0);
  const problems = count(args, '--problems', 0);
  const from = count(args, '--from', 0);
  const out = option(args, '--out') ?? 'fuzz-findings';
  const models = option(args, '--models') ?? join(process.cwd(), '..', 'shared', 'models');
  const all = count(args, '--cli', 0);
  const cli = CLI_CAMPAIGNS.map((c) => [c, count(args, `--${c}`, all)] as const).filter(([, n]) => n > 0);
  if (files === 0 && problems === 0 && cli.length === 0) throw new Error('nothing to do: give --files N, --problems N, --cli N or --targets/--plans/--csv/--args N');
  mkdirSync(out, { recursive: true });
  if (files > 0) {
    const seeds = loadSeedModels(models);
    console.log(`files: seed ${seed}, ${files} from #${from}, ${seeds.length} real models to mutate from ${models} (${seeds.filter((s) => isTflite(s.bytes)).length} .tflite)`);
    report('files', inBatches(from, files, 1000, 'files', (start, n) => runFileCampaign(seed, n, seeds, start, (f) => keep(out, seed, 'file', f))));
  }
  if (problems > 0) {
    console.log(`problems: seed ${seed}, ${problems} from #${from}`);
    report('problems', inBatches(from, problems, 10_000, 'problems', (start, n) => runProblemCampaign(seed, n, start, (f) => keep(out, seed, 'problem', f))));
  }
  if (cli.length > 0) {
    const workspace = makeWorkspace();
    for (const [campaign, n] of cli) {
      console.log(`${campaign}: seed ${seed}, ${n} from #${from}, files in ${workspace.dir}`);
      reportCli(campaign, runCliCampaign(campaign, seed, n, workspace, from, (f) => keepCli(out, seed, f)));
    }
  }
}

/** Writes a command-line finding's input files beside a JSON line with its command line and how to rerun it. */
function keepCli(out: string, seed: number, f: CliCampaignFinding): void {
  const dir = join(out, `${f.campaign}-${seed}-${f.index}`);
  mkdirSync(dir, { recursive: true });
  const files = Object.entries(f.files).map(([path, text]) => {
    const copy = join(dir, basename(path));
    writeFileSync(copy, text);
    return { path, copy };
  });
  const rerun = `npm run fuzz -- --${f.campaign} 1 --from ${f.index} --seed ${seed}`;
  appendFileSync(join(out, 'findings.jsonl'), JSON.stringify({ campaign: f.campaign, seed, index: f.index, stage: f.stage, label: f.label, message: f.message, argv: f.argv, files, rerun }) + '\n');
}

function reportCli(name: string, t: CliTally): void {
  const perSecond = t.runs / Math.max(t.ms / 1000, 1e-3);
  console.log(`${name}: ${t.runs} run in ${(t.ms / 1000).toFixed(1)} s (${perSecond.toFixed(0)}/s); findings ${t.findings.length}`);
  console.log(`  outcomes: ${OUTCOMES.map((o) => `${o} ${t.outcomes[o]}`).join(', ')}; plans checked by the validator ${t.plans}`);
  console.log(`  made: ${JSON.stringify(t.kinds)}`);
  const refusals = Object.entries(t.refusals).sort((a, b) => b[1] - a[1]);
  console.log(`  exit-2 messages: ${refusals.length} kinds; most frequent:`);
  for (const [message, n] of refusals.slice(0, 8)) console.log(`    ${n} × ${message}`);
  console.log(`  slowest: ${t.slowest.ms.toFixed(0)} ms (#${t.slowest.index}, ${t.slowest.label.slice(0, 120)})`);
  const kinds = new Map<string, { n: number; first: CliCampaignFinding }>();
  for (const f of t.findings) {
    const key = `${f.stage}: ${f.message.replace(/\d+/g, 'N').slice(0, 140)}`;
    const k = kinds.get(key);
    if (k === undefined) kinds.set(key, { n: 1, first: f });
    else k.n++;
  }
  for (const [key, k] of [...kinds].sort((a, b) => b[1].n - a[1].n).slice(0, 20)) console.log(`  ${k.n} × ${key}  (first #${k.first.index}: ${k.first.label.slice(0, 100)})`);
}

/** Runs `count` inputs from `from` in batches, printing a running count so a long campaign shows how far it got. */
function inBatches(from: number, count: number, batch: number, what: string, run: (start: number, n: number) => CampaignTally): CampaignTally {
  const total: CampaignTally[] = [];
  for (let start = from; start < from + count; start += batch) {
    total.push(run(start, Math.min(batch, from + count - start)));
    if (count > batch) console.log(`  … ${total.reduce((a, t) => a + t.runs, 0)} ${what}, ${total.reduce((a, t) => a + t.findings.length, 0)} findings`);
  }
  return merge(total);
}

function merge(tallies: readonly CampaignTally[]): CampaignTally {
  const sum = (pick: (t: CampaignTally) => Record<string, number>) => {
    const out: Record<string, number> = Object.create(null);
    for (const t of tallies) for (const [k, v] of Object.entries(pick(t))) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  return {
    runs: tallies.reduce((a, t) => a + t.runs, 0),
    kinds: sum((t) => t.kinds),
    rejected: sum((t) => t.rejected),
    findings: tallies.flatMap((t) => t.findings),
    ms: tallies.reduce((a, t) => a + t.ms, 0),
    slowest: tallies.reduce((a, t) => (t.slowest.ms > a.ms ? t.slowest : a), tallies[0]!.slowest),
  };
}

main(process.argv.slice(2));
