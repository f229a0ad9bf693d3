import { afterEach, describe, expect, it, vi } from 'vitest';
import { warnLeftOut } from './left-out-warnings';

afterEach(() => vi.restoreAllMocks());

describe('warnLeftOut', () => {
  it('names each parameter left out in a warning of its own, in order, as the link wrote it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    warnLeftOut(['dim.nosuch=3: the model has no dim nosuch', 'select=buffer:007: the plan has no buffer 007 (it has 4)']);
    expect(warn.mock.calls).toEqual([
      ['heapscope: ignored URL parameter dim.nosuch=3: the model has no dim nosuch'],
      ['heapscope: ignored URL parameter select=buffer:007: the plan has no buffer 007 (it has 4)'],
    ]);
  });

  it('warns nothing when nothing was left out', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    warnLeftOut([]);
    expect(warn).not.toHaveBeenCalled();
  });
});
