// plan --csv writes tensor names holding line breaks quoted; solve reads them back.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { run } from './testing/run-cli';

describe('plan --csv then solve', () => {
  it('round-trips a tensor name holding a newline', () => {
    const g = new GraphBuilder('g');
    const x = g.input('x', 'float32', [1, 64]);
    const a = g.nodeOutputs('Relu', [x], ['line one\nline two, "quoted"'])[0]!;
    g.output(g.node('Sigmoid', [g.node('Relu', [a])]), 'float32', [1, 64]);
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-csv-'));
    const model = join(dir, 'm.onnx');
    writeFileSync(model, g.toBytes({ opset: 17 }));
    const csv = join(dir, 'm.csv');
    const plan = run(['plan', model, '--csv', csv]);
    expect(plan.err).toBe('');
    expect(readFileSync(csv, 'utf8')).toContain('"line one\nline two, ""quoted"""');
    const solved = run(['solve', csv, '--json']);
    expect(solved.err).toBe('');
    expect(solved.code).toBe(0);
    expect(JSON.parse(solved.out).valid).toBe(true);
  });
});
