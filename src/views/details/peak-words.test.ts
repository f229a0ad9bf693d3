import { describe, expect, it } from 'vitest';
import type { PeakLiveRecord, Waste } from '../../planner/plan';
import { aboveLiveWords, noSuggestionWords } from './peak-words';

const MiB = 1024 * 1024;
const waste = (w: Partial<Waste>): Waste => ({ total: 0, holes: 0, alignmentPadding: 0, scratchGrowth: 0, ...w });

describe('aboveLiveWords', () => {
  it('names scratch growth, not holes, when scratch is what lies above the live buffers', () => {
    const words = aboveLiveWords(8.61 * MiB, waste({ total: 8.61 * MiB, scratchGrowth: 8.61 * MiB }));
    expect(words).toBe('8.61 MiB of scratch growth (scratch buffers placed above the activations)');
    expect(words).not.toContain('holes');
  });

  it('splits the bytes as the waste does, scratch then padding then holes, leaving out zeros', () => {
    expect(aboveLiveWords(1000, waste({ scratchGrowth: 600, alignmentPadding: 100, holes: 300 }))).toBe(
      '600 B of scratch growth (scratch buffers placed above the activations), 100 B of alignment padding and 300 B of holes in the layout',
    );
    expect(aboveLiveWords(400, waste({ alignmentPadding: 100, holes: 300 }))).toBe('100 B of alignment padding and 300 B of holes in the layout');
    expect(aboveLiveWords(300, waste({ holes: 300 }))).toBe('300 B of holes in the layout');
  });

  it('never names more bytes than lie above the live buffers', () => {
    expect(aboveLiveWords(50, waste({ scratchGrowth: 600, alignmentPadding: 100 }))).toBe('50 B of scratch growth (scratch buffers placed above the activations)');
  });

  it('keeps the general words when there is no waste to split by', () => {
    expect(aboveLiveWords(10, undefined)).toBe('holes and alignment padding of the layout');
  });
});

function record(r: Partial<PeakLiveRecord>): PeakLiveRecord {
  return { id: 0, name: 'x', kind: 'activation', size: 64 * MiB, counted: 64 * MiB, span: { start: 0, end: 2, steps: 2 }, causes: [], reason: '', ...r } as PeakLiveRecord;
}

describe('noSuggestionWords', () => {
  it('says a narrowing the reasons offer was tried and did not lower the peak', () => {
    const words = noSuggestionWords([record({ name: 'logits', narrowTo: { dtype: 'float16', size: 32 * MiB } })]);
    expect(words).toBe('No change the planner tried lowers this peak. Keeping logits in float16 (32.0 MiB instead of 64.0 MiB) was tried too and leaves the peak where it is.');
  });

  it('names the buffer the planner tries: the first one at the peak that a Cast narrows and that adds bytes', () => {
    const words = noSuggestionWords([
      record({ name: 'aliased', counted: 0, narrowTo: { dtype: 'float16', size: 1 } }),
      record({ name: 'second', narrowTo: { dtype: 'int8', size: 16 * MiB } }),
    ]);
    expect(words).toContain('Keeping second in int8');
  });

  it('is the plain sentence when no narrowing is offered', () => {
    expect(noSuggestionWords([record({})])).toBe('No change the planner tried lowers this peak.');
  });
});
