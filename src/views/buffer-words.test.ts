import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../model/onnx/decode-onnx';
import { inferShapes } from '../model/infer/shapes';
import type { PlannedBuffer } from '../planner/plan';
import { planForSettings } from '../worker/plan/settings';
import { offsetText, paddedSizeTitle, reservedText, scratchRuleText, sharedBlockSteps, sharersOf, spillText } from './buffer-words';

const SAMPLE = new Uint8Array(readFileSync(new URL('../../public/sample.onnx', import.meta.url)));
const model = inferShapes(decodeOnnx(SAMPLE, {}), { dims: {} });

const buffer = (b: Partial<PlannedBuffer>): PlannedBuffer => ({ id: 0, name: 't', kind: 'activation', size: 64, bytes: 64, start: 0, end: 1, offset: 0, region: 'ram', ...b });

describe('a buffer in words', () => {
  it("finds the buffers sharing a buffer's bytes, through one another, and the steps their block holds (ultraface's 282, Relu_25's 283 in place to step 43)", () => {
    const buffers = [
      buffer({ id: 25, name: '282', start: 24, end: 26 }),
      buffer({ id: 26, name: '283', start: 25, end: 43, alias: { parent: 25, offset: 0, rule: 'in-place' } }),
      buffer({ id: 27, name: '284', start: 42, end: 45, alias: { parent: 26, offset: 0, rule: 'removable' } }),
      buffer({ id: 28, name: 'other', start: 24, end: 50 }),
    ];
    expect(sharersOf(buffers, 25).map((b) => b.name)).toEqual(['283', '284']);
    expect(sharersOf(buffers, 26).map((b) => b.name)).toEqual(['284']);
    expect(sharersOf(buffers, 28)).toEqual([]);
    expect(sharedBlockSteps(buffers[0]!, sharersOf(buffers, 25))).toEqual([24, 45]);
    expect(sharedBlockSteps(buffers[3]!, [])).toEqual([24, 50]);
  });


  it("says a size rounded up to the region's alignment is not the tensor's (micro_speech's Reshape_1: 1.92 KiB planned, 1.91 KiB in the Tensors table)", () => {
    expect(paddedSizeTitle({ size: 1968, bytes: 1960 })).toBe("1,968 B reserved: its 1,960 B rounded up to the region's alignment (8 B of padding)");
    expect(paddedSizeTitle({ size: 1960, bytes: 1960 })).toBeUndefined();
    expect(paddedSizeTitle({ size: 16, bytes: 0 })).toBeUndefined();
  });

  it('names an offset as one, in exact bytes and rounded, never as a bare pair of numbers', () => {
    expect(offsetText(519_168)).toBe('offset 519,168 B (507 KiB)');
    expect(offsetText(512)).toBe('offset 512 B');
    expect(offsetText(0)).toBe('offset 0');
  });

  it('says when a buffer reserves more than its data, and by how much', () => {
    expect(reservedText({ size: 64, bytes: 8 })).toBe('64 B (8 B of data, 56 B of alignment padding)');
    expect(reservedText({ size: 1_330_672, bytes: 1_330_668 })).toBe('1.27 MiB (1,330,668 B of data, 4 B of alignment padding)');
    expect(reservedText({ size: 64, bytes: 64 })).toBe('64 B');
    expect(reservedText({ size: 0, bytes: 0 })).toBe('0 B');
  });

  it('says a buffer spilled, from where, and why when the plan explains it', () => {
    const plan = planForSettings(model, { target: 'mcu', strategy: undefined });
    const explained = plan.explanation.spilled![0]!;
    const b = plan.buffers.find((x) => x.id === explained.id)!;
    expect(spillText(plan, b)).toBe(`spilled from ${explained.wanted}, the region it wanted, to ${explained.region}: ${explained.reason}`);
    const ids = new Set(plan.explanation.spilled!.map((s) => s.id));
    const unexplained = plan.buffers.find((x) => x.wanted !== undefined && !ids.has(x.id) && (x.alias === undefined || !ids.has(x.alias.parent)));
    if (unexplained !== undefined) expect(spillText(plan, unexplained)).toBe(`spilled from sram, the region it wanted, to ${unexplained.region} (the plan explains its largest spills only)`);
    expect(spillText(plan, plan.buffers.find((x) => x.wanted === undefined)!)).toBeUndefined();
  });

  it('gives a scratch buffer the rule that sized it, and says when placement grew it past that', () => {
    const plan = planForSettings(model, { target: 'mcu', strategy: undefined });
    const im2col = plan.buffers.find((b) => b.name === 'stem/conv:im2col')!;
    expect(scratchRuleText(im2col)).toBe("im2col rule: 675 KiB by its formula of the op's shapes");
    const workspace = plan.buffers.find((b) => b.name === 'stem/conv:workspace')!;
    expect(scratchRuleText(workspace)).toBe('workspace rule: variable size, at least 2.00 KiB fixed by the rule; grown to 1.68 MiB, the free space the planner gave it at its step');
    const small = buffer({ kind: 'scratch', size: 2048, bytes: 2048, scratch: { rule: 'workspace', bytes: 2000, size: 2048, variable: true } });
    expect(scratchRuleText(small)).toBe('workspace rule: variable size, at least 1.95 KiB fixed by the rule');
    expect(scratchRuleText(buffer({ kind: 'scratch' }))).toBe('scratch of its op while it runs (this plan does not record the rule that sized it)');
    expect(scratchRuleText(buffer({}))).toBeUndefined();
  });
});
