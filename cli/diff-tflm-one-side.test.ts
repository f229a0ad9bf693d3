// `diff --budget` when only one side is a TensorFlow Lite Micro plan: b on
// tflm is judged on its arena to declare whatever a is planned for (a CI
// baseline on cpu, an ONNX model), and the side that has an arena shows it,
// the other said to declare none. Skips when ../shared is absent.

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planJson, run } from './testing/run-cli';

const SPEECH = join(__dirname, '../../shared/models/tflite/tflm_micro_speech_quantized.tflite');
const MNIST = join(__dirname, '../../shared/models/winml_mnist.onnx');

describe.skipIf(!existsSync(SPEECH) || !existsSync(MNIST))('diff --budget with b alone on tflm', () => {
  const arena: number = planJson([SPEECH, '--target', 'tflm']).runtimePlan.arena;
  const budget = String(arena - 816);
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-one-side-'));
  const [cpuPlan, tflmPlan] = [join(dir, 'ms.cpu.plan.json'), join(dir, 'ms.tflm.plan.json')];
  expect(run(['plan', SPEECH, '--save', cpuPlan]).code).toBe(0);
  expect(run(['plan', SPEECH, '--target', 'tflm', '--save', tflmPlan]).code).toBe(0);

  it("judges b's arena to declare, not its peak, with a planned for cpu (--b-target tflm)", () => {
    const text = run(['diff', SPEECH, SPEECH, '--b-target', 'tflm', '--budget', budget]);
    expect(text.code).toBe(3);
    expect(text.out).toMatch(/\nbudget .*, judged on its arena to declare for the file as it is, an estimate\): b OVER by 816 B\n$/);
    expect(text.out).toContain('arena to declare, b only: ');
    expect(text.out).toContain('; a is no TensorFlow Lite Micro plan (target cpu) and declares no arena\n');
    const json = JSON.parse(run(['diff', SPEECH, SPEECH, '--b-target', 'tflm', '--budget', budget, '--json']).out);
    expect(json).toMatchObject({ overBudget: true, budgetVerdict: 'over', budgetJudged: { of: 'runtimeB.arenaAsIs', bytes: arena }, runtimeB: { arena, arenaAsIs: arena } });
    expect(json.runtime).toBeUndefined();
    expect(json.runtimeA).toBeUndefined();
  });

  it('judges it so against an ONNX model on tflm, and against a saved cpu plan', () => {
    const onnx = run(['diff', MNIST, SPEECH, '--target', 'tflm', '--budget', budget]);
    expect(onnx.code).toBe(3);
    expect(onnx.out).toContain(': b OVER by 816 B');
    expect(onnx.out).toContain('; a is no TensorFlow Lite Micro plan (not a .tflite model) and declares no arena\n');
    const saved = run(['diff', cpuPlan, tflmPlan, '--budget', budget]);
    expect(saved.code).toBe(3);
    expect(saved.out).toContain(': b OVER by 816 B');
    expect(saved.err).toContain(`needs ${arena.toLocaleString('en-US')} bytes, over the budget`);
  });

  it('judges b on its peak when a alone is on tflm, and shows the arena of a', () => {
    const json = JSON.parse(run(['diff', tflmPlan, cpuPlan, '--budget', String(arena), '--json']).out);
    expect(json.budgetJudged).toEqual({ of: 'peakB', bytes: json.peakB });
    expect(json.runtimeA).toMatchObject({ arenaAsIs: arena });
    expect(json.runtimeB).toBeUndefined();
    const text = run(['diff', tflmPlan, cpuPlan, '--budget', String(arena)]);
    expect(text.out).toContain('arena to declare, a only: ');
    expect(text.out).toContain('; b is no TensorFlow Lite Micro plan (target cpu) and declares no arena\n');
  });
});
