// The command line on TensorFlow Lite models: inspect and plan carry the same
// fields as for ONNX, `--target tflm` adds the runtime plan, `--save-tflite`
// writes a model TFLite Micro plans with heapscope's offsets, and nothing is
// written over the model. Skips with a notice when ../shared is absent.

import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../src/model/decode-model';
import { planJson, run } from './testing/run-cli';

const DIR = join(__dirname, '../../shared/models/tflite');
const have = existsSync(DIR);
if (!have) console.log(`cli tflite: ${DIR} is absent; skipping`);
const KEYWORD = join(DIR, 'tflm_keyword_scrambled.tflite');
const PERSON = join(DIR, 'tflm_person_detect.tflite');
const SELFIE = join(DIR, 'mediapipe_selfie_segmentation.tflite');

describe.skipIf(!have)('heapscope on .tflite models', () => {
  it('inspect --json: the same fields as for ONNX, every tensor sized', () => {
    const { code, out } = run(['inspect', PERSON, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.nodes).toBe(31);
    expect(report.unknownShapes).toEqual([]);
    for (const v of report.values) expect(v.bytes, v.name).not.toBeNull();
    expect(report.values.find((v: { name: string }) => v.name === 'input')).toMatchObject({ dtype: 'int8', shape: [1, 96, 96, 1], bytes: 9216 });
  });

  it('plan --json --target tflm: runtimePlan beside the usual peak and bound', () => {
    const plan = planJson([KEYWORD, '--target', 'tflm']);
    expect(plan).toMatchObject({ valid: true, complete: true, strategy: 'best', target: 'tflm' });
    expect(plan.runtimePlan).toMatchObject({ runtime: 'tflm', head: 672, tailEstimated: true });
    expect(plan.runtimePlan.tail).toBeGreaterThan(10240); // the variable buffers alone
    expect(plan.runtimePlan.arena).toBeGreaterThanOrEqual(plan.runtimePlan.head + plan.runtimePlan.tail);
    expect(plan.peak).toBeLessThanOrEqual(plan.runtimePlan.head);
    expect(plan.lowerBound).toBeLessThanOrEqual(plan.peak);
  });

  it('--weights in the tensor arena on target tflm is refused: TensorFlow Lite Micro never reads weights from it', () => {
    // it planned '+ 214 KiB weights + 26.4 KiB runtime tail = 294 KiB' beside an arena to declare of 80.4 KiB
    for (const where of ['arena', 'copy-to:arena']) {
      const r = run(['plan', PERSON, '--target', 'tflm', '--weights', where]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`heapscope: target tflm: TensorFlow Lite Micro reads the weights from the model's own buffer, never from its tensor arena "arena"; keep them in flash\n`);
    }
  });

  it("--target tflm with an arena limit: the limit holds the arena to declare, TFLite Micro's tail with the head", () => {
    // person_detect's head is 54 KiB, under a 60,000 B limit; AllocateTensors() needs 80.4 KiB: it read "fits"
    const dir = mkdtempSync(join(tmpdir(), 'hs-tflm-limit-'));
    const target = (limit: number) => {
      const file = join(dir, `tflm-${limit}.json`);
      writeFileSync(file, JSON.stringify({ name: `tflm-${limit}`, regions: [{ name: 'arena', alignment: 16, fast: true, sizeLimit: limit }], computeUnits: [{ name: 'cortex-m', opTypes: ['*'], alignment: 16 }], planning: { strategy: 'best', order: 'file', graphIo: 'whole-run', activationRegion: 'arena', runtime: 'tflm' } }));
      return file;
    };
    const small = run(['plan', PERSON, '--target', target(60_000), '--json']);
    expect(small.code).toBe(3);
    const plan = JSON.parse(small.out);
    const arena = plan.regions[0];
    expect(plan.peak).toBeLessThan(60_000);
    expect(arena.runtimeTail).toBe(plan.runtimePlan.planned.arena - plan.runtimePlan.planned.head);
    expect(arena).toMatchObject({ used: plan.runtimePlan.planned.arena, overBy: plan.runtimePlan.planned.arena - 60_000 });
    expect(plan.fits).toBe(false);
    expect(plan.diagnostics.filter((d: { code: string }) => d.code === 'over-limit').map((d: { message: string }) => d.message)).toEqual([
      expect.stringMatching(/^region arena needs 80\.4 KiB \(estimate\) as the tensor arena to declare with the plan written \([\d.]+ KiB of it TFLite Micro's persistent tail and planning\), 21\.8 KiB over its size limit of 58\.6 KiB \(82,\d{3} > 60,000 bytes\)$/),
    ]);
    const text = run(['plan', PERSON, '--target', target(60_000)]);
    expect(text.out).toMatch(/region arena +54\.0 KiB \(.*, [\d.]+ KiB OVER, .*\+ [\d.]+ KiB runtime tail and planning = 80\.4 KiB\)/);
    // the verdict rests on the tail's estimated parts, as the arena to declare does: said so, not given flatly
    expect(text.out).toContain('\n  DOES NOT FIT  region arena needs 80.4 KiB (estimate), 21.8 KiB over its 58.6 KiB limit\n');
    expect(text.err).toMatch(/DOES NOT FIT: region arena needs 82,\d{3} bytes \(an estimate: TensorFlow Lite Micro's tail rests on estimated parts\), /);
    const diffText = run(['diff', PERSON, PERSON, '--target', target(60_000)]).out;
    expect(diffText).toContain('  b DOES NOT FIT  region arena needs 80.4 KiB (estimate), 21.8 KiB over its 58.6 KiB limit');
    // Vela's file keeps its own offline plan (72.7 KiB head), smaller than heapscope's placement (154 KiB): the arena to
    // declare with the plan written is 73.1 KiB, and a 100 KiB arena holds it (it read 'needs 155 KiB', exit 3)
    const vela = run(['plan', join(DIR, 'tflm_person_detect_vela.tflite'), '--target', target(102_400), '--json']);
    expect(vela.code).toBe(0);
    const velaPlan = JSON.parse(vela.out);
    expect(velaPlan.peak).toBeGreaterThan(102_400);
    expect(velaPlan).toMatchObject({ fits: true, regions: [{ overBy: 0, used: velaPlan.runtimePlan.planned.arena, runtimeHead: velaPlan.runtimePlan.planned.head }] });
    expect(run(['plan', join(DIR, 'tflm_person_detect_vela.tflite'), '--target', target(102_400)]).out).toMatch(
      /region arena +154 KiB \(.*; the plan written: head 72\.7 KiB \+ ≥ 416 B runtime tail and planning = ≥ 73\.1 KiB\)/,
    );
    const roomy = run(['plan', PERSON, '--target', target(90_000), '--json']);
    expect(roomy.code).toBe(0);
    expect(JSON.parse(roomy.out)).toMatchObject({ fits: true, regions: [{ overBy: 0, used: plan.runtimePlan.planned.arena }] });
  });

  it("--io application on target tflm is not applied and says so: TensorFlow Lite Micro allocates graph I/O in its arena", () => {
    // person_detect's plan kept input in the arena (region io 9232 B, arena 80.4 KiB) while storage.io said the application owned it
    const arena = planJson([PERSON, '--target', 'tflm']);
    const asked = planJson([PERSON, '--target', 'tflm', '--io', 'application']);
    expect(asked.storage.io).toEqual({ owner: 'arena', bytes: 9218, inArena: 9232, kvBytes: 0, unknownSizes: 0 });
    expect(asked.regions[0]).toMatchObject({ io: 9232, used: arena.regions[0].used });
    expect([asked.peak, asked.runtimePlan.arena]).toEqual([arena.peak, arena.runtimePlan.arena]);
    expect(asked.diagnostics).toContainEqual({ code: 'tflm-io-in-arena', message: expect.stringMatching(/^TensorFlow Lite Micro allocates the model's inputs and outputs in its tensor arena, so io=application \(--io application\) is not applied/) });
    expect(arena.diagnostics.map((d: { code: string }) => d.code)).not.toContain('tflm-io-in-arena');
    const text = run(['plan', PERSON, '--target', 'tflm', '--io', 'application']).out;
    expect(text).toContain('  graph I/O     9.00 KiB of data in inputs and outputs in all over the run (9.02 KiB as placed, with alignment), in the arena\n');
    expect(text).not.toContain('owned by the application');
    // on another target the application owns them
    expect(planJson([PERSON, '--target', 'mcu', '--io', 'application']).storage.io.owner).toBe('application');
  });

  it('--target tflm plans the shapes the file states: a dim given is not applied and says so, and sweep refuses it', () => {
    // hello_world's batch=64 read as applied (the graph's shapes) while the plan stayed at the file's 32 B
    const hello = join(DIR, 'tflm_hello_world_int8.tflite');
    const plain = planJson([hello, '--target', 'tflm']);
    const given = planJson([hello, '--target', 'tflm', '--dim', 'batch=64']);
    expect(given.peak).toBe(plain.peak);
    expect([plain.assumptions.dims, given.assumptions.dims]).toEqual([[], []]);
    expect(given.diagnostics).toContainEqual({ code: 'tflm-fixed-shapes', message: expect.stringMatching(/^TensorFlow Lite Micro cannot resize tensors: it plans the shapes the file states, so batch=64 is not applied/) });
    expect(plain.diagnostics.map((d: { code: string }) => d.code)).not.toContain('tflm-fixed-shapes');
    expect(planJson([hello, '--target', 'cpu', '--dim', 'batch=64']).peak).toBeGreaterThan(plain.peak);
    const sweep = run(['sweep', hello, '--target', 'tflm', '--dim', 'batch=1..16']);
    expect(sweep.code).toBe(2);
    expect(sweep.err).toMatch(/^heapscope: \S+hello_world_int8.tflite: batch: On a target whose runtime is TensorFlow Lite Micro, the plan is of the shapes the file states/);
  });

  it('a shape given for a .tflite is not applied, on tflm as on any target, and says so once: no tensor is left unknown', () => {
    // person_detect with input=1x128x128x1 on tflm read "the given shape is used", 31 tensors "planned as 0 bytes", while the
    // plan and TFLM's figures stayed those of the file's 96×96; on mcu the peak counted every tensor below the input as 0 B
    for (const target of ['tflm', 'mcu']) {
      const plain = planJson([PERSON, '--target', target]);
      const shaped = run(['plan', PERSON, '--target', target, '--shape', 'input=1x128x128x1', '--json']);
      expect(shaped.code, target).toBe(0);
      // the shape not applied is a note on stderr, as for any option the model ignores
      expect(shaped.err, target).toMatch(/^heapscope: note: \S+tflm_person_detect\.tflite: the shape given input=1x128x128x1 \(the file states 1×96×96×1\) is not applied: [^\n]*\n$/);
      const given = JSON.parse(shaped.out);
      expect(given, target).toMatchObject({ complete: true, peak: plain.peak, assumptions: { unknown: [], shapes: {} } });
      expect(given.runtimePlan, target).toEqual(plain.runtimePlan);
      const notes = given.diagnostics.filter((d: { code: string }) => d.code === 'tflite-fixed-shapes' || d.code === 'shape-override' || d.code === 'unknown-shape');
      expect(notes, target).toEqual([
        { code: 'tflite-fixed-shapes', message: expect.stringMatching(/^the shape given input=1x128x128x1 \(the file states 1×96×96×1\) is not applied: a \.tflite model keeps the shapes its file states \(/) },
      ]);
    }
    // the file's own shape given changes nothing and is not refused
    expect(planJson([PERSON, '--target', 'tflm', '--shape', 'input=1x96x96x1']).diagnostics.map((d: { code: string }) => d.code)).not.toContain('tflite-fixed-shapes');
    const text = run(['plan', PERSON, '--target', 'tflm', '--shape', 'input=1x128x128x1']).out;
    expect(text).toContain('[tflite-fixed-shapes] the shape given input=1x128x128x1 (the file states 1×96×96×1) is not applied');
    expect(text).not.toMatch(/unknown size|is used/);
  });

  it('diff on tflm compares the arenas to declare, head and tail, beside the peaks of the placements drawn', () => {
    // Vela's person_detect (its own offline plan) against the plain model read "-100 KiB (-65.0 %)" from the peaks, where
    // the plain model's arena to declare is 7.30 KiB larger (73.1 KiB -> 80.4 KiB)
    const vela = join(DIR, 'tflm_person_detect_vela.tflite');
    const [planA, planB] = [planJson([vela, '--target', 'tflm']), planJson([PERSON, '--target', 'tflm'])];
    // tail: all beyond the head, the runtime's own tail (as plan gives it) and the room it plans in
    // arenaAsIs: the file's as it is; lowerEstimate: a kernel's scratch requests are not known (Vela's ethos-u); tailEstimated: the
    // arenas rest on the tail's estimated parts, as plan's runtimePlan says; refused: TFLM refuses the model
    const arena = (p: { runtimePlan: { tail: number; arena: number; tailEstimated: boolean; planned: { head: number; arena: number }; refused?: string[] }; assumptions: { kernels: unknown[] } }) => ({
      head: p.runtimePlan.planned.head,
      tail: p.runtimePlan.planned.arena - p.runtimePlan.planned.head,
      tailAlone: p.runtimePlan.tail,
      planning: p.runtimePlan.planned.arena - p.runtimePlan.planned.head - p.runtimePlan.tail,
      arena: p.runtimePlan.planned.arena,
      arenaAsIs: p.runtimePlan.arena,
      lowerEstimate: p.assumptions.kernels.length > 0,
      tailEstimated: p.runtimePlan.tailEstimated,
      refused: (p.runtimePlan.refused ?? []).length > 0,
    });
    const { code, out } = run(['diff', vela, PERSON, '--target', 'tflm', '--json']);
    expect(code).toBe(0);
    const diff = JSON.parse(out);
    expect(diff.runtime).toEqual({ runtime: 'tflm', a: arena(planA), b: arena(planB), delta: planB.runtimePlan.planned.arena - planA.runtimePlan.planned.arena, deltaAsIs: planB.runtimePlan.arena - planA.runtimePlan.arena });
    expect([diff.runtime.a.lowerEstimate, diff.runtime.b.lowerEstimate]).toEqual([true, false]);
    expect(diff.runtime.delta).toBeGreaterThan(0);
    expect(diff).toMatchObject({ peakA: planA.peak, peakB: planB.peak, delta: planB.peak - planA.peak });
    const text = run(['diff', vela, PERSON, '--target', 'tflm']).out;
    // Vela's arena is a lower estimate (its ethos-u kernel's scratch is not known): the change is at most the figure
    expect(text).toMatch(/\narena to declare ≥ 73\.1 KiB -> 80\.4 KiB \(estimate\): at most \+7\.30 KiB \(\+10\.0 %\), at most 7,472 bytes \(TensorFlow Lite Micro, the plan written: head 72\.7 KiB -> 54\.0 KiB, tail and planning 416 B -> 26\.4 KiB; a's arena is a lower estimate: a kernel's scratch requests are not known, none assumed\)\npeak 154 KiB -> 54\.0 KiB: .*\(heapscope's placement, not the arena the firmware declares\)\n/);
    // a budget is a firmware's arena: 80 KiB holds the plain model's 54 KiB peak but not its 80.4 KiB arena
    const budget = run(['diff', vela, PERSON, '--target', 'tflm', '--budget', '81920', '--json']);
    expect(budget.code).toBe(3);
    expect(JSON.parse(budget.out)).toMatchObject({ overBudget: true, budgetVerdict: 'over' });
    expect(run(['diff', KEYWORD, KEYWORD, '--target', 'cpu', '--json']).out).not.toContain('"runtime"');
  });

  it('plan text: the two heads, the tail with its estimates named, and the arena to declare', () => {
    const { code, out } = run(['plan', KEYWORD, '--target', 'tflm']);
    expect(code).toBe(0);
    // A figure under 1 KiB is written once: "672 B", not "672 B (672 B)".
    expect(out).toContain("TFLM's plan   head 672 B (GreedyMemoryPlanner, reproduced)");
    expect(out).not.toMatch(/(\d+ B) \(\1\)/);
    expect(out).toMatch(/heapscope {5}head .* written as an offline plan/);
    expect(out).toMatch(/variable tensors +10,240 B/);
    expect(out).toMatch(/arena {9}declare /);
  });

  it('--save-tflite writes a model whose offline plan TFLM then uses, and re-plans to the same head', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-tflite-'));
    const out = join(dir, 'person.planned.tflite');
    const before = readFileSync(PERSON);
    const first = planJson([PERSON, '--target', 'tflm', '--save-tflite', out]);
    expect(first.written).toEqual([out]);
    expect(readFileSync(PERSON).equals(before)).toBe(true);
    const written = decodeModel(new Uint8Array(readFileSync(out)));
    expect(written.tflite?.offlinePlan?.offsets).toEqual(first.runtimePlan.planned.offsets);
    const again = planJson([out, '--target', 'tflm']);
    expect(again.runtimePlan.filePlan).toMatchObject({ valid: true });
    expect(again.runtimePlan.head).toBe(first.runtimePlan.planned.head);
  });

  it('--save-tflite refuses to write over the model, and needs the tflm target', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-tflite-'));
    const copy = join(dir, 'model.tflite');
    copyFileSync(KEYWORD, copy);
    const over = run(['plan', copy, '--target', 'tflm', '--save-tflite', copy]);
    expect(over.code).toBe(2);
    expect(over.err).toMatch(/^heapscope: --save-tflite .* would overwrite the model it plans/);
    expect(readFileSync(copy).equals(readFileSync(KEYWORD))).toBe(true);
    const cpu = run(['plan', KEYWORD, '--save-tflite', join(dir, 'x.tflite')]);
    expect(cpu.code).toBe(2);
    expect(cpu.err).toMatch(/needs a \.tflite model and --target tflm/);
    expect(cpu.err.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('--save-tflite writes nothing for a model TFLM refuses, with --strict or without', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-tflite-'));
    for (const strict of [[], ['--strict']]) {
      const out = join(dir, `selfie${strict.length}.planned.tflite`);
      const { code, err } = run(['plan', SELFIE, '--target', 'tflm', ...strict, '--save-tflite', out]);
      expect(code).toBe(2);
      expect(err.split('\n').filter(Boolean)).toHaveLength(1);
      expect(err).toMatch(/--save-tflite writes nothing for a model TensorFlow Lite Micro refuses .*DEQUANTIZE/);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('diff: a model against its Vela-compiled form names the buffers that changed', () => {
    const { code, out } = run(['diff', PERSON, join(DIR, 'tflm_person_detect_vela.tflite'), '--target', 'tflm', '--json']);
    expect(code).toBe(0);
    const diff = JSON.parse(out);
    expect(diff.peakA).toBeGreaterThan(0);
    expect(diff.causes.length).toBeGreaterThan(0);
  });
});
