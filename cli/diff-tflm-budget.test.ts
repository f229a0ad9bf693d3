// `diff --budget` on target tflm judges b's tensor arena to declare, which
// TensorFlow Lite Micro sizes from the file's tensor shapes and types alone: a
// tensor heapscope's own inference cannot size (a RESOURCE handle) leaves the
// plan incomplete, but never the arena, so the verdict is over or within
// (with every kernel's scratch requests known). The arena judged is the file's
// as it is, what TFLM plans for the file given.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTflite } from '../src/model/testing/tflite-writer';
import { planJson, run } from './testing/run-cli';

/** A resource variable read back: VAR_HANDLE's output is a RESOURCE tensor, which TFLM allocates as 4 bytes. */
const model = writeTflite({
  subgraphs: [
    {
      tensors: [{ shape: [1, 64], type: 'INT8', name: 'input' }, { shape: [], type: 'RESOURCE', name: 'handle' }, { shape: [1, 64], type: 'INT8', name: 'output' }],
      inputs: [0],
      outputs: [2],
      operators: [
        { op: 'VAR_HANDLE', inputs: [], outputs: [1] },
        { op: 'ASSIGN_VARIABLE', inputs: [1, 0], outputs: [] },
        { op: 'READ_VARIABLE', inputs: [1], outputs: [2] },
      ],
    },
  ],
});
const file = join(mkdtempSync(join(tmpdir(), 'heapscope-diff-tflm-')), 'resource.tflite');
writeFileSync(file, model);

describe('diff --budget on target tflm', () => {
  const plan = planJson([file, '--target', 'tflm']);
  const arena: number = plan.runtimePlan.arena;

  it('has a plan with a size unknown to inference and an arena TFLM sizes in full', () => {
    expect(plan.complete).toBe(false);
    expect(plan.assumptions.unknown).toEqual([expect.objectContaining({ tensor: 'handle', op: 'VAR_HANDLE' })]);
    // the RESOURCE handle is one of TFLM's buffers, 4 B rounded up to 16
    expect(plan.buffers.find((b: { name: string }) => b.name === 'handle')).toMatchObject({ size: 16 });
    expect(arena).toBeGreaterThan(0);
  });

  it('calls b within the budget its arena fits, not "within only as far as known"', () => {
    const json = run(['diff', file, file, '--target', 'tflm', '--budget', String(arena), '--json']);
    expect(json.code).toBe(0);
    expect(json.err).toBe('');
    expect(JSON.parse(json.out)).toMatchObject({ completeB: false, budget: arena, overBudget: false, budgetVerdict: 'within' });
    const text = run(['diff', file, file, '--target', 'tflm', '--budget', String(arena)]);
    expect(text.err).toBe('');
    expect(text.out).toMatch(/\nbudget .* bytes, judged on its arena to declare for the file as it is, an estimate\): b within, 0 B to spare\n$/);
  });

  it('calls b over a budget a byte short of its arena, and exits 3', () => {
    const over = run(['diff', file, file, '--target', 'tflm', '--budget', String(arena - 1), '--json']);
    expect(over.code).toBe(3);
    expect(JSON.parse(over.out)).toMatchObject({ overBudget: true, budgetVerdict: 'over' });
    expect(over.err).toBe(`heapscope: ${file} needs ${arena.toLocaleString('en-US')} bytes, over the budget of ${(arena - 1).toLocaleString('en-US')} bytes by 1\n`);
  });
});
