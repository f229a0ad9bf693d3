// Why a buffer spilled: the bytes the fast region holds at the fullest step
// of its lifetime count a buffer sharing another's bytes (an in-place output)
// once, as the region holds them (planModel on a small graph; figures by hand).

import { describe, expect, it } from 'vitest';
import { planModel } from '../plan';
import { parseTarget } from '../targets/parse';
import { tinyGraph } from '../testing/tiny-graph';

describe('why a buffer spilled', () => {
  // x (256 B) -> b (2 KiB, read at the end) and c (3 KiB) -> Relu in place -> d -> e -> y: the block c, d earns more per
  // byte-step than b, so b goes to ext; c and d are live together at step 2 and hold 3 KiB between them, not 6 KiB.
  const model = () => {
    const g = tinyGraph().input('x', [64]);
    g.node('Mul', ['x'], { b: [512] }).node('Add', ['x'], { c: [768] }).node('Relu', ['c'], { d: [768] });
    g.node('ReduceSum', ['d'], { e: [64] }).node('Add', ['e', 'b'], { y: [64] });
    return g.output('y').model();
  };
  const target = parseTarget({
    name: 't',
    regions: [{ name: 'sram', alignment: 16, fast: true, sizeLimit: 4096 }, { name: 'ext', alignment: 16, fast: false }],
    planning: { activationRegion: 'sram', memoryMap: ['sram', 'ext'] },
  });

  it('counts an in-place output and its input once in what the fast region holds', () => {
    const plan = planModel(model(), target);
    const d = plan.buffers.find((b) => b.name === 'd')!;
    expect(d.alias?.rule).toBe('in-place');
    expect(plan.explanation.spilled?.map((s) => [s.name, s.region])).toEqual([['b', 'ext']]);
    // at step 1 sram holds x (256 B) and c (3 KiB): 3,328 B of its 4,096, leaving 768 B for b's 2 KiB
    expect(plan.explanation.spilled![0]!.reason).toContain('at step 1 sram holds 3.25 KiB (3.25 KiB of it pinned or earning more per byte-step), leaving 768 B for its 2.00 KiB');
  });
});
