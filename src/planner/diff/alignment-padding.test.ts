import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { planModel } from '../plan';
import { toPlanFile, type PlanFile } from '../assembly/plan-file';
import { presetTarget } from '../targets/presets';
import { tinyGraph } from '../testing/tiny-graph';
import { diffPlans, type PlanDiff } from './diff-plans';
import { changeKindOf } from './move-kind';

const GPT2 = join(__dirname, '../../../../shared/models/tiny-random-gpt2-fp32-past.onnx');

function plannedFile(model: InferredModel, target: string, dims: Record<string, number> = {}): PlanFile {
  const profile = presetTarget(target);
  return toPlanFile(model, planModel(model, profile), { model: 'test.onnx', target, targetProfile: profile, dims });
}

/** x -> Relu a -> Sigmoid b -> Tanh y, rows of 65 floats (260 B): 320 B at 64-byte alignment, 272 B at 16. */
function oddRows(rows: number): InferredModel {
  const g = tinyGraph().input('x', [rows, 65]);
  g.node('Relu', ['x'], { a: [rows, 65] }, { name: 'relu' });
  g.node('Sigmoid', ['a'], { b: [rows, 65] }, { name: 'sigmoid' });
  g.node('Tanh', ['b'], { y: [rows, 65] }, { name: 'tanh' });
  return g.output('y').model();
}

const movedBetweenRegions = (diff: PlanDiff) => diff.buffers.filter((c) => changeKindOf(c) === 'between-regions').length;

describe('a tensor whose alignment padding alone changed', () => {
  it('is put down to the alignment, not said to have shrunk, and is counted as moved (cpu → mcu)', () => {
    const diff = diffPlans(plannedFile(oddRows(1), 'cpu'), plannedFile(oddRows(1), 'mcu'));
    expect(diff.causes.map((c) => c.kind)).not.toContain('tensor-shrunk');
    const padding = diff.causes.find((c) => c.kind === 'alignment-changed')!;
    expect(padding.summary).toMatch(/320 B → 272 B.*: alignment 64 → 16 bytes with the target cpu → mcu, the tensors? (itself 260 B|themselves the same size) on both sides, −\d+ B$/);
    expect(padding.summary).not.toMatch(/shrank/);
    expect(diff.buffers.filter((c) => c.status === 'shrunk')).toEqual([]);
    expect(diff.causes.reduce((s, c) => s + c.bytes, 0)).toBe(diff.delta);
  });

  it('names a scratch buffer whose padding alone changed a scratch buffer, not a tensor', () => {
    // the buffers of both plans taken for scratch buffers of the same names, as a workspace is matched to a workspace
    const asScratch = (file: PlanFile): PlanFile => ({ ...file, plan: { ...file.plan, buffers: file.plan.buffers.map((b) => ({ ...b, kind: 'scratch' as const })) } });
    const diff = diffPlans(asScratch(plannedFile(oddRows(1), 'cpu')), asScratch(plannedFile(oddRows(1), 'mcu')));
    const padding = diff.causes.find((c) => c.kind === 'alignment-changed')!;
    // it read "2 tensors live at the peak ('a' 320 B → 272 B and 'x' 320 B → 272 B): …, the tensors themselves the same size on both sides"
    expect(padding.summary).toBe("2 scratch buffers live at the peak ('a' 320 B → 272 B and 'x' 320 B → 272 B): alignment 64 → 16 bytes with the target cpu → mcu, the scratch buffers themselves the same size on both sides, −96 B");
    expect(padding.summary).not.toMatch(/tensor/);
  });

  it('counts the same buffers in the cause of the move as in the list\'s "moved between regions"', () => {
    const diff = diffPlans(plannedFile(oddRows(1), 'cpu'), plannedFile(oddRows(1), 'mcu'));
    const moved = diff.causes.find((c) => c.kind === 'region-moved')!;
    expect(moved.summary).toContain(`${movedBetweenRegions(diff)} buffers moved from region ram to sram`);
  });

  it('names a pair whose padding alone changed at one size in the cause of its move, its alignment said, its bytes counted under alignment', () => {
    const diff = diffPlans(plannedFile(oddRows(1), 'cpu'), plannedFile(oddRows(1), 'mcu'));
    const moved = diff.causes.find((c) => c.kind === 'region-moved')!;
    // it read "('a' 320 B → 272 B and 'x' 320 B → 272 B)", as if they had shrunk on the way
    expect(moved.summary).toContain("('a' 320 B (alignment 64 → 16) and 'x' 320 B (alignment 64 → 16))");
    expect(moved.summary).not.toMatch(/→ 272 B/);
    expect(moved.bytes).toBe(0);
    // the padding's change is the alignment's, and the causes still sum to the peak's change
    expect(diff.causes.find((c) => c.kind === 'alignment-changed')!.summary).toContain("'a' 320 B → 272 B and 'x' 320 B → 272 B");
    expect(diff.causes.reduce((s, c) => s + c.bytes, 0)).toBe(diff.delta);
  });

  it('says which buffers of a move also grew, the list counting them as grown and not as moved', () => {
    const diff = diffPlans(plannedFile(oddRows(1), 'cpu'), plannedFile(oddRows(2), 'mcu'));
    const grown = diff.buffers.filter((c) => c.status === 'grown' && c.regionA === 'ram' && c.regionB === 'sram').length;
    expect(grown).toBeGreaterThan(0);
    expect(movedBetweenRegions(diff)).toBe(0);
    expect(diff.causes.find((c) => c.kind === 'region-moved')!.summary).toContain(`${grown} buffers moved from region ram to sram (${grown} grew too)`);
  });

  it.skipIf(!existsSync(GPT2))('names the alignment of GPT-2\'s attention mask, 260 B on both sides (past 64, seq 1, cpu → mcu)', () => {
    const model = (dims: Record<string, number>) => inferShapes(decodeModel(new Uint8Array(readFileSync(GPT2))), { dims });
    const dims = { past_seq_len: 64, seq_len: 1 };
    const diff = diffPlans(plannedFile(model(dims), 'cpu', dims), plannedFile(model(dims), 'mcu', dims));
    // it read "tensor 'attention_mask' 320 B → 272 B shrank with the target cpu → mcu at the peak, −48 B"
    expect(diff.causes[0]!.kind).toBe('alignment-changed');
    expect(diff.causes[0]!.summary).toBe("tensor 'attention_mask' 320 B → 272 B at the peak: alignment 64 → 16 bytes with the target cpu → mcu, the tensor itself 260 B on both sides, −48 B");
    // it read "63 buffers moved from region ram to sram" beside a list of 56 moved between regions and 7 shrunk
    expect(movedBetweenRegions(diff)).toBe(63);
    expect(diff.causes.find((c) => c.kind === 'region-moved')!.summary).toContain('63 buffers moved from region ram to sram, 10 of them live at the peak');
  });
});
