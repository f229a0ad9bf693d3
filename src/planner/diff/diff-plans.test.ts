import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { planModel } from '../plan';
import { readPlanFile, toPlanFile, writePlanFile, type PlanFile } from '../assembly/plan-file';
import { presetTarget } from '../targets/presets';
import type { TargetProfile } from '../targets/target';
import { testTarget, tinyGraph } from '../testing/tiny-graph';
import { diffPlans, type PlanDiff } from './diff-plans';

const SAMPLE = readFileSync(join(__dirname, '../../../public/sample.onnx'));
const ULTRAFACE = join(__dirname, '../../../../shared/models/ultraface_RFB-320.onnx');
const SQUEEZENET = join(__dirname, '../../../../shared/models/winml_SqueezeNet_fp16.onnx');

/** A chain x -> Relu -> Sigmoid -> Tanh -> y of `n` rows, optionally with an extra op and renamed tensors. */
function chain(n: number, options: { extra?: boolean; prefix?: string } = {}): InferredModel {
  const p = options.prefix ?? '';
  const g = tinyGraph().input('x', [n, 256]);
  g.node('Relu', ['x'], { [`${p}a`]: [n, 256] }, { name: `${p}relu` });
  g.node('Sigmoid', [`${p}a`], { [`${p}b`]: [n, 256] }, { name: `${p}sigmoid` });
  if (options.extra === true) {
    g.node('Concat', [`${p}a`, `${p}b`], { [`${p}wide`]: [2 * n, 256] }, { name: `${p}concat` });
    g.node('ReduceMax', [`${p}wide`], { [`${p}c`]: [n, 256] }, { name: `${p}reduce` });
  }
  g.node('Tanh', [options.extra === true ? `${p}c` : `${p}b`], { y: [n, 256] }, { name: `${p}tanh` });
  return g.output('y').model();
}

/** x -> Relu a -> Sigmoid b, then MatMul(a, b) -> y: the peak is at the MatMul, with b's shape unknown unless `known`. */
function twoOperands(known: boolean): InferredModel {
  const g = tinyGraph().input('x', [1, 256]);
  g.node('Relu', ['x'], { a: [4, 256] }, { name: 'relu' });
  g.node('Sigmoid', ['a'], { b: known ? [4, 256] : undefined }, { name: 'sigmoid' });
  g.node('MatMul', ['a', 'b'], { y: [8, 256] }, { name: 'matmul' });
  return g.output('y').model();
}

function planned(model: InferredModel, target: TargetProfile, dims: Record<string, number> = {}, strategy?: string): PlanFile {
  const plan = planModel(model, target, strategy === undefined ? {} : { strategy });
  return toPlanFile(model, plan, { model: 'test.onnx', target: target.name, targetProfile: target, dims });
}

function sample(target: TargetProfile, dims: Record<string, number> = {}, shapes: Record<string, number[]> = {}): PlanFile {
  const model = inferShapes(decodeOnnx(new Uint8Array(SAMPLE)), { dims, shapes });
  return toPlanFile(model, planModel(model, target), { model: 'sample.onnx', target: target.name, targetProfile: target, dims });
}

/** The causes must account for the whole peak change. */
function expectAccounted(diff: PlanDiff): void {
  expect(diff.causes.reduce((s, c) => s + c.bytes, 0)).toBe(diff.delta);
  for (let k = 1; k < diff.causes.length; k++) expect(Math.abs(diff.causes[k]!.bytes)).toBeLessThanOrEqual(Math.abs(diff.causes[k - 1]!.bytes));
}

describe('diffPlans', () => {
  it('finds nothing between a plan and itself reopened from its file', () => {
    const a = sample(presetTarget('mcu'));
    const reopened = readPlanFile(writePlanFile(a), 'a.json');
    const diff = diffPlans(a, reopened);
    expect(diff.delta).toBe(0);
    expect(diff.causes).toEqual([]);
    expect(diff.buffers.every((b) => b.status === 'same' && b.matchedBy === 'name')).toBe(true);
    expect(diff.buffers).toHaveLength(a.plan.buffers.length);
  });

  it('puts a batch change down to the dim, as the top cause, on a small graph and on the sample', () => {
    const target = testTarget();
    // the chain's first axis bound as a model's batch dim is, by the value planned
    const batched = (n: number): InferredModel => ({ ...chain(n), dims: [{ name: 'batch', value: n, source: 'user', axes: ['x:0'], rule: 'given by the user' }] });
    const [one, three] = [planned(batched(1), target, { batch: 1 }), planned(batched(3), target, { batch: 3 })];
    const small = diffPlans(one, three);
    expect(small.delta).toBeGreaterThan(0);
    const nameOf = (file: PlanFile, id: number) => file.plan.buffers.find((x) => x.id === id)!.name;
    expect(small.causes[0]!.idsB!.map((id) => nameOf(three, id)).sort()).toEqual([...small.causes[0]!.buffers].sort());
    expect(small.causes[0]!.idsA!.map((id) => nameOf(one, id)).sort()).toEqual([...small.causes[0]!.buffers].sort());
    expect(small.causes[0]).toMatchObject({ kind: 'dim-changed', dim: 'batch' });
    expect(small.causes[0]!.summary).toMatch(/^dim batch changed \(batch 1 → 3\)/);
    expectAccounted(small);
    expect(small.buffers.filter((b) => b.status === 'grown')).toHaveLength(4);

    const diff = diffPlans(sample(presetTarget('cpu'), { batch: 1 }), sample(presetTarget('cpu'), { batch: 4 }));
    expect(diff.dims).toEqual([{ name: 'batch', a: 1, b: 4 }]);
    expect(diff.causes[0]).toMatchObject({ kind: 'dim-changed', dim: 'batch' });
    expect(diff.causes[0]!.bytes).toBe(diff.delta);
    expect(diff.causes[0]!.buffers.length).toBeGreaterThan(0);
    expectAccounted(diff);
  });

  it('puts growth from a given input shape down to that shape, naming it as it was on each side (the image size, which no dim ratio explains)', () => {
    const target = presetTarget('cpu');
    const [declared, larger] = [sample(target), sample(target, {}, { image: [1, 3, 224, 224] })];
    const diff = diffPlans(declared, larger);
    expect(diff.inputs).toEqual([{ name: 'image', what: 'shape', input: true, a: '1×3×160×160', b: '1×3×224×224' }]);
    expect(diff.causes[0]).toMatchObject({ kind: 'input-changed', inputs: ['image'] });
    expect(diff.causes[0]!.summary).toMatch(/^input image shape changed \(1×3×160×160 → 1×3×224×224\): \d+ buffers live at the peak grew \('/);
    expect(diff.causes.map((c) => c.kind)).not.toContain('tensor-grew');
    expectAccounted(diff);
  });

  it('claims no input change from a plan file saved before plans recorded the shapes given', () => {
    const target = presetTarget('cpu');
    const larger = sample(target, {}, { image: [1, 3, 224, 224] });
    const { shapes: _shapes, inputValues: _values, ...assumptions } = larger.plan.assumptions;
    const older = { ...larger, plan: { ...larger.plan, assumptions } } as unknown as PlanFile;
    const diff = diffPlans(sample(target), older);
    expect(diff.inputs).toBeUndefined();
    expect(diff.causes.map((c) => c.kind)).not.toContain('input-changed');
    expectAccounted(diff);
  });

  it("says 0 B, not none, for a tensor both plans hold that was empty in A (a cache with no past), so it reads as grown", () => {
    // past [n, 64] concatenated with x [1, 64] into present: with n = 0 the past holds no bytes but is still a tensor of the graph
    const cache = (n: number) => {
      const g = tinyGraph().input('x', [1, 64]).input('past', [n, 64]);
      g.node('Concat', ['past', 'x'], { present: [n + 1, 64] }, { name: 'concat' });
      g.node('Relu', ['present'], { y: [n + 1, 64] }, { name: 'relu' });
      return g.output('present').output('y').model();
    };
    const target = testTarget();
    const diff = diffPlans(planned(cache(0), target, { past: 0 }), planned(cache(500), target, { past: 500 }));
    const cause = diff.causes.find((c) => c.buffers.includes('past'))!;
    expect(cause.summary).toContain("'past' 0 B → 125 KiB");
    expect(cause.summary).not.toContain('none');
    expect(diff.buffers.filter((b) => b.status === 'new')).toHaveLength(0);
  });

  it("puts a tensor whose size is unknown in B down to the unknown size, not to the peak moving, and says B's figure is a lower estimate", () => {
    const target = testTarget();
    const [a, b] = [planned(twoOperands(true), target), planned(twoOperands(false), target)];
    expect(b.plan.complete).toBe(false);
    const diff = diffPlans(a, b);
    expect(diff).toMatchObject({ completeA: true, completeB: false });
    expect(diff.causes.map((c) => c.kind)).not.toContain('peak-moved');
    const unknown = diff.causes.find((c) => c.buffers.includes('b'))!;
    expect(unknown).toMatchObject({ kind: 'size-unknown', side: 'b', bytes: -4096 });
    expect(unknown.summary).toBe("size unknown in B for 1 tensor ('b' 4.00 KiB → unknown), planned there as 0 B: B's peak is a lower estimate, −4.00 KiB");
    expectAccounted(diff);
    const back = diffPlans(b, a);
    expect(back.causes.find((c) => c.buffers.includes('b'))).toMatchObject({ kind: 'size-unknown', side: 'a', bytes: 4096 });
    expect(back.causes.find((c) => c.buffers.includes('b'))!.summary).toContain("('b' unknown → 4.00 KiB)");
    expectAccounted(back);
  });

  it('says the peak moved only when its step did: a buffer live at the same peak step in A only changed its lifetime', () => {
    // a, read by the MatMul at the peak step, ends one step earlier in B: the peak stays at the MatMul
    const a = planned(twoOperands(true), testTarget());
    const step = a.plan.regions[0]!.peakStep!;
    expect(a.plan.steps[step]!.node).toBe('matmul');
    const shortened = a.plan.buffers.find((x) => x.name === 'a')!;
    const buffers = a.plan.buffers.map((x) => (x === shortened ? { ...x, end: step } : x));
    const b: PlanFile = { ...a, plan: { ...a.plan, buffers } };
    const diff = diffPlans(a, b);
    expect(diff.causes.map((c) => c.kind)).not.toContain('peak-moved');
    const cause = diff.causes.find((c) => c.kind === 'lifetime-changed')!;
    expect(cause.buffers).toEqual([shortened.name]);
    expect(cause.summary).toMatch(new RegExp(`^the peak of region ram is at step ${step} \\(\\w+ '\\w+'\\) in both plans; 1 buffer live there in A and not in B: its lifetime changed \\('${shortened.name}' `));
    expectAccounted(diff);
  });

  it('names a new op whose buffer is live at the peak', () => {
    const target = testTarget();
    const diff = diffPlans(planned(chain(4), target), planned(chain(4, { extra: true }), target));
    expect(diff.delta).toBeGreaterThan(0);
    const top = diff.causes[0]!;
    expect(top.kind).toBe('new-buffer-at-peak');
    expect(top.nodes.some((n) => n === 'concat' || n === 'reduce')).toBe(true);
    expect(top.summary).toMatch(/new op (Concat 'concat'|ReduceMax 'reduce')/);
    expect(diff.buffers.filter((b) => b.status === 'new').map((b) => b.nameB).sort()).toEqual(['c', 'wide']);
    expectAccounted(diff);
    const back = diffPlans(planned(chain(4, { extra: true }), target), planned(chain(4), target));
    expect(back.causes[0]!.kind).toBe('buffer-gone');
    expect(back.delta).toBe(-diff.delta);
    expectAccounted(back);
  });

  it('matches renamed tensors and nodes by producer op type and position', () => {
    const target = testTarget();
    const diff = diffPlans(planned(chain(2), target), planned(chain(2, { prefix: 'v2_' }), target));
    const byProducer = diff.buffers.filter((b) => b.matchedBy === 'producer');
    expect(byProducer.map((b) => [b.nameA, b.nameB])).toEqual([
      ['a', 'v2_a'],
      ['b', 'v2_b'],
    ]);
    expect(diff.buffers.filter((b) => b.status === 'new' || b.status === 'gone')).toEqual([]);
    expect(diff.delta).toBe(0);
    expect(diff.causes).toEqual([]);
  });

  it('calls the same buffers placed with more holes at the peak a worse placement', () => {
    const a = planned(chain(2), testTarget());
    const peak = a.plan.peak;
    // Move the graph output above everything: same buffers, same lifetimes, a hole below it.
    expect(a.plan.buffers.find((x) => x.name === 'y')!.size).toBe(2048);
    const before = a.plan.buffers.find((x) => x.name === 'y')!.offset;
    const buffers = a.plan.buffers.map((x) => (x.name === 'y' ? { ...x, offset: peak } : x));
    const b: PlanFile = { ...a, plan: { ...a.plan, buffers, peak: peak + 2048, regions: a.plan.regions.map((r) => ({ ...r, peak: r.peak + 2048 })) } };
    const diff = diffPlans(a, b);
    expect(diff.delta).toBe(2048);
    expect(diff.causes).toEqual([expect.objectContaining({ kind: 'placement-worse', bytes: 2048 })]);
    expect(diff.causes[0]!.summary).toMatch(/^placement got worse: holes and padding at the peak \(ram 0 B → 2.00 KiB\)/);
    expect(diff.buffers.find((x) => x.nameB === 'y')).toMatchObject({ status: 'moved', offsetA: before, offsetB: peak });
  });

  it('says which strategy made the holes when the strategy differs', () => {
    const target = presetTarget('cpu');
    const model = inferShapes(decodeOnnx(new Uint8Array(SAMPLE)));
    const diff = diffPlans(planned(model, target, {}, 'm1'), planned(model, target, {}, 'naive'));
    expect(diff.delta).toBeGreaterThan(0);
    expect(diff.causes[0]).toMatchObject({ kind: 'strategy-changed', bytes: diff.delta });
    expect(diff.causes[0]!.summary).toMatch(/^strategy m1 → naive changed the holes/);
  });

  it('names the fused units when fusion is switched on, and when it is switched off', () => {
    const on = presetTarget('accelerator');
    const off: TargetProfile = { ...on, fusion: { ...on.fusion!, enabled: false } };
    const fused = sample(on);
    const unfused = sample(off);
    const unitNames = fused.plan.fusionUnits.map((u) => u.name);
    expect(unitNames.length).toBeGreaterThan(0);
    const diff = diffPlans(unfused, fused);
    expect(diff.delta).toBeLessThan(0);
    // a unit B adds is 'fusion-added' (it read 'fusion-removed', the unit B adds named as removed)
    const fusion = diff.causes.filter((c) => c.kind === 'fusion-added');
    expect(fusion.length).toBeGreaterThan(0);
    expect(diff.causes[0]!.kind).toBe('fusion-added');
    for (const c of fusion) {
      expect(unitNames).toContain(c.unit);
      expect(c.summary).toContain(`fusion unit '${c.unit}'`);
      const unit = fused.plan.fusionUnits.find((u) => u.name === c.unit)!;
      expect(c.nodes.every((n) => unit.nodes.includes(n))).toBe(true);
    }
    expectAccounted(diff);
    const back = diffPlans(fused, unfused);
    expect(back.causes[0]).toMatchObject({ kind: 'fusion-undone', unit: diff.causes[0]!.unit });
    expectAccounted(back);
  });

  it("puts the free space a variable-size scratch buffer took down to the strategy that left it free, not to the buffer", () => {
    const target = presetTarget('mcu');
    const model = inferShapes(decodeOnnx(new Uint8Array(SAMPLE)));
    const [a, b] = ['best', 'naive'].map((strategy) => toPlanFile(model, planModel(model, target, { strategy }), { model: 'sample.onnx', target: 'mcu', targetProfile: target, dims: {} }));
    const diff = diffPlans(a!, b!);
    expectAccounted(diff);
    // naive leaves more free space, and the variable-size scratch buffers are given more of it
    const given = diff.buffers.filter((c) => c.idB !== undefined && b!.plan.buffers[c.idB]!.scratch?.variable === true && c.sizeA !== c.sizeB);
    expect(given.length).toBeGreaterThan(0);
    for (const c of given) expect(c.status).toBe('moved');
    expect(diff.causes.map((c) => c.kind)).not.toContain('tensor-grew');
    expect(diff.causes[0]!.kind).toBe('strategy-changed');
    expect(diff.causes[0]!.bytes).toBe(diff.delta);
  });

  it('names the setting that moved buffers between regions, with what each region gained and lost', () => {
    const mcu = presetTarget('mcu');
    const off = { ...mcu, planning: { ...mcu.planning, spill: 'off' as const } };
    const diff = diffPlans(sample(off), sample(presetTarget('mcu')));
    expectAccounted(diff);
    const moved = diff.causes.find((c) => c.kind === 'region-moved')!;
    expect(moved.summary).toMatch(/^spill off → spill on: 20 buffers moved from region sram to ext-ram, 4 of them live at the peak \('block2\/expand_out' 2\.34 MiB, .*\): sram −2\.73 MiB, ext-ram \+2\.93 MiB at their peaks, \+200 KiB$/);
  });

  it.skipIf(!existsSync(ULTRAFACE))('puts a spill that moved the peak of sram to another step down to the spill alone, with each region\'s change', () => {
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(ULTRAFACE))));
    const mcu = presetTarget('mcu');
    const off = { ...mcu, planning: { ...mcu.planning, spill: 'off' as const } };
    const diff = diffPlans(planned(model, off), planned(model, presetTarget('mcu')));
    expectAccounted(diff);
    // sram falls by 4.19 MiB: no cause says it grew (its peak moving to a step with a scratch buffer is the spill's doing)
    expect(diff.causes.map((c) => c.kind)).toEqual(['region-moved']);
    expect(diff.causes[0]!.bytes).toBe(diff.delta);
    expect(diff.causes[0]!.summary).toMatch(/^spill off → spill on: 53 buffers moved from region sram to ext-ram, 3 of them live at the peak \(.*\): sram −4\.19 MiB, ext-ram \+4\.69 MiB at their peaks \(the peak of region sram moved from step 4 \(Conv 'Conv_4'\) to step 37 \(Conv 'Conv_37'\)\), \+506 KiB$/);
  });

  it.skipIf(!existsSync(SQUEEZENET))('says a region grew when fusion switched off moves tiled tensors into it, as much as it grew', () => {
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(SQUEEZENET))));
    const accelerator = presetTarget('accelerator');
    const off = { ...accelerator, fusion: { ...accelerator.fusion!, enabled: false } };
    const diff = diffPlans(planned(model, accelerator), planned(model, off));
    expectAccounted(diff);
    const dram = diff.regions.find((r) => r.name === 'dram')!;
    expect(dram.delta).toBeGreaterThan(0);
    // the old "peak of region dram moved … −499 KiB" said dram fell while it grew by 1.39 MiB
    expect(diff.causes.map((c) => c.kind)).toEqual(['fusion-undone']);
    expect(diff.causes[0]!.bytes).toBe(diff.delta);
    expect(diff.causes[0]!.summary).toContain('dram +1.39 MiB, sram −1.92 MiB at their peaks; the peak falls by 551 KiB');
  });

  it('names the target field the page edited (mcu with scratch planned with the activations), not the target as changed', () => {
    const mcu = presetTarget('mcu');
    const joint = { ...mcu, scratch: { ...mcu.scratch, placement: 'with-activations' as const } };
    const a = sample(mcu);
    // the page saves a preset with an edited field as target 'custom' with its whole profile
    const b = { ...sample(joint), settings: { ...sample(joint).settings, target: 'custom' } };
    const diff = diffPlans(a, b);
    expectAccounted(diff);
    expect(diff.causes).toHaveLength(1);
    expect(diff.causes[0]).toMatchObject({ kind: 'target-changed', title: 'scratch placement changed (free areas → with activations)' });
    expect(diff.causes[0]!.summary).toMatch(/^scratch placement changed \(free areas → with activations\) and with it the holes and padding at the peak \(sram [\d.]+ KiB → 0 B\), −[\d.]+ KiB$/);
    // another preset: nothing named to single out
    expect(diffPlans(sample(presetTarget('cpu')), b).causes.find((c) => c.kind === 'target-changed')?.title).toBeUndefined();
  });

  it('accounts for the delta between every pair of presets and strategies on the sample', () => {
    const plans = ['cpu', 'mcu', 'accelerator', 'phone'].map((name) => sample(presetTarget(name)));
    for (const a of plans) for (const b of plans) expectAccounted(diffPlans(a, b));
  });
});
