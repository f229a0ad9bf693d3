// The graph's search box: matches groups (scopes, functions, fusion units) by
// name, then nodes by name, op type or tensor name; the
// previous/next buttons (Shift+Enter / Enter) step through the matches and the
// panel centres the current one.

import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { InferredModel } from '../../model/inferred';
import type { GraphLayoutInput } from './graph-layout-input';
import { searchClusters, searchNodes, stepMatch } from './graph-search';

/** Props of GraphSearch. */
export interface GraphSearchProps {
  readonly model: InferredModel;
  readonly input: GraphLayoutInput | undefined; // the input of the placement on screen
  readonly onChange: (boxes: readonly string[], current: number | undefined) => void; // matching boxes; the current one
}

/** The search field with its match count and previous/next buttons. */
export function GraphSearch({ model, input, onChange }: GraphSearchProps) {
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState<number | undefined>(undefined);
  const boxes = useMemo(() => {
    if (input === undefined) return [];
    // A group hidden in a collapsed one is found as the box that hides it.
    const groups = searchClusters(input.clusters, query).map((c) => (input.items.has(c.id) ? c.id : input.boxOfNode[c.nodes[0]!]));
    const nodes = searchNodes(model, query).map((i) => input.boxOfNode[i]);
    return [...new Set([...groups, ...nodes].filter((b): b is string => b !== undefined))];
  }, [model, query, input]);
  const notify = useRef(onChange);
  notify.current = onChange;
  useEffect(() => notify.current(boxes, current === undefined || current >= boxes.length ? undefined : current), [boxes, current]);

  const go = (delta: 1 | -1): void => setCurrent((c) => stepMatch(c !== undefined && c < boxes.length ? c : undefined, delta, boxes.length));
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') {
      event.preventDefault();
      go(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') {
      setQuery('');
      setCurrent(undefined);
    }
  };
  const count = query.trim() === '' ? '' : boxes.length === 0 ? 'no match' : `${current === undefined ? '–' : current + 1} of ${boxes.length}`;
  return (
    <div className="graph-search" role="search">
      <input
        className="input graph-search-input"
        type="search"
        placeholder="Find node, tensor, op or group"
        aria-label="Search the graph by node name, tensor name, op type, fusion unit, function or scope"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setCurrent(undefined);
        }}
        onKeyDown={onKeyDown}
        data-testid="graph-search"
      />
      <span className="graph-search-count" aria-live="polite" data-testid="graph-search-count">
        {count}
      </span>
      <button type="button" className="button button-small button-quiet graph-step" aria-label="Previous match (Shift+Enter)" disabled={boxes.length === 0} onClick={() => go(-1)} data-testid="graph-search-prev">
        ↑
      </button>
      <button type="button" className="button button-small button-quiet graph-step" aria-label="Next match (Enter)" disabled={boxes.length === 0} onClick={() => go(1)} data-testid="graph-search-next">
        ↓
      </button>
    </div>
  );
}
