// Bounded fuzz runs (the campaigns of `npm run fuzz`, fixed seeds): random and
// mutated models (ONNX and .tflite) through decode -> inference -> plan, and
// random solve problems, with no finding at all.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingKinds, runFileCampaign, runProblemCampaign, type CampaignTally } from './campaign';
import { loadSeedModels } from './mutate-models';

/** The findings, one line per kind with what reproduces its first instance. */
function unexpected(tally: CampaignTally): string[] {
  return findingKinds(tally.findings).map((k) => `${k.count} × ${k.key} (first #${k.first.index}: ${k.first.label})`);
}

describe('fuzz campaigns, bounded', () => {
  it('4,000 model files: only typed input errors, possible shapes, valid exact plans', () => {
    const seeds = loadSeedModels(join(process.cwd(), '..', 'shared', 'models'), 256 << 10);
    const tally = runFileCampaign(17, 4000, seeds);
    expect(tally.runs).toBe(4000);
    expect(tally.kinds.random).toBeGreaterThan(2000);
    if (seeds.length > 0) expect((tally.kinds.structure ?? 0) + (tally.kinds.bytes ?? 0)).toBeGreaterThan(600);
    // .tflite files, writer-built and mutated, a share of them planned for TFLite Micro (the runtime plan and the written offline plan checked).
    expect((tally.kinds['tflite-random'] ?? 0) + (tally.kinds['tflite-tables'] ?? 0) + (tally.kinds['tflite-bytes'] ?? 0)).toBeGreaterThan(seeds.length > 0 ? 600 : 300);
    expect(unexpected(tally)).toEqual([]);
  }, 240_000);

  it('4,000 solve problems: valid by the independent validator, exact, or refused as bad input', () => {
    const tally = runProblemCampaign(17, 4000);
    expect(tally.runs).toBe(4000);
    expect(unexpected(tally)).toEqual([]);
  }, 240_000);

  it('the same seed and index give the same file', async () => {
    const { campaignFile } = await import('./campaign');
    expect(campaignFile(5, 42, []).bytes).toEqual(campaignFile(5, 42, []).bytes);
    expect(campaignFile(5, 42, []).bytes).not.toEqual(campaignFile(5, 43, []).bytes);
  });
});
