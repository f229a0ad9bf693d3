// `diff` says when a side does not fit its target: a region over its size
// limit is named in the text (as `plan` names it) and in the JSON (`fitsA`,
// `fitsB`, each region's limits and bytes over), beside a --budget verdict
// that judges the peak alone.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presetTarget } from '../src/planner/targets/presets';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const dir = mkdtempSync(join(tmpdir(), 'heapscope-diff-fits-'));
// mcu with a fast region of 256 KiB: with --spill off the whole plan stays there, far over it
const mcu = presetTarget('mcu');
const small = join(dir, 'small-sram.json');
writeFileSync(small, JSON.stringify({ ...mcu, name: 'small-sram', regions: mcu.regions.map((r) => (r.name === 'sram' ? { ...r, sizeLimit: 256 * 1024 } : r)) }));

describe('diff and region size limits', () => {
  it('names b over a region limit in the text, beside a budget it is within', () => {
    const r = run(['diff', SAMPLE, SAMPLE, '--target', small, '--b-spill', 'off', '--budget', '8MiB']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}b DOES NOT FIT {2}region sram needs [\d.]+ [KM]iB, [\d.]+ [KM]iB over its 256 KiB limit$/m);
    expect(r.out).not.toMatch(/^ {2}a DOES NOT FIT/m);
    expect(r.out).toMatch(/^budget 8\.00 MiB \(8,388,608 bytes\): b within, [\d.]+ MiB to spare; but b does not fit its target \(region sram over its limit\)$/m);
  });

  it('gives fitsA, fitsB and each region`s limits and bytes over in the JSON', () => {
    const r = run(['diff', SAMPLE, SAMPLE, '--target', small, '--b-spill', 'off', '--json']);
    expect(r.code).toBe(0);
    const diff = JSON.parse(r.out);
    expect(diff.fitsA).toBe(true);
    expect(diff.fitsB).toBe(false);
    const sram = diff.regions.find((x: { name: string }) => x.name === 'sram');
    expect(sram).toMatchObject({ sizeLimitA: 262144, sizeLimitB: 262144, overByA: 0 });
    expect(sram.overByB).toBe(sram.peakB - 262144);
  });

  it('says nothing of limits when both sides fit', () => {
    const r = run(['diff', SAMPLE, SAMPLE, '--target', small]);
    expect(r.out).not.toContain('DOES NOT FIT');
    expect(JSON.parse(run(['diff', SAMPLE, SAMPLE, '--target', small, '--json']).out)).toMatchObject({ fitsA: true, fitsB: true });
  });
});
