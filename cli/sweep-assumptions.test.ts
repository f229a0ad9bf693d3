// `sweep` states what its points rest on as `plan` states it for one plan:
// default dims, If branches chosen without the condition's value, a KV
// cache's past inputs reused after their last read (and the bytes a runtime
// keeping them adds), graph I/O owned by the application. It showed only the
// figures, so a decoder's curve read as the peak of every runtime.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { planJson, run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';

const GPT2 = join(__dirname, '../../shared/models/tiny-random-gpt2-fp32-past.onnx');
const file = tempFiles('sweep-assumptions');

/** One branch of the If: x [N, 8] -> MatMul(width) -> ReduceSum -> [N, 1]. */
function branch(name: string, width: number): GraphBuilder {
  const b = new GraphBuilder(name);
  const h = b.nodeOutputs('MatMul', ['x', b.initializer(`${name}.w`, 'float32', [8, width])], [`${name}.h`], {}, { name: `${name}/MatMul` })[0]!;
  const p = b.nodeOutputs('ReduceSum', [h], [`${name}.p`], { keepdims: 1, axes: [1] }, { name: `${name}/Sum` })[0]!;
  b.output(p, 'float32', ['N', 1]);
  return b;
}

/** x [N, 8] through an If on graph input `sr` whose value is not given: the plan covers the larger branch. */
function ifModel(): string {
  const g = new GraphBuilder('if-dim');
  g.input('x', 'float32', ['N', 8]);
  const sr = g.input('sr', 'int64', [1]);
  const c = g.node('Equal', [sr, g.initializer('k16000', 'int64', [1], [16000])], {}, { name: 'is16k' });
  g.nodeOutputs('If', [c], ['y'], { then_branch: branch('wide', 64), else_branch: branch('narrow', 16) }, { name: 'pick/If' });
  g.output('y', 'float32', ['N', 1]);
  return file('if-dim.onnx', g.toBytes({ opset: 13 }));
}

function sweepJson(argv: readonly string[]): ReturnType<typeof JSON.parse> {
  const { code, out, err } = run(['sweep', ...argv, '--json']);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out);
}

describe('sweep states the If branches it assumes', () => {
  it('says the branch taken without the condition, as plan does, in text and --json', () => {
    const model = ifModel();
    const planned = planJson([model, '--dim', 'N=4']);
    expect(planned.assumptions.branches).toHaveLength(1);
    const text = run(['sweep', model, '--dim', 'N=1..4']).out;
    expect(text).toContain(`  branch        pick/If: ${planned.assumptions.branches[0].taken} at every value — ${planned.assumptions.branches[0].reason}\n`);
    const json = sweepJson([model, '--dim', 'N=1..4']);
    expect(json.assumptions.branches).toEqual([{ ...planned.assumptions.branches[0], values: [1, 2, 4] }]);
    expect(json.assumed).toEqual([]);
  });
});

describe.skipIf(!existsSync(GPT2))('sweep states what a decoder plan assumes', () => {
  it('names the default dims of a sequence sweep: the batch and a past length of 0', () => {
    const argv = [GPT2, '--dim', 'seq_len=1..8', '--points', '2'];
    const text = run(['sweep', ...argv]).out;
    expect(text).toMatch(/^ {2}assumes {7}batch_size=1 at every value \(input_ids:0, .*; default: batch axis: one sample\) — set with --dim$/m);
    expect(text).toMatch(/^ {2}assumes {7}past_seq_len=0 at every value \(past_0:3, .*; default: past length: the first step, with no cache yet\) — set with --dim$/m);
    const json = sweepJson(argv);
    expect(json.assumptions.dims.map((d: { name: string }) => d.name)).toEqual(expect.arrayContaining(['batch_size', 'past_seq_len']));
    expect(json.assumptions.dims.find((d: { name: string }) => d.name === 'past_seq_len')).toMatchObject({ value: 0, values: [1, 8], dimValues: [0, 0] });
  });

  it('gives the bytes a runtime keeping the past inputs adds at the largest value, as plan does', () => {
    const argv = [GPT2, '--dim', 'past_seq_len=0..2048', '--points', '3'];
    const plan = planJson([GPT2, '--dim', 'past_seq_len=2048', '--dim', 'seq_len=1']);
    const kept = plan.explanation.kvPastKept;
    expect(kept.extra).toBeGreaterThan(0);
    const json = sweepJson(argv);
    const last = json.points.at(-1);
    expect(last.value).toBe(2048);
    expect(last.peak).toBe(plan.peak);
    expect(last.kvPastKept).toEqual(kept);
    expect(json.points.map((p: { kvPastKept?: unknown }) => p.kvPastKept !== undefined)).toEqual([false, false, true]);
    const text = run(['sweep', ...argv]).out;
    expect(text).toContain('holds past and present at once: at past_seq_len=2048 (the largest value), 2.00 MiB more, a peak of 5.01 MiB\n');
  });

  it('says the graph I/O, KV cache among it, is owned by the application and outside the peaks', () => {
    const argv = [GPT2, '--dim', 'past_seq_len=0..2048', '--points', '3', '--io', 'application'];
    const plan = planJson([GPT2, '--dim', 'past_seq_len=2048', '--dim', 'seq_len=1', '--io', 'application']);
    const json = sweepJson(argv);
    expect(json.points.at(-1).io).toEqual({ owner: 'application', bytes: plan.storage.io.bytes, inArena: plan.storage.io.inArena, kvBytes: plan.storage.io.kvBytes });
    const text = run(['sweep', ...argv]).out;
    expect(text).toContain('  graph I/O     owned by the application, outside the arena: the peaks leave it out; at past_seq_len=2048, 5.01 MiB of inputs and outputs in all over the run, 5.00 MiB of them KV cache\n');
  });
});
