// A --dim, --b-dim, --shape or --input the model has no use for (a misspelled
// name) is ignored, and the plan is not the one asked for: --strict used to
// pass it (exit 0, stderr empty: only a diagnostic in the report said so), so
// a CI job guarding `--b-dim sequence_lenght=4096` judged the model at its
// default length. Now --strict refuses it with exit 2 naming the option, and
// without --strict a `heapscope: note:` line on stderr shows it in a CI log.
// inspect and sweep (no --strict) said nothing on stderr; they give the note too.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');

const DIM = "--dim batchh=2 is ignored: no graph input has a dim named 'batchh' (did you mean 'batch'?)";
const SHAPE = "--shape nonexist=1x2 is ignored: no tensor is named 'nonexist'";
const INPUT = "--input nope=3 is ignored: no graph input is named 'nope'; the graph inputs are 'image'";
const GIVEN = ['--dim', 'batch=1', '--dim', 'batchh=2', '--shape', 'nonexist=1x2', '--input', 'nope=3'];

describe('an option the model ignores', () => {
  it('fails plan --strict with exit 2, one line naming each option', () => {
    const { code, out, err } = run(['plan', SAMPLE, ...GIVEN, '--strict']);
    expect(out).toContain('peak'); // the plan is printed first, as for every --strict refusal
    expect(err).toBe([DIM, SHAPE, INPUT].map((m) => `heapscope: ${SAMPLE}: --strict: ${m}\n`).join(''));
    expect(code).toBe(2);
  });

  it('is a note on stderr without --strict, and the plan passes', () => {
    const { code, err } = run(['plan', SAMPLE, ...GIVEN, '--json']);
    expect(err).toBe([DIM, SHAPE, INPUT].map((m) => `heapscope: note: ${SAMPLE}: ${m}\n`).join(''));
    expect(code).toBe(0);
  });

  it('fails diff --strict for a misspelled --b-dim, naming side b', () => {
    const { code, err } = run(['diff', SAMPLE, SAMPLE, '--dim', 'batch=1', '--b-dim', 'batchh=4', '--budget', '8MiB', '--strict']);
    expect(err).toBe(`heapscope: ${SAMPLE} (b): --strict: ${DIM.replace('--dim batchh=2', '--b-dim batchh=4')}\n`);
    expect(code).toBe(2);
  });

  it('is a note of diff without --strict, said once for an option both sides ignore', () => {
    const { code, err } = run(['diff', SAMPLE, SAMPLE, '--dim', 'batch=1', '--dim', 'batchh=2', '--json']);
    expect(err).toBe(`heapscope: note: ${SAMPLE}: ${DIM}\n`);
    expect(code).toBe(0);
  });

  it('is a note of inspect, which prints the tensors as the model binds them', () => {
    const { code, out, err } = run(['inspect', SAMPLE, ...GIVEN, '--json']);
    expect(JSON.parse(out).dims.find((d: { name: string }) => d.name === 'batch').value).toBe(1);
    expect(err).toBe([DIM, SHAPE, INPUT].map((m) => `heapscope: note: ${SAMPLE}: ${m}\n`).join(''));
    expect(code).toBe(0);
  });

  it('is a note of sweep for an option besides the swept dim', () => {
    const { code, out, err } = run(['sweep', SAMPLE, '--dim', 'batch=1..2', '--dim', 'batchh=2', '--shape', 'nonexist=1x2', '--input', 'nope=3', '--json']);
    expect(JSON.parse(out).points.map((p: { value: number }) => p.value)).toEqual([1, 2]);
    expect(err).toBe([DIM, SHAPE, INPUT].map((m) => `heapscope: note: ${SAMPLE}: ${m}\n`).join(''));
    expect(code).toBe(0);
  });

  it('does not fail diff --strict for a saved plan whose own command gave it: this command did not', () => {
    const saved = join(mkdtempSync(join(tmpdir(), 'heapscope-ignored-')), 'a.plan.json');
    expect(run(['plan', SAMPLE, '--dim', 'batch=1', '--dim', 'batchh=2', '--save', saved]).code).toBe(0);
    const { code, err } = run(['diff', saved, SAMPLE, '--strict']);
    expect(err).toBe('');
    expect(code).toBe(0);
  });
});
