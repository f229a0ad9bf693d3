// The graph's search box: finds groups (scopes, functions, fusion units),
// nodes by name or op type, and run-time tensors by name, counting each
// (search.ts); the previous/next buttons (Shift+Enter / Enter) step
// through them and tell the pane, which opens the groups on the way, selects
// the match and brings it into view. Ctrl+F and "/" focus the box while
// keyboard focus is in the graph pane, or the pointer is over it (find-keys.ts).

import { useEffect, useEffectEvent, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import type { InferredModel } from '../../../model/inferred';
import type { ModelPlan } from '../../../planner/plan';
import { plannedConstants } from '../../../store/planned-constants';
import type { GraphCluster } from '../groups/clusters';
import { opensGraphFind } from './find-keys';
import { searchGraph, stepMatch, type SearchMatch } from './search';
import { isTypingTarget } from '../../typing-target';

/** Props of GraphSearch. */
export interface GraphSearchProps {
  readonly model: InferredModel;
  readonly plan: ModelPlan | undefined; // the plan on screen: the constants it runs are searched as tensors
  readonly clusters: readonly GraphCluster[]; // every group of the graph
  readonly onChange: (matches: readonly SearchMatch[], current: number | undefined) => void; // the matches and the current one
  readonly onStep: (match: SearchMatch) => void; // the user stepped to `match`
  readonly handle?: Ref<GraphSearchHandle>; // for the graph menu's previous/next in a narrow toolbar
}

/** What the toolbar's menu can ask of the search. */
export interface GraphSearchHandle {
  /** Steps to the next (1) or previous (-1) match, as Enter and Shift+Enter do. */
  step(delta: 1 | -1): void;
}

/** The search field with its match count and previous/next buttons. */
export function GraphSearch({ model, plan, clusters, onChange, onStep, handle }: GraphSearchProps) {
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState<number | undefined>(undefined);
  const field = useRef<HTMLInputElement>(null);
  const matches = useMemo(() => searchGraph(model, clusters, query, plannedConstants(model, plan).values), [model, plan, clusters, query]);
  // The pane is told when the matches or the current one change, not when it hands a new onChange.
  const notify = useEffectEvent(onChange);
  const shown = current === undefined || current >= matches.length ? undefined : current;
  useEffect(() => notify(matches, shown), [matches, shown]);
  useFocusKeys(field);

  const go = (delta: 1 | -1): void => {
    const next = stepMatch(shown, delta, matches.length);
    setCurrent(next);
    if (next !== undefined) onStep(matches[next]!);
  };
  useImperativeHandle(handle, () => ({ step: go }));
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') {
      event.preventDefault();
      go(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') {
      // Escape leaves Find, as a browser's find bar does: the query clears and focus goes back to the graph.
      event.preventDefault();
      setQuery('');
      setCurrent(undefined);
      leaveFind(event.currentTarget);
    }
  };
  const at = shown === undefined ? '–' : String(shown + 1);
  const none = query.trim() !== '' && matches.length === 0;
  // The field is narrow at 1280×720: "3/12" on screen, as a browser's find bar, and "3 of 12" for a screen reader;
  // no match is "0/0" in the danger colour, as a browser's, and the step buttons, disabled then, give the field
  // their room: "no match" beside them left the text typed 26 px ("ch" of "zzznomatch").
  const count = none ? '0/0' : matches.length === 0 ? '' : `${at}/${matches.length}`;
  const spoken = none ? 'no match' : matches.length === 0 ? '' : `${at} of ${matches.length}`;
  return (
    <div className="graph-search" role="search" data-none={none}>
      <div className="graph-search-field">
        <input
          ref={field}
          className="graph-search-input"
          type="search"
          placeholder="Find"
          title="Find a node, tensor, op type, fusion unit, function or scope (/ or Ctrl+F with focus in the graph or the pointer over it)"
          aria-label="Search the graph by node name, tensor name, op type, fusion unit, function or scope"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setCurrent(undefined);
          }}
          onKeyDown={onKeyDown}
          data-testid="graph-search"
        />
        <span className="graph-search-count" aria-hidden="true" data-testid="graph-search-count">
          {count}
        </span>
        <span className="visually-hidden" aria-live="polite">
          {spoken}
        </span>
      </div>
      <button type="button" className="button button-small button-quiet graph-step graph-wide-only" aria-label="Previous match (Shift+Enter)" title="Previous match (Shift+Enter)" disabled={matches.length === 0} onClick={() => go(-1)} data-testid="graph-search-prev">
        ↑
      </button>
      <button type="button" className="button button-small button-quiet graph-step graph-wide-only" aria-label="Next match (Enter)" title="Next match (Enter)" disabled={matches.length === 0} onClick={() => go(1)} data-testid="graph-search-next">
        ↓
      </button>
    </div>
  );
}

/**
 * Moves focus from the Find field back to the graph: to the match Find stands on (or the node selected), which is
 * in view, so the view stays there; else its one tab stop (the node visited last), else the view.
 */
function leaveFind(input: HTMLInputElement): void {
  const pane = input.closest('.pane');
  const view = pane?.querySelector<HTMLElement>('[data-testid="graph-view"]');
  const box = view?.querySelector('[data-search="current"]') ?? view?.querySelector('[aria-current="true"]');
  const found = box == null ? null : box.matches('[data-focusable]') ? box : box.querySelector(':scope > [data-focusable]');
  const target = (found as HTMLElement | null) ?? view?.querySelector<HTMLElement>('[tabindex="0"]') ?? view;
  if (target != null) target.focus();
  else input.blur();
}

/**
 * Ctrl+F (⌘F) and "/" focus `field` while keyboard focus is in its pane, or the
 * pointer is over it and focus in no other pane with a find of its own (a pane
 * marked data-find, the tensor table); they are caught before the page's other
 * "/" (the tensor filter) and the browser's find.
 */
function useFocusKeys(field: { readonly current: HTMLInputElement | null }): void {
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent): void => {
      const input = field.current;
      const pane = input?.closest('.pane');
      if (input == null || pane == null) return;
      const target = event.target instanceof Element ? event.target : null;
      const focusPane = target?.closest('.pane');
      const focus = focusPane == null ? 'elsewhere' : focusPane === pane ? 'graph' : focusPane.hasAttribute('data-find') ? 'other-find' : 'elsewhere';
      const typing = isTypingTarget(target);
      const press = { key: event.key, ctrl: event.ctrlKey, meta: event.metaKey, alt: event.altKey, typing, focus, pointerOverGraph: pane.matches(':hover') } as const;
      if (!opensGraphFind(press)) return;
      event.preventDefault();
      event.stopPropagation();
      input.focus();
      input.select();
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [field]);
}
