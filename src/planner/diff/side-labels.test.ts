import { describe, expect, it } from 'vitest';
import type { PlanFile } from '../assembly/plan-file';
import { sideLabels, targetLabels } from './side-labels';

function file(model: string, dims: Record<string, number>, fusion: boolean | undefined, strategy = 'best', target = 'accelerator', scratch = { rules: [] as unknown[], placement: 'free-areas' }): PlanFile {
  return {
    model,
    settings: {
      dims,
      target,
      targetProfile: { name: 'accelerator', computeUnits: [{ name: 'cluster' }], planning: { order: 'file' }, scratch, ...(fusion !== undefined && { fusion: { enabled: fusion, sramBytes: 4 } }) },
    },
    plan: { strategy },
  } as unknown as PlanFile;
}

describe('sideLabels', () => {
  it('names only what differs: a dim', () => {
    expect(sideLabels(file('gpt2.onnx', { seq_len: 16 }, undefined), file('gpt2.onnx', { seq_len: 512 }, undefined))).toEqual(['seq_len=16', 'seq_len=512']);
  });
  it('names fusion alone, not the preset as edited, when switching it off is the only edit', () => {
    expect(sideLabels(file('m.onnx', {}, true), file('m.onnx', {}, false, 'best', 'custom'))).toEqual(['fusion on', 'fusion off']);
  });
  it('says the preset was edited when a field without a name of its own differs too (a region limit)', () => {
    const edited = file('m.onnx', {}, false, 'best', 'custom') as unknown as { settings: { targetProfile: Record<string, unknown> } };
    edited.settings.targetProfile = { ...edited.settings.targetProfile, regions: [{ name: 'sram', sizeLimit: 1024 }] };
    expect(sideLabels(file('m.onnx', {}, true), edited as unknown as PlanFile)).toEqual(['accelerator · fusion on', 'accelerator (edited) · fusion off']);
  });
  it('names the model and strategy when they differ, and the model alone when nothing does', () => {
    expect(sideLabels(file('a.onnx', {}, undefined, 'best'), file('b.onnx', {}, undefined, 'tflm'))).toEqual(['a.onnx · best', 'b.onnx · tflm']);
    expect(sideLabels(file('a.onnx', {}, undefined), file('a.onnx', {}, undefined))).toEqual(['a.onnx', 'a.onnx']);
  });
  it('names the spill, the weights and the graph I/O when only they differ (diff --spill off --b-spill on)', () => {
    const withPlanning = (planning: Record<string, unknown>): PlanFile => {
      const f = file('m.onnx', {}, undefined, 'best', 'mcu') as unknown as { settings: { targetProfile: { planning: Record<string, unknown> } } };
      f.settings.targetProfile.planning = { ...f.settings.targetProfile.planning, ...planning };
      return f as unknown as PlanFile;
    };
    expect(sideLabels(withPlanning({ spill: 'off' }), withPlanning({}))).toEqual(['spill off', 'spill on']);
    expect(sideLabels(withPlanning({}), withPlanning({ weights: { region: 'sram', copied: true } }))).toEqual(['weights in flash', 'weights copied to sram']);
    expect(sideLabels(withPlanning({ io: 'application' }), withPlanning({}))).toEqual(['I/O owned by the application', 'I/O in the arena']);
    // asked of TensorFlow Lite Micro, which keeps graph I/O in its arena: the plans do not differ there
    const kept = withPlanning({ io: 'application' }) as unknown as { plan: Record<string, unknown> };
    kept.plan = { ...kept.plan, storage: { io: { owner: 'arena' } } };
    expect(sideLabels(kept as unknown as PlanFile, withPlanning({}))).toEqual(['m.onnx', 'm.onnx']);
  });
  it('names where scratch goes when the placement differs (a target with scratch rules)', () => {
    const rules = [{ opType: 'Conv', name: 'im2col' }];
    const m4 = file('m.onnx', {}, undefined, 'best', 'mcu', { rules, placement: 'free-areas' });
    const joint = file('m.onnx', {}, undefined, 'best', 'custom', { rules, placement: 'with-activations' });
    expect(sideLabels(m4, joint)).toEqual(['mcu · scratch in free areas', 'accelerator (edited) · scratch with activations']);
  });
  it('says in words what one side lacks: a dim left at its default, no fusion, no scratch rules', () => {
    expect(sideLabels(file('gpt2.onnx', { seq_len: 16 }, undefined), file('gpt2.onnx', {}, undefined))).toEqual(['seq_len=16', 'seq_len default']);
    const rules = [{ opType: 'Conv', name: 'im2col' }];
    const mcu = file('m.onnx', {}, undefined, 'best', 'mcu', { rules, placement: 'free-areas' });
    const accelerator = file('m.onnx', {}, true, 'best', 'accelerator');
    // A's facts in its order, then those only B has
    expect(sideLabels(mcu, accelerator)).toEqual(['mcu · scratch in free areas · no fusion · no fusion SRAM', 'accelerator · no scratch rules · fusion on · SRAM 4 B']);
  });
});

/** `file(...)` with the shapes and input values given and the dims the plan rests on, as plans record them. */
function recorded(base: PlanFile, given: { shapes?: Record<string, number[]>; inputValues?: Record<string, number[]>; inputShapes?: Record<string, number[]> }): PlanFile {
  const dims = Object.entries(base.settings.dims).map(([name, value]) => ({ name, value }));
  const assumptions = { dims, shapes: given.shapes ?? {}, inputValues: given.inputValues ?? {} };
  return { ...base, settings: { ...base.settings, inputShapes: given.inputShapes ?? {} }, plan: { ...base.plan, assumptions } } as unknown as PlanFile;
}

describe('sideLabels: shapes, input values and another model', () => {
  it('names the input shape each side was planned with when one was given (the file\'s shape on the side without)', () => {
    const a = recorded(file('sq.onnx', {}, undefined), { inputShapes: { data_0: [1, 3, 224, 224] } });
    const b = recorded(file('sq.onnx', {}, undefined), { shapes: { data_0: [1, 3, 1024, 1024] }, inputShapes: { data_0: [1, 3, 1024, 1024] } });
    expect(sideLabels(a, b)).toEqual(['data_0=1×3×224×224', 'data_0=1×3×1024×1024']);
    const older = file('sq.onnx', {}, undefined); // saved before plans recorded the shapes given: nothing is guessed
    expect(sideLabels(older, b)).toEqual(['data_0 shape not recorded', 'data_0=1×3×1024×1024']);
  });
  it('names input values given', () => {
    const a = recorded(file('m.onnx', {}, undefined), { inputValues: { rate: [16000] } });
    const b = recorded(file('m.onnx', {}, undefined), {});
    expect(sideLabels(a, b)).toEqual(['rate=[16000]', 'rate not given']);
  });
  it("lists only each side's own dims when the models differ, never the other model's as defaults", () => {
    const sample = recorded(file('sample.onnx', { batch: 1 }, undefined), {});
    const gpt2 = recorded(file('gpt2.onnx', { batch_size: 1, seq_len: 128 }, undefined), {});
    expect(sideLabels(sample, gpt2)).toEqual(['sample.onnx · batch=1', 'gpt2.onnx · batch_size=1 · seq_len=128']);
    // plans without a record of their dims: the different model names alone tell
    expect(sideLabels(file('sample.onnx', { batch: 1 }, undefined), file('gpt2.onnx', { seq_len: 128 }, undefined))).toEqual(['sample.onnx · batch=1', 'gpt2.onnx · seq_len=128']);
  });
});

describe('targetLabels', () => {
  it('names the target with the edited fields that differ, leaving out the model, dims and strategy', () => {
    const a = file('a.onnx', { n: 1 }, true, 'best', 'accelerator');
    const b = file('b.onnx', { n: 2 }, false, 'tflm', 'custom');
    expect(targetLabels(a, b)).toEqual(['accelerator · fusion on', 'accelerator · fusion off']);
  });
  it('names the presets alone when only the preset differs, and nothing when the targets agree on every field', () => {
    expect(targetLabels(file('m.onnx', {}, undefined, 'best', 'accelerator'), file('m.onnx', {}, undefined, 'best', 'phone'))).toEqual(['accelerator', 'phone']);
    expect(targetLabels(file('a.onnx', { n: 1 }, true), file('b.onnx', { n: 2 }, true, 'tflm'))).toBeUndefined();
  });
});
