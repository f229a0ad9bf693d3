// The command line on a .tflite with a custom operator whose TFLite Micro
// kernel heapscope does not know: the plan assumes it requests no scratch, so
// the arena to declare is a lower estimate, recorded in `assumptions.kernels`,
// printed with "≥", and --strict refuses it. Skips when ../shared is absent.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const DIR = join(__dirname, '../../shared/models/tflite');
const have = existsSync(DIR);
if (!have) console.log(`cli tflm unknown kernels: ${DIR} is absent; skipping`);
const SELFIE = join(DIR, 'mediapipe_selfie_segmentation.tflite');
const VELA = join(DIR, 'tflm_person_detect_vela.tflite');
const PERSON = join(DIR, 'tflm_person_detect.tflite');

/** The tflm preset as a profile file with the arena limited to `limit` bytes. */
function limitedTflm(limit: number): string {
  const { targets: presets } = JSON.parse(run(['targets', '--json']).out) as { targets: { name: string; regions: { name: string; sizeLimit?: number }[] }[] };
  const tflm = presets.find((t) => t.name === 'tflm')!;
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-tflm-limit-')), 'tflm.json');
  writeFileSync(path, JSON.stringify({ ...tflm, regions: tflm.regions.map((r) => ({ ...r, sizeLimit: limit })) }));
  return path;
}

describe.skipIf(!have)('a TFLM kernel whose scratch requests are not known', () => {
  it('is an assumption of the plan: assumptions.kernels in the JSON, --strict exits 2 with one line, the arena printed as "≥"', () => {
    const cases = [
      [SELFIE, 'Convolution2DTransposeBias', 'Convolution2DTransposeBias_244'],
      [VELA, 'ethos-u', 'ethos-u_0'],
    ] as const;
    for (const [file, op, node] of cases) {
      const plan = planJson([file, '--target', 'tflm']);
      expect(plan.assumptions.kernels).toEqual([{ node, op, reason: `custom operator ${op} (${node}): its kernel's scratch requests are not known; none are assumed` }]);
      // complete still means every activation's size is known (DESIGN.md), which it is
      expect(plan.complete).toBe(true);

      const strict = run(['plan', file, '--target', 'tflm', '--strict']);
      expect(strict.code).toBe(2);
      const [kernels, ...refused] = strict.err.split('\n').filter((line) => line !== '');
      expect(kernels).toBe(
        `heapscope: ${file}: --strict: the plan assumes no scratch for 1 kernel(s) whose scratch requests are not known, first custom operator ${op} (${node}); the arena to declare is a lower estimate and may be too small`,
      );
      // the segmenter is also refused by TFLM's reference kernels: a second line, the Vela model none
      expect(refused).toEqual(file === SELFIE ? [expect.stringMatching(/^heapscope: .*: --strict: no tensor arena works: TensorFlow Lite Micro's reference kernels refuse this model: 110 DEQUANTIZE operators have a FLOAT16 input/)] : []);
      // the segmenter is refused by TFLM's reference kernels (float16 DEQUANTIZE): its figures are what TFLM would need were it accepted
      expect(strict.out).toMatch(/\n( {4}arena {9}| {18}were it accepted: )declare ≥ [\d.]+ [KM]iB \([\d,]+ B\) as it is, ≥ [\d.]+ [KM]iB \([\d,]+ B\) with heapscope's plan; an estimate, resting on the tail's estimated parts\n/);
      // the region's sum rests on the same tail
      expect(strict.out).toMatch(/\n {2}region arena .*\+ ≥ [\d.]+ (?:B|[KM]iB) runtime tail and planning = ≥ [\d.]+ [KM]iB\)\n/);
    }
  }, 120_000);

  it('a model of known kernels only records none and passes --strict, its arena printed as it is', () => {
    const plan = planJson([PERSON, '--target', 'tflm']);
    expect(plan.assumptions.kernels).toEqual([]);
    const strict = run(['plan', PERSON, '--target', 'tflm', '--strict']);
    expect([strict.code, strict.err]).toEqual([0, '']);
    expect(strict.out).toContain('    arena         declare 80.4 KiB (82,352 B) as it is, 80.4 KiB (82,352 B) with heapscope\'s plan; an estimate, resting on the tail\'s estimated parts\n');
  }, 60_000);

  it('within a size limit fits only as far as known, as a plan with sizes unknown does: fits true, lowerEstimate true, exit 0, and the text says so', () => {
    // Vela's person_detect declares ≥ 73.1 KiB: an 80 KiB arena holds it only as far as the ethos-u kernel's scratch is known
    const target = limitedTflm(80 * 1024);
    const plan = planJson([VELA, '--target', target]);
    expect([plan.complete, plan.fits, plan.lowerEstimate]).toEqual([true, true, true]);
    const text = run(['plan', VELA, '--target', target]);
    expect(text.code).toBe(0);
    expect(text.out).toContain("\n  fits          only as far as known: every region is within its size limit with the sizes known (the arena is a lower estimate: a kernel's scratch requests are not known, none assumed)\n");
    // the C header's verdict says the same (it said "fits: every region is within its size limit.")
    const header = join(mkdtempSync(join(tmpdir(), 'heapscope-tflm-limit-')), 'plan.h');
    run(['plan', VELA, '--target', target, '--header', header]);
    expect(readFileSync(header, 'utf8')).toContain(' * fits only as far as known: every region is within its size limit with the sizes known.');
    // over the limit it does not fit, exit 3, as any plan over its limit; what it needs is at least so much, in every line
    const over = run(['plan', VELA, '--target', limitedTflm(60 * 1024)]);
    expect(over.code).toBe(3);
    expect(over.out).toContain('  DOES NOT FIT  region arena needs at least 73.1 KiB (estimate), at least 13.1 KiB over its 60.0 KiB limit\n');
    expect(over.out).toContain('  to fit        needs at least 13.1 KiB more arena\n');
    expect(over.err).toBe(`heapscope: ${VELA}: DOES NOT FIT: region arena needs at least 74,880 bytes (an estimate: TensorFlow Lite Micro's tail rests on estimated parts), at least 13,440 over its size limit of 61,440 bytes\n`);
    // person_detect's kernels are all known: its 80.4 KiB arena fits 81 KiB, with no qualification
    const known = run(['plan', PERSON, '--target', limitedTflm(81 * 1024), '--json']);
    expect(known.code).toBe(0);
    expect(JSON.parse(known.out)).toMatchObject({ fits: true, lowerEstimate: false });
    expect(run(['plan', PERSON, '--target', limitedTflm(81 * 1024)]).out).not.toMatch(/only as far as known/);
  }, 120_000);
});
