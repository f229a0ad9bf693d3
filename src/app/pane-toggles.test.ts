import { describe, expect, it } from 'vitest';
import { initialPanes, panesParam } from './pane-toggles';

describe('the panes shown at start', () => {
  it('are all but Growth on a large screen', () => {
    expect(initialPanes(1600, 1000)).toEqual({ sidebar: true, graph: true, heap: true, growth: false, details: true, table: true });
  });

  it('leave out the tensor table on a laptop screen, as the README says', () => {
    expect(initialPanes(1280, 720)).toMatchObject({ sidebar: true, table: false });
  });

  it('leave out the side bar in a window narrower than 1100 px, so graph, heap and details keep their tools whole', () => {
    expect(initialPanes(900, 800)).toMatchObject({ sidebar: false, graph: true, heap: true, details: true, table: true });
    expect(initialPanes(1099, 700)).toMatchObject({ sidebar: false, table: false });
    expect(initialPanes(1100, 700).sidebar).toBe(true);
  });

  it("follow a link's panes=: those of graph, heap, growth and details it names are shown, the others collapsed", () => {
    expect(initialPanes(1600, 1000, ['growth'])).toEqual({ sidebar: true, graph: false, heap: false, growth: true, details: false, table: true });
    // the explanation is the page's Details; the peak chart stands beside the heap
    expect(initialPanes(1280, 720, ['chart', 'explain'])).toEqual({ sidebar: true, graph: false, heap: true, growth: false, details: true, table: false });
    expect(initialPanes(1600, 1000, [])).toEqual(initialPanes(1600, 1000));
  });
});

describe('the panes= a toggle writes', () => {
  it('names the graph, heap, growth and details shown, in the order of the page, and reopens them', () => {
    const shown = { sidebar: false, graph: true, heap: false, growth: true, details: true, table: false };
    expect(panesParam(shown)).toBe('graph,growth,explain');
    expect(initialPanes(1600, 1000, ['graph', 'growth', 'explain'])).toMatchObject({ graph: true, heap: false, growth: true, details: true });
    expect(panesParam({ ...shown, graph: false, growth: false, details: false })).toBe('');
  });
});
