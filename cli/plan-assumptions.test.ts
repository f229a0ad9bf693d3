import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { customOpModel, detectorModel, generateLoopModel, vadModel } from '../src/model/testing/assumption-models';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { planJson, run } from './testing/run-cli';
import { tempFiles } from './testing/temp-files';

const file = tempFiles('assume');

const DETECTOR = file('detector.onnx', detectorModel());
const VAD = file('vad.onnx', vadModel());
const CUSTOM = file('custom.onnx', customOpModel());

describe('inspect says what its activation total covers', () => {
  it("names the total the main graph's when an If's bodies hold tensors it leaves out, and not otherwise", () => {
    const vad = run(['inspect', VAD]);
    expect(vad.code).toBe(0);
    expect(vad.out).toMatch(/activations {2}\d+ tensors, .* in total in the main graph \(If\/Loop\/Scan bodies not counted\)/);
    const detector = run(['inspect', DETECTOR]);
    expect(detector.out).toMatch(/activations {2}\d+ tensors, .* in total\n/);
  });
});

describe('plan --json states what the plan assumes', () => {
  it('lists each default dim with its value, rule and the input axes it sizes', () => {
    const plan = planJson([DETECTOR]);
    expect(plan.complete).toBe(true);
    expect(plan.assumptions.dims).toEqual([
      { name: 'image:0', value: 1, bound: false, axes: ['image:0'], rule: expect.stringMatching(/batch/) },
      { name: 'image:2', value: 640, bound: false, axes: ['image:2'], rule: expect.stringMatching(/dense-prediction/) },
      { name: 'image:3', value: 640, bound: false, axes: ['image:3'], rule: expect.stringMatching(/dense-prediction/) },
    ]);
    expect(plan.assumptions.unknown).toEqual([]);
    expect(plan.assumptions.branches).toEqual([]);
    const image = plan.buffers.find((b: { name: string }) => b.name === 'image');
    expect(image.size).toBe(3 * 640 * 640 * 4);
  });

  it('--strict refuses a plan on default dims and passes once they are bound; 0 is a valid dim', () => {
    const strict = run(['plan', DETECTOR, '--strict', '--json']);
    expect(strict.code).toBe(2);
    expect(JSON.parse(strict.out).peak).toBeGreaterThan(0);
    expect(strict.err).toMatch(/--strict: the plan rests on default dims image:0=1, image:2=640, image:3=640; bind them with --dim/);
    const bound = planJson([DETECTOR, '--strict', '--dim', 'image:0=1', '--dim', 'image:2=320', '--dim', 'image:3=320']);
    expect(bound.assumptions.dims.every((d: { bound: boolean }) => d.bound)).toBe(true);
    expect(bound.buffers.find((b: { name: string }) => b.name === 'image').size).toBe(3 * 320 * 320 * 4);

    const g = new GraphBuilder('decoder');
    g.output(g.node('Relu', [g.input('past', 'float32', [1, 'past_len', 8])]), 'float32', undefined);
    const decoder = planJson([file('decoder.onnx', g.toBytes()), '--dim', 'past_len=0']);
    expect(decoder.assumptions.dims).toEqual([expect.objectContaining({ name: 'past_len', value: 0, bound: true })]);
  });

  it('--strict passes a total length the dims given fix (sequence plus past), and JSON calls it bound; a total given against them is refused', () => {
    const g = new GraphBuilder('kv');
    const mask = g.input('attention_mask', 'float32', [1, 'total_seq_len']);
    const past = g.input('past', 'float32', [1, 'past_seq_len', 8]);
    const ids = g.input('input_ids', 'float32', [1, 'seq_len']);
    for (const x of [mask, past, ids]) g.output(g.node('Relu', [x]), 'float32', undefined);
    const model = file('kv.onnx', g.toBytes());
    const plan = planJson([model, '--strict', '--dim', 'seq_len=1', '--dim', 'past_seq_len=8']);
    expect(plan.assumptions.dims).toContainEqual(expect.objectContaining({ name: 'total_seq_len', value: 9, bound: true }));
    expect(run(['plan', model, '--strict', '--dim', 'seq_len=1']).err).toMatch(/--strict: the plan rests on default dims total_seq_len=1, past_seq_len=0;/);
    // every dim given, but a total other than their sum: shapes that combine them may not agree, so --strict refuses
    const contradicted = run(['plan', model, '--strict', '--dim', 'seq_len=1', '--dim', 'past_seq_len=16', '--dim', 'total_seq_len=5']);
    expect(contradicted.code).toBe(2);
    expect(contradicted.err).toMatch(/--strict: the dims given contradict the graph: --dim total_seq_len=5 is not seq_len \+ past_seq_len = 1 \+ 16 = 17/);
  });

  it('--strict prints every refusal, one line each: default dims and a total given against them (plan and diff)', () => {
    const g = new GraphBuilder('kv');
    const mask = g.input('attention_mask', 'float32', [1, 'total_seq_len']);
    const past = g.input('past', 'float32', [1, 'past_seq_len', 8]);
    const ids = g.input('input_ids', 'float32', [1, 'seq_len']);
    for (const x of [mask, past, ids]) g.output(g.node('Relu', [x]), 'float32', undefined);
    const model = file('kv-both.onnx', g.toBytes());
    const both = run(['plan', model, '--strict', '--dim', 'total_seq_len=5']);
    expect(both.code).toBe(2);
    const lines = both.err.split('\n').filter((line) => line !== '');
    expect(lines).toEqual([
      expect.stringMatching(/^heapscope: .*kv-both\.onnx: --strict: the plan rests on default dims past_seq_len=0, seq_len=128; bind them with --dim/),
      expect.stringMatching(/^heapscope: .*kv-both\.onnx: --strict: the dims given contradict the graph: --dim total_seq_len=5 is not seq_len \+ past_seq_len = 128 \+ 0 = 128 /),
    ]);
    const diff = run(['diff', model, model, '--strict', '--dim', 'total_seq_len=5']);
    expect(diff.code).toBe(2);
    expect(diff.err.match(/--strict: /g)).toHaveLength(4);
  });

  it('says a total length given against its parts as a warning near the top, with the assumptions, not after the peak; --json keeps it a diagnostic', () => {
    const g = new GraphBuilder('kv');
    const mask = g.input('attention_mask', 'float32', [1, 'total_seq_len']);
    const past = g.input('past', 'float32', [1, 'past_seq_len', 8]);
    const ids = g.input('input_ids', 'float32', [1, 'seq_len']);
    for (const x of [mask, past, ids]) g.output(g.node('Relu', [x]), 'float32', undefined);
    const model = file('kv-warning.onnx', g.toBytes());
    const text = run(['plan', model, '--dim', 'total_seq_len=2048']).out.split('\n');
    const warning = text.findIndex((line) => /^ {2}warning {7}--dim total_seq_len=2048 is not seq_len \+ past_seq_len = 128 \+ 0 = 128 .*\[dim-mismatch\]$/.test(line));
    expect(warning).toBeGreaterThan(0);
    expect(warning).toBeLessThan(text.findIndex((line) => line.startsWith('  region ')));
    expect(text.filter((line) => line.includes('total_seq_len=2048 is not'))).toHaveLength(1);
    expect(text.some((line) => line.startsWith('  diagnostics'))).toBe(false);
    const json = planJson([model, '--dim', 'total_seq_len=2048']);
    expect(json.diagnostics).toEqual([{ code: 'dim-mismatch', message: expect.stringMatching(/^--dim total_seq_len=2048 is not seq_len \+ past_seq_len/) }]);
  });

  it('--shape that fixes an input leaves none of its dims assumed; a dim that still sizes another input stays assumed', () => {
    const g = new GraphBuilder('sym');
    g.output(g.node('Relu', [g.input('x', 'float32', ['N', 'C'])]), 'float32', ['N', 'C']);
    const sym = file('sym.onnx', g.toBytes());
    const fixed = run(['plan', sym, '--shape', 'x=4x8', '--strict']);
    expect(fixed.code).toBe(0);
    expect(fixed.out).not.toMatch(/assumes/);
    expect(JSON.parse(run(['plan', sym, '--shape', 'x=4x8', '--json']).out).assumptions.dims).toEqual([]);
    expect(run(['inspect', sym, '--shape', 'x=4x8']).out).toMatch(/N=1 {2}x:0 {2}sizes nothing: every axis it names has the shape given/);
    // nor does a saved plan record them as dims it was planned with, so diff names none of them beside the shape
    expect(run(['diff', sym, sym, '--shape', 'x=4x8']).out.split('\n')[0]).toBe(`a: ${sym} (cpu, best, x=4×8) — ${sym}`);

    const two = new GraphBuilder('two');
    two.output(two.node('Add', [two.input('x', 'float32', ['N', 8]), two.input('z', 'float32', ['N', 8])]), 'float32', ['N', 8]);
    const shared = run(['plan', file('two.onnx', two.toBytes()), '--shape', 'x=1x8', '--strict']);
    expect(shared.code).toBe(2);
    expect(shared.out).toMatch(/assumes {7}N=1 \(x:0, z:0;/);
    expect(shared.err).toMatch(/--strict: the plan rests on default dims N=1;/);
  });

  it('flags a dim given with --dim that a shape given leaves sizing nothing, in inspect and in one plan line', () => {
    const g = new GraphBuilder('sym');
    g.output(g.node('Relu', [g.input('x', 'float32', ['N', 'C'])]), 'float32', ['N', 'C']);
    const sym = file('sym-bound.onnx', g.toBytes());
    const options = ['--dim', 'N=4', '--shape', 'x=4x8'];
    const dims = JSON.parse(run(['inspect', sym, ...options, '--json']).out).dims;
    expect(dims).toContainEqual({ name: 'N', value: 4, source: 'user', axes: ['x:0'], rule: 'given by the user', sizesNothing: true });
    expect(run(['inspect', sym, ...options]).out).toMatch(/N=4 {2}x:0 {2}given; sizes nothing: every axis it names has the shape given\n/);
    const text = run(['plan', sym, ...options]);
    expect([text.code, text.err]).toEqual([0, '']);
    expect(text.out.split('\n').filter((line) => line.includes('sizes nothing'))).toEqual(['  warning       --dim N=4 sizes nothing: every axis it names has the shape given (x:0)']);
    // still a dim the plan was given, flagged; one that sizes another input is not flagged
    expect(planJson([sym, ...options]).assumptions.dims).toEqual([{ name: 'N', value: 4, bound: true, axes: ['x:0'], rule: 'given by the user', sizesNothing: true }]);
    const two = new GraphBuilder('two');
    two.output(two.node('Add', [two.input('x', 'float32', ['N', 8]), two.input('z', 'float32', ['N', 8])]), 'float32', ['N', 8]);
    const shared = file('two-bound.onnx', two.toBytes());
    expect(run(['plan', shared, '--dim', 'N=4', '--shape', 'x=4x8']).out).not.toMatch(/sizes nothing/);
    // a name from the file reaches the terminal escaped
    const hostile = new GraphBuilder('hostile');
    hostile.output(hostile.node('Relu', [hostile.input('x', 'float32', ['N\u001b[2J', 8])]), 'float32', ['N\u001b[2J', 8]);
    const out = run(['plan', file('hostile.onnx', hostile.toBytes()), '--dim', 'N\u001b[2J=4', '--shape', 'x=4x8']).out;
    expect(out).toMatch(/warning {7}--dim N.*=4 sizes nothing/);
    expect(out).not.toContain('\u001b');
  });

  it('quotes a dim that sizes nothing as the user gave it: by an input axis, the axis, with the dim it names', () => {
    const g = new GraphBuilder('sym');
    g.output(g.node('Relu', [g.input('x', 'float32', ['N', 'C'])]), 'float32', ['N', 'C']);
    const sym = file('sym-axis.onnx', g.toBytes());
    const text = run(['plan', sym, '--dim', 'x:0=4', '--shape', 'x=4x8']);
    expect([text.code, text.err]).toEqual([0, '']);
    expect(text.out.split('\n').filter((line) => line.includes('sizes nothing'))).toEqual(['  warning       --dim x:0=4 (N) sizes nothing: every axis it names has the shape given (x:0)']);
    expect(planJson([sym, '--dim', 'x:0=4', '--shape', 'x=4x8']).assumptions.dims).toEqual([
      { name: 'N', value: 4, bound: true, axes: ['x:0'], rule: 'given by the user', givenAs: 'x:0', sizesNothing: true },
    ]);
    // an input's name from the file reaches the terminal escaped in the key quoted too
    const hostile = new GraphBuilder('hostile');
    hostile.output(hostile.node('Relu', [hostile.input('x\u001b[2J', 'float32', ['N', 8])]), 'float32', ['N', 8]);
    const out = run(['plan', file('hostile-axis.onnx', hostile.toBytes()), '--dim', 'x\u001b[2J:0=4', '--shape', 'x\u001b[2J=4x8']).out;
    expect(out).toMatch(/warning {7}--dim x.*:0=4 \(N\) sizes nothing/);
    expect(out).not.toContain('\u001b');
  });

  it('inspect says a dim given by an input axis was given as that axis, in text and in --json beside the fields it had', () => {
    const g = new GraphBuilder('sym');
    g.output(g.node('Relu', [g.input('x', 'float32', ['N', 8])]), 'float32', ['N', 8]);
    const sym = file('sym-inspect-axis.onnx', g.toBytes());
    expect(run(['inspect', sym, '--dim', 'x:0=4']).out).toMatch(/\n {4}N=4 {2}x:0 {2}given as x:0\n/);
    expect(JSON.parse(run(['inspect', sym, '--dim', 'x:0=4', '--json']).out).dims).toEqual([
      { name: 'N', value: 4, source: 'user', axes: ['x:0'], rule: 'given by the user', givenAs: 'x:0' },
    ]);
    // by its name, nothing is added
    expect(run(['inspect', sym, '--dim', 'N=4']).out).toMatch(/\n {4}N=4 {2}x:0 {2}given\n/);
    expect(JSON.parse(run(['inspect', sym, '--dim', 'N=4', '--json']).out).dims[0].givenAs).toBeUndefined();
    // and a dim the shape given leaves sizing nothing says both
    expect(run(['inspect', sym, '--dim', 'x:0=4', '--shape', 'x=4x8']).out).toMatch(/N=4 {2}x:0 {2}given as x:0; sizes nothing/);
  });

  it('does not flag a sequence length given with a shape that fixes its axis when the total length is its sum', () => {
    const llama = join(__dirname, '../../shared/models/tiny-llama-fp32-missing-external-data.onnx');
    const dims = JSON.parse(run(['inspect', llama, '--shape', 'input_ids=2x16', '--dim', 'sequence_length=4', '--json']).out).dims;
    expect(dims.find((d: { name: string }) => d.name === 'sequence_length').sizesNothing).toBeUndefined();
    expect(dims.find((d: { name: string }) => d.name === 'total_sequence_length').value).toBe(4);
  });

  it('counts a sequence length, given or default, as sizing what the total length summed from it sizes, and only then', () => {
    const llama = join(__dirname, '../../shared/models/tiny-llama-fp32-missing-external-data.onnx');
    const dimsOf = (...options: string[]) => JSON.parse(run(['inspect', llama, ...options, '--json']).out).dims as { name: string; sizesNothing?: true }[];
    const sequence = (dims: { name: string; sizesNothing?: true }[]) => dims.find((d) => d.name === 'sequence_length')!;
    // the default sequence length still sizes attention_mask through the total: not "sizes nothing", and sweep varies it
    expect(sequence(dimsOf('--shape', 'input_ids=1x16')).sizesNothing).toBeUndefined();
    const swept = run(['sweep', llama, '--dim', 'sequence_length=1..4', '--shape', 'input_ids=1x16']);
    expect(swept.code).toBe(0);
    // with attention_mask's shape given too, the total sizes nothing, and neither does the sequence length summed into it
    expect(sequence(dimsOf('--dim', 'sequence_length=4', '--shape', 'input_ids=1x16', '--shape', 'attention_mask=1x16')).sizesNothing).toBe(true);
  });

  it('never counts the unknown as zero silently: complete is false, the tensors and ops are named, and --shape fills them', () => {
    const plan = planJson([CUSTOM]);
    expect(plan.complete).toBe(false);
    expect(plan.assumptions.unknown).toEqual([
      { tensor: 'mystery_out', op: 'MysteryNorm', reason: expect.stringMatching(/no shape rule for example.custom::MysteryNorm/) },
      expect.objectContaining({ op: 'Sigmoid' }),
    ]);
    const text = run(['plan', CUSTOM]).out;
    expect(text).toMatch(/peak .*a lower estimate: some sizes are unknown/);
    expect(text).toMatch(/region \w+ +at least /); // so is every region's
    expect(text).toMatch(/DRAM traffic +at least /); // and the traffic, which the unknown tensors would add to
    expect(text).toMatch(/2 tensor\(s\) of unknown size planned as 0 bytes \(from MysteryNorm, Sigmoid\)/);
    expect(run(['plan', CUSTOM, '--strict']).code).toBe(2);

    const given = planJson([CUSTOM, '--shape', 'mystery_out=1x64x32x32', '--strict']);
    expect(given.complete).toBe(true);
    expect(run(['plan', CUSTOM, '--shape', 'mystery_out=1x64x32x32']).out).not.toMatch(/at least|lower estimate/);
    expect(given.assumptions.shapes).toEqual({ mystery_out: [1, 64, 32, 32] });
    for (const name of ['mystery_out', 'post/Sigmoid_out']) {
      expect(given.buffers.find((b: { name: string }) => b.name === name).size).toBe(64 * 32 * 32 * 4);
      expect(plan.buffers.find((b: { name: string }) => b.name === name).size).toBe(0);
    }
  });

  it('an If on a graph input: covers the larger body and says so; --input decides the branch', () => {
    const open = planJson([VAD]);
    expect(open.assumptions.branches).toEqual([{ node: 'vad/If', taken: 'both', reason: expect.stringMatching(/depends on graph input 'sr'/) }]);
    const wide = planJson([VAD, '--input', 'sr=16000']);
    const narrow = planJson([VAD, '--input', 'sr=8000']);
    expect(wide.assumptions.branches).toEqual([]);
    expect(narrow.assumptions.branches).toEqual([]);
    expect(wide.assumptions.inputValues).toEqual({ sr: [16000] });
    expect(open.peak).toBe(wide.peak);
    expect(narrow.peak).toBeLessThan(wide.peak);
    // The network inside the If is planned: the wide branch holds a 1024-float hidden layer.
    expect(wide.peak).toBeGreaterThanOrEqual(4 * (512 + 1024));
  });

  it('exits 3 after printing the plan when a region is over its size limit', () => {
    const over = run(['plan', DETECTOR, '--target', 'mcu', '--spill', 'off', '--json']);
    expect(over.code).toBe(3);
    const plan = JSON.parse(over.out);
    expect(plan.fits).toBe(false);
    const sram = plan.regions.find((r: { name: string }) => r.name === 'sram');
    expect(sram.overBy).toBe(sram.peak - sram.sizeLimit);
    expect(sram.overBy).toBeGreaterThan(0);
    expect(run(['plan', DETECTOR, '--target', 'mcu', '--spill', 'off']).out).toMatch(/DOES NOT FIT {2}region sram needs [\d.]+ MiB, [\d.]+ MiB over its 512 KiB limit/);
    const fits = planJson([DETECTOR, '--target', 'mcu', '--dim', 'image:2=32', '--dim', 'image:3=32']);
    expect(fits.fits).toBe(true);
    expect(fits.regions.every((r: { overBy: number }) => r.overBy === 0)).toBe(true);
  });

  it('refuses malformed --shape and --input with a sentence that names them', () => {
    expect(run(['plan', CUSTOM, '--shape', 'mystery_out=1xtwo']).err).toMatch(/--shape mystery_out expects dims such as 1x3x224x224/);
    expect(run(['plan', CUSTOM, '--shape', 'nothing']).code).toBe(2);
    // an empty shape is refused, not taken for a scalar, which is said outright
    const empty = run(['plan', CUSTOM, '--shape', 'mystery_out=']);
    expect([empty.code, empty.out]).toEqual([2, '']);
    expect(empty.err).toBe('heapscope: --shape mystery_out expects dims such as 1x3x224x224 (non-negative integers; "scalar" for a scalar), got ""\n');
    expect(planJson([CUSTOM, '--shape', 'mystery_out=scalar']).assumptions.shapes).toEqual({ mystery_out: [] });
    // a dim too large to be exact is named so, as --dim names it
    const large = run(['plan', CUSTOM, '--shape', 'mystery_out=1x99999999999999999']);
    expect(large.code).toBe(2);
    expect(large.err).toBe('heapscope: --shape mystery_out must be at most 9007199254740991 (2^53 − 1) on every axis, got "1x99999999999999999"\n');
    expect(run(['plan', VAD, '--input', 'sr=fast']).err).toMatch(/--input sr expects numbers/);
    expect(run(['inspect', VAD, '--input', 'sr=8000', '--json']).code).toBe(0);
  });
});

describe("plan says a Loop's unknown trip count that its loop-carried sequence rests on", () => {
  it("names it for ONNX's test_loop13_seq in the text and in assumptions.branches, its unknown sizes listed, not counted", () => {
    const model = '/usr/share/libonnx-testdata/data/node/test_loop13_seq/model.onnx';
    if (!existsSync(model)) return void console.log('plan assumptions: libonnx-testdata is absent; skipping test_loop13_seq');
    const plan = planJson([model]);
    expect(plan.assumptions.branches).toEqual([{ node: 'Loop_0', taken: 'trip count unknown', reason: expect.stringMatching(/not a constant, so the size of loop-carried 'seq_res' .* is not inferred/) }]);
    expect(plan.complete).toBe(false);
    expect(plan.assumptions.unknown.map((u: { tensor: string }) => u.tensor)).toEqual(expect.arrayContaining(['seq_empty', 'seq_res', 'seq_out']));
    const text = run(['plan', model]);
    expect(text.out).toMatch(/\n {2}branch {8}Loop_0: trip count unknown — the Loop trip count is not a constant, so the size of loop-carried 'seq_res'/);
    expect(text.out).toMatch(/peak .*, a lower estimate: some sizes are unknown/);
  });
});

describe("plan points a Loop's unknown trip count at the input that gives it", () => {
  const GENERATE = file('generate.onnx', generateLoopModel());

  it('tells to give max_new_tokens with --input, in the text, --strict and --json, and that value sizes the scan output', () => {
    const text = run(['plan', GENERATE]);
    expect(text.out).toMatch(/\n {2}unknown .*first 'all_logits': the Loop trip count is not a constant — give the Loop's trip count with --input max_new_tokens=N \(or shapes with --shape\)\n/);
    expect(run(['plan', GENERATE, '--strict']).err).toContain("give the Loop's trip count with --input max_new_tokens=N (or shapes with --shape NAME=DIMS)");
    expect(planJson([GENERATE]).assumptions.unknown).toEqual([expect.objectContaining({ tensor: 'all_logits', tripCount: { node: 'generate', inputs: ['max_new_tokens'] } })]);
    const given = planJson([GENERATE, '--input', 'max_new_tokens=20']);
    expect(given.complete).toBe(true);
    expect(given.buffers.find((b: { name: string }) => b.name === 'all_logits').size).toBe(20 * 4 * 1000 * 4);
  });

  it('says no trip count is assumed once a shape given sizes the scan output, as the value would', () => {
    const shaped = run(['plan', GENERATE, '--shape', 'all_logits=20x4x1000']);
    expect(shaped.out).not.toContain('trip count unknown');
    expect(planJson([GENERATE, '--shape', 'all_logits=20x4x1000']).assumptions).toMatchObject({ unknown: [], branches: [] });
    expect(run(['plan', GENERATE, '--shape', 'all_logits=20x4x1000', '--strict']).code).toBe(0);
  });
});

describe("--input gives a bool input's value as true or false", () => {
  it("decides ONNX's test_if by cond=true or cond=false as by 1 or 0, and names a bool's words when it refuses a value", () => {
    const model = '/usr/share/libonnx-testdata/data/node/test_if/model.onnx';
    if (!existsSync(model)) return void console.log('plan assumptions: libonnx-testdata is absent; skipping test_if');
    expect(planJson([model]).assumptions.branches).toEqual([expect.objectContaining({ node: 'If_0', taken: 'both' })]);
    const yes = planJson([model, '--input', 'cond=true']);
    expect(yes.assumptions.branches).toEqual([]);
    expect(yes.assumptions.inputValues).toEqual({ cond: [1] });
    expect(planJson([model, '--input', 'cond=False']).assumptions.inputValues).toEqual({ cond: [0] });
    expect(planJson([model, '--input', 'cond=1']).peak).toBe(yes.peak);
    const bad = run(['plan', model, '--input', 'cond=yes']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--input cond expects numbers .*\(true or false for a bool\), got "yes"/);
  });
});
