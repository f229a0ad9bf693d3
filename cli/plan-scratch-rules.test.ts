// A target's scratch rule that gives no size: an unknown size (the plan is
// incomplete, --strict refuses it), or, when it can give no size for any op,
// a target refused as it is read.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { planJson, run } from './testing/run-cli';

const dir = mkdtempSync(join(tmpdir(), 'heapscope-scratch-'));
function file(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function convModel(): string {
  const g = new GraphBuilder('conv');
  const y = g.node('Conv', [g.input('x', 'float32', [1, 4, 8, 8]), g.initializer('w', 'float32', [4, 4, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: 'conv' });
  g.output(g.node('Relu', [y]), 'float32', [1, 4, 8, 8]);
  return file('conv.onnx', g.toBytes());
}

const target = (formula: string): string =>
  file(`t${Math.random().toString(36).slice(2)}.json`, JSON.stringify({ name: 't', regions: [{ name: 'sram', alignment: 16 }], scratch: { rules: [{ opType: 'Conv', name: 'im2col', formula }] } }));

describe('a scratch rule whose size cannot be evaluated', () => {
  it('makes the plan incomplete, lists the scratch among the unknowns, and --strict exits 2', () => {
    const model = convModel();
    const known = planJson([model, '--target', target('in1[1] * 100')]);
    expect(known.complete).toBe(true);
    const plan = planJson([model, '--target', target('in9[7] * 2')]);
    expect(plan.complete).toBe(false);
    expect(plan.assumptions.unknown).toEqual([
      { tensor: 'conv:im2col', op: 'Conv', reason: expect.stringMatching(/in9\[7\] \* 2.*the op has no input 9/), scratch: true },
    ]);
    const text = run(['plan', model, '--target', target('in9[7] * 2')]);
    expect(text.out).toMatch(/peak .*, a lower estimate: some sizes are unknown/);
    expect(text.out).toMatch(/unknown +1 scratch buffer\(s\) of unknown size planned as 0 bytes .*fix the target's scratch rule/);
    const strict = run(['plan', model, '--target', target('in9[7] * 2'), '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.err).toMatch(/--strict: the plan is incomplete: 1 scratch buffer\(s\) of unknown size, first 'conv:im2col'/);
  });

  it('a formula past 2^53 − 1 bytes for an op is that scratch unknown, naming the rule, its size readable', () => {
    const formula = 'in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]*in0[1]';
    const plan = planJson([convModel(), '--target', target(formula)]);
    expect(plan.complete).toBe(false);
    expect(plan.assumptions.unknown).toEqual([
      { tensor: 'conv:im2col', op: 'Conv', reason: expect.stringMatching(/^scratch "im2col" \(scratch\.rules\[0\]\) of Conv: .*gives about 1\.15 × 10\^18 bytes, past 2\^53 − 1/), scratch: true },
    ]);
    expect(JSON.stringify(plan)).not.toMatch(/\de\+\d/);
  });

  it.each([
    ['1/0', /"1\/0" can never give a size: the formula divides by zero/],
    ['in0[1] * (4 / (2 - 2))', /can never give a size: the formula divides by zero/],
    ['2 - 5', /can never give a size: the formula gives -3, not a size/],
  ])('refuses a target whose formula %s can give no size for any op, with one line', (formula, message) => {
    const result = run(['plan', convModel(), '--target', target(formula)]);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err.trim().split('\n')).toHaveLength(1);
    expect(result.err).toMatch(message);
  });
});
