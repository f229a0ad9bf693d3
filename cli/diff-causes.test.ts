import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './testing/run-cli';

const MODELS = join(__dirname, '../../shared/models');
const GPT2 = join(MODELS, 'tiny-random-gpt2-fp32-past.onnx');
const SAMPLE = join(__dirname, '../public/sample.onnx');
const RESNET = join(MODELS, 'light_resnet50.onnx');
const LLAMA = join(MODELS, 'tiny-llama-fp16/model.onnx');
const SQUEEZENET = join(MODELS, 'winml_SqueezeNet_fp16.onnx');
const hasModels = existsSync(GPT2) && existsSync(RESNET);
if (!hasModels) console.log(`notice: ${MODELS} is absent; the GPT-2 and ResNet-50 comparisons are skipped`);

function diffJson(argv: readonly string[]) {
  const result = run(['diff', ...argv, '--json']);
  expect(result.err).toBe('');
  return JSON.parse(result.out) as { causes: { summary: string; buffers: string[]; bytes: number }[]; buffers: { status: string; nameA?: string }[] };
}

describe('diff causes name what grew', () => {
  it.runIf(hasModels)('GPT-2 at seq_len 16 and 512: the logits lead the top cause, with sizes before and after', () => {
    const diff = diffJson([GPT2, GPT2, '--dim', 'seq_len=16', '--b-dim', 'seq_len=512']);
    expect(diff.causes[0]!.buffers[0]).toBe('logits');
    expect(diff.causes[0]!.summary).toMatch(/'logits' 62\.5 KiB → 1\.95 MiB/);
    expect(diff.causes[0]!.summary).not.toMatch(/and \d+ more/);
  });

  it.runIf(hasModels)('GPT-2 from an empty past to 256: the past cache that grew from 0 B is put down to past_seq_len, in one cause with the totals that follow it', () => {
    const diff = diffJson([GPT2, GPT2, '--dim', 'seq_len=1', '--b-dim', 'past_seq_len=256']);
    const dims = diff.causes.filter((c) => /^dim past_seq_len changed/.test(c.summary));
    expect(dims).toHaveLength(1);
    expect(dims[0]!.summary).toMatch(/^dim past_seq_len changed \(past_seq_len 0 → 256, and with it total_seq_len 1 → 257\)/);
    expect(dims[0]!.buffers).toContain('past_4');
    expect(diff.causes.filter((c) => c.buffers.includes('past_4'))).toHaveLength(1);
    expect(diff.causes.some((c) => /^tensor 'past_4'/.test(c.summary))).toBe(false);
  });

  it.runIf(existsSync(LLAMA))("a size unknown in b (tiny llama at past 64): the cause says so, not that the peak moved, and the change is 'at least'", () => {
    const args = ['diff', LLAMA, LLAMA, '--target', 'mcu', '--b-dim', 'past_sequence_length=64'];
    const text = run(args);
    expect(text.err).toBe('');
    expect(text.out).toMatch(/^peak 8\.02 MiB -> ≥ 8\.06 MiB: at least \+38\.9 KiB \(\+0\.5 %\), at least 39,824 bytes \(B's peak is a lower estimate/m);
    expect(text.out).toContain("−32.0 KiB  size unknown in B for 1 tensor ('/model/attn_mask_reformat/input_ids_subgraph/Expand/output_0' 32.0 KiB → unknown), planned there as 0 B: B's peak is a lower estimate, −32.0 KiB");
    expect(text.out).not.toContain('peak of region sram moved');
    const diff = JSON.parse(run([...args, '--json']).out) as { completeA: boolean; completeB: boolean; causes: { kind: string; side?: string }[]; buffers: { status: string; nameB?: string; sizeB?: number }[] };
    expect(diff).toMatchObject({ completeA: true, completeB: false });
    // a tensor planned as 0 B because its size is unknown in B is of unknown size there, not shrunk (it read "shrunk 32.0 KiB → 0 B")
    const unknown = diff.buffers.filter((x) => x.status === 'unknown');
    expect(unknown.map((x) => x.nameB)).toContain('/model/attn_mask_reformat/input_ids_subgraph/Expand/output_0');
    expect(unknown).toHaveLength(3); // the mask's Expand, Add and Tile
    expect(unknown.every((x) => x.sizeB === 0)).toBe(true);
    expect(diff.buffers.some((x) => x.status === 'shrunk' && x.sizeB === 0)).toBe(false);
    expect(text.out).toMatch(/^buffers: \d+ grown, \d+ shrunk, 3 of unknown size on a side, /m);
    expect(diff.causes.filter((c) => c.kind === 'size-unknown')).toEqual([expect.objectContaining({ side: 'b' })]);
    expect(diff.causes.some((c) => c.kind === 'peak-moved')).toBe(false);
  });

  it.runIf(hasModels)('one target field changed (mcu scratch placement): the placement cause names the field, not an unchanged preset', () => {
    // saved plans on the same preset: only the scratch placement differs, which frees the heap growth M4 added on ResNet-50
    const saved = (placement: string) => {
      const path = join(tmpdir(), `heapscope-scratch-${placement}-${process.pid}.json`);
      // --spill off: the two placements would otherwise also split the activations differently between the regions.
      const { code, err } = run(['plan', RESNET, '--target', 'mcu', '--spill', 'off', '--scratch-placement', placement, '--save', path]);
      expect([0, 3], err).toContain(code); // 3: a region over its size limit, which ResNet-50 is on mcu; the plan is saved all the same
      return path;
    };
    const diff = diffJson([saved('free-areas'), saved('with-activations')]);
    const top = diff.causes[0]!;
    expect(top.bytes).toBeLessThan(0);
    expect(top.summary).toMatch(/^scratch placement changed \(free areas → with activations\) and with it the holes and padding at the peak \(sram [\d.]+ MiB → /);
    expect(diff.causes.some((c) => c.summary.startsWith('placement got'))).toBe(false);
  });

  it.runIf(existsSync(SQUEEZENET))('SqueezeNet with fusion off on the accelerator: dram grew, and no cause says it fell', () => {
    const saved = (...args: string[]) => {
      const path = join(tmpdir(), `heapscope-squeeze-${args.length}-${process.pid}.json`);
      expect(run(['plan', SQUEEZENET, '--target', 'accelerator', ...args, '--save', path]).code).toBe(0);
      return path;
    };
    const [a, b] = [saved(), saved('--fusion', 'off')];
    const text = run(['diff', a, b]).out;
    expect(text).toContain('  region dram: 499 KiB -> 1.87 MiB (+1.39 MiB)\n  region sram: 1.92 MiB -> 0 B (−1.92 MiB)\n');
    // the old "the peak of region dram moved … −499 KiB" beside a 52.0 KiB fusion cause
    expect(text).not.toMatch(/the peak of region dram moved from step 62 \(Conv 'Conv_62'\) to step 2 \(MaxPool 'MaxPool_2'\): /);
    const diff = diffJson([a, b]);
    expect(diff.causes).toHaveLength(1);
    expect(diff.causes[0]!.bytes).toBe(-564352);
    expect(diff.causes[0]!.summary).toMatch(/^fusion unit 'tfu0' of A is not in B: .*: dram \+1\.39 MiB, sram −1\.92 MiB at their peaks; the peak falls by 551 KiB/);
  });

  it('fusion on and off: tensors a fusion unit tiled on chip are moved off chip, not grown', () => {
    const run1 = run(['targets', '--json']);
    const accelerator = (JSON.parse(run1.out) as { targets: { name: string; fusion: { enabled: boolean } }[] }).targets.find((t) => t.name === 'accelerator')!;
    const path = join(tmpdir(), `heapscope-nofusion-${process.pid}.json`);
    writeFileSync(path, JSON.stringify({ ...accelerator, fusion: { ...accelerator.fusion, enabled: false } }));
    const diff = diffJson([SAMPLE, SAMPLE, '--target', 'accelerator', '--b-target', path]);
    const fusion = diff.causes.find((c) => c.summary.startsWith('fusion unit'))!;
    expect(fusion.summary).toMatch(/^fusion unit '\w+' of A is not in B: \d+ tensors? it tiled on chip moves? off chip \('/);
    expect(fusion.summary).toMatch(fusion.bytes > 0 ? /the peak grows by/ : /the peak falls by/);
    const tiled = diff.buffers.filter((b) => b.status === 'off-chip');
    expect(tiled.length).toBeGreaterThan(0);
    for (const name of fusion.buffers) expect(diff.buffers.find((b) => b.nameA === name)?.status).toBe('off-chip');
  });

  it.runIf(hasModels)('GPT-2 on cpu against mcu: the logits, padded anew, are moved at one size and their padding put down to the alignment, in text and JSON alike', () => {
    const argv = [GPT2, GPT2, '--dim', 'seq_len=1', '--b-target', 'mcu'];
    const diff = diffJson(argv);
    const moved = diff.causes.find((c) => c.summary.includes('moved from region ram to sram'))!;
    // it read "('logits' 3.94 KiB → 3.91 KiB, …)", the move showing a shrink the alignment's cause counts
    expect(moved.summary).toContain("'logits' 3.94 KiB (alignment 64 → 16)");
    expect(moved.summary).not.toContain('3.94 KiB → 3.91 KiB');
    expect(diff.causes.find((c) => c.summary.startsWith("tensor 'logits' 3.94 KiB → 3.91 KiB at the peak: alignment 64 → 16 bytes"))!.bytes).toBe(-32);
    expect(diff.buffers.filter((c) => c.status === 'shrunk')).toEqual([]);
    const text = run(['diff', ...argv]).out;
    expect(text).toContain("'logits' 3.94 KiB (alignment 64 → 16)");
    expect(text).not.toContain("'logits' 3.94 KiB → 3.91 KiB,");
  });
});
