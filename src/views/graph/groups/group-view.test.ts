import { describe, expect, it } from 'vitest';
import type { GraphCluster } from './clusters';
import { collapsedIds, collapsedOfView, viewOfCollapsed } from './group-view';

const group = (id: string, parent?: string): GraphCluster => ({ id, kind: 'scope', label: id, detail: 'scope', nodes: [0], parent });
/** Two top scopes with two children each, and a fusion unit. */
const clusters = [group('sc:/a'), group('sc:/a/x', 'sc:/a'), group('sc:/a/y', 'sc:/a'), group('sc:/b'), group('sc:/b/z', 'sc:/b'), group('sc:/b/w', 'sc:/b'), group('fu:tfu-0')];
const first = new Set(['sc:/a/x', 'sc:/a/y', 'sc:/b']);

describe('the graph groups in a link', () => {
  it('is nothing for the first view', () => {
    expect(viewOfCollapsed(first, first, clusters)).toEqual({ from: 'first', open: [], closed: [] });
  });

  it('names the groups opened and closed against the first view', () => {
    const collapsed = new Set(['sc:/a/x', 'sc:/b', 'fu:tfu-0']);
    const view = viewOfCollapsed(collapsed, first, clusters);
    expect(view).toEqual({ from: 'first', open: ['sc:/a/y'], closed: ['fu:tfu-0'] });
    expect(collapsedOfView(view, first, clusters)).toEqual(collapsed);
  });

  it('starts from everything expanded or every top group collapsed when that is shorter', () => {
    expect(viewOfCollapsed(new Set(), first, clusters)).toEqual({ from: 'open', open: [], closed: [] });
    const all = new Set(['sc:/a', 'sc:/b', 'fu:tfu-0']);
    expect(viewOfCollapsed(all, first, clusters)).toEqual({ from: 'closed', open: [], closed: [] });
    const view = viewOfCollapsed(new Set(['sc:/b/z']), first, clusters);
    expect(view).toEqual({ from: 'open', open: [], closed: ['sc:/b/z'] });
    expect(collapsedOfView(view, first, clusters)).toEqual(new Set(['sc:/b/z']));
  });

  it('leaves out ids of no group, and reads a view whose ids name no group without harm', () => {
    expect(viewOfCollapsed(new Set([...first, 'fu:gone']), first, clusters)).toEqual({ from: 'first', open: [], closed: [] });
    expect(collapsedIds(new Set(['sc:/b', 'fu:gone', 'sc:/a']), clusters)).toEqual(['sc:/a', 'sc:/b']);
    const linked = collapsedOfView({ from: 'first', open: ['sc:/nothing'], closed: ['constructor'] }, first, clusters);
    expect(collapsedIds(linked, clusters)).toEqual([...first].sort());
  });
});
