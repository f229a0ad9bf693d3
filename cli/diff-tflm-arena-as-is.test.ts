// `diff --budget` on target tflm judges b as the file given, flashed unchanged:
// its arena to declare as it is (what TensorFlow Lite Micro plans for that
// file), with the arena of heapscope's plan written in said beside it; and an
// arena that is a lower estimate (a kernel whose scratch requests are not
// known, none assumed) is printed "≥" and never called within the budget,
// as `plan` and `--strict` say of it. A model TensorFlow Lite Micro refuses
// (MediaPipe's float16 DEQUANTIZE) is over any budget: its figures are what
// TFLM would plan were it accepted. Skips when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const DIR = join(__dirname, '../../shared/models/tflite');
const have = existsSync(DIR);
if (!have) console.log(`cli diff tflm arena as is: ${DIR} is absent; skipping`);
const SELFIE = join(DIR, 'mediapipe_selfie_segmentation.tflite');
const PERSON = join(DIR, 'tflm_person_detect.tflite');
const VELA = join(DIR, 'tflm_person_detect_vela.tflite');

describe.skipIf(!have)('diff --budget on target tflm', () => {
  it('judges the file as it is: MediaPipe would need 4,242,000 B unchanged, 3,717,712 B planned, and being refused by TFLM is over the budget either way', () => {
    const plan = planJson([SELFIE, '--target', 'tflm']).runtimePlan;
    expect([plan.arena, plan.planned.arena]).toEqual([4_242_000, 3_717_712]);
    const argv = ['diff', SELFIE, SELFIE, '--target', 'tflm', '--budget', '4MB'];
    const json = run([...argv, '--json']);
    expect(json.code).toBe(3);
    const diff = JSON.parse(json.out);
    expect(diff).toMatchObject({ budget: 4_000_000, overBudget: true, budgetVerdict: 'refused', budgetJudged: { of: 'refusedB', bytes: 4_242_000 } });
    // the documented fields stay the plan written; the file as it is is added beside them
    expect(diff.runtime.b).toMatchObject({ arena: 3_717_712, arenaAsIs: 4_242_000, lowerEstimate: true, refused: true });
    expect(diff.runtime).toMatchObject({ delta: 0, deltaAsIs: 0 });
    expect(json.err).toMatch(new RegExp(`^heapscope: ${SELFIE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no tensor arena works, within the budget of 4,000,000 bytes or any other: TensorFlow Lite Micro's reference kernels refuse this model: .*DEQUANTIZE.*FLOAT16 input.*\n$`));

    const text = run(argv);
    expect(text.code).toBe(3);
    expect(text.out).toContain('\narena to declare ≥ 4.05 MiB -> ≥ 4.05 MiB: ±0 B (+0.0 %), 0 bytes (TensorFlow Lite Micro, the files as they are, flashed unchanged)\n');
    expect(text.out).toMatch(/\narena to declare ≥ 3\.55 MiB -> ≥ 3\.55 MiB: .*\(TensorFlow Lite Micro, the plan written in by --save-tflite: head .*; both arenas are lower estimates: a kernel's scratch requests are not known, none assumed, so the true change may be larger or smaller\)\n/);
    expect(text.out).toContain('\n  b: NO arena works: TensorFlow Lite Micro refuses this model, AllocateTensors() fails whatever the arena');
    expect(text.out).toContain('\nbudget 3.81 MiB (4,000,000 bytes, not judged on a figure: TensorFlow Lite Micro refuses b): b REFUSED by TensorFlow Lite Micro, over any budget: AllocateTensors() fails whatever the arena\n');
  }, 120_000);

  it('calls an arena that is a lower estimate within only as far as known, as --strict and plan say it is', () => {
    // MediaPipe: 4.5 MB would hold its 4,242,000 B as far as known, but TFLM refuses it, so it is over still
    const argv = ['diff', SELFIE, SELFIE, '--target', 'tflm', '--budget', '4.5MB'];
    const json = run([...argv, '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.out)).toMatchObject({ overBudget: true, budgetVerdict: 'refused' });
    const text = run(argv);
    expect(text.out).toMatch(/\nbudget .*: b REFUSED by TensorFlow Lite Micro, over any budget: AllocateTensors\(\) fails whatever the arena\n$/);
    expect(text.out).not.toMatch(/b within/);
    // --strict refuses it, naming the kernel (and TFLM's refusal)
    const strict = run([...argv, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.err).toContain(`heapscope: ${SELFIE} (b): --strict: the plan assumes no scratch for 1 kernel(s) whose scratch requests are not known, first custom operator Convolution2DTransposeBias`);

    // the Vela model over a budget it exceeds as far as known: its excess is a lower estimate too, on stdout and stderr alike
    const over = run(['diff', PERSON, VELA, '--target', 'tflm', '--budget', '70KiB']);
    expect(over.code).toBe(3);
    expect(over.out).toMatch(/: b OVER by at least 3\.13 KiB\n$/);
    expect(over.err).toBe(`heapscope: ${VELA} needs at least 74,880 bytes, over the budget of 71,680 bytes by at least 3,200\n`);

    // the Vela model: its ethos-u kernel's scratch is not known; 80,000 B holds its 74,880 B only as far as known
    const vela = run(['diff', PERSON, VELA, '--target', 'tflm', '--budget', '80000', '--json']);
    expect(vela.code).toBe(0);
    expect(JSON.parse(vela.out)).toMatchObject({ budgetVerdict: 'unknown', runtime: { a: { lowerEstimate: false, arenaAsIs: 82_352 }, b: { lowerEstimate: true, arena: 74_880, arenaAsIs: 74_880 } } });
    const velaText = run(['diff', PERSON, VELA, '--target', 'tflm', '--budget', '80000']).out;
    expect(velaText).toMatch(/\narena to declare 80\.4 KiB \(estimate\) -> ≥ 73\.1 KiB: at least −7\.30 KiB \(−9\.1 %\), at least −7,472 bytes \(TensorFlow Lite Micro, the plan written: .*; b's arena is a lower estimate: a kernel's scratch requests are not known, none assumed\)\n/);
    expect(velaText).toContain('b within only as far as known, at most 5.00 KiB to spare');
  }, 120_000);

  it('still calls a model of known kernels within: person_detect in 82,352 B', () => {
    const json = run(['diff', PERSON, PERSON, '--target', 'tflm', '--budget', '82352', '--json']);
    expect([json.code, json.err]).toEqual([0, '']);
    expect(JSON.parse(json.out)).toMatchObject({ budgetVerdict: 'within', runtime: { b: { arena: 82_352, arenaAsIs: 82_352, lowerEstimate: false } } });
    expect(run(['diff', PERSON, PERSON, '--target', 'tflm', '--budget', '82352']).out).toMatch(/\nbudget .*: b within, 0 B to spare\n$/);
  }, 60_000);
});
