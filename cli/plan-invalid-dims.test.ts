// A dim the file declares as a number that is no size (past 2^53 − 1, or below
// zero) is never given a default: the tensor's size is unknown, the plan is
// incomplete and the C header refuses it. -1, the way Paddle's exporter writes
// a dynamic dim, is read as an unnamed dim and says so.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder, type DimSpec } from '../src/model/testing/onnx-writer';
import { planJson, run } from './testing/run-cli';

const DIR = mkdtempSync(join(tmpdir(), 'heapscope-invalid-dims-'));

/** x[dim, 2] -> Relu -> y[dim, 2], both declared with `dim`. */
function reluModel(name: string, dim: DimSpec): string {
  const g = new GraphBuilder('g');
  g.output(g.node('Relu', [g.input('x', 'float32', [dim, 2])]), 'float32', [dim, 2]);
  const path = join(DIR, `${name}.onnx`);
  writeFileSync(path, g.toBytes({ opset: 13 }));
  return path;
}

interface Diagnostic {
  readonly code: string;
  readonly message: string;
}

describe('plan of a dim declared as a number that is no size', () => {
  it.each([
    ['2^53 + 1', 2n ** 53n + 1n, '9007199254740993'],
    ['2^62', 2n ** 62n, '4611686018427387904'],
    ['2^63 − 1', 2n ** 63n - 1n, '9223372036854775807'],
    ['-5', -5, '-5'],
  ])('%s: the tensor has no size, the plan is incomplete and the header has an #error', (label, dim, text) => {
    const path = reluModel(`dim-${label.replace(/\W/g, '_')}`, dim);
    const header = join(DIR, `${label.replace(/\W/g, '_')}.h`);
    const plan = planJson([path, '--header', header]);
    expect(plan.complete).toBe(false);
    expect(plan.assumptions.dims).toEqual([]);
    expect(plan.assumptions.unknown.map((u: { tensor: string }) => u.tensor)).toContain('x');
    const x = plan.assumptions.unknown.find((u: { tensor: string }) => u.tensor === 'x');
    expect(x.reason).toContain(text);
    const invalid = plan.diagnostics.filter((d: Diagnostic) => d.code === 'invalid-dim');
    expect(invalid.map((d: Diagnostic) => d.message).join('\n')).toContain(`'x' declares axis 0 as ${text}`);
    expect(readFileSync(header, 'utf8')).toMatch(/^#error "heapscope: the plan is incomplete/m);
  });

  it('--strict refuses it, and --shape gives the size', () => {
    const path = reluModel('strict', 2n ** 53n + 1n);
    expect(run(['plan', path, '--strict']).code).toBe(2);
    const shaped = planJson([path, '--shape', 'x=3x2']);
    expect(shaped.complete).toBe(true);
    expect(shaped.buffers.find((b: { name: string }) => b.name === 'x').size).toBe(64);
  });

  it('--dim cannot bind it: the line says to give the shape', () => {
    const path = reluModel('bind', 2n ** 62n);
    const run0 = run(['plan', path, '--dim', 'x:0=3', '--json']);
    expect(run0.code).toBe(0);
    // the option ignored is a note on stderr, so a CI log shows it
    expect(run0.err).toBe(`heapscope: note: ${path}: --dim x:0=3 is ignored: axis 0 of input 'x' is declared as 4611686018427387904, which is no size: give the input's shape with --shape\n`);
    const plan = JSON.parse(run0.out);
    const unknownDim = plan.diagnostics.find((d: Diagnostic) => d.code === 'unknown-dim');
    expect(unknownDim.message).toContain('which is no size: give the input');
    expect(plan.complete).toBe(false);
  });

  it("-1 is read as an unnamed dim, with a default the plan lists, and the diagnostic says so", () => {
    const plan = planJson([reluModel('open', -1)]);
    expect(plan.complete).toBe(true);
    expect(plan.assumptions.dims.map((d: { name: string; value: number }) => [d.name, d.value])).toEqual([['x:0', 1]]);
    const invalid = plan.diagnostics.find((d: Diagnostic) => d.code === 'invalid-dim');
    expect(invalid.message).toContain("'x' declares axis 0 as -1, which is no size: read as an unnamed dim");
  });
});
