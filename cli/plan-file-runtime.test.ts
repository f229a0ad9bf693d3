// A saved plan's runtimePlan is checked as its other fields are: an edited
// arena is refused in one line naming the field (exit 2), never judged by
// `diff --budget` as NaN nor a crash. Skips when ../shared is absent.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const HELLO = join(__dirname, '../../shared/models/tflite/tflm_hello_world_int8.tflite');

describe.skipIf(!existsSync(HELLO))('a saved plan with its runtimePlan edited', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-runtime-plan-'));
  const saved = join(dir, 'hello.plan.json');
  expect(run(['plan', HELLO, '--target', 'tflm', '--save', saved]).code).toBe(0);
  const edited = (name: string, edit: (plan: Record<string, unknown>, runtime: Record<string, unknown>) => void) => {
    const doc = JSON.parse(readFileSync(saved, 'utf8'));
    edit(doc.plan, doc.plan.runtimePlan);
    const file = join(dir, `${name}.plan.json`);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };

  it('reads as saved', () => {
    expect(run(['diff', saved, saved, '--budget', '1MiB']).code).toBe(0);
  });

  it.each([
    ['arena', (_: unknown, r: Record<string, unknown>) => (r.arena = 'big'), 'plan.runtimePlan.arena must be a whole number from 0 to 2^53 − 1, got "big"'],
    ['empty', (p: Record<string, unknown>) => (p.runtimePlan = {}), 'plan.runtimePlan.runtime must be "tflm", it is missing'],
    ['null', (p: Record<string, unknown>) => (p.runtimePlan = null), 'plan.runtimePlan must be an object, got null'],
    ['refused', (_: unknown, r: Record<string, unknown>) => (r.refused = 'yes'), 'plan.runtimePlan.refused must be an array, got "yes"'],
    ['planned', (_: unknown, r: Record<string, unknown>) => ((r.planned as Record<string, unknown>).arena = -1), 'plan.runtimePlan.planned.arena must be a whole number from 0 to 2^53 − 1, got -1'],
    ['small', (_: unknown, r: Record<string, unknown>) => (r.arena = 16), 'plan.runtimePlan.arena must be at least its head and tail'],
    ['gone', (p: Record<string, unknown>) => delete p.runtimePlan, "plan.runtimePlan is missing: a plan for a target whose runtime is tflm has TensorFlow Lite Micro's plan"],
  ])('refuses runtimePlan %s in one line naming the field', (name, edit, message) => {
    const file = edited(name, edit);
    for (const args of [[saved, file], [file, saved]]) {
      const { code, out, err } = run(['diff', ...args, '--budget', '1MiB']);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toContain(`heapscope: ${file}: plan file field ${message}`);
      expect(err.trim().split('\n')).toHaveLength(1);
    }
  });
});
