// Skip links at the very start of the tab order: a keyboard user reaches the
// graph, the heap or the tensor table in one Tab and Enter instead of the
// header's and the side bar's sixty-odd stops. Out of sight until focused;
// a collapsed pane has no link, so none leads nowhere.

import type { MouseEvent } from 'react';
import { useAppStore } from '../store/context';
import type { PaneVisibility } from './pane-toggles';

/** A pane a skip link leads to. */
type SkipPane = 'graph' | 'heap' | 'table';

/** Each link: its words, its pane (by id, which is also its test id), and what takes focus in it, the first of them drawn. */
const LINKS: readonly { readonly pane: SkipPane; readonly text: string; readonly root: string; readonly targets: readonly string[] }[] = [
  // The graph's one tab stop (the node visited last), so the arrow keys walk the graph at once; its search while it is laid out.
  { pane: 'graph', text: 'Skip to graph', root: 'graph-pane', targets: ['[data-testid="graph-view"] [tabindex="0"]', '[data-testid="graph-view"]', '[data-testid="graph-search"]'] },
  { pane: 'heap', text: 'Skip to heap', root: 'heap-pane', targets: ['[data-testid="heap-view"]'] },
  { pane: 'table', text: 'Skip to tensors', root: 'tensor-table', targets: ['[data-testid="table-body"]', '#tensor-search'] },
];

/** The links to the panes shown; nothing before a model is open. */
export function SkipLinks({ panes }: { readonly panes: PaneVisibility }) {
  const model = useAppStore((s) => s.model !== undefined);
  const links = LINKS.filter((l) => panes[l.pane]);
  if (!model || links.length === 0) return null;
  return (
    <nav className="skip-links" aria-label="Skip links">
      {links.map((link) => (
        <a key={link.pane} className="skip-link visually-hidden" href={`#${link.root}`} onClick={(event) => skipTo(event, link.root, link.targets)}>
          {link.text}
        </a>
      ))}
    </nav>
  );
}

/** Moves focus to the first of `targets` drawn in the pane `root` (a test id), else to the pane itself. */
function skipTo(event: MouseEvent<HTMLAnchorElement>, root: string, targets: readonly string[]): void {
  event.preventDefault();
  const pane = document.querySelector<HTMLElement>(`[data-testid="${root}"]`);
  if (pane === null || !drawn(pane)) return;
  const target = targets.map((t) => pane.querySelector<HTMLElement>(t)).find((el) => el !== null && drawn(el));
  if (target !== undefined && target !== null) {
    target.focus();
    return;
  }
  if (!pane.hasAttribute('tabindex')) pane.setAttribute('tabindex', '-1');
  pane.focus();
}

/** True when `element` has a box on screen (not in a collapsed pane). */
function drawn(element: HTMLElement): boolean {
  return element.getClientRects().length > 0;
}
