// diff counts a buffer that kept its size but not its place by the way it
// moved: to another region, as the cause of a spill counts them, or to
// another offset in the same region; the words say which.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');

interface Change {
  readonly status: string;
  readonly regionA?: string;
  readonly regionB?: string;
  readonly move?: string;
}

describe('diff: buffers moved', () => {
  it('spill on against off: the count moved between regions is the cause\'s, and those that changed only offset are counted apart', () => {
    const args = ['diff', SAMPLE, SAMPLE, '--target', 'mcu', '--b-spill', 'off'];
    const diff = JSON.parse(run([...args, '--json']).out) as { buffers: Change[]; causes: { kind: string; summary: string }[] };
    const moved = diff.buffers.filter((b) => b.status === 'moved');
    const between = moved.filter((b) => b.regionA !== b.regionB);
    const within = moved.filter((b) => b.regionA === b.regionB);
    expect(between.length).toBeGreaterThan(0);
    expect(within.length).toBeGreaterThan(0);
    expect(moved.map((b) => b.move)).toEqual(moved.map((b) => (b.regionA !== b.regionB ? 'between-regions' : 'within-region')));
    expect(diff.buffers.filter((b) => b.status !== 'moved').every((b) => b.move === undefined)).toBe(true);
    const cause = diff.causes.find((c) => c.kind === 'region-moved')!;
    expect(cause.summary).toContain(`${between.length} buffers moved from region ext-ram to sram`);

    const text = run(args).out;
    expect(text).toMatch(new RegExp(`^buffers: .*, 0 gone, ${between.length} moved between regions, ${within.length} moved within a region, \\d+ same$`, 'm'));
  });
});
