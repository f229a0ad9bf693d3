import { describe, expect, it } from 'vitest';
import { initialPanes } from './pane-toggles';

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
});
