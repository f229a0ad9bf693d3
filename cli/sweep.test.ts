// `heapscope sweep`: the curve of a model's plan over one dim, and the largest
// value that fits a budget, checked against direct `plan` runs on both sides of
// the crossing. Skips with a notice when ../shared is absent.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { planJson, run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';

const MODELS = join(__dirname, '../../shared/models');
const have = existsSync(MODELS);
if (!have) console.log(`cli sweep: ${MODELS} is absent; skipping`);
const GPT2 = join(MODELS, 'tiny-random-gpt2-fp32-past.onnx');
const LLAMA = join(MODELS, 'tiny-llama-fp16/model.onnx');
const LLAMA_FP32 = join(MODELS, 'tiny-llama-fp32-missing-external-data.onnx');
const SQUEEZENET = join(MODELS, 'light_squeezenet.onnx');

function sweepJson(argv: readonly string[]): ReturnType<typeof JSON.parse>[] {
  const { code, out, err } = run(['sweep', ...argv, '--json']);
  expect(err).toBe('');
  expect(code).toBe(0);
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

describe.skipIf(!have)('heapscope sweep', () => {
  it('GPT-2 over seq_len 1..4096: the curve, and fitsUpTo right at the crossing', () => {
    const [result] = sweepJson([GPT2, '--dim', 'seq_len=1..4096', '--budget', '8MiB']);
    expect(result.dim).toBe('seq_len');
    expect(result.points.map((p: { value: number }) => p.value)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);
    for (const p of result.points) {
      expect(p).toMatchObject({ complete: true });
      expect(p.lowerBound).toBeLessThanOrEqual(p.peak);
      expect(p.regions[0]).toMatchObject({ name: 'ram' });
    }
    expect(result.monotonic).toBe(true);
    const at = (value: number) => planJson([GPT2, '--dim', `seq_len=${value}`]).peak;
    expect(at(result.fitsUpTo)).toBeLessThanOrEqual(8 * 2 ** 20);
    expect(at(result.fitsUpTo + 1)).toBeGreaterThan(8 * 2 ** 20);
    expect(result.points.find((p: { value: number }) => p.value === 128).peak).toBe(at(128));
  });

  it('several models give one curve each: two exports of one model, fp32 and fp16', () => {
    const results = sweepJson([LLAMA_FP32, LLAMA, '--dim', 'sequence_length=1..4096', '--points', '3']);
    expect(results.map((r) => r.file)).toEqual([LLAMA_FP32, LLAMA]);
    for (const r of results) expect(r.points.map((p: { value: number }) => p.value)).toEqual([1, 64, 4096]);
    // The same graph in half precision: every point's activations take at most the fp32 export's bytes.
    results[1].points.forEach((p: { peak: number }, i: number) => expect(p.peak).toBeLessThanOrEqual(results[0].points[i].peak));
  });

  it('a model without the dim fails on its own line, the others still sweep', () => {
    const { code, out, err } = run(['sweep', GPT2, LLAMA, '--dim', 'sequence_length=1..64', '--points', '3', '--json']);
    expect(code).toBe(2);
    expect(err).toMatch(/no symbolic dim "sequence_length" \(its dims: batch_size, seq_len/);
    const [first, second] = out.trim().split('\n').map((line) => JSON.parse(line));
    expect(first.error.code).toBe('bad-argument');
    expect(second.points).toHaveLength(3);
  });

  it('an image model over its spatial size, through a fixed input axis', () => {
    const [result] = sweepJson([SQUEEZENET, '--dim', 'data_0:2,3=32..448', '--budget', '4MiB']);
    const shape = (v: number) => `data_0=1x3x${v}x${v}`;
    const at = (value: number) => planJson([SQUEEZENET, '--shape', shape(value)]).peak;
    expect(at(result.fitsUpTo)).toBeLessThanOrEqual(4 * 2 ** 20);
    expect(at(result.fitsUpTo + 1)).toBeGreaterThan(4 * 2 ** 20);
  });

  it("refuses an input axis of a TensorFlow Lite model, whose tensors keep the file's shapes, and an image size the model cannot run at is incomplete", () => {
    const selfie = run(['sweep', join(MODELS, 'tflite/mediapipe_selfie_segmentation.tflite'), '--dim', 'input_1:0=1..4']);
    expect(selfie.code).toBe(2);
    expect(selfie.err).toMatch(/TensorFlow Lite file states every tensor's shape/);
    // FastestDet reshapes to constants made for 352×352: at other sizes its shapes are unknown, not the file's 352-pixel ones.
    const [fastest] = sweepJson([join(MODELS, 'FastestDet.onnx'), '--dim', 'input:2,3=64..352']);
    const byValue = new Map(fastest.points.map((p: { value: number; complete: boolean }) => [p.value, p.complete]));
    expect(byValue.get(64)).toBe(false);
    expect(byValue.get(352)).toBe(true);
  });

  it('refuses a total length the graph ties to the sequence and past lengths, saying what to sweep instead, as the page does', () => {
    const tied = run(['sweep', GPT2, '--dim', 'total_seq_len=1..64']);
    expect(tied.code).toBe(2);
    expect(tied.err).toContain('total_seq_len is not a free axis: the graph ties total_seq_len to seq_len + past_seq_len, so it cannot vary alone; sweep past_seq_len or seq_len instead');
    expect(tied.out).toBe('');
    // and a part of the total while the total is given: every point would hold a mask no run has
    const pinned = run(['sweep', GPT2, '--dim', 'past_seq_len=1..64', '--dim', 'seq_len=1', '--dim', 'total_seq_len=5']);
    expect(pinned.code).toBe(2);
    expect(pinned.err).toContain('past_seq_len cannot vary while total_seq_len=5 is given: the graph ties total_seq_len to seq_len + past_seq_len');
  });

  it('a plan with a size unknown is never counted as fitting: its peak is a lower estimate (≥), the first unknown tensor is named', () => {
    // tiny-llama's mask cannot be expanded past sequence_length=128 with a past: from past 1 three sizes are unknown,
    // planned as 0 B, and the lower estimate (7.83 MiB) is under the 8 MiB budget
    const argv = [LLAMA, '--dim', 'past_sequence_length=0..2', '--dim', 'sequence_length=128', '--budget', '8MiB'];
    const [result] = sweepJson(argv);
    expect(result.points.map((p: { complete: boolean }) => p.complete)).toEqual([true, false, false]);
    expect(result.points[1].peak).toBeLessThanOrEqual(8 * 2 ** 20);
    expect(result.points[1].unknown).toMatch(/^'\/model\/attn_mask_reformat\/.*Expand\/output_0': cannot expand/);
    expect(result.fitsUpTo).toBe(0);
    expect(result.crossings).toEqual([{ below: 0, above: 1, fitsBelow: true, unknown: true }]);
    const text = run(['sweep', ...argv]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^ +1 +≥ 7\.83 MiB /m);
    expect(text.out).toMatch(/^ +0 +7\.83 MiB /m);
    expect(text.out).toContain("≥: a lower estimate, some sizes unknown (at 1, 2); first at past_sequence_length=1: '/model/attn_mask_reformat/");
    expect(text.out).toContain('fits up to past_sequence_length=0\n    not known to fit from past_sequence_length=1: some sizes are unknown, and the lower estimate is within the budget');
  });

  it('a value whose sizes pass 2^53 − 1 bytes does not fit the budget: no lower estimate "not known to fit"', () => {
    // GPT-2's past length of 2^50 is planned far over 1 MiB; from 2^51 the lower estimate is 4 KiB, but 'attention_mask'
    // is known to need more than 2^53 − 1 bytes: over any budget (it had said "not known to fit from 2^51")
    const argv = [GPT2, '--dim', 'past_seq_len=1125899906842624..2251799813685248', '--points', '2', '--budget', '1MiB'];
    const [result] = sweepJson(argv);
    expect(result.points.map((p: { complete: boolean; fits: boolean }) => [p.complete, p.fits])).toEqual([[false, false], [false, false]]);
    expect(result.points[1].pastLimit).toBe('attention_mask');
    expect(result.crossings).toEqual([]);
    expect(result.fitsUpTo).toBeNull();
    const text = run(['sweep', ...argv]);
    expect(text.out).toMatch(/^ +2251799813685248 +≥ [\d.]+ KiB .*DOES NOT FIT: 'attention_mask' needs more than 2\^53 − 1 bytes, over any limit or budget$/m);
    expect(text.out).toMatch(/DOES NOT FIT: peak 4\.00 PiB over the budget/m);
    expect(text.out).not.toContain('not known to fit');
  });

  it('a sweep of a decoder cache length is a decode step unless --dim gives the sequence length, and says so', () => {
    for (const [file, past, sequence] of [
      [LLAMA, 'past_sequence_length', 'sequence_length'],
      [GPT2, 'past_seq_len', 'seq_len'],
    ] as const) {
      const [result] = sweepJson([file, '--dim', `${past}=0..1024`, '--points', '4']);
      expect(result.assumed, file).toEqual([{ name: sequence, value: 1, shown: 128, reason: `a decode step: one new token, with ${past} tokens in the cache` }]);
      expect(result.points.every((p: { complete: boolean }) => p.complete), file).toBe(true);
      // each point is the plan of that decode step, as `plan` gives it
      const last = result.points.at(-1);
      expect(last.peak).toBe(planJson([file, '--dim', `${past}=${last.value}`, '--dim', `${sequence}=1`]).peak);
      const text = run(['sweep', file, '--dim', `${past}=0..8`, '--points', '2']);
      expect(text.out).toContain(`  every value planned with ${sequence}=1: a decode step: one new token, with ${past} tokens in the cache (--dim ${sequence}=N to plan another length)\n`);
      // a sequence length given is kept, and nothing is assumed; nor for a sweep of another dim
      const [given] = sweepJson([file, '--dim', `${past}=0..8`, '--points', '2', '--dim', `${sequence}=4`]);
      expect(given.assumed).toEqual([]);
      expect(given.points[1].peak).toBe(planJson([file, '--dim', `${past}=8`, '--dim', `${sequence}=4`]).peak);
      expect(sweepJson([file, '--dim', `${sequence}=1..8`, '--points', '2'])[0].assumed).toEqual([]);
    }
  });

  it('a value whose sizes pass 2^53 is a point that cannot be planned, with its error; the others are planned and fitsUpTo is over them', () => {
    const argv = [LLAMA, '--dim', 'batch_size=1..1000000000000'];
    const [result] = sweepJson(argv);
    type Point = { value: number; peak: number | null; lowerBound: number | null; complete: boolean; fits: boolean; error?: string };
    const points = result.points as Point[];
    const failed = points.filter((p) => p.peak === null);
    expect(failed.map((p) => p.value)).toContain(1e12);
    for (const p of failed) {
      expect(p).toMatchObject({ lowerBound: null, complete: false, fits: false });
      expect(p.error).toMatch(/past 2\^53 − 1/);
    }
    const planned = points.filter((p) => p.peak !== null);
    expect(planned[0]).toMatchObject({ value: 1, complete: true, fits: true });
    expect(planned.every((p) => p.error === undefined && p.lowerBound !== null)).toBe(true);
    // fitsUpTo: the largest value planned in full, found by bisection up to the first value that cannot be
    const lastFit = planned.filter((p) => p.complete && p.fits).at(-1)!.value;
    expect(result.fitsUpTo).toBeGreaterThanOrEqual(lastFit);
    expect(result.fitsUpTo).toBeLessThan(failed[0]!.value);
    expect(points.filter((p) => p.value > result.fitsUpTo).every((p) => !(p.complete && p.fits))).toBe(true);
    const text = run(['sweep', ...argv]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^ +1000000000000 +cannot be planned: the placement problem is too large to plan exactly: .*past 2\^53 − 1/m);
    // when no value can be planned, the sweep fails as before
    const none = run(['sweep', LLAMA, '--dim', 'batch_size=100000000000..1000000000000', '--points', '2', '--json']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/past 2\^53 − 1/);
    expect(JSON.parse(none.out).error.code).toBe('too-large');
  });

  it('refuses a dim that is not a range, and a plan command given a range', () => {
    expect(run(['sweep', GPT2, '--dim', 'seq_len=8']).err).toMatch(/sweep needs exactly one --dim NAME=FROM..TO/);
    expect(run(['sweep', GPT2, '--dim', 'seq_len=9..3']).err).toMatch(/FROM ≤ TO/);
    expect(run(['plan', GPT2, '--dim', 'seq_len=1..8']).code).toBe(2);
  });
});

describe('heapscope sweep of a dim a shape given leaves sizing nothing', () => {
  it('refuses it in one line rather than print a flat curve, and sweeps it without that shape', () => {
    const g = new GraphBuilder('sym');
    g.output(g.node('Relu', [g.input('x', 'float32', ['N', 'C'])]), 'float32', ['N', 'C']);
    const sym = tempFiles('sweep')('sym.onnx', g.toBytes());
    // every value planned alike ("monotonic: yes") while --shape x=1x8 fixed the only axis N names
    const refused = run(['sweep', sym, '--dim', 'N=1..4', '--shape', 'x=1x8']);
    expect([refused.code, refused.out]).toEqual([2, '']);
    expect(refused.err).toBe(`heapscope: ${sym}: N sizes nothing: every axis it names has the shape given (x:0), so every value would plan alike; vary another dim, or leave that input's shape to the dims\n`);
    const [curve] = sweepJson([sym, '--dim', 'N=1..1024', '--dim', 'C=64']);
    expect(curve.points.at(-1).peak).toBeGreaterThan(curve.points[0].peak);
  });
});
