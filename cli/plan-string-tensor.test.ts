// `plan` of a .tflite with a STRING activation: its size is known only at run
// time, from its contents, so no option sizes it, and a .tflite takes no
// --shape at all. The text, --strict's line and --json say so; they pointed
// at --shape, which does nothing for that file.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringTflite } from '../src/model/testing/string-tflite';
import { planJson, run } from './testing/run-cli';

/** x (float32) → CAST → s (STRING) → CAST → y (float32). */
const FILE = join(mkdtempSync(join(tmpdir(), 'heapscope-string-')), 'string.tflite');
writeFileSync(FILE, stringTflite());

const NOT_COUNTED = "a string's size is known only at run time: no option gives it, and the figures leave its bytes out (lower estimates by them)";

describe('a .tflite with a STRING activation', () => {
  it.each(['cpu', 'mcu'])('on %s: the unknown line says a string is sized at run time, and names no --shape', (target) => {
    const { code, out } = run(['plan', FILE, '--target', target]);
    expect(code).toBe(0);
    const line = out.split('\n').find((l) => l.startsWith('  unknown '));
    expect(line).toBe(`  unknown       1 tensor(s) of unknown size planned as 0 bytes (from CAST); first 's': string tensor: its size depends on its contents — ${NOT_COUNTED}`);
    expect(out).not.toContain('--shape');
  });

  it('--strict refuses it in one line that says why nothing given sizes it', () => {
    const { code, err } = run(['plan', FILE, '--target', 'cpu', '--strict']);
    expect(code).toBe(2);
    expect(err).toBe(`heapscope: ${FILE}: --strict: the plan is incomplete: 1 tensor(s) of unknown size, first 's' (string tensor: its size depends on its contents); ${NOT_COUNTED}\n`);
  });

  it('--json marks the tensor a string in assumptions.unknown', () => {
    const plan = planJson([FILE, '--target', 'cpu']);
    expect(plan.assumptions.unknown).toEqual([{ tensor: 's', op: 'CAST', reason: 'string tensor: its size depends on its contents', string: true }]);
    expect(JSON.stringify(plan)).not.toContain('--shape');
  });
});
