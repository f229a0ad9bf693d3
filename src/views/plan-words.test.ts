import { describe, expect, it } from 'vitest';
import type { ModelPlan, RegionPlan } from '../planner/plan';
import { proofText } from './panels/search-budget';
import { overLimitText } from '../store/fit-words';
import { peakText, portfolioText, regionsPeakNote, regionsPeakText, withRegionsPeak } from './plan-words';

const sram: RegionPlan = { name: 'sram', peak: 3 * 1024, lowerBound: 3 * 1024, optimal: true, fast: true, sizeLimit: 1024, overBy: 2 * 1024, waste: { total: 0, holes: 0, alignmentPadding: 0, scratchGrowth: 0 } };

describe('plan words', () => {
  it('say a peak is a lower estimate when some size is unknown', () => {
    expect(peakText(3072, true)).toBe('3.00 KiB');
    expect(peakText(3072, false)).toBe('≥ 3.00 KiB');
  });

  it("name a peak of two memories as the sum of each one's peak, so more bytes in the fast memory do not read as a worse plan", () => {
    // ultraface on mcu with a 1 MiB sram: 975 KiB there and 4.69 MiB in ext-ram, 5.64 MiB in all (5.18 MiB with 512 KiB of sram)
    const ext: RegionPlan = { ...sram, name: 'ext-ram', peak: 4_917_248, fast: false };
    const regions = [{ ...sram, peak: 998_400 }, ext];
    expect(regionsPeakText({ regions }, true)).toBe("the sum of each memory's own peak, sram 975 KiB + ext-ram 4.69 MiB");
    expect(regionsPeakText({ regions }, false)).toBe("the sum of each memory's own peak, sram ≥ 975 KiB + ext-ram ≥ 4.69 MiB");
    // one memory holding bytes: its peak is the plan's, nothing to add
    expect(regionsPeakText({ regions: [sram, { ...ext, peak: 0 }] }, true)).toBeUndefined();
  });

  it('say in a one-line figure that a peak of two memories is their sum, under the rule of the headline', () => {
    // GPT-2 on mcu: 504 KiB in sram and 176 KiB in ext-ram, 680 KiB in the heap header, the settings' summary and the embed's caption
    const ext: RegionPlan = { ...sram, name: 'ext-ram', peak: 176 * 1024, fast: false };
    const regions = [{ ...sram, peak: 504 * 1024 }, ext];
    expect(regionsPeakNote({ regions })).toBe('(sum of 2 memories)');
    expect(regionsPeakNote({ regions: [...regions, { ...ext, name: 'flash', peak: 0 }] })).toBe('(sum of 2 memories)');
    expect(regionsPeakNote({ regions: [...regions, { ...ext, name: 'flash' }] })).toBe('(sum of 3 memories)');
    // one memory holding bytes: the note is left out where the headline leaves out its sum
    for (const one of [[sram], [sram, { ...ext, peak: 0 }]]) {
      expect(regionsPeakNote({ regions: one })).toBeUndefined();
      expect(regionsPeakText({ regions: one }, true)).toBeUndefined();
    }
  });

  it('say a region over its limit needs at least its peak when some size is unknown', () => {
    expect(overLimitText(sram)).toBe('sram needs 3.00 KiB, 2.00 KiB over its 1.00 KiB limit');
    expect(overLimitText(sram, false)).toBe('sram needs at least 3.00 KiB, at least 2.00 KiB over its 1.00 KiB limit');
    expect(overLimitText({ ...sram, name: 'arena', runtimeTail: 1024 })).toBe("arena needs 3.00 KiB (1.00 KiB of it TFLite Micro's tail and planning), 2.00 KiB over its 1.00 KiB limit");
  });

  it("compare best with M1 truthfully: below it, the same, or M1 planned alone lower", () => {
    const plan = (peak: number, m1Peak: number) => ({ strategy: 'best', peak, portfolio: { winner: 'tflm', m1Peak } }) as unknown as ModelPlan;
    expect(portfolioText(plan(900, 1000))).toBe("best kept tflm's plan (TFLite Micro's greedy planner: largest first, first fit): 100 B (10.0 %) below m1's 1000 B.");
    expect(portfolioText(plan(1000, 1000))).toBe("best kept tflm's plan (TFLite Micro's greedy planner: largest first, first fit), the same peak as m1 (1000 B).");
    expect(portfolioText(plan(8_324_912, 8_322_976))).toBe(
      "best kept tflm's plan (TFLite Micro's greedy planner: largest first, first fit); m1 planned alone ends 1.89 KiB lower (7.94 MiB): the problem each plans depends on the strategy (the bodies it sizes).",
    );
  });

  it("say that best on a memory map kept a baseline's placement of its own split, and what that baseline plans chosen", () => {
    // SqueezeNet fp16 on mcu: 'best kept tvm-conflicts's plan … 139 KiB (4.9 %) below m1's 2.77 MiB' at 2.63 MiB, where
    // the strategy list has tvm-conflicts at 3.20 MiB: it splits the buffers between memories its own way
    const spill = { map: ['sram', 'ext-ram'], spilledBuffers: 20 };
    const plan = { strategy: 'best', peak: 2_761_184, spill, portfolio: { winner: 'tvm-conflicts', m1Peak: 2_904_000, winnerPeak: 3_359_520 } } as unknown as ModelPlan;
    expect(portfolioText(plan)).toBe(
      "best split the buffers between memories with its own placements and kept tvm-conflicts's placement (TVM USMP's greedy by conflicts: most conflicts first, above all of them) of that split: 139 KiB (4.9 %) below m1's 2.77 MiB; tvm-conflicts chosen itself splits them its own way and plans 3.20 MiB.",
    );
    // a baseline's plan spilled whole and kept is that baseline's plan
    const whole = { ...plan, portfolio: { winner: 'tvm-conflicts', m1Peak: 2_904_000 } } as unknown as ModelPlan;
    expect(portfolioText(whole)).toMatch(/^best kept tvm-conflicts's plan \(/);
    // the winner chosen itself splits its own way but may end at the same peak (person_detect on mcu: tflm): not told apart as if it differed
    const same = { ...plan, portfolio: { ...plan.portfolio, winnerPeak: 2_761_184 } } as unknown as ModelPlan;
    expect(portfolioText(same)).toMatch(/; tvm-conflicts chosen itself plans the same 2\.63 MiB\.$/);
  });

  it('say what is proven: the bound of any plan, every region at its own bound, or the placement of its buffers', () => {
    const ext: RegionPlan = { ...sram, name: 'ext-ram', fast: false };
    const base = { gap: 0.092, optimal: false, regions: [sram, ext], peak: 6144, lowerBound: 6144, search: { proven: true, stoppedBy: 'optimal' } } as unknown as ModelPlan;
    expect(proofText({ ...base, gap: 0, optimal: true }, true)).toBe('optimal (proven)');
    expect(proofText(base, true)).toBe('every region at its own bound (proven); the total is 9.2 % above the lower bound of any split between regions');
    expect(proofText({ ...base, regions: [{ ...sram, optimal: false }, ext] }, true)).toBe('9.2 % above the lower bound; no placement of its buffers is lower (proven)');
    expect(proofText({ ...base, search: { proven: false, stoppedBy: 'time' } }, false)).toBe('9.2 % above the lower bound for the sizes known, not proven optimal: the search stopped before a proof');
    // sizes unknown: the plan claims no proof; what it reached for the sizes known is knownSizesProof
    const unknown = { ...base, regions: [{ ...sram, optimal: false }, { ...ext, optimal: false }] };
    expect(proofText({ ...unknown, gap: 0, search: { proven: false, stoppedBy: 'done', knownSizesProof: 'lower-bound' } }, false)).toBe('optimal (proven) for the sizes known');
    expect(proofText({ ...unknown, search: { proven: false, stoppedBy: 'done', knownSizesProof: 'region-bounds' } }, false)).toBe(
      'every region at its own bound (proven) for the sizes known; the total is 9.2 % above the lower bound of any split between regions',
    );
    expect(proofText({ ...unknown, search: { proven: false, stoppedBy: 'done', knownSizesProof: 'search' } }, false)).toBe('9.2 % above the lower bound; no placement of its buffers is lower (proven for the sizes known)');
    expect(proofText({ ...base, search: { proven: false, stoppedBy: 'done' } }, true)).toBe('9.2 % above the lower bound, not proven optimal: the search has nothing left to try, so a longer budget gives the same plan');
  });

  it('read a peak of several memories against the bound of any split and against the sum of their own bounds', () => {
    // ultraface on mcu: the sum of the memories' peaks, 5.18 MiB, is 10.5 % above every memory as one (4.69 MiB), and the memories together 0.38 % above their own bounds
    const sramHere: RegionPlan = { ...sram, peak: 524_288, lowerBound: 522_240, optimal: false };
    const extHere: RegionPlan = { ...sram, name: 'ext-ram', fast: false, peak: 4_917_248, lowerBound: 4_898_816, optimal: false };
    const plan = { gap: 0.1054, optimal: false, regions: [sramHere, extHere], peak: 5_441_536, lowerBound: 4_923_392, search: { proven: false, stoppedBy: 'time' } } as unknown as ModelPlan;
    expect(proofText(plan, true)).toBe('10.5 % above the lower bound of any split between memories, 0.38 % above the sum of their own bounds, not proven optimal: the search stopped before a proof');
    // one memory, or a bound that is the sum of the memories' own: the gap alone
    expect(proofText({ ...plan, lowerBound: 522_240 + 4_898_816, gap: 0.0044 }, true)).toBe('0.44 % above the lower bound, not proven optimal: the search stopped before a proof');
  });
});

describe('withRegionsPeak', () => {
  it("follows a peak of several memories with what it adds up, as the headline says it, and leaves one memory's bare", () => {
    const regions = [
      { name: 'sram', peak: 998_400 },
      { name: 'ext-ram', peak: 4_917_248 },
    ];
    expect(withRegionsPeak('peak 5.64 MiB', { regions }, true)).toBe("peak 5.64 MiB (the sum of each memory's own peak, sram 975 KiB + ext-ram 4.69 MiB)");
    expect(withRegionsPeak('peak 4.69 MiB', { regions: [{ name: 'sram', peak: 0 }, regions[1]!] }, true)).toBe('peak 4.69 MiB');
    expect(withRegionsPeak('peak 4.69 MiB', undefined, true)).toBe('peak 4.69 MiB');
  });
});
