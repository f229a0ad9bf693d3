// Every per-region field the README and DESIGN.md list is in the JSON, null
// when it has no value: `sizeLimit` and `moved` of plan --json, `sizeLimitA`
// and `sizeLimitB` of diff --json.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleModel } from '../src/model/testing/sample-model';
import { planJson, run } from './testing/run-cli';

const MODEL = join(mkdtempSync(join(tmpdir(), 'heapscope-json-fields-')), 'm.onnx');
writeFileSync(MODEL, buildSampleModel());

describe('documented JSON fields without a value are null, not left out', () => {
  it('plan --json on cpu: each region has sizeLimit null, overBy 0 and moved null', () => {
    const plan = planJson([MODEL]);
    for (const r of plan.regions) {
      expect(r).toHaveProperty('sizeLimit', null);
      expect(r).toHaveProperty('overBy', 0);
      expect(r).toHaveProperty('moved', null);
    }
  });

  it('plan --json on mcu: a region with a limit has it, and moved its bytes', () => {
    const plan = planJson([MODEL, '--target', 'mcu']);
    const sram = plan.regions.find((r: { name: string }) => r.name === 'sram');
    expect(sram.sizeLimit).toBe(512 * 1024);
    expect(sram.moved).toEqual({ written: expect.any(Number), read: expect.any(Number) });
  });

  it('diff --json: sizeLimitA and sizeLimitB are null where that side has no limit', () => {
    const result = run(['diff', MODEL, MODEL, '--b-target', 'mcu', '--json']);
    expect(result.code).toBe(0);
    const diff = JSON.parse(result.out);
    const ram = diff.regions.find((r: { name: string }) => r.name === 'ram');
    expect(ram).toHaveProperty('sizeLimitA', null);
    expect(ram).toHaveProperty('sizeLimitB', null);
    const sram = diff.regions.find((r: { name: string }) => r.name === 'sram');
    expect(sram).toHaveProperty('sizeLimitA', null);
    expect(sram.sizeLimitB).toBe(512 * 1024);
  });
});
