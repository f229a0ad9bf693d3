// The two fuzz campaigns, reproducible from a seed: file i of seed S is always
// the same model (random ONNX or TFLite, a real model mutated by structure or
// by bytes, a .tflite's tables overwritten) and problem i the same MiniMalloc problem. Each tallies what happened and keeps
// every finding with what reproduces it. Depends on the fuzz generators.

import { isTflite } from '../src/model/tflite/decode-tflite';
import { PRESET_NAMES } from '../src/planner/targets/presets';
import { STRATEGY_NAMES } from '../src/planner/strategies/registry';
import { checkModel, type Finding } from './check-model';
import { mutateBytes, mutateStructure, type SeedModel } from './mutate-models';
import { mutateTables, mutateTfliteBytes, randomTfliteModel, writerSeeds } from './mutate-tflite';
import { checkProblem, randomProblem } from './problems';
import { hashSeed, Rng } from './random';
import { randomModel } from './random-models';

/** One finding of a campaign, with what reproduces it. */
export interface CampaignFinding extends Finding {
  readonly index: number; // file or problem number under the seed
  readonly label: string; // how the input was made
  readonly input: Uint8Array | string; // the model's bytes or the problem's CSV
}

/** What a campaign did. */
export interface CampaignTally {
  readonly runs: number;
  readonly kinds: Record<string, number>; // inputs by how they were made
  readonly rejected: Record<string, number>; // typed input errors by code
  readonly findings: CampaignFinding[];
  readonly ms: number;
  readonly slowest: { readonly ms: number; readonly index: number; readonly label: string };
}

function newTally(): CampaignTally {
  return { runs: 0, kinds: Object.create(null), rejected: Object.create(null), findings: [], ms: 0, slowest: { ms: 0, index: -1, label: '' } };
}

const bump = (record: Record<string, number>, key: string): void => {
  record[key] = (record[key] ?? 0) + 1;
};

/** A file made by campaignFile: how it was made (kind, label) and the random source that picks its target. */
export interface CampaignFile {
  readonly kind: string;
  readonly bytes: Uint8Array;
  readonly label: string;
  readonly rng: Rng;
}

/**
 * File `index` of `seed`: a random ONNX model (most), a random or mutated
 * .tflite (writer-built, or a seed), or a real model mutated by structure or
 * by bytes (a .tflite seed by its tables or bytes).
 */
export function campaignFile(seed: number, index: number, seeds: readonly SeedModel[]): CampaignFile {
  const rng = new Rng(hashSeed('file', seed, index));
  const r = rng.next();
  if (r >= 0.6 && r < 0.7) return tfliteFile(rng, seeds);
  if (seeds.length > 0 && r >= 0.7) {
    const base = rng.pick(seeds);
    if (isTflite(base.bytes)) return mutatedTflite(rng, base);
    const structural = r < 0.88 ? mutateStructure(rng, base) : undefined;
    if (structural !== undefined) return { kind: 'structure', ...structural, rng };
    return { kind: 'bytes', ...mutateBytes(rng, base), rng };
  }
  return { kind: 'random', ...randomModel(rng), rng };
}

/** A random writer-built .tflite (now and then with its tables damaged), or a .tflite seed or writer seed mutated. */
function tfliteFile(rng: Rng, seeds: readonly SeedModel[]): CampaignFile {
  if (rng.chance(0.4)) {
    const random = randomTfliteModel(rng);
    if (rng.chance(0.7)) return { kind: 'tflite-random', ...random, rng };
    return { kind: 'tflite-tables', ...mutateTables(rng, random.label, random.bytes), rng };
  }
  return mutatedTflite(rng, rng.pick([...seeds.filter((s) => isTflite(s.bytes)), ...writerSeeds()]));
}

function mutatedTflite(rng: Rng, base: SeedModel): CampaignFile {
  if (rng.chance(0.65)) return { kind: 'tflite-tables', ...mutateTables(rng, base.name, base.bytes), rng };
  return { kind: 'tflite-bytes', ...mutateTfliteBytes(rng, base.name, base.bytes), rng };
}

/** Runs files [from, from + count) of `seed`; `onFinding` sees each finding as it comes. */
export function runFileCampaign(seed: number, count: number, seeds: readonly SeedModel[], from = 0, onFinding?: (f: CampaignFinding) => void): CampaignTally {
  const tally = newTally();
  const started = performance.now();
  for (let index = from; index < from + count; index++) {
    const file = campaignFile(seed, index, seeds);
    // A .tflite is planned for TFLite Micro more often than not: that is where the runtime plan is built.
    const target = isTflite(file.bytes) && file.rng.chance(0.6) ? 'tflm' : file.rng.pick(PRESET_NAMES);
    const choice = { target, strategy: file.rng.chance(0.3) ? file.rng.pick(STRATEGY_NAMES) : undefined };
    const t = performance.now();
    const outcome = checkModel(file.bytes, choice);
    note(tally, index, `${file.label} [${choice.target}/${choice.strategy ?? 'default'}]`, performance.now() - t);
    bump(tally.kinds, file.kind);
    if (outcome.rejected !== undefined) bump(tally.rejected, outcome.rejected);
    for (const f of outcome.findings) record(tally, { ...f, index, label: `${file.label} [${choice.target}/${choice.strategy ?? 'default'}]`, input: file.bytes }, onFinding);
  }
  return { ...tally, ms: performance.now() - started };
}

/** Runs problems [from, from + count) of `seed`. */
export function runProblemCampaign(seed: number, count: number, from = 0, onFinding?: (f: CampaignFinding) => void): CampaignTally {
  const tally = newTally();
  const started = performance.now();
  for (let index = from; index < from + count; index++) {
    const rng = new Rng(hashSeed('problem', seed, index));
    const { csv, strategy } = randomProblem(rng);
    const t = performance.now();
    const outcome = checkProblem(csv, strategy);
    note(tally, index, strategy, performance.now() - t);
    bump(tally.kinds, strategy);
    if (outcome.rejected !== undefined) bump(tally.rejected, outcome.rejected);
    for (const f of outcome.findings) record(tally, { ...f, index, label: `strategy ${strategy}`, input: csv }, onFinding);
  }
  return { ...tally, ms: performance.now() - started };
}

function note(tally: CampaignTally, index: number, label: string, ms: number): void {
  (tally as { runs: number }).runs++;
  if (ms > tally.slowest.ms) (tally as { slowest: CampaignTally['slowest'] }).slowest = { ms, index, label };
}

function record(tally: CampaignTally, finding: CampaignFinding, onFinding?: (f: CampaignFinding) => void): void {
  tally.findings.push(finding);
  onFinding?.(finding);
}

/** Findings grouped by stage and first line with digits blurred, most frequent first: what to fix, not every instance. */
export function findingKinds(findings: readonly CampaignFinding[]): { readonly key: string; readonly count: number; readonly first: CampaignFinding }[] {
  const groups = new Map<string, { key: string; count: number; first: CampaignFinding }>();
  for (const f of findings) {
    const key = `${f.stage}: ${(f.message.split('\n')[0] ?? '').replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N').slice(0, 160)}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { key, count: 1, first: f });
    else group.count++;
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}
