// sweep's notes on stderr for the options besides the swept dim: each
// point's inference already knows what they bind and what they ignore, yet
// sweep inferred the model once more per file only to name an option it
// ignored, and the model as the other options bind it twice more (to judge a
// tie to other dims, then a decode step). Now it infers each point once, and
// the model as the other options bind it once, when a dim is swept by name.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { run } from './testing/run-cli';

const inferences = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/model/infer/shapes', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/model/infer/shapes')>();
  return {
    ...original,
    inferShapes: (...args: Parameters<typeof original.inferShapes>) => {
      inferences.count += 1;
      return original.inferShapes(...args);
    },
  };
});

const SAMPLE = join(__dirname, '../public/sample.onnx');
const DIM = "--dim batchh=2 is ignored: no graph input has a dim named 'batchh' (did you mean 'batch'?)";

/** x: float32 [1, 4], every axis fixed, through a Relu: swept as x:1. */
function fixedModel(): string {
  const g = new GraphBuilder('fixed');
  const x = g.input('x', 'float32', [1, 4]);
  g.output(g.node('Relu', [x]), 'float32', undefined);
  const file = join(mkdtempSync(join(tmpdir(), 'heapscope-sweep-notes-')), 'fixed.onnx');
  writeFileSync(file, g.toBytes());
  return file;
}

describe("sweep's note for an option the model ignores", () => {
  beforeEach(() => {
    inferences.count = 0;
  });

  it('infers each point once, and the model as the other options bind it once, for a dim swept by name', () => {
    const { code, out, err } = run(['sweep', SAMPLE, '--dim', 'batch=1..8', '--points', '4', '--dim', 'batchh=2', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out).points).toHaveLength(4);
    expect(err).toBe(`heapscope: note: ${SAMPLE}: ${DIM}\n`);
    expect(inferences.count).toBe(4 + 1);
  });

  it("infers each point once for an input's fixed axes swept, and says what the other options ignore", () => {
    const model = fixedModel();
    const { code, out, err } = run(['sweep', model, '--dim', 'x:1=2..8', '--points', '3', '--dim', 'batchh=2', '--input', 'nope=3', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out).points.map((p: { value: number }) => p.value)).toEqual([2, 4, 8]);
    expect(err).toBe(
      [
        "--dim batchh=2 is ignored: no graph input has a dim named 'batchh'; the graph inputs have no symbolic dims",
        "--input nope=3 is ignored: no graph input is named 'nope'; the graph inputs are 'x'",
      ]
        .map((m) => `heapscope: note: ${model}: ${m}\n`)
        .join(''),
    );
    expect(inferences.count).toBe(3);
  });
});
