// A target file's pin rule that names no buffer of the model (a tensor name
// typed in another case, an op type that does not exist) was ignored without a
// word, even under --strict: the pinned tensor spilled to ext-ram and a CI job
// passed with exit 0. It is now a `heapscope: note:` line naming the rule, with
// the names close to the one it gives, and --strict refuses it with exit 2, as
// it refuses a --dim the model ignores.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presetTarget } from '../src/planner/targets/presets';
import { run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const file = tempFiles('target-pins');

/** The mcu preset as a target file with `pins` (and other planning settings). */
function pinnedTarget(name: string, pins: readonly object[], planning: object = {}): string {
  const mcu = presetTarget('mcu');
  const doc = { ...mcu, planning: { ...mcu.planning, ...planning, pins } };
  return file(name, new TextEncoder().encode(JSON.stringify(doc)));
}

/** The region the plan of SAMPLE for `target` gives buffer `name`. */
function regionOf(target: string, name: string): string {
  const plan = JSON.parse(run(['plan', SAMPLE, '--target', target, '--json']).out);
  return plan.buffers.find((b: { name: string }) => b.name === name).region;
}

const TYPO = "target pin planning.pins[0] (tensor 'Stem/conv_out' to 'sram') is ignored: no buffer is named 'Stem/conv_out' (did you mean 'stem/conv_out'";

describe("a target file's pin", () => {
  it('that names a buffer keeps it in its region, and says nothing', () => {
    const target = pinnedTarget('ok.json', [{ tensor: 'stem/conv_out', region: 'sram' }]);
    expect(regionOf(target, 'stem/conv_out')).toBe('sram');
    const { err } = run(['plan', SAMPLE, '--target', target, '--json']);
    expect(err).not.toContain('note');
  });

  it('that names no buffer is a note naming the rule and the close names, and the plan passes', () => {
    const target = pinnedTarget('typo.json', [{ tensor: 'Stem/conv_out', region: 'sram' }]);
    expect(regionOf(target, 'stem/conv_out')).toBe('ext-ram'); // the rule kept nothing: the tensor spilled as unpinned
    const { code, err } = run(['plan', SAMPLE, '--target', target, '--json']);
    expect(err).toContain(`heapscope: note: ${SAMPLE}: ${TYPO}`);
    expect(err.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(code).toBe(0);
  });

  it('that names no buffer fails plan --strict with exit 2', () => {
    const target = pinnedTarget('typo.json', [{ tensor: 'Stem/conv_out', region: 'sram' }]);
    const { code, err } = run(['plan', SAMPLE, '--target', target, '--dim', 'batch=1', '--strict']);
    expect(err).toContain(`heapscope: ${SAMPLE}: --strict: ${TYPO}`);
    expect(err).not.toContain('note');
    expect(code).toBe(2);
  });

  it('of an op type no op has is named by its place in the file, with the op types close to it', () => {
    const target = pinnedTarget('op.json', [{ tensor: 'block7/project_out', region: 'sram' }, { opType: 'Convv', region: 'ext-ram' }]);
    const { code, err } = run(['plan', SAMPLE, '--target', target, '--json']);
    expect(err).toBe(`heapscope: note: ${SAMPLE}: target pin planning.pins[1] (op type 'Convv' to 'ext-ram') is ignored: no op of type 'Convv' makes a buffer (did you mean 'Conv'?)\n`);
    expect(code).toBe(0);
  });

  it('fails diff --strict on the side planned with it', () => {
    const target = pinnedTarget('typo.json', [{ tensor: 'Stem/conv_out', region: 'sram' }]);
    const { code, err } = run(['diff', SAMPLE, SAMPLE, '--dim', 'batch=1', '--b-target', target, '--strict', '--json']);
    expect(err).toContain(`heapscope: ${SAMPLE} (b): --strict: ${TYPO}`);
    expect(err).not.toContain('(a)');
    expect(code).toBe(2);
  });

  it('shows the name it gives with its control characters escaped', () => {
    const target = pinnedTarget('esc.json', [{ tensor: 'x\u001b[2Jy\nz', region: 'sram' }]);
    const { err } = run(['plan', SAMPLE, '--target', target, '--json']);
    expect(err).toBe(`heapscope: note: ${SAMPLE}: target pin planning.pins[0] (tensor 'x\\u001b[2Jy\\u000az' to 'sram') is ignored: no buffer is named 'x\\u001b[2Jy\\u000az'\n`);
  });
});

// A pin acts only in the spill: on a plan that does not spill, a pin that names a buffer kept nothing anywhere, without a word.
describe("a target file's pins on a plan that does not spill", () => {
  const PIN = [{ tensor: 'stem/conv_out', region: 'ext-ram' }];
  const SPILL_OFF = "the target's pin (planning.pins) is not applied: the plan does not spill, as spilling is off (--spill off or the target's planning.spill): every activation stays in 'sram'";
  const ONE_REGION = "the target's pin (planning.pins) is not applied: the plan does not spill, as its memory map has one region, 'sram'";

  it('with --spill off are a note, with or without --strict, which does not refuse the plan asked for', () => {
    const target = pinnedTarget('pin.json', PIN);
    const plain = run(['plan', SAMPLE, '--target', target, '--spill', 'off', '--json']);
    expect(plain.err).toContain(`heapscope: note: ${SAMPLE}: ${SPILL_OFF}\n`);
    const strict = run(['plan', SAMPLE, '--target', target, '--spill', 'off', '--dim', 'batch=1', '--strict']);
    expect(strict.err).toContain(`heapscope: note: ${SAMPLE}: ${SPILL_OFF}\n`);
    expect(strict.err).not.toContain('--strict:');
    expect(strict.code).toBe(3); // over sram's limit without spilling, as without pins
  });

  it('on a memory map of one region are a note, and fail plan --strict with exit 2', () => {
    const target = pinnedTarget('one.json', [{ tensor: 'stem/conv_out', region: 'sram' }], { memoryMap: ['sram'] });
    expect(run(['plan', SAMPLE, '--target', target, '--json']).err).toContain(`heapscope: note: ${SAMPLE}: ${ONE_REGION}\n`);
    const { code, err } = run(['plan', SAMPLE, '--target', target, '--dim', 'batch=1', '--strict']);
    expect(err).toContain(`heapscope: ${SAMPLE}: --strict: ${ONE_REGION}\n`);
    expect(code).toBe(2);
  });

  it('with --b-spill off are a note of diff', () => {
    const target = pinnedTarget('pin.json', PIN);
    const { err } = run(['diff', SAMPLE, SAMPLE, '--target', target, '--b-spill', 'off', '--json']);
    expect(err).toContain(`heapscope: note: ${SAMPLE}: ${SPILL_OFF}\n`);
  });

  it('and a pin to a region outside the memory map is refused as the file is read', () => {
    const mcu = presetTarget('mcu');
    const doc = { ...mcu, planning: { ...mcu.planning, memoryMap: ['sram'], pins: PIN } };
    const target = file('outside.json', new TextEncoder().encode(JSON.stringify(doc)));
    const { code, err } = run(['plan', SAMPLE, '--target', target]);
    expect(err).toBe(`heapscope: ${target}: planning.pins[0].region must name a region of the memory map (sram), got "ext-ram"\n`);
    expect(code).toBe(2);
  });
});

describe("sweep with a target file's pins", () => {
  it('says a pin that names no buffer once for the model, as plan does, not once per point', () => {
    const target = pinnedTarget('typo.json', [{ tensor: 'Stem/conv_out', region: 'sram' }]);
    const { code, err } = run(['sweep', SAMPLE, '--dim', 'batch=1..8', '--target', target, '--json']);
    expect(err).toContain(`heapscope: note: ${SAMPLE}: ${TYPO}`);
    expect(err.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(code).toBe(0);
  });

  it('says pins left unapplied by --spill off once for the model', () => {
    const target = pinnedTarget('pin.json', [{ tensor: 'stem/conv_out', region: 'sram' }]);
    const { err } = run(['sweep', SAMPLE, '--dim', 'batch=1..8', '--target', target, '--spill', 'off', '--json']);
    expect(err.split('\n').filter((l) => l.includes("the target's pin (planning.pins) is not applied"))).toHaveLength(1);
  });
});
