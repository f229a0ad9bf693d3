// plan --csv and solve --out write names with control characters (line breaks,
// escape sequences) as visible \uXXXX escapes, formula-guarded; solve reads them back as written.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMinimallocCsv } from '../src/planner/problem/minimalloc-csv';
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
    expect(readFileSync(csv, 'utf8')).toContain('"line one\\u000aline two, ""quoted"""');
    const solved = run(['solve', csv, '--json']);
    expect(solved.err).toBe('');
    expect(solved.code).toBe(0);
    expect(JSON.parse(solved.out).valid).toBe(true);
  });
});

// C0 and C1 controls, DEL and bidirectional overrides: none may reach a CSV cell raw.
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('control characters in CSV cells', () => {
  it('plan --csv writes a tensor name holding ESC and BEL escaped, behind the formula guard', () => {
    const g = new GraphBuilder('g');
    const x = g.input('x', 'float32', [1, 64]);
    const a = g.nodeOutputs('Relu', [x], ['+cmd|calc\x1b[31mRED\x07'])[0]!;
    g.output(g.node('Sigmoid', [g.node('Relu', [a])]), 'float32', [1, 64]);
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-csv-'));
    const model = join(dir, 'm.onnx');
    writeFileSync(model, g.toBytes({ opset: 17 }));
    const csv = join(dir, 'm.csv');
    expect(run(['plan', model, '--csv', csv]).code).toBe(0);
    const text = readFileSync(csv, 'utf8');
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).toContain("'+cmd|calc\\u001b[31mRED\\u0007,");
  });

  it('solve --out writes ids holding ESC and BEL escaped, and solve reads its own output back to the same ids', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-csv-'));
    const problem = join(dir, 'p.csv');
    const ids = ['a\x1b[2Jb', 'bell\x07', '=1+1', 'x\u202ey'];
    writeFileSync(problem, `id,lower,upper,size\n${ids.map((id, i) => `${id},${i},${i + 2},${8 * (i + 1)}`).join('\n')}\n`);
    const first = join(dir, 's1.csv');
    expect(run(['solve', problem, '--out', first]).code).toBe(0);
    const written = readFileSync(first, 'utf8');
    expect(written).not.toMatch(RAW_CONTROL);
    expect(written).toContain('a\\u001b[2Jb,');
    expect(parseMinimallocCsv(written).buffers.map((b) => b.name)).toEqual(ids);
    const second = join(dir, 's2.csv');
    expect(run(['solve', first, '--out', second]).code).toBe(0);
    expect(readFileSync(second, 'utf8')).toBe(written);
  });
});

describe('solve reads ids one-to-one', () => {
  it('solves a problem with ids =x and \'=x, and the text \\u0007 beside a bell, and reads its own solution back to the same ids', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-csv-'));
    const ids = ['=x', "'=x", '\\u0007', '\x07', "'plain"];
    const problem = join(dir, 'p.csv');
    writeFileSync(problem, `id,lower,upper,size\n${ids.map((id, i) => `${id},${i},${i + 2},8`).join('\n')}\n`);
    const first = join(dir, 's1.csv');
    const solved = run(['solve', problem, '--out', first]);
    expect(solved.err).toBe('');
    expect(solved.code).toBe(0);
    const written = readFileSync(first, 'utf8');
    expect(written).not.toMatch(RAW_CONTROL);
    expect(parseMinimallocCsv(written).buffers.map((b) => b.name)).toEqual(ids);
    const second = join(dir, 's2.csv');
    expect(run(['solve', first, '--out', second]).code).toBe(0);
    expect(readFileSync(second, 'utf8')).toBe(written);
  });
});
