import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPlanFile } from '../src/planner/assembly/plan-file';
import { run } from './testing/run-cli';
import { regionPath } from './plan-exports';

const SAMPLE = join(__dirname, '../public/sample.onnx');

describe('heapscope plan --save, --header, --csv', () => {
  it("names the header's include guard by the header file: two headers of models named alike never share one", () => {
    // ga_plan.h and gb_plan.h of a/model.onnx and b/model.onnx both had HEAPSCOPE_PLAN_MODEL_H: including both dropped the second unsaid
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-guard-'));
    const [ga, gb] = [join(dir, 'ga_plan.h'), join(dir, 'gb_plan.h')];
    expect(run(['plan', SAMPLE, '--header', ga]).code).toBe(0);
    expect(run(['plan', SAMPLE, '--dim', 'batch=2', '--header', gb]).code).toBe(0);
    const guardOf = (path: string) => /^#ifndef (\w+)$/m.exec(readFileSync(path, 'utf8'))?.[1];
    expect(guardOf(ga)).toMatch(/^HEAPSCOPE_GA_PLAN_H_[0-9A-F]{8}$/);
    expect(guardOf(gb)).toMatch(/^HEAPSCOPE_GB_PLAN_H_[0-9A-F]{8}$/);
  });

  it('writes a plan file, a C header and one solution CSV per region, which solve re-solves to the saved peaks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-exports-'));
    const [save, header, csv] = [join(dir, 'p.json'), join(dir, 'p.h'), join(dir, 'p.csv')];
    const { code, out } = run(['plan', SAMPLE, '--target', 'mcu', '--spill', 'off', '--dim', 'batch=2', '--strategy', 'best', '--save', save, '--header', header, '--csv', csv]);
    expect(code).toBe(3); // written, then: kept in SRAM alone (--spill off), the sample does not fit the mcu's SRAM
    expect(out).toContain(`  written       ${save}\n`);
    const file = readPlanFile(readFileSync(save, 'utf8'), save);
    expect(file.settings).toMatchObject({ strategy: 'best', target: 'mcu', dims: { batch: 2 } });
    expect(file.model).toBe(SAMPLE);
    expect(readFileSync(header, 'utf8')).toContain(`#define HEAPSCOPE_PEAK_BYTES ${file.plan.peak}UL`);
    expect(existsSync(csv)).toBe(false);
    for (const region of file.plan.regions) {
      const path = join(dir, `p.${region.name}.csv`);
      const solved = run(['solve', path, '--strategy', 'best', '--json']);
      expect(solved.code).toBe(0);
      expect(JSON.parse(solved.out)).toMatchObject({ peak: region.peak, valid: true });
    }
  });

  it('prints the written paths in the JSON too, and refuses several models', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-exports-'));
    const csv = join(dir, 'cpu.csv');
    const { out } = run(['plan', SAMPLE, '--csv', csv, '--json']);
    expect(JSON.parse(out).written).toEqual([csv]);
    const several = run(['plan', SAMPLE, SAMPLE, '--save', join(dir, 'x.json')]);
    expect(several.code).toBe(2);
    expect(several.err).toBe('heapscope: --save writes the plan of one model; got 2 files\n');
    const unwritable = run(['plan', SAMPLE, '--header', join(dir, 'no/such/dir.h')]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.err).toMatch(/cannot write .*no\/such\/dir\.h: no such directory\n$/);
  });

  it('names region files after the region, before the extension', () => {
    expect(regionPath('out/plan.csv', 'ext-ram')).toBe('out/plan.ext-ram.csv');
    expect(regionPath('out.d/plan', 'l2 cache')).toBe('out.d/plan.l2_cache');
  });
});
