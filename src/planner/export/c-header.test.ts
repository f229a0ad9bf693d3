import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { planModel } from '../plan';
import { toPlanFile, type PlanFile } from '../assembly/plan-file';
import { presetTarget } from '../targets/presets';
import { testTarget, tinyGraph } from '../testing/tiny-graph';
import { ALLOW_INCOMPLETE, cName, OVER_LIMIT_WARNING, planCHeader } from './c-header';

const SAMPLE = join(__dirname, '../../../public/sample.onnx');
const cc = ['/usr/bin/cc', '/usr/local/bin/cc'].find((p) => existsSync(p));
if (cc === undefined) console.log('notice: no C compiler (cc); the C header is checked as text only');

/** The sample planned for a preset; `spill: 'off'` keeps every activation in the first region (over the mcu's SRAM). */
function samplePlan(targetName: string, spill?: 'off'): PlanFile {
  const preset = presetTarget(targetName);
  const target = spill === undefined ? preset : { ...preset, planning: { ...preset.planning, spill } };
  const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(SAMPLE))), { dims: { batch: 2 } });
  return toPlanFile(model, planModel(model, target), { model: 'models/sample v2.onnx', target: targetName, targetProfile: target, dims: { batch: 2 } });
}

/** `#define NAME VALUE` lines of a header, by name. */
function macros(header: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of header.matchAll(/^#define (\w+)(?: (\w+))?/gm)) {
    expect(out.has(m[1]!), `${m[1]} defined twice`).toBe(false);
    out.set(m[1]!, m[2] ?? '');
  }
  return out;
}

describe('planCHeader', () => {
  it('defines the arena size of every region and the offset and size of every buffer', () => {
    const file = samplePlan('mcu');
    const header = planCHeader(file);
    const defs = macros(header);
    expect(header).toMatch(/^\/\* Memory plan of models\/sample v2\.onnx, made by heapscope\.\n \* target: mcu; strategy: best\n \* dims: batch=2\n/);
    const guard = /^#ifndef (HEAPSCOPE_PLAN_SAMPLE_V2_H_[0-9A-F]{8})$/m.exec(header)?.[1];
    expect(guard).toBeDefined();
    expect(header.split('\n').filter((l) => l.includes(guard!))).toEqual([`#ifndef ${guard}`, `#define ${guard}`, `#endif /* ${guard} */`]);
    expect(defs.get('HEAPSCOPE_PEAK_BYTES')).toBe(`${file.plan.peak}UL`);
    for (const r of file.plan.regions) expect(defs.get(`HEAPSCOPE_${cName(r.name)}_ARENA_SIZE`)).toBe(`${r.peak}UL`);
    const offsets = [...defs].filter(([name]) => name.endsWith('_OFFSET'));
    expect(offsets).toHaveLength(file.plan.buffers.length);
    const first = file.plan.buffers.find((b) => b.region === 'sram' && b.alias === undefined)!;
    expect(defs.get(`HEAPSCOPE_SRAM_${cName(first.name)}_OFFSET`)).toBe(`${first.offset}UL`);
    expect(defs.get(`HEAPSCOPE_SRAM_${cName(first.name)}_SIZE`)).toBe(`${first.size}UL`);
  });

  it('names the include guard by the header file, and no two headers share one: two models both named model.onnx', () => {
    const a = samplePlan('mcu');
    const b = { ...samplePlan('cpu'), model: 'other/sample v2.onnx' };
    const guardOf = (header: string) => /^#ifndef (\w+)$/m.exec(header)?.[1];
    expect(guardOf(planCHeader(a, 'out/ga_plan.h'))).toMatch(/^HEAPSCOPE_GA_PLAN_H_[0-9A-F]{8}$/);
    // one model name, and even one header name in two folders: the guards differ, so including both drops neither
    expect(guardOf(planCHeader(a))).not.toBe(guardOf(planCHeader(b)));
    expect(guardOf(planCHeader(a, 'x/plan.h'))).not.toBe(guardOf(planCHeader(b, 'y/plan.h')));
    // the same plan gives the same header: the guard is not of the clock
    expect(planCHeader(a, 'x/plan.h')).toBe(planCHeader(a, 'x/plan.h'));
  });

  it.skipIf(cc === undefined)('two headers of models with one file name, included together, clash loudly instead of the second being dropped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-guard-'));
    writeFileSync(join(dir, 'ga_plan.h'), planCHeader(samplePlan('cpu'), join(dir, 'ga_plan.h')));
    writeFileSync(join(dir, 'gb_plan.h'), planCHeader({ ...samplePlan('mcu'), model: 'b/sample v2.onnx' }, join(dir, 'gb_plan.h')));
    writeFileSync(join(dir, 'main.c'), '#include "ga_plan.h"\n#include "gb_plan.h"\nint main(void) { return 0; }\n');
    const built = spawnSync(cc!, ['-Werror', '-c', '-o', join(dir, 'main.o'), join(dir, 'main.c')], { encoding: 'utf8' });
    expect(built.status).not.toBe(0);
    expect(built.stderr).toMatch(/HEAPSCOPE_PEAK_BYTES" redefined|HEAPSCOPE_PEAK_BYTES' macro redefined/);
  });

  it('makes clashing and odd tensor names into distinct C identifiers and keeps comments closed', () => {
    const g = tinyGraph().input('x', [4]);
    g.node('Relu', ['x'], { 'a/b': [4] }).node('Relu', ['a/b'], { a_b: [4] }).node('Relu', ['a_b'], { '*/ 1st': [4] }).node('Relu', ['*/ 1st'], { y: [4] });
    const model = g.output('y').model();
    const target = testTarget();
    const header = planCHeader(toPlanFile(model, planModel(model, target), { model: 'x.onnx', target: 'custom', targetProfile: target }));
    const names = [...macros(header).keys()];
    expect(names).toEqual(expect.arrayContaining(['HEAPSCOPE_RAM_A_B_OFFSET', 'HEAPSCOPE_RAM_A_B_2_OFFSET', 'HEAPSCOPE_RAM_1ST_OFFSET']));
    for (const name of names) expect(name).toMatch(/^[A-Z_][A-Z0-9_]*$/);
    expect(header).not.toMatch(/\*\/.*\*\//);
  });

  it.skipIf(cc === undefined)('compiles as C89, and its values are the plan figures when a program reads them', () => {
    const file = samplePlan('accelerator');
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-header-'));
    writeFileSync(join(dir, 'plan.h'), planCHeader(file));
    const b = file.plan.buffers.find((x) => x.offset > 0)!;
    const id = `HEAPSCOPE_${cName(b.region)}_${cName(b.name)}`;
    const program = [
      '#include <stdio.h>',
      '#include "plan.h"',
      '#include "plan.h"',
      `int main(void) { printf("%lu %lu %lu\\n", HEAPSCOPE_PEAK_BYTES, ${id}_OFFSET, ${id}_SIZE); return 0; }`,
    ].join('\n');
    writeFileSync(join(dir, 'main.c'), program);
    execFileSync(cc!, ['-std=c89', '-pedantic', '-Wall', '-Werror', '-o', join(dir, 'main'), join(dir, 'main.c')]);
    expect(execFileSync(join(dir, 'main')).toString().trim()).toBe(`${file.plan.peak} ${b.offset} ${b.size}`);
  });
});

describe('planCHeader with weights in a RAM region', () => {
  it('gives each region the weights kept at its base and where its arena starts after them', () => {
    const preset = presetTarget('mcu');
    const target = { ...preset, planning: { ...preset.planning, weights: { region: 'ext-ram', copied: true } } };
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(SAMPLE))), { dims: { batch: 2 } });
    const file = toPlanFile(model, planModel(model, target), { model: 'sample.onnx', target: 'custom', targetProfile: target, dims: { batch: 2 } });
    const defs = macros(planCHeader(file));
    const ext = file.plan.regions.find((r) => r.name === 'ext-ram')!;
    expect(ext.weights).toBeGreaterThanOrEqual(file.plan.weights.bytes);
    expect(ext.weights! - file.plan.weights.bytes).toBeLessThan(16);
    expect(defs.get('HEAPSCOPE_EXT_RAM_WEIGHTS_BYTES')).toBe(`${ext.weights}UL`);
    expect(defs.get('HEAPSCOPE_EXT_RAM_ARENA_START')).toBe(`${ext.weights}UL`);
    expect(defs.get('HEAPSCOPE_EXT_RAM_ARENA_SIZE')).toBe(`${ext.peak}UL`);
    expect([defs.get('HEAPSCOPE_SRAM_WEIGHTS_BYTES'), defs.get('HEAPSCOPE_SRAM_ARENA_START')]).toEqual(['0UL', '0UL']);
  });
});

describe('planCHeader on a plan over its limit', () => {
  it('says so in its comment and stops the build with #error, a #warning when the macro is defined', () => {
    const file = samplePlan('mcu', 'off');
    const sram = file.plan.regions.find((r) => r.name === 'sram')!;
    expect(sram.overBy).toBeGreaterThan(0);
    const header = planCHeader(file);
    const message = `"heapscope: region sram needs ${sram.peak} bytes, ${sram.overBy} over its limit of ${sram.sizeLimit} bytes"`;
    expect(header).toContain(`#ifndef ${OVER_LIMIT_WARNING}\n#error ${message}\n#else\n#warning ${message}\n#endif`);
    expect(header).toContain(` * DOES NOT FIT: sram needs ${sram.peak} bytes, ${sram.overBy} over its limit of ${sram.sizeLimit} bytes.`);
    expect(header).toContain(`define ${OVER_LIMIT_WARNING}`);
    expect(header).toContain(`limit ${sram.sizeLimit} bytes, over by ${sram.overBy} bytes */`);
    // ext-ram fits: no directive names it.
    expect(header).not.toMatch(/#error "heapscope: region ext-ram/);
  });

  it('has no #error when every region fits', () => {
    const header = planCHeader(samplePlan('accelerator'));
    expect(header).not.toContain('#error');
    expect(header).toContain(' * fits: every region is within its size limit.');
  });

  it.skipIf(cc === undefined)('fails to compile over the limit, and compiles with a warning naming the region when the macro is defined', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-header-'));
    writeFileSync(join(dir, 'plan.h'), planCHeader(samplePlan('mcu', 'off')));
    writeFileSync(join(dir, 'main.c'), '#include "plan.h"\nint main(void) { return (int)(HEAPSCOPE_PEAK_BYTES % 2UL); }\n');
    const compile = (extra: string[]) => spawnSync(cc!, ['-Wall', ...extra, '-o', join(dir, 'main'), join(dir, 'main.c')], { encoding: 'utf8' });
    const refused = compile([]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/#error "heapscope: region sram needs/);
    const warned = compile([`-D${OVER_LIMIT_WARNING}`]);
    expect(warned.status).toBe(0);
    expect(warned.stderr).toMatch(/warning: .*heapscope: region sram needs/);
  });
});

describe('planCHeader on a plan with a size unknown', () => {
  /** The sample's plan as a plan would be with its first activation's size unknown (planned as 0 bytes). */
  function incompletePlan(): { file: PlanFile; tensor: string } {
    const file = samplePlan('accelerator');
    const tensor = file.plan.buffers.find((b) => b.kind === 'activation')!.name;
    const unknown = [{ tensor, op: 'Mystery', reason: 'no shape rule for Mystery' }];
    return { file: { ...file, plan: { ...file.plan, complete: false, assumptions: { ...file.plan.assumptions, unknown } } }, tensor };
  }

  it('says the sizes are lower estimates, marks the buffer, and never says it fits outright', () => {
    const { file, tensor } = incompletePlan();
    const header = planCHeader(file);
    expect(header).toContain(` * INCOMPLETE: 1 tensor(s) of unknown size (first ${tensor}: no shape rule for Mystery) are planned as 0 bytes`);
    expect(header).toContain(' * fits only as far as known: every region is within its size limit with the sizes known.');
    expect(header).not.toContain(' * fits: every region');
    expect(header).toMatch(new RegExp(`/\\* ${tensor.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: activation, .*, SIZE UNKNOWN: planned as 0 bytes \\*/`));
    const message = '"heapscope: the plan is incomplete: 1 tensor(s) of unknown size planned as 0 bytes"';
    expect(header).toContain(`#ifndef ${ALLOW_INCOMPLETE}\n#error ${message}\n#else\n#warning ${message}\n#endif`);
    expect(planCHeader(samplePlan('accelerator'))).not.toContain('INCOMPLETE');
  });

  it('counts a scratch buffer of unknown size as a scratch buffer, and names the scratch rules as what to fix', () => {
    const { file, tensor } = incompletePlan();
    const unknown = [...file.plan.assumptions!.unknown, { tensor: 'Conv_0:im2col', op: 'Conv', reason: 'the op has no input 9', scratch: true as const }];
    const header = planCHeader({ ...file, plan: { ...file.plan, assumptions: { ...file.plan.assumptions!, unknown } } });
    expect(header).toContain(` * INCOMPLETE: 1 tensor(s) and 1 scratch buffer(s) of unknown size (first ${tensor}: no shape rule for Mystery) are planned as 0 bytes`);
    expect(header).toContain("give the tensors' shapes or fix the target's scratch rules and plan again");
    expect(header).toContain('#error "heapscope: the plan is incomplete: 1 tensor(s) and 1 scratch buffer(s) of unknown size planned as 0 bytes"');
  });

  it.skipIf(cc === undefined)('fails to compile, and compiles with a warning when the macro is defined', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-header-'));
    writeFileSync(join(dir, 'plan.h'), planCHeader(incompletePlan().file));
    writeFileSync(join(dir, 'main.c'), '#include "plan.h"\nint main(void) { return (int)(HEAPSCOPE_PEAK_BYTES % 2UL); }\n');
    const compile = (extra: string[]) => spawnSync(cc!, ['-Wall', ...extra, '-o', join(dir, 'main'), join(dir, 'main.c')], { encoding: 'utf8' });
    const refused = compile([]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/#error "heapscope: the plan is incomplete/);
    const warned = compile([`-D${ALLOW_INCOMPLETE}`]);
    expect(warned.status).toBe(0);
    expect(warned.stderr).toMatch(/warning: .*heapscope: the plan is incomplete/);
  });
});

describe('planCHeader for TensorFlow Lite Micro', () => {
  const url = new URL('../../../../shared/models/tflite/tflm_keyword_scrambled.tflite', import.meta.url);
  it.skipIf(!existsSync(url))('defines the tensor arena to declare, head and tail, beside the region whose ARENA_SIZE is a head alone', () => {
    // keyword_scrambled: TFLite Micro's head is 672 B (its own threshold test pins it); the arena to declare is 15,680 B
    const target = presetTarget('tflm');
    const model = inferShapes(decodeModel(new Uint8Array(readFileSync(url))), {});
    const plan = planModel(model, target);
    const header = planCHeader(toPlanFile(model, plan, { model: 'keyword.tflite', target: 'tflm', targetProfile: target }));
    const defined = macros(header);
    expect(defined.get('HEAPSCOPE_ARENA_ARENA_SIZE')).toBe('672UL');
    expect(defined.get('HEAPSCOPE_TFLM_TENSOR_ARENA_BYTES')).toBe(`${plan.runtimePlan!.planned.arena}UL`);
    expect(defined.get('HEAPSCOPE_TFLM_TENSOR_ARENA_AS_IS_BYTES')).toBe(`${plan.runtimePlan!.arena}UL`);
    expect(plan.runtimePlan!.planned.arena).toBeGreaterThan(672);
    expect(header).toContain("the region's ARENA_SIZE is that head alone");
    // MicroAllocator::Create aligns the array's start up to 16 and loses the bytes before: the header says how to declare it
    expect(defined.get('HEAPSCOPE_TFLM_TENSOR_ARENA_ALIGNMENT')).toBe('16UL');
    expect(header).toContain(' *   alignas(16) static uint8_t tensor_arena[HEAPSCOPE_TFLM_TENSOR_ARENA_BYTES];');
    // the tail has estimated parts (the allocator objects, kernel data): so has the arena
    expect(header).toMatch(/#define HEAPSCOPE_TFLM_TENSOR_ARENA_BYTES \d+UL \/\* .*an estimate, resting on the tail's estimated parts \*\//);
  });
});
