// The C header of a .tflite planned on target tflm: every offset it defines
// lies in the tensor arena it declares, for the plan TensorFlow Lite Micro
// uses, and the page's export writes the same header as `plan --header`.
// Skips with a notice when ../shared is absent.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../src/model/decode-model';
import { inferShapes } from '../src/model/infer/shapes';
import { planFileOf } from '../src/settings/plan-file';
import { ALLOW_INCOMPLETE, ALLOW_REFUSED, planCHeader } from '../src/planner/export/c-header';
import { planForSettings } from '../src/worker/plan/settings';
import { planJson, run } from './testing/run-cli';

const DIR = join(__dirname, '../../shared/models/tflite');
const cc = ['/usr/bin/cc', '/usr/local/bin/cc'].find((p) => existsSync(p));
const have = existsSync(DIR);
if (!have) console.log(`cli tflm header: ${DIR} is absent; skipping`);

/** `#define NAME VALUEUL` lines of a header, by name. */
function macros(header: string): Map<string, number> {
  return new Map([...header.matchAll(/^#define (\w+) (\d+)UL/gm)].map((m) => [m[1]!, Number(m[2])]));
}

describe.skipIf(!have)('the C header of a .tflite on target tflm', () => {
  // Vela's file carries its own offline plan (a 74,880 B arena); heapscope's placement drawn peaks at 158,160 B, and the
  // header gave its offsets (input at 148,928) beside the 74,880 B arena. person_detect has no offline plan.
  for (const name of ['tflm_person_detect_vela.tflite', 'tflm_person_detect.tflite']) {
    it(`${name}: every buffer lies in the arena declared, and the page's export is the CLI's header`, () => {
      const path = join(DIR, name);
      const out = join(mkdtempSync(join(tmpdir(), 'hs-tflm-header-')), 'plan.h');
      expect(run(['plan', path, '--target', 'tflm', '--header', out]).code).toBe(0);
      const header = readFileSync(out, 'utf8');
      const defined = macros(header);
      const arena = defined.get('HEAPSCOPE_TFLM_TENSOR_ARENA_BYTES')!;
      const head = defined.get('HEAPSCOPE_ARENA_ARENA_SIZE')!;
      const plan = planJson([path, '--target', 'tflm']);
      const offsets = [...defined].filter(([id]) => id.endsWith('_OFFSET'));
      expect(offsets).toHaveLength(plan.buffers.length);
      for (const [id, offset] of offsets) expect(offset + defined.get(id.replace(/_OFFSET$/, '_SIZE'))!, id).toBeLessThanOrEqual(arena);
      expect([arena, head]).toEqual([plan.runtimePlan.planned.arena, plan.runtimePlan.planned.head]);
      for (const [id, offset] of offsets) expect(offset + defined.get(id.replace(/_OFFSET$/, '_SIZE'))!, id).toBeLessThanOrEqual(head);
      const inferred = inferShapes(decodeModel(new Uint8Array(readFileSync(path))), { dims: {} });
      const settings = { target: 'tflm', strategy: undefined };
      // saved under the same file name (the include guard is named by the header's file)
      const page = planCHeader(planFileOf({ name: path, inferred, plan: planForSettings(inferred, settings), settings, dims: {} }), out);
      expect(page).toBe(header);
    });
  }

  it("names the file's own offline plan as the one the offsets are of, and heapscope's placement as not used", () => {
    const out = join(mkdtempSync(join(tmpdir(), 'hs-tflm-header-')), 'plan.h');
    run(['plan', join(DIR, 'tflm_person_detect_vela.tflite'), '--target', 'tflm', '--header', out]);
    const header = readFileSync(out, 'utf8');
    expect(header).toContain("The offsets below are where TFLM puts each buffer with the file's own offline plan, which the file already carries:");
    expect(header).toContain("heapscope's placement drawn (158160 bytes) is not what TFLM uses.");
    expect(macros(header).get('HEAPSCOPE_ARENA_INPUT_OFFSET')).toBe(0);
  });

  it("says beside the arena that it rests on the file's plan heapscope cannot check, and what the buffers need placed apart", () => {
    const result = run(['plan', join(DIR, 'tflm_person_detect_vela.tflite'), '--target', 'tflm']);
    expect(result.out).toMatch(
      /\n {4}warning {7}this arena and the header's ARENA_SIZE rest on the file's offline plan, which heapscope cannot check \(MobilenetV1\/Predictions\/Reshape_1 and _split_1_scratch are live at once and share bytes from 0\); placed apart, as the peak above, they need 154 KiB \(158,160 B\)\n/,
    );
    expect(run(['plan', join(DIR, 'tflm_person_detect_vela.tflite'), '--target', 'tflm', '--strict']).code).toBe(2);
    // a file without an offline plan has nothing to warn of
    expect(run(['plan', join(DIR, 'tflm_person_detect.tflite'), '--target', 'tflm']).out).not.toMatch(/\n {4}warning /);
  });

  it('stops the build when the arena is a lower estimate (a kernel whose scratch requests are not known), both arenas marked, as an incomplete plan does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hs-tflm-header-'));
    const out = join(dir, 'mp.h');
    expect(run(['plan', join(DIR, 'mediapipe_selfie_segmentation.tflite'), '--target', 'tflm', '--header', out]).code).toBe(0);
    const header = readFileSync(out, 'utf8');
    expect(header).toContain(' * LOWER ESTIMATE: 1 kernel(s) whose scratch requests are not known (first custom operator Convolution2DTransposeBias, Convolution2DTransposeBias_244) are planned with no scratch,');
    const message = '"heapscope: the tensor arena is a lower estimate: 1 kernel(s) whose scratch requests are not known (first custom operator Convolution2DTransposeBias, Convolution2DTransposeBias_244) are planned with no scratch"';
    expect(header).toContain(`#ifndef ${ALLOW_INCOMPLETE}\n#error ${message}\n#else\n#warning ${message}\n#endif`);
    expect(header).toMatch(/\n#define HEAPSCOPE_TFLM_TENSOR_ARENA_BYTES 3717712UL \/\* .*a LOWER ESTIMATE: a kernel's scratch requests are not known \*\/\n/);
    expect(header).toMatch(/\n#define HEAPSCOPE_TFLM_TENSOR_ARENA_AS_IS_BYTES 4242000UL \/\* .*a LOWER ESTIMATE: a kernel's scratch requests are not known \*\/\n/);
    // a model whose kernels are all known has no such gate
    const known = join(dir, 'person.h');
    run(['plan', join(DIR, 'tflm_person_detect.tflite'), '--target', 'tflm', '--header', known]);
    expect(readFileSync(known, 'utf8')).not.toMatch(/LOWER ESTIMATE|#error/);
    if (cc === undefined) return void console.log('notice: no C compiler (cc); the TFLM header is checked as text only');
    writeFileSync(join(dir, 'main.c'), '#include "mp.h"\nint main(void) { return (int)(HEAPSCOPE_TFLM_TENSOR_ARENA_BYTES % 2UL); }\n');
    const compile = (extra: string[]) => spawnSync(cc, ['-Wall', ...extra, '-o', join(dir, 'main'), join(dir, 'main.c')], { encoding: 'utf8' });
    const refused = compile([]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/#error "heapscope: the tensor arena is a lower estimate/);
    // the segmenter's float16 DEQUANTIZEs make TFLM's reference kernels refuse it: that #error has its own switch
    expect(compile([`-D${ALLOW_INCOMPLETE}`]).stderr).toMatch(/#error "heapscope: TensorFlow Lite Micro refuses this model/);
    const warned = compile([`-D${ALLOW_INCOMPLETE}`, `-D${ALLOW_REFUSED}`]);
    expect(warned.status).toBe(0);
    expect(warned.stderr).toMatch(/warning: .*heapscope: the tensor arena is a lower estimate/);
  }, 60_000);

  it('leaves the offsets out of a plan file that does not say where TFLM puts the buffers, unless its plan is the one drawn', () => {
    const fileOf = (name: string) => {
      const path = join(DIR, name);
      const inferred = inferShapes(decodeModel(new Uint8Array(readFileSync(path))), { dims: {} });
      const settings = { target: 'tflm', strategy: undefined };
      const file = planFileOf({ name: path, inferred, plan: planForSettings(inferred, settings), settings, dims: {} });
      const { bufferOffsets, ...planned } = file.plan.runtimePlan!.planned;
      expect(bufferOffsets).toHaveLength(file.plan.buffers.length);
      return { ...file, plan: { ...file.plan, runtimePlan: { ...file.plan.runtimePlan!, planned } } };
    };
    const vela = planCHeader(fileOf('tflm_person_detect_vela.tflite'));
    expect(vela).toContain('/* Offsets left out: this plan does not say where TensorFlow Lite Micro puts each buffer');
    expect(vela).not.toMatch(/_OFFSET /);
    // keyword_scrambled: the plan written is the placement drawn (672 B)
    const keyword = fileOf('tflm_keyword_scrambled.tflite');
    expect(keyword.plan.runtimePlan!.planned.source).toBe('the plan');
    expect(macros(planCHeader(keyword)).get('HEAPSCOPE_ARENA_ARENA_SIZE')).toBe(672);
    expect(planCHeader(keyword)).toMatch(/_OFFSET \d+UL/);
  });
});
