import { describe, expect, it } from 'vitest';
import { parseTarget } from '../targets/parse';
import type { Replanned } from './setting-replan';
import { suggestPlanChanges, type SuggestInput } from './suggest';

const TARGET = parseTarget({
  name: 'board',
  regions: [
    { name: 'sram', alignment: 1, fast: true },
    { name: 'dram', alignment: 1, fast: false },
  ],
  planning: { order: 'file', strategy: 'best' },
});

/** A plan of 2000 B in sram and 500 B in dram, whose settings plan again as `replanned` says per order. */
function input(replanned: Readonly<Record<string, Replanned>>): SuggestInput {
  return {
    target: TARGET,
    strategy: 'best',
    strategyGiven: false,
    peak: 2500,
    peakLive: [],
    problem: { buffers: [] },
    hasComputeUnits: false,
    scratchGrowth: 0,
    regions: [
      { name: 'sram', fast: true, peak: 2000 },
      { name: 'dram', fast: false, peak: 500 },
    ],
    slowTraffic: 3000,
    replan: (_target, _strategy, change) => replanned[change.order ?? ''],
  };
}

const regions = (sram: number, dram: number) => [
  { name: 'sram', fast: true, peak: sram },
  { name: 'dram', fast: false, peak: dram },
];

describe('suggestions over fast and slow regions', () => {
  it('says a saving that moves bytes from fast memory to slow is a trade, region by region, with the bytes moved in slow memory', () => {
    const [s] = suggestPlanChanges(input({ 'depth-first': { peak: 1900, regions: regions(0, 1900), slowTraffic: 30000 } }));
    expect(s!.saves).toBe(600);
    expect(s!.action).toBe(
      'run in depth-first order instead of file: the peak falls to 1.86 KiB, 600 B less, by trading fast memory for slow: sram 1.95 KiB → 0 B (−1.95 KiB), dram 500 B → 1.86 KiB (+1.37 KiB); bytes moved to and from slow memory 2.93 KiB → 29.3 KiB',
    );
    expect(s!.regions).toEqual([
      { name: 'sram', fast: true, before: 2000, after: 0 },
      { name: 'dram', fast: false, before: 500, after: 1900 },
    ]);
    expect(s!.slowGrowth).toBe(1400);
    expect(s!.slowTraffic).toEqual({ before: 3000, after: 30000 });
  });

  it('ranks a trade of fast memory for slow after a smaller saving that raises no slow region', () => {
    const found = suggestPlanChanges(
      input({
        'depth-first': { peak: 1900, regions: regions(0, 1900) },
        'memory-aware': { peak: 2400, regions: regions(1950, 450) },
      }),
    );
    expect(found.map((s) => s.change?.order)).toEqual(['memory-aware', 'depth-first']);
    const [plain, trade] = found;
    expect(plain!.action).toBe('run in memory-aware order instead of file: the peak falls to 2.34 KiB, 100 B less: sram 1.95 KiB → 1.90 KiB (−50 B), dram 500 B → 450 B (−50 B)');
    expect(plain!.slowGrowth).toBeUndefined();
    // bytes moved unknown on the replanned side: not said, not counted as none
    expect(trade!.action).toBe('run in depth-first order instead of file: the peak falls to 1.86 KiB, 600 B less, by trading fast memory for slow: sram 1.95 KiB → 0 B (−1.95 KiB), dram 500 B → 1.86 KiB (+1.37 KiB)');
    expect(trade!.slowTraffic).toBeUndefined();
  });

  it('keeps the words of a saving in one region', () => {
    const [s] = suggestPlanChanges(input({ 'depth-first': { peak: 2400, regions: regions(1900, 500) } }));
    expect(s!.action).toBe('run in depth-first order instead of file: the peak falls to 2.34 KiB, 100 B less');
    expect(s!.regions).toBeUndefined();
  });
});
