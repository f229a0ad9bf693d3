// Which graph groups are collapsed, as a link carries it: the changes from a
// starting point (the model's first view, every group expanded, or every top
// group collapsed), whichever is shortest, and back. Pure; no DOM, no React.

import type { GroupView } from '../../../store/state';
import type { GraphCluster } from './clusters';

const FROMS: readonly GroupView['from'][] = ['first', 'open', 'closed'];

/** The groups `from` starts with collapsed: the first view's, none, or every top group (as "Collapse all" does). */
function startingPoint(from: GroupView['from'], first: ReadonlySet<string>, clusters: readonly GraphCluster[]): ReadonlySet<string> {
  if (from === 'first') return first;
  if (from === 'open') return new Set();
  return new Set(clusters.filter((c) => c.parent === undefined).map((c) => c.id));
}

/** The collapsed groups `view` describes, given the model's first view and its groups. */
export function collapsedOfView(view: GroupView, first: ReadonlySet<string>, clusters: readonly GraphCluster[]): Set<string> {
  const collapsed = new Set(startingPoint(view.from, first, clusters));
  for (const id of view.open) collapsed.delete(id);
  for (const id of view.closed) collapsed.add(id);
  return collapsed;
}

/**
 * The shortest view that gives `collapsed` over the groups `clusters` (ids of
 * no group are left out), preferring the first view on a tie; ids sorted.
 */
export function viewOfCollapsed(collapsed: ReadonlySet<string>, first: ReadonlySet<string>, clusters: readonly GraphCluster[]): GroupView {
  const ids = clusters.map((c) => c.id).sort();
  let best: GroupView | undefined;
  for (const from of FROMS) {
    const start = startingPoint(from, first, clusters);
    const view: GroupView = {
      from,
      open: ids.filter((id) => start.has(id) && !collapsed.has(id)),
      closed: ids.filter((id) => !start.has(id) && collapsed.has(id)),
    };
    if (best === undefined || view.open.length + view.closed.length < best.open.length + best.closed.length) best = view;
  }
  return best!;
}

/** The ids of `clusters` that are collapsed, sorted. */
export function collapsedIds(collapsed: ReadonlySet<string>, clusters: readonly GraphCluster[]): string[] {
  return clusters.map((c) => c.id).filter((id) => collapsed.has(id)).sort();
}

/**
 * The link's group.ID= parameters that name no group of the graph (`ids`: every
 * group id it can have), each as "group.zz=open: the graph has no group zz".
 */
export function groupsNotInGraph(view: GroupView, ids: ReadonlySet<string>): string[] {
  const named = [...view.open.map((id) => [id, 'open'] as const), ...view.closed.map((id) => [id, 'closed'] as const)];
  return named.filter(([id]) => !ids.has(id)).map(([id, state]) => `group.${id}=${state}: the graph has no group ${id}`);
}
