// Why scratch is in a slow memory: a rule that is not latency-critical sends
// its scratch there, whatever room the fast region has, unless M4's kept
// variant tried the fast region first (then it had no free area), and the
// words say which per region and per buffer (planModel on a small graph built
// here).

import { describe, expect, it } from 'vitest';
import { planModel } from '../plan';
import { parseTarget } from '../targets/parse';
import { tinyGraph } from '../testing/tiny-graph';
import { ruleScratchTexts, scratchRegionText } from './scratch-region-words';

describe('scratch a rule sends to the slow memory', () => {
  // x (256 floats) -> Relu -> a -> Relu -> y, each Relu with a 64 B work buffer (not latency-critical) and a 32 B table
  // (latency-critical), in a 1 MiB SRAM beside an external RAM: the SRAM has room for both, the work buffers still go out
  const model = () => {
    const g = tinyGraph().input('x', [256]);
    g.node('Relu', ['x'], { a: [256] }).node('Relu', ['a'], { y: [256] });
    return g.output('y').model();
  };
  const target = parseTarget({
    name: 't',
    regions: [{ name: 'sram', alignment: 16, fast: true, sizeLimit: 1 << 20 }, { name: 'ext', alignment: 16, fast: false }],
    planning: { activationRegion: 'sram', memoryMap: ['sram', 'ext'] },
    scratch: { rules: [{ opType: 'Relu', name: 'work', bytes: 64 }, { opType: 'Relu', name: 'table', bytes: 32, latencyCritical: true }] },
  });

  it('are counted per slow region, and each says why it is there', () => {
    const plan = planModel(model(), target);
    const work = plan.buffers.filter((b) => b.scratch?.rule === 'work');
    expect(work.map((b) => b.region)).toEqual(['ext', 'ext']);
    expect(plan.spill?.spilledBuffers).toBe(0);
    expect(ruleScratchTexts(plan)).toEqual([
      {
        region: 'ext',
        text: "2 scratch buffers are in ext by the target's scratch rules, not spilled: their rules are not latency-critical, so M4 places them in the slow memory and leaves sram to activations and latency-critical scratch; they move 256 B there per inference (written and read)",
      },
    ]);
    expect(scratchRegionText(plan, work[0]!)).toBe(
      "in ext, a slow memory, by its rule, not spilled: work is not latency-critical, so M4 places it in the target's slow memory and leaves sram to activations and latency-critical scratch; it moves 128 B there per inference (written and read)",
    );
    const table = plan.buffers.find((b) => b.scratch?.rule === 'table')!;
    expect(table.region).toBe('sram');
    expect(scratchRegionText(plan, table)).toBeUndefined();
  });

  it('say the fast region had no room where M4 tried it first, not that the rule sent the scratch out', () => {
    // with retries kept for the most scratch in fast memory, M4 tries the sram first for a fixed-size work buffer: at
    // the first Relu x and a fill the sram's heap, so its work buffer goes out all the same; at the second, x's bytes
    // are free and the work buffer takes them
    const fastFirst = parseTarget({
      name: 't',
      regions: [{ name: 'sram', alignment: 16, fast: true, sizeLimit: 1 << 20 }, { name: 'ext', alignment: 16, fast: false }],
      planning: { activationRegion: 'sram', memoryMap: ['sram', 'ext'] },
      scratch: { rules: [{ opType: 'Relu', name: 'work', bytes: 64 }], retries: true, criterion: 'most-fast' },
    });
    const plan = planModel(model(), fastFirst);
    expect(plan.scratch?.variant.preferFast).toBe(true);
    const work = plan.buffers.filter((b) => b.scratch?.rule === 'work');
    expect(work.map((b) => b.region)).toEqual(['ext', 'sram']);
    expect(ruleScratchTexts(plan)).toEqual([
      {
        region: 'ext',
        text: '1 scratch buffer is in ext, not spilled: M4 tried sram first for scratch that is not latency-critical, and sram had no free area for it at its step; it moves 128 B there per inference (written and read)',
      },
    ]);
    expect(scratchRegionText(plan, work[0]!)).toBe(
      'in ext, a slow memory, not spilled: work is not latency-critical, and M4 tried sram first but it had no free area for it at its step; it moves 128 B there per inference (written and read)',
    );
  });

  it('give no figure of bytes moved where the plan gives none, never 0 B', () => {
    const plan = planModel(model(), target);
    const buffers = plan.buffers.map(({ moved: _, ...b }) => b);
    expect(ruleScratchTexts({ ...plan, buffers })[0]!.text).toMatch(/latency-critical scratch$/);
  });
});
