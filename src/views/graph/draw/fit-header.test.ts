import { describe, expect, it } from 'vitest';
import { fitHeader } from './draw-graph';
import { CHAR, TITLE_CHAR } from '../layout/boxes';

describe('fitHeader', () => {
  it('keeps a header that fits its frame whole', () => {
    expect(fitHeader('npu#0', 'on npu · 1 node', 400)).toEqual({ title: 'npu#0', detail: 'on npu · 1 node', cut: false });
  });

  it('cuts the detail first, then the title, to the frame of one small box', () => {
    const narrow = fitHeader('npu#0', 'on npu · 1 node', 96);
    expect(narrow).toMatchObject({ title: 'npu#0', cut: true });
    expect(narrow.detail.endsWith('…')).toBe(true);
    expect((narrow.title.length + 1) * TITLE_CHAR + narrow.detail.length * CHAR).toBeLessThanOrEqual(96);
    const tiny = fitHeader('a-long-partition-name', 'on npu · 1 node', 60);
    expect(tiny.detail).toBe('');
    expect(tiny.title.endsWith('…')).toBe(true);
    expect((tiny.title.length + 1) * TITLE_CHAR).toBeLessThanOrEqual(60 + TITLE_CHAR);
  });
});
