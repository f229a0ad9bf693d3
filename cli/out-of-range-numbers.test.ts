// A number past the doubles in a JSON input (1e400, which JSON.parse reads as
// Infinity) is named as such in the refusal, never quoted back as null.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');

describe('a number out of range in a JSON input', () => {
  it('a target profile: sizeLimit 1e400 is said to be out of range', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-range-'));
    const target = join(dir, 't.json');
    writeFileSync(target, '{"regions":[{"name":"sram","sizeLimit":1e400,"alignment":16,"fast":true}]}');
    const r = run(['plan', SAMPLE, '--target', target]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('regions[0].sizeLimit must be a number, got Infinity (a number out of range)');
    expect(r.err).not.toContain('got null');
  });

  it('a saved plan: plan.peak -1e400 is said to be out of range', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-range-'));
    const [a, b] = [join(dir, 'a.plan.json'), join(dir, 'b.plan.json')];
    expect(run(['plan', SAMPLE, '--save', a]).code).toBe(0);
    const text = readFileSync(a, 'utf8');
    const broken = text.replace(/"plan":\{"peak":\d+/, '"plan":{"peak":-1e400');
    expect(broken).not.toBe(text);
    writeFileSync(b, broken);
    const r = run(['diff', a, b]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('plan.peak must be a number, got -Infinity (a number out of range)');
  });
});
