import { describe, expect, it } from 'vitest';
import type { PlanFile } from '../assembly/plan-file';
import { sideLabels } from './side-labels';

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
  it('names fusion, not "custom", when the preset is edited to switch it off', () => {
    const [a, b] = sideLabels(file('m.onnx', {}, true), file('m.onnx', {}, false, 'best', 'custom'));
    expect(a).toBe('accelerator · fusion on');
    expect(b).toBe('accelerator (edited) · fusion off');
  });
  it('names the model and strategy when they differ, and the model alone when nothing does', () => {
    expect(sideLabels(file('a.onnx', {}, undefined, 'best'), file('b.onnx', {}, undefined, 'tflm'))).toEqual(['a.onnx · best', 'b.onnx · tflm']);
    expect(sideLabels(file('a.onnx', {}, undefined), file('a.onnx', {}, undefined))).toEqual(['a.onnx', 'a.onnx']);
  });
  it('names where scratch goes when the placement differs (a target with scratch rules)', () => {
    const rules = [{ opType: 'Conv', name: 'im2col' }];
    const m4 = file('m.onnx', {}, undefined, 'best', 'mcu', { rules, placement: 'free-areas' });
    const joint = file('m.onnx', {}, undefined, 'best', 'custom', { rules, placement: 'with-activations' });
    expect(sideLabels(m4, joint)).toEqual(['mcu · scratch in free areas', 'accelerator (edited) · scratch with activations']);
  });
});
