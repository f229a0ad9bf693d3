// Which panes of the page are shown: the side bar, graph, heap, details and
// tensor table can each be collapsed from the header so a laptop screen gives
// the rest their room. On a laptop screen (720 px tall) and shorter ones the
// tensor table starts collapsed; in a window narrower than a laptop's the
// side bar does. The Growth view starts hidden: shown, it plans the model
// again at every value of its curve.

import { useState } from 'react';

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

/** The panes shown at start for a window `width` × `height` pixels. */
export function initialPanes(width: number, height: number): PaneVisibility {
  return { sidebar: width >= NARROW_SCREEN, graph: true, heap: true, growth: false, details: true, table: height >= SHORT_SCREEN };
}

/** The shown panes and a toggle; state of the page, not of the plan. */
export function usePanes(): [PaneVisibility, (pane: PaneName) => void] {
  const [panes, setPanes] = useState<PaneVisibility>(() => initialPanes(window.innerWidth, window.innerHeight));
  const toggle = (pane: PaneName): void => setPanes((old) => ({ ...old, [pane]: !old[pane] }));
  return [panes, toggle];
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
