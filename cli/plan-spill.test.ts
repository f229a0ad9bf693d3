// `plan --spill on|off` and what the text says of the memory map: a model too
// large for SRAM alone fits once spilled to external RAM; too large for both,
// the DOES NOT FIT line is followed by the memory that would make it fit.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectorModel } from '../src/model/testing/assumption-models';
import { planJson, run } from './testing/run-cli';

const dir = mkdtempSync(join(tmpdir(), 'heapscope-spill-'));
const DETECTOR = join(dir, 'detector.onnx');
writeFileSync(DETECTOR, detectorModel());

interface Region {
  readonly name: string;
  readonly peak: number;
  readonly sizeLimit: number;
  readonly overBy: number;
  readonly spilled: number;
  readonly moved: { readonly written: number; readonly read: number };
}

describe('plan --spill', () => {
  it('off keeps every activation in SRAM; on spills and reports what moved where', () => {
    const off = planJson([DETECTOR, '--target', 'mcu', '--dim', 'image:2=320', '--dim', 'image:3=320', '--spill', 'off'], 3);
    const on = planJson([DETECTOR, '--target', 'mcu', '--dim', 'image:2=320', '--dim', 'image:3=320', '--spill', 'on']);
    const sramOff = (off.regions as Region[]).find((r) => r.name === 'sram')!;
    expect(sramOff.overBy).toBeGreaterThan(0);
    expect(off.spill).toBeUndefined();
    expect(on.fits).toBe(true);
    const [sram, ext] = on.regions as Region[];
    expect(sram!.peak).toBeLessThanOrEqual(sram!.sizeLimit);
    expect(sram!.spilled).toBe(0);
    expect(ext!.spilled).toBeGreaterThan(0);
    expect(sram!.moved.written + sram!.moved.read).toBeGreaterThan(0);
    expect(on.buffers.some((b: { wanted?: string; region: string }) => b.wanted === 'sram' && b.region === 'ext-ram')).toBe(true);
    expect(on.explanation.spilled.length).toBeGreaterThan(0);
    expect(on.lowerBound).toBe(off.lowerBound); // the bound of every split is the bound of the merged map
  });

  it('names the memory that would make a plan fit', () => {
    const big = run(['plan', DETECTOR, '--target', 'mcu', '--dim', 'image:2=2048', '--dim', 'image:3=2048']);
    expect(big.code).toBe(3);
    expect(big.out).toMatch(/DOES NOT FIT {2}region ext-ram needs/);
    expect(big.out).toMatch(/to fit {8}needs [\d.]+ [KMG]iB more ext-ram, or at least [\d.]+ [KMG]iB more sram/);
  });

  it('refuses a value other than on or off', () => {
    const bad = run(['plan', DETECTOR, '--target', 'mcu', '--spill', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--spill must be one of on, off, got "maybe"');
  });
});
