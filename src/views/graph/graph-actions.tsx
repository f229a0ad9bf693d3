// The graph toolbar's actions, compact enough that title, search and actions
// share one row in a 250-pixel pane (1280×720): the rarer ones (Collapse all,
// Expand all, Constants) behind a "More" button that opens a small menu (one
// the keyboard walks with the arrow keys, see MoreMenu), and
// Fit as an icon, last, so Tab goes from it to the skip link and the graph.
// In a narrower toolbar (the Growth pane open beside it) the search's
// previous/next and Fit move into that menu, so the search field keeps room
// for ten characters (graph.css, container graph-toolbar).

import { useEffect, useEffectEvent, useId, useRef, useState, type KeyboardEvent } from 'react';
import { listKeyTarget } from '../list-keys';

/** Props of GraphActions. */
export interface GraphActionsProps {
  readonly groups: boolean; // the graph has groups to collapse and expand
  readonly constants: boolean | undefined; // whether constant nodes are shown; undefined when none is folded: the model has none, or the plan runs every one (tflm)
  readonly matches: boolean; // the search has matches to step through
  readonly onSetAll: (collapse: boolean) => void;
  readonly onConstants: () => void;
  readonly onStepMatch: (delta: 1 | -1) => void;
  readonly onFit: () => void;
}

/** The "More" menu and the Fit button. */
export function GraphActions(props: GraphActionsProps) {
  return (
    <div className="graph-actions">
      <MoreMenu {...props} />
      <button type="button" className="button button-small button-quiet graph-icon-button graph-wide-only" onClick={props.onFit} aria-label="Fit" title="Fit the whole graph, or its top at a readable scale when it is too large to read whole (0)" data-testid="graph-fit">
        <svg viewBox="0 0 16 16" aria-hidden="true" className="button-icon">
          <path d="M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
    </div>
  );
}

/** The menu's items the keyboard can reach: those on screen (a wide toolbar hides the narrow-only ones) and enabled. */
function menuItems(menu: HTMLElement | null): HTMLElement[] {
  if (menu === null) return [];
  return [...menu.querySelectorAll<HTMLButtonElement>('[role^="menuitem"]')].filter((item) => !item.disabled && item.getClientRects().length > 0);
}

/**
 * A menu button and the menu of group and constant toggles it opens, as the
 * ARIA menu button pattern has it: opening it (click, Enter, Space, ↓) puts
 * focus on the first item (↑ on the last), ↓ and ↑ move between the items and
 * wrap, Home and End go to the ends, Escape closes it and focus goes back to
 * the button; Tab or a click elsewhere closes it.
 */
function MoreMenu({ groups, constants, matches, onSetAll, onConstants, onStepMatch, onFit }: GraphActionsProps) {
  const [open, setOpen] = useState<'first' | 'last' | undefined>(undefined); // the item focus goes to on opening
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useCloseOutside(open !== undefined, root, () => setOpen(undefined));
  useEffect(() => {
    if (open === undefined) return;
    const items = menuItems(menu.current);
    (open === 'first' ? items[0] : items.at(-1))?.focus();
  }, [open]);
  const close = (): void => {
    setOpen(undefined);
    button.current?.focus();
  };
  const run = (action: () => void): void => {
    action();
    close();
  };
  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>): void => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'Escape' || open === undefined) return;
    // Escape closes the menu here; it must not also clear the graph's selection.
    event.preventDefault();
    close();
  };
  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const items = menuItems(menu.current);
    const next = listKeyTarget(event.key, items.indexOf(document.activeElement as HTMLElement), items.length, { wrap: true });
    if (next === undefined) return;
    event.preventDefault();
    items[next]!.focus();
  };
  // Without groups or constants the menu holds only what a narrow toolbar moves into it.
  const narrowOnly = !groups && constants === undefined;
  return (
    <div className={narrowOnly ? 'graph-more graph-narrow-only' : 'graph-more'} ref={root} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className="button button-small button-quiet graph-icon-button"
        aria-label="More graph actions"
        title="Collapse or expand all groups, show constants; in a narrow pane also previous and next match and Fit"
        aria-haspopup="menu"
        aria-expanded={open !== undefined}
        aria-controls={id}
        onClick={() => (open === undefined ? setOpen('first') : setOpen(undefined))}
        onKeyDown={onButtonKeyDown}
        data-testid="graph-more"
      >
        <svg viewBox="0 0 16 16" aria-hidden="true" className="button-icon">
          <circle cx="3" cy="8" r="1.4" fill="currentColor" />
          <circle cx="8" cy="8" r="1.4" fill="currentColor" />
          <circle cx="13" cy="8" r="1.4" fill="currentColor" />
        </svg>
      </button>
      <div ref={menu} id={id} className="graph-more-menu" role="menu" aria-label="More graph actions" hidden={open === undefined} onKeyDown={onMenuKeyDown} data-testid="graph-more-menu">
        <button type="button" role="menuitem" tabIndex={-1} className="button button-small button-quiet graph-narrow-only" disabled={!matches} onClick={() => run(() => onStepMatch(-1))} data-testid="graph-menu-prev">
          Previous match <kbd>⇧↵</kbd>
        </button>
        <button type="button" role="menuitem" tabIndex={-1} className="button button-small button-quiet graph-narrow-only" disabled={!matches} onClick={() => run(() => onStepMatch(1))} data-testid="graph-menu-next">
          Next match <kbd>↵</kbd>
        </button>
        <button type="button" role="menuitem" tabIndex={-1} className="button button-small button-quiet graph-narrow-only" onClick={() => run(onFit)} data-testid="graph-menu-fit">
          Fit <kbd>0</kbd>
        </button>
        {groups && (
          <>
            <button type="button" role="menuitem" tabIndex={-1} className="button button-small button-quiet" onClick={() => run(() => onSetAll(true))} data-testid="graph-collapse-all">
              Collapse all
            </button>
            <button type="button" role="menuitem" tabIndex={-1} className="button button-small button-quiet" onClick={() => run(() => onSetAll(false))} data-testid="graph-expand-all">
              Expand all
            </button>
          </>
        )}
        {constants !== undefined && (
          <button
            type="button"
            role="menuitemcheckbox"
            tabIndex={-1}
            className="button button-small button-quiet"
            aria-checked={constants}
            onClick={() => run(onConstants)}
            title="Constant nodes (Constant, ConstantOfShape, shape arithmetic) are folded into the ops that use them; show them as boxes"
            data-testid="graph-constants"
          >
            Constants
          </button>
        )}
      </div>
    </div>
  );
}

/** Calls `close` when a pointer goes down or focus moves outside `root` while `open`. */
function useCloseOutside(open: boolean, root: { readonly current: HTMLElement | null }, close: () => void): void {
  const onOutside = useEffectEvent(close);
  useEffect(() => {
    if (!open) return;
    const outside = (event: Event): void => {
      const target = event.target as Node | null;
      if (target !== null && root.current?.contains(target) !== true) onOutside();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
    };
  }, [open, root]);
}
