// Which panes of the page are shown: the side bar, graph, heap, details and
// tensor table can each be collapsed from the header so a laptop screen gives
// the rest their room. On a laptop screen (720 px tall) and shorter ones the
// tensor table starts collapsed; in a window narrower than a laptop's the
// side bar does. The Growth view starts hidden: shown, it plans the model
// again at every value of its curve. A link's `panes=` (the embed's names,
// embed-panes.ts) chooses which of the graph, heap, growth and details start
// shown, so the full view of an embed opens on what the embed showed; a
// toggle of one of them writes what is shown back into `panes=`.

import { useState } from 'react';
import type { EmbedPane } from '../embed/embed-panes';

/** The panes that can be collapsed, in the order of their toggles. */
export const PANES = ['sidebar', 'graph', 'heap', 'growth', 'details', 'table'] as const;
/** One collapsible pane. */
export type PaneName = (typeof PANES)[number];
/** Shown (true) or collapsed, per pane. */
export type PaneVisibility = Readonly<Record<PaneName, boolean>>;

const LABELS: Readonly<Record<PaneName, string>> = { sidebar: 'Side bar', graph: 'Graph', heap: 'Heap', growth: 'Growth', details: 'Details', table: 'Tensors' };

/**
 * Below this window height (CSS pixels) the tensor table starts collapsed, so
 * the graph and the heap keep the height of the window (a 1280×720 laptop
 * screen among them, as the README says); from 800 up it starts shown.
 */
const SHORT_SCREEN = 800;

/**
 * Below this window width (CSS pixels) the side bar starts collapsed: beside
 * its 260 to 300 px the graph, heap and details got under 200 px each at
 * 900 px, too narrow for their tools. Its toggle brings it back.
 */
const NARROW_SCREEN = 1100;

/** The page's pane that shows each pane a link can name (the peak chart stands beside the heap). */
const LINKED: Readonly<Record<EmbedPane, PaneName>> = { graph: 'graph', heap: 'heap', chart: 'heap', explain: 'details', growth: 'growth' };
/** The page's panes a link's `panes=` decides, and their names in it. */
const NAMED: readonly (readonly [PaneName, EmbedPane])[] = [
  ['graph', 'graph'],
  ['heap', 'heap'],
  ['growth', 'growth'],
  ['details', 'explain'],
];

/**
 * The panes shown at start for a window `width` × `height` pixels; `named`
 * (a link's `panes=`) shows those of the graph, heap, growth and details it
 * names and collapses the others.
 */
export function initialPanes(width: number, height: number, named?: readonly EmbedPane[]): PaneVisibility {
  const shown = { sidebar: width >= NARROW_SCREEN, graph: true, heap: true, growth: false, details: true, table: height >= SHORT_SCREEN };
  if (named === undefined || named.length === 0) return shown;
  const linked = new Set(named.map((p) => LINKED[p]));
  for (const [pane] of NAMED) shown[pane] = linked.has(pane);
  return shown;
}

/** The `panes=` value that reopens `panes`: the graph, heap, growth and details shown, by their link names. */
export function panesParam(panes: PaneVisibility): string {
  return NAMED.filter(([pane]) => panes[pane]).map(([, name]) => name).join(',');
}

/**
 * The shown panes and a toggle; state of the page, not of the plan. A toggle
 * of a pane `panes=` decides keeps the address's `panes=` in step.
 */
export function usePanes(named?: readonly EmbedPane[]): [PaneVisibility, (pane: PaneName) => void] {
  const [panes, setPanes] = useState<PaneVisibility>(() => initialPanes(window.innerWidth, window.innerHeight, named));
  const toggle = (pane: PaneName): void => {
    const next = { ...panes, [pane]: !panes[pane] };
    setPanes(next);
    if (NAMED.some(([p]) => p === pane)) writePanesParam(panesParam(next));
  };
  return [panes, toggle];
}

/** Puts `value` in the address's `panes=` (removed when empty), leaving the rest of it as it is. */
function writePanesParam(value: string): void {
  const url = new URL(window.location.href);
  if (value === '') url.searchParams.delete('panes');
  else url.searchParams.set('panes', value);
  if (url.href !== window.location.href) history.replaceState(history.state, '', url.href);
}

/** Props of PaneToggles. */
export interface PaneTogglesProps {
  readonly panes: PaneVisibility;
  readonly onToggle: (pane: PaneName) => void;
}

/** One pressed-or-not button per pane. */
export function PaneToggles({ panes, onToggle }: PaneTogglesProps) {
  return (
    <div className="segmented pane-toggles" role="group" aria-label="Panes shown" data-testid="pane-toggles">
      {PANES.map((pane) => (
        <button key={pane} type="button" aria-pressed={panes[pane]} onClick={() => onToggle(pane)} data-pane={pane}>
          {LABELS[pane]}
        </button>
      ))}
    </div>
  );
}
