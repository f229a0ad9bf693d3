import { describe, expect, it } from 'vitest';
import type { PlannedBuffer } from '../../planner/plan';
import { activationStatWords } from './activation-stat';

const buffer = (b: Partial<PlannedBuffer>): PlannedBuffer => ({ id: 0, name: 't', kind: 'activation', size: 64, bytes: 64, start: 0, end: 1, offset: 0, region: 'ram', ...b });
const report = { activations: 2, activationBytes: 16, bodyNodes: 0, unknownShapes: [] };

describe('the model card’s activation memory without reuse', () => {
  it('says the figure is unpadded tensor data, and why a plan with a larger peak is larger', () => {
    // wonnx_single_relu on cpu: two 8-byte tensors, each reserved as 64 B by the 64-byte alignment.
    const plan = { peak: 128, complete: true, buffers: [buffer({ kind: 'input', bytes: 8 }), buffer({ id: 1, kind: 'output', bytes: 8, offset: 64 })] };
    const words = activationStatWords(report, plan);
    expect(words.label).toBe('Without reuse');
    expect(words.labelTitle).toBe('Activation data without reuse (unpadded)');
    expect(words.value).toBe('16 B');
    expect(words.note).toBe("The plan's peak, 128 B, is 112 B more than this: it reserves each buffer rounded up to its alignment.");
    // The hover text's only digits are the byte count (a test reads it back as a number).
    expect(words.title.replace(/\D/g, '')).toBe('16');
    // ultraface on cpu: 25.8 MiB here beside naive's 13.5 MiB, whose in-place outputs share their inputs' bytes
    expect(words.title).toContain('if every run-time tensor had memory of its own, an in-place output or a view apart from the tensor whose bytes it shares (every strategy shares those, naive too)');
  });

  it('names scratch and bodies when the plan adds them, and no note when the plan needs no more', () => {
    const plan = { peak: 4096, complete: true, buffers: [buffer({ bytes: 8 }), buffer({ id: 1, kind: 'scratch', size: 2048, bytes: 2048 })] };
    const words = activationStatWords({ activations: 3, activationBytes: 100, bodyNodes: 1, unknownShapes: [{}] as never }, plan);
    expect(words.label).toBe('Without reuse');
    expect(words.labelTitle).toBe('Activation data without reuse (unpadded, main graph, lower estimate)');
    expect(words.value).toBe('≥ 100 B');
    expect(words.note).toBe("The plan's peak, 4.00 KiB, is 3.90 KiB more than this: it reserves each buffer rounded up to its alignment, adds scratch buffers and plans the If/Loop/Scan bodies' tensors.");
    expect(activationStatWords(report, { peak: 16, buffers: [], complete: true }).note).toBeUndefined();
    expect(activationStatWords(report, undefined).note).toBeUndefined();
  });

  it('gives no figure when no size is known, not "≥ 0 B"', () => {
    const words = activationStatWords({ activations: 2, activationBytes: 0, bodyNodes: 0, unknownShapes: [{}, {}] as never }, { peak: 0, buffers: [], complete: false });
    expect(words.value).toBe('unknown');
    expect(words.labelTitle).toBe('Activation data without reuse (every size unknown)');
    expect(words.note).toBeUndefined();
  });

  it('gives the difference, so that a peak and a figure that round alike are told apart', () => {
    // Two figures 14 B apart that both read 154 KiB, as on the Vela person detector on tflm.
    const plan = { peak: 157_724, complete: true, buffers: [buffer({ size: 157_724, bytes: 157_710 })] };
    const words = activationStatWords({ activations: 1, activationBytes: 157_710, bodyNodes: 0, unknownShapes: [] }, plan);
    expect(words.value).toBe('154 KiB');
    expect(words.note).toBe("The plan's peak, 154 KiB, is 14 B more than this: it reserves each buffer rounded up to its alignment.");
  });

  it('calls the peak of a plan with a size unknown a lower estimate, never a plain number', () => {
    // ONNX's test_loop11 on the mcu target: a Slice inside the Loop's body has no size.
    const plan = { peak: 160, complete: false, buffers: [buffer({ size: 160, bytes: 4 })] };
    const words = activationStatWords({ activations: 3, activationBytes: 37, bodyNodes: 1, unknownShapes: [] }, plan);
    expect(words.note).toBe("The plan's peak, at least 160 B, is more than this: it reserves each buffer rounded up to its alignment and plans the If/Loop/Scan bodies' tensors.");
  });
});
